#!/usr/bin/env python3
"""onnx-gradient-gen.py DIR: models with ai.onnx.preview.training's
Gradient node for onnx-gradient.test, their inputs (.npy) and the
gradients NumPy gives by differentiating the models by hand
(expected.npz); and malformed nodes the importer must refuse by name.

mlp: loss = ReduceSum(Tanh(X @ Transpose(W) + B)) with W and B
initializers (Transpose(W) alone would fold to a constant, cutting W off
from the loss: the importer keeps it), gradients with respect to X, W and
B; then the same loss differentiated with respect to the intermediate H at
a value H1 fed to the node (the forward ops are recomputed from H1)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
vi = h.make_tensor_value_info
opsets = [h.make_opsetid("", 17), h.make_opsetid("ai.onnx.preview.training", 1)]
TRAINING = "ai.onnx.preview.training"


def save(name, nodes, inputs, outputs, inits=()):
    graph = h.make_graph(nodes, name, inputs, outputs, list(inits))
    onnx.save(h.make_model(graph, opset_imports=opsets),
              os.path.join(d, name + ".onnx"))


rng = np.random.default_rng(11)
X = rng.standard_normal((2, 3)).astype(np.float32)
W = rng.standard_normal((4, 3)).astype(np.float32)
B = rng.standard_normal((4,)).astype(np.float32)
H1 = rng.standard_normal((2, 4)).astype(np.float32)
np.save(os.path.join(d, "X.npy"), X)
np.save(os.path.join(d, "H1.npy"), H1)

nodes = [
    h.make_node("Transpose", ["W"], ["Wt"], perm=[1, 0]),
    h.make_node("MatMul", ["X", "Wt"], ["XW"]),
    h.make_node("Add", ["XW", "B"], ["H"]),
    h.make_node("Tanh", ["H"], ["T"]),
    h.make_node("ReduceSum", ["T"], ["loss"], keepdims=0),
    h.make_node("Gradient", ["X", "W", "B"], ["dX", "dW", "dB"],
                name="grad", domain=TRAINING, xs=["X", "W", "B"], y="loss"),
    h.make_node("Gradient", ["H1"], ["dH"], name="grad_at_h1",
                domain=TRAINING, xs=["H"], y="loss"),
]
save("mlp", nodes, [vi("X", T.FLOAT, [2, 3]), vi("H1", T.FLOAT, [2, 4])],
     [vi("loss", T.FLOAT, []), vi("dX", T.FLOAT, [2, 3]),
      vi("dW", T.FLOAT, [4, 3]), vi("dB", T.FLOAT, [4]),
      vi("dH", T.FLOAT, [2, 4])],
     [nh.from_array(W, "W"), nh.from_array(B, "B")])
Xd, Wd, Bd = (a.astype(np.float64) for a in (X, W, B))
Hd = Xd @ Wd.T + Bd
dH = 1 - np.tanh(Hd) ** 2
np.savez(os.path.join(d, "expected.npz"), loss=np.tanh(Hd).sum(),
         dX=dH @ Wd, dW=dH.T @ Xd, dB=dH.sum(0),
         dH=1 - np.tanh(H1.astype(np.float64)) ** 2)

# Malformed nodes.
ab = [vi("a", T.FLOAT, [3]), vi("b", T.FLOAT, [3])]
save("no_y", [h.make_node("Mul", ["a", "b"], ["c"]),
              h.make_node("Gradient", ["a"], ["da"], name="g",
                          domain=TRAINING, xs=["a"])],
     ab, [vi("da", T.FLOAT, [3])])
save("input_count", [h.make_node("Mul", ["a", "b"], ["c"]),
                     h.make_node("Gradient", ["a", "b"], ["da"], name="g",
                                 domain=TRAINING, xs=["a"], y="c")],
     ab, [vi("da", T.FLOAT, [3])])
save("unknown_x", [h.make_node("Mul", ["a", "b"], ["c"]),
                   h.make_node("Gradient", ["a"], ["da"], name="g",
                               domain=TRAINING, xs=["q"], y="c")],
     ab, [vi("da", T.FLOAT, [3])])
# A path from a to c through an op without a gradient rule.
save("no_rule",
     [h.make_node("ScatterElements", ["b", "idx", "a"], ["c"], name="scatter"),
      h.make_node("Gradient", ["a"], ["da"], name="g", domain=TRAINING,
                  xs=["a"], y="c")],
     ab, [vi("da", T.FLOAT, [3])],
     [h.make_tensor("idx", T.INT64, [3], [2, 0, 1])])
