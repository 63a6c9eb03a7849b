#!/usr/bin/env python3
"""onnx-optimizers-gen.py DIR: models with ai.onnx.preview.training's
optimizer ops for onnx-optimizers.test: an Adam node updating two tensors
(whose outputs the test runs against NumPy), and malformed nodes the
importer must refuse by name. Also writes the Adam inputs (.npy) and the
expected outputs computed here with NumPy from the operator's definition
(the formulas of the ONNX specification)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
vi = h.make_tensor_value_info
opsets = [h.make_opsetid("", 17), h.make_opsetid("ai.onnx.preview.training", 1)]
shapes = [[3, 4], [5]]


def save(name, node, inputs, outputs):
    graph = h.make_graph([node], name, inputs, outputs)
    onnx.save(h.make_model(graph, opset_imports=opsets),
              os.path.join(d, name + ".onnx"))


def tensors(prefix):
    return [f"{prefix}{i}" for i in range(len(shapes))]


# adam: two tensors; R and T inputs.
xs, gs, vs, hs = tensors("x"), tensors("g"), tensors("v"), tensors("h")
ins = [vi("R", T.FLOAT, []), vi("T", T.INT64, [])]
for names in (xs, gs, vs, hs):
    ins += [vi(n, T.FLOAT, s) for n, s in zip(names, shapes)]
outs = [vi(n + "_new", T.FLOAT, s) for names in (xs, vs, hs)
        for n, s in zip(names, shapes)]
attrs = dict(alpha=0.8, beta=0.95, epsilon=1e-3, norm_coefficient=0.01,
             norm_coefficient_post=0.02)
save("adam", h.make_node("Adam", ["R", "T"] + xs + gs + vs + hs,
                         [o.name for o in outs],
                         domain="ai.onnx.preview.training", **attrs),
     ins, outs)
rng = np.random.default_rng(3)
values = {"R": np.array(0.1, np.float32), "T": np.array(3, np.int64)}
for names in (xs, gs, vs):
    for n, s in zip(names, shapes):
        values[n] = rng.standard_normal(s).astype(np.float32)
for n, s in zip(hs, shapes):
    values[n] = rng.random(s).astype(np.float32)
for n, v in values.items():
    np.save(os.path.join(d, n + ".npy"), v)
a, b, eps = attrs["alpha"], attrs["beta"], attrs["epsilon"]
r, t = float(values["R"]), int(values["T"])
expected = {}
for x, g, v, hh in zip(xs, gs, vs, hs):
    X, G, V, H = (values[k].astype(np.float64) for k in (x, g, v, hh))
    greg = attrs["norm_coefficient"] * X + G
    v_new = a * V + (1 - a) * greg
    h_new = b * H + (1 - b) * greg * greg
    r_adj = r * np.sqrt(1 - b ** t) / (1 - a ** t) if t > 0 else r
    x_new = (1 - attrs["norm_coefficient_post"]) * (
        X - r_adj * v_new / (np.sqrt(h_new) + eps))
    expected[x + "_new"], expected[v + "_new"], expected[hh + "_new"] = (
        x_new, v_new, h_new)
np.savez(os.path.join(d, "expected.npz"), **expected)

# Malformed nodes.
x1 = [vi("x", T.FLOAT, [2]), vi("g", T.FLOAT, [2]), vi("v", T.FLOAT, [2])]
rt = [vi("R", T.FLOAT, []), vi("T", T.INT64, [])]
save("adam_inputs", h.make_node("Adam", ["R", "T", "x", "g", "v"], ["y", "w"],
                                domain="ai.onnx.preview.training"),
     rt + x1, [vi("y", T.FLOAT, [2]), vi("w", T.FLOAT, [2])])
save("momentum_mode", h.make_node("Momentum", ["R", "T", "x", "g", "v"],
                                  ["y", "w"], alpha=0.9, beta=1.0,
                                  mode="heavy_ball",
                                  domain="ai.onnx.preview.training"),
     rt + x1, [vi("y", T.FLOAT, [2]), vi("w", T.FLOAT, [2])])
save("momentum_attrs", h.make_node("Momentum", ["R", "T", "x", "g", "v"],
                                   ["y", "w"], alpha=0.9,
                                   domain="ai.onnx.preview.training"),
     rt + x1, [vi("y", T.FLOAT, [2]), vi("w", T.FLOAT, [2])])
save("adagrad_outputs", h.make_node("Adagrad", ["R", "T", "x", "g", "v"],
                                    ["y"], domain="ai.onnx.preview.training"),
     rt + x1, [vi("y", T.FLOAT, [2])])
