#!/usr/bin/env python3
"""onnx-gen-extra.py DIR: writes one small ONNX model per op translated in
lib/Import/OnnxImport{Losses,Indexing,Math}.cpp, for onnx-extra-ops.test
(not checked: the installed onnx package predates opsets 18-21)."""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)
i64 = lambda n, s: h.make_tensor_value_info(n, T.INT64, s)
i32 = lambda n, s: h.make_tensor_value_info(n, T.INT32, s)


def save(name, node, inputs, outputs, opset=18, inits=()):
    graph = h.make_graph([node], name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


save("nllloss", h.make_node("NegativeLogLikelihoodLoss", ["x", "t", "w"],
                            ["y"], reduction="mean", ignore_index=-1),
     [f32("x", [2, 3, 4]), i64("t", [2, 4]), f32("w", [3])], [f32("y", [])])
save("sce", h.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["y", "lp"],
                        reduction="none"),
     [f32("x", [2, 3]), i64("t", [2])], [f32("y", [2]), f32("lp", [2, 3])])
save("gather_elements", h.make_node("GatherElements", ["x", "i"], ["y"],
                                    axis=1),
     [f32("x", [3, 5]), i32("i", [3, 2])], [f32("y", [3, 2])])
save("cumsum", h.make_node("CumSum", ["x", "a"], ["y"], exclusive=1,
                           reverse=1),
     [f32("x", [2, 5])], [f32("y", [2, 5])],
     inits=[h.make_tensor("a", T.INT64, [], [1])])
save("topk", h.make_node("TopK", ["x", "k"], ["v", "i"], largest=0),
     [f32("x", [3, 4])], [f32("v", [3, 2]), i64("i", [3, 2])],
     inits=[h.make_tensor("k", T.INT64, [1], [2])])
save("trilu", h.make_node("Trilu", ["x", "k"], ["y"], upper=0),
     [f32("x", [2, 3, 4])], [f32("y", [2, 3, 4])],
     inits=[h.make_tensor("k", T.INT64, [], [1])])
save("eyelike", h.make_node("EyeLike", ["x"], ["y"], k=-1, dtype=T.DOUBLE),
     [i32("x", [2, 3])], [h.make_tensor_value_info("y", T.DOUBLE, [2, 3])])
save("reversesequence", h.make_node("ReverseSequence", ["x", "l"], ["y"],
                                    time_axis=1, batch_axis=0),
     [f32("x", [2, 4, 3]), i64("l", [2])], [f32("y", [2, 4, 3])])
save("hardmax", h.make_node("Hardmax", ["x"], ["y"], axis=1),
     [f32("x", [2, 3, 4])], [f32("y", [2, 3, 4])], 13)
save("lppool", h.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2],
                           pads=[1, 1, 1, 1], p=3),
     [f32("x", [1, 2, 4, 4])], [f32("y", [1, 2, 5, 5])])
save("bitwise", h.make_node("BitwiseXor", ["a", "b"], ["y"]),
     [i32("a", [2, 3]), i32("b", [3])], [i32("y", [2, 3])], 20)
save("isinf", h.make_node("IsInf", ["x"], ["y"], detect_negative=0),
     [f32("x", [4])], [h.make_tensor_value_info("y", T.BOOL, [4])], 20)
save("groupnorm", h.make_node("GroupNormalization", ["x", "s", "b"], ["y"],
                              num_groups=2),
     [f32("x", [1, 4, 3]), f32("s", [4]), f32("b", [4])],
     [f32("y", [1, 4, 3])], 21)
save("det", h.make_node("Det", ["x"], ["y"]), [f32("x", [2, 3, 3])],
     [f32("y", [2])], 11)
