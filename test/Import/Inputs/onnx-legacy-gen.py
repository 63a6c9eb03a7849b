#!/usr/bin/env python3
"""onnx-legacy-gen.py DIR: writes small ONNX models in the old (opset 1-8)
forms of their ops, for test/Import/onnx-legacy.test (built with the onnx
package's helpers, so the files are what ONNX itself writes)."""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, opset, inits=()):
    graph = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    model.ir_version = 3
    onnx.save(model, os.path.join(out, name + ".onnx"))


f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)
i64 = lambda n, s: h.make_tensor_value_info(n, T.INT64, s)
X = f32("x", [2, 3, 4, 5])


def const(name, shape, value=0.5):
    n = 1
    for d in shape:
        n *= d
    return h.make_tensor(name, T.FLOAT, shape, [value] * n)


# Binary ops' broadcast/axis attributes (opset < 7): B lines up with A from
# axis 1, and comparisons take them too.
save("broadcast6", [
    h.make_node("Add", ["x", "b"], ["y"], broadcast=1, axis=1),
    h.make_node("Less", ["x", "b"], ["z"], broadcast=1, axis=1),
], [X, f32("b", [3, 4])], [f32("y", None), h.make_tensor_value_info(
    "z", T.BOOL, None)], 6)

# Pad-1's `paddings`; Pad-2's `pads` with reflect.
save("pad1", [h.make_node("Pad", ["x"], ["y"], paddings=[0, 0, 1, 2, 0, 0, 3,
                                                         4], value=1.5)],
     [X], [f32("y", None)], 1)
save("pad2", [h.make_node("Pad", ["x"], ["y"], pads=[0, 0, 1, 2, 0, 0, 3, 2],
                          mode="reflect")], [X], [f32("y", None)], 2)

# Cast-1 names its type; Selu-1 has 4-digit defaults.
save("cast1", [h.make_node("Cast", ["x"], ["y"], to="INT64")], [X],
     [i64("y", None)], 1)
save("cast1-bad", [h.make_node("Cast", ["x"], ["y"], to="QUATERNION")], [X],
     [i64("y", None)], 1)
save("selu1", [h.make_node("Selu", ["x"], ["y"])], [X], [f32("y", None)], 1)

# PRelu before opset 7: a [C] slope is per channel.
save("prelu6", [h.make_node("PRelu", ["x", "s"], ["y"])], [X],
     [f32("y", None)], 6, [const("s", [3])])

# Dropout and BatchNormalization: test mode by is_test (default 0).
save("dropout6", [h.make_node("Dropout", ["x"], ["y"], is_test=1)], [X],
     [f32("y", None)], 6)
save("dropout6-zero", [h.make_node("Dropout", ["x"], ["y"], ratio=0.0)], [X],
     [f32("y", None)], 6)
save("dropout6-train", [h.make_node("Dropout", ["x"], ["y"])], [X],
     [f32("y", None)], 6)
bn_inputs = ["x", "scale", "bias", "mean", "var"]
bn_inits = [const(n, [3]) for n in bn_inputs[1:]]
save("bn6", [h.make_node("BatchNormalization", bn_inputs, ["y"], is_test=1,
                         epsilon=1e-3, consumed_inputs=[0, 0, 0, 1, 1])],
     [X], [f32("y", None)], 6, bn_inits)
save("bn6-train", [h.make_node("BatchNormalization", bn_inputs, ["y"])], [X],
     [f32("y", None)], 6, bn_inits)
save("bn7-spatial0", [h.make_node("BatchNormalization", bn_inputs, ["y"],
                                  spatial=0)], [X], [f32("y", None)], 7,
     [const(n, [3, 4, 5]) for n in bn_inputs[1:]])

# Gemm-6's broadcast of C; Concat-3's default axis 1; Split-2's attribute;
# Slice-1's, Squeeze-1's and Unsqueeze-1's attributes; Clip-6's bounds.
save("gemm6", [h.make_node("Gemm", ["a", "b", "c"], ["y"], broadcast=1,
                           transB=1)],
     [f32("a", [2, 4])], [f32("y", None)], 6,
     [const("b", [3, 4]), const("c", [3])])
save("concat3", [h.make_node("Concat", ["x", "x"], ["y"])], [X],
     [f32("y", None)], 3)
save("shapes2", [
    h.make_node("Split", ["x"], ["s0", "s1"], axis=1, split=[1, 2]),
    h.make_node("Slice", ["s1"], ["t"], axes=[2], starts=[1], ends=[3]),
    h.make_node("Unsqueeze", ["t"], ["u"], axes=[0]),
    h.make_node("Squeeze", ["u"], ["v"], axes=[0]),
    h.make_node("Clip", ["v"], ["y"], min=-1.0, max=2.0),
], [X], [f32("s0", None), f32("y", None)], 2)

# Experimental Upsample-1: nearest is translated, bilinear is refused.
save("upsample1", [h.make_node("Upsample", ["x"], ["y"], height_scale=2.0,
                               width_scale=2.0)], [X], [f32("y", None)], 1)
save("upsample1-bilinear", [h.make_node("Upsample", ["x"], ["y"],
                                        height_scale=2.0, width_scale=2.0,
                                        mode="bilinear")],
     [X], [f32("y", None)], 1)

# Forms that are not translated: Tile-1 (tiles and axis inputs), and an op
# that did not exist at the model's opset.
save("tile1", [h.make_node("Tile", ["x", "n", "axis"], ["y"])], [X],
     [f32("y", None)], 1, [h.make_tensor("n", T.INT64, [], [2]),
                           h.make_tensor("axis", T.INT64, [], [1])])
save("sin6", [h.make_node("Sin", ["x"], ["y"])], [X], [f32("y", None)], 6)

# Opset 0 does not exist.
save("opset0", [h.make_node("Relu", ["x"], ["y"])], [X], [f32("y", None)], 0)

# Shrink (opset 9): compares and selects.
save("shrink", [h.make_node("Shrink", ["x"], ["y"], lambd=1.5, bias=0.5)],
     [X], [f32("y", None)], 10)
save("shrink-int", [h.make_node("Shrink", ["x"], ["y"], lambd=1.5)],
     [i64("x", [4])], [i64("y", None)], 10)
