#!/usr/bin/env python3
"""onnx-training-gen.py DIR: writes train.onnx for onnx-training.test: a
small network whose initializers play every role a training import tells
apart: parameters (Conv W/B, BatchNormalization scale/bias, an added bias
named "main" like the entry function), running statistics
(BatchNormalization mean/var), float configuration (Resize scales, Dropout
ratio) and integer shapes (Reshape)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)


def init(name, array):
    return nh.from_array(np.asarray(array), name)


nodes = [
    h.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
    h.make_node("BatchNormalization", ["c", "scale", "bias", "mean", "var"],
                ["bn"]),
    h.make_node("Resize", ["bn", "", "scales"], ["up"], mode="nearest"),
    h.make_node("Dropout", ["up", "ratio"], ["dropped"]),
    h.make_node("Reshape", ["dropped", "shape"], ["flat"]),
    h.make_node("Add", ["flat", "main"], ["y"]),
]
inits = [
    init("W", rng.standard_normal((3, 2, 3, 3)).astype(np.float32)),
    init("B", np.arange(3, dtype=np.float32)),
    init("scale", np.ones(3, np.float32)),
    init("bias", np.zeros(3, np.float32)),
    init("mean", np.full(3, 0.5, np.float32)),
    init("var", np.full(3, 2.0, np.float32)),
    init("scales", np.array([1, 1, 2, 2], np.float32)),
    init("ratio", np.array(0.25, np.float32)),
    init("shape", np.array([1, -1], np.int64)),
    init("main", np.full((1, 192), 0.125, np.float32)),
]
graph = h.make_graph(nodes, "train", [h.make_tensor_value_info(
    "x", T.FLOAT, [1, 2, 4, 4])], [h.make_tensor_value_info(
        "y", T.FLOAT, [1, 192])], initializer=inits)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "train.onnx"))
