#!/usr/bin/env python3
"""onnx-gen-sampling.py DIR: writes one small ONNX model per op translated in
lib/Import/ONNX/Sampling.cpp (and Pad's wrap mode), for
onnx-sampling.test (not checked: the installed onnx package predates
BitCast and the opset 20 GridSample)."""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)
i32 = lambda n, s: h.make_tensor_value_info(n, T.INT32, s)
u8 = lambda n, s: h.make_tensor_value_info(n, T.UINT8, s)


def save(name, node, inputs, outputs, opset, inits=()):
    graph = h.make_graph([node], name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def ints(name, values):
    return h.make_tensor(name, T.INT64, [len(values)], values)


save("gridsample16", h.make_node("GridSample", ["x", "g"], ["y"],
                                 mode="bicubic", padding_mode="reflection",
                                 align_corners=1),
     [f32("x", [1, 2, 4, 4]), f32("g", [1, 3, 5, 2])],
     [f32("y", [1, 2, 3, 5])], 16)
save("gridsample20", h.make_node("GridSample", ["x", "g"], ["y"]),
     [f32("x", [1, 1, 3, 4, 4]), f32("g", [1, 2, 2, 2, 3])],
     [f32("y", [1, 1, 2, 2, 2])], 20)
save("col2im", h.make_node("Col2Im", ["x", "i", "b"], ["y"],
                           strides=[2, 1], pads=[1, 0, 1, 0]),
     [f32("x", [1, 4, 12])], [f32("y", [1, 1, 5, 5])], 18,
     inits=[ints("i", [5, 5]), ints("b", [2, 2])])
save("col2im_runtime", h.make_node("Col2Im", ["x", "i", "b"], ["y"]),
     [f32("x", [1, 4, 16]), h.make_tensor_value_info("i", T.INT64, [2])],
     [f32("y", [1, 1, 5, 5])], 18, inits=[ints("b", [2, 2])])
save("bitshift", h.make_node("BitShift", ["x", "n"], ["y"],
                             direction="RIGHT"),
     [u8("x", [3]), u8("n", [])], [u8("y", [3])], 11)
save("bitcast", h.make_node("BitCast", ["x"], ["y"], to=T.INT32),
     [f32("x", [2, 3])], [i32("y", [2, 3])], 26)
save("affinegrid", h.make_node("AffineGrid", ["t", "s"], ["y"],
                               align_corners=1),
     [f32("t", [2, 2, 3])], [f32("y", [2, 2, 3, 2])], 20,
     inits=[ints("s", [2, 1, 2, 3])])
save("centercroppad", h.make_node("CenterCropPad", ["x", "s"], ["y"],
                                  axes=[0, -1]),
     [f32("x", [5, 2, 4])], [f32("y", [2, 2, 7])], 18,
     inits=[ints("s", [2, 7])])
save("wrappad", h.make_node("Pad", ["x", "p"], ["y"], mode="wrap"),
     [i32("x", [2, 3])], [i32("y", [2, 6])], 19,
     inits=[ints("p", [0, 2, 0, 1])])
