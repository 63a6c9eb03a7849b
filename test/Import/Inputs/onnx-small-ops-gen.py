#!/usr/bin/env python3
"""onnx-small-ops-gen.py DIR: writes models for the importer's handling of
an integer Pow base, ReduceMax/ReduceMin of booleans and LpNormalization's
zero norm."""
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
