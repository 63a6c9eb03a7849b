#!/usr/bin/env python3
"""onnx-gen.py DIR: writes small ONNX models the importer tests need (built
with the onnx package's helpers, so the files are what ONNX itself writes)."""
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
    onnx.save(model, os.path.join(out, name + ".onnx"))


f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)
i64 = lambda n, s: h.make_tensor_value_info(n, T.INT64, s)

# Opset 6: read (Relu-6 is translated).
save("opset6", [h.make_node("Relu", ["x"], ["y"])], [f32("x", [2])],
     [f32("y", [2])], 6)

# Shape arithmetic on a static input folds to constants that Reshape,
# Expand and ConstantOfShape can use.
save("shape-fold", [
    h.make_node("Shape", ["x"], ["s"]),
    h.make_node("Gather", ["s", "zero"], ["n"], axis=0),
    h.make_node("Unsqueeze", ["n"], ["n1"], axes=[0]),
    h.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
    h.make_node("Reshape", ["x", "shape"], ["flat"]),
    h.make_node("ConstantOfShape", ["s"], ["zeros"]),
    h.make_node("Add", ["x", "zeros"], ["sum"]),
], [f32("x", [2, 3, 4])], [f32("flat", None), f32("sum", None)], 12, [
    h.make_tensor("zero", T.INT64, [], [0]),
    h.make_tensor("minus1", T.INT64, [1], [-1]),
])

# A graph to cut with --inputs/--outputs: a -> Relu -> b -> Neg -> c -> Exp -> d.
save("chain", [
    h.make_node("Relu", ["a"], ["b"]),
    h.make_node("Neg", ["b"], ["c"]),
    h.make_node("Exp", ["c"], ["d"]),
], [f32("a", [4, 8])], [f32("d", [4, 8])], 13)

# Softmax before opset 13 flattens at `axis`.
save("softmax11", [h.make_node("Softmax", ["x"], ["y"], axis=1)],
     [f32("x", [2, 3, 4])], [f32("y", None)], 11)

# Unused initializers do not become constants.
save("unused-init", [h.make_node("Relu", ["x"], ["y"])], [f32("x", [2])],
     [f32("y", [2])], 13, [h.make_tensor("big", T.FLOAT, [4], [1, 2, 3, 4])])
