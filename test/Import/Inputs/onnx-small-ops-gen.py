#!/usr/bin/env python3
"""onnx-small-ops-gen.py DIR: writes models for the importer's handling of
an integer Pow base, ReduceMax/ReduceMin of booleans, LpNormalization's
zero norm and MaxUnpool."""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h
import onnx

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, opset=18):
    graph = h.make_graph(nodes, name, inputs, outputs)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


v = h.make_tensor_value_info
save("pow-int", [h.make_node("Pow", ["x", "y"], ["z"])],
     [v("x", T.INT32, [3]), v("y", T.FLOAT, [3])], [v("z", T.INT32, [3])])
save("reduce-max-bool", [h.make_node("ReduceMax", ["x"], ["y"], keepdims=0)],
     [v("x", T.BOOL, [2, 3])], [v("y", T.BOOL, [])])
save("lp-norm", [h.make_node("LpNormalization", ["x"], ["y"], axis=0)],
     [v("x", T.FLOAT, [2, 3])], [v("y", T.FLOAT, [2, 3])])
# MaxUnpool of a 2x2 MaxPool result (kernel 2, stride 2) back to 4x4, and
# to 5x5 through output_shape.
save("unpool", [h.make_node("MaxUnpool", ["x", "i"], ["y"],
                            kernel_shape=[2, 2], strides=[2, 2])],
     [v("x", T.FLOAT, [1, 1, 2, 2]), v("i", T.INT64, [1, 1, 2, 2])],
     [v("y", T.FLOAT, [1, 1, 4, 4])])
save("unpool-shape", [
    h.make_node("Constant", [], ["s"], value=h.make_tensor(
        "s", T.INT64, [4], [1, 1, 5, 5])),
    h.make_node("MaxUnpool", ["x", "i", "s"], ["y"], kernel_shape=[2, 2],
                strides=[2, 2])],
     [v("x", T.FLOAT, [1, 1, 2, 2]), v("i", T.INT64, [1, 1, 2, 2])],
     [v("y", T.FLOAT, [1, 1, 5, 5])])
save("unpool-bad-shape", [
    h.make_node("Constant", [], ["s"], value=h.make_tensor(
        "s", T.INT64, [4], [2, 1, 5, 5])),
    h.make_node("MaxUnpool", ["x", "i", "s"], ["y"], kernel_shape=[2, 2])],
     [v("x", T.FLOAT, [1, 1, 2, 2]), v("i", T.INT64, [1, 1, 2, 2])],
     [v("y", T.FLOAT, [2, 1, 5, 5])])
