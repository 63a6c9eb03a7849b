#!/usr/bin/env python3
"""onnx-gen-bounded.py DIR: writes the small ONNX models of
onnx-bounded-ops.test: Unique, NonMaxSuppression and RoiAlign, each in the
forms graphc imports and the ones it refuses."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)
i64 = lambda n, s: h.make_tensor_value_info(n, T.INT64, s)


def save(name, node, inputs, outputs, opset, inits=()):
    graph = h.make_graph([node], name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def const(name, values, dtype):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


UNIQUE_OUT = ["y", "indices", "inverse", "counts"]

# Unique over the slices along axis 1 of a [2, 5] matrix, in order of
# first occurrence.
save("unique_axis", h.make_node("Unique", ["x"], UNIQUE_OUT, axis=1,
                                sorted=0),
     [f32("x", [2, 5])],
     [f32("y", None), i64("indices", None), i64("inverse", None),
      i64("counts", None)], 11)
# Unique of the flattened input, sorted, only Y and counts asked for.
save("unique_flat", h.make_node("Unique", ["x"], ["y", "", "", "counts"]),
     [i64("x", [2, 3])], [i64("y", None), i64("counts", None)], 11)
save("unique_empty", h.make_node("Unique", ["x"], ["y"]),
     [f32("x", [0])], [f32("y", None)], 11)
save("unique_bad_axis", h.make_node("Unique", ["x"], ["y"], axis=2),
     [f32("x", [2, 3])], [f32("y", None)], 11)

NMS_IN = ["boxes", "scores", "max", "iou", "score"]
# Constant max_output_boxes_per_class (5), iou and score thresholds; boxes
# as centres.
save("nms", h.make_node("NonMaxSuppression", NMS_IN, ["selected"],
                        center_point_box=1),
     [f32("boxes", [2, 5, 4]), f32("scores", [2, 3, 5])],
     [i64("selected", None)], 11,
     [const("max", [5], np.int64), const("iou", [0.3], np.float32),
      const("score", [0.1], np.float32)])
# Without max_output_boxes_per_class nothing is selected.
save("nms_no_max", h.make_node("NonMaxSuppression", ["boxes", "scores"],
                               ["selected"]),
     [f32("boxes", [1, 5, 4]), f32("scores", [1, 1, 5])],
     [i64("selected", None)], 10)
# A threshold computed at run time: refused by name.
save("nms_runtime_iou", h.make_node("NonMaxSuppression", NMS_IN,
                                    ["selected"]),
     [f32("boxes", [1, 5, 4]), f32("scores", [1, 1, 5]), f32("iou", [1])],
     [i64("selected", None)], 11,
     [const("max", [2], np.int64), const("score", [0.1], np.float32)])

ROI_IN = ["x", "rois", "batch"]
# Opset 16: half_pixel by default, two samples per bin side.
save("roialign", h.make_node("RoiAlign", ROI_IN, ["y"], output_height=2,
                             output_width=3, sampling_ratio=2,
                             spatial_scale=0.5),
     [f32("x", [2, 3, 6, 8]), f32("rois", [4, 4]), i64("batch", [4])],
     [f32("y", [4, 3, 2, 3])], 16)
# Opset 10 (output_half_pixel), mode max, adaptive sampling from constant
# rois: roi 0 is 4 x 6 (2 x 2 samples per 2 x 3 bin), roi 1 is 2 x 3 (1 x 1).
save("roialign_adaptive", h.make_node("RoiAlign", ROI_IN, ["y"], mode="max",
                                      output_height=2, output_width=3),
     [f32("x", [1, 2, 6, 8]), i64("batch", [2])],
     [f32("y", [2, 2, 2, 3])], 10,
     [const("rois", [[0, 0, 6, 4], [1, 1, 4, 3]], np.float32)])
save("roialign_runtime_rois", h.make_node("RoiAlign", ROI_IN, ["y"]),
     [f32("x", [1, 2, 6, 8]), f32("rois", [2, 4]), i64("batch", [2])],
     [f32("y", [2, 2, 1, 1])], 16)
save("roialign_bad_mode", h.make_node("RoiAlign", ROI_IN, ["y"], mode="min",
                                      sampling_ratio=1),
     [f32("x", [1, 2, 6, 8]), f32("rois", [2, 4]), i64("batch", [2])],
     [f32("y", [2, 2, 1, 1])], 16)
save("roialign_bad_transform", h.make_node(
        "RoiAlign", ROI_IN, ["y"], sampling_ratio=1,
        coordinate_transformation_mode="align_corners"),
     [f32("x", [1, 2, 6, 8]), f32("rois", [2, 4]), i64("batch", [2])],
     [f32("y", [2, 2, 1, 1])], 16)
