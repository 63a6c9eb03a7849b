#!/usr/bin/env python3
"""onnx-resize-gen.py DIR: writes small opset-19 Resize models with the
coordinate modes, nearest modes and filters that graph.resize takes as
attributes (half_pixel_symmetric, tf_crop_and_resize, nearest_mode,
cubic_coeff_a, exclude_outside, antialias) for the importer tests."""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper
import onnx

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, node, x_shape, y_shape, consts=(), inputs=()):
    nodes = [h.make_node("Constant", [], [n],
                         value=numpy_helper.from_array(np.array(v), n))
             for n, v in consts] + [node]
    graph = h.make_graph(
        nodes, name,
        [h.make_tensor_value_info("x", T.FLOAT, x_shape)] + list(inputs),
        [h.make_tensor_value_info("y", T.FLOAT, y_shape)])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 19)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


f32 = lambda v: np.array(v, dtype=np.float32)

save("symmetric", h.make_node(
    "Resize", ["x", "", "s"], ["y"], mode="linear",
    coordinate_transformation_mode="half_pixel_symmetric"),
    [1, 1, 4, 4], [1, 1, 2, 2], [("s", f32([1, 1, 0.6, 0.6]))])
# A crop of axes 3 and 2 (in that order): the box is given per named axis.
save("crop", h.make_node(
    "Resize", ["x", "roi", "", "sizes"], ["y"], mode="linear", axes=[3, 2],
    coordinate_transformation_mode="tf_crop_and_resize",
    extrapolation_value=10.0),
    [1, 1, 4, 4], [1, 1, 3, 3],
    [("roi", f32([0.6, 0.4, 0.8, 0.6])),
     ("sizes", np.array([3, 3], dtype=np.int64))])
save("nearest-ceil", h.make_node(
    "Resize", ["x", "", "", "sizes"], ["y"], nearest_mode="ceil"),
    [1, 1, 4, 4], [1, 1, 8, 8], [("sizes", np.array([1, 1, 8, 8]))])
save("cubic-options", h.make_node(
    "Resize", ["x", "", "s"], ["y"], mode="cubic", cubic_coeff_a=-0.5,
    exclude_outside=1, antialias=1),
    [1, 1, 4, 4], [1, 1, 2, 2], [("s", f32([1, 1, 0.6, 0.6]))])
save("crop-runtime-roi", h.make_node(
    "Resize", ["x", "roi", "", "sizes"], ["y"], mode="linear",
    coordinate_transformation_mode="tf_crop_and_resize"),
    [1, 1, 4, 4], [1, 1, 3, 3], [("sizes", np.array([1, 1, 3, 3]))],
    [h.make_tensor_value_info("roi", T.FLOAT, [8])])
save("bad-nearest", h.make_node(
    "Resize", ["x", "", "", "sizes"], ["y"], nearest_mode="round_up"),
    [1, 1, 4, 4], [1, 1, 8, 8], [("sizes", np.array([1, 1, 8, 8]))])
