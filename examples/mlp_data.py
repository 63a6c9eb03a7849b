#!/usr/bin/env python3
"""mlp_data.py: inputs for examples/mlp.mlir and a check of graph-run's output
against NumPy (an independent reference).

  mlp_data.py make DIR           # DIR/{x,w1,b1,w2,b2}.npy
  mlp_data.py onnx DIR           # DIR/mlp.onnx: the same MLP, weights inside
  mlp_data.py check DIR [OUT]    # compares OUT/logits.npy (OUT: DIR/out)
                                 # with NumPy
"""
import os
import sys

import numpy as np


def arrays():
    rng = np.random.default_rng(7)
    return {
        "x": rng.standard_normal((8, 784), dtype=np.float32),
        "w1": rng.standard_normal((784, 128), dtype=np.float32) * 0.05,
        "b1": rng.standard_normal(128, dtype=np.float32) * 0.1,
        "w2": rng.standard_normal((128, 10), dtype=np.float32) * 0.1,
        "b2": rng.standard_normal(10, dtype=np.float32) * 0.1,
    }


def write_onnx(a, path):
    """The MLP as an ONNX model with input x and the weights as
    initializers, so placement has variables to move (--ps-tasks)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    inits = [numpy_helper.from_array(a[n], n) for n in ("w1", "b1", "w2", "b2")]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h0"]),
             helper.make_node("Add", ["h0", "b1"], ["h1"]),
             helper.make_node("Relu", ["h1"], ["h"]),
             helper.make_node("MatMul", ["h", "w2"], ["o"]),
             helper.make_node("Add", ["o", "b2"], ["logits"])]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 784])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [8, 10])],
        inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
              path)


def main():
    mode, out = sys.argv[1], sys.argv[2]
    a = arrays()
    if mode == "make":
        for name, value in a.items():
            np.save(os.path.join(out, name + ".npy"), value)
        return 0
    if mode == "onnx":
        write_onnx(a, os.path.join(out, "mlp.onnx"))
        return 0
    h = np.maximum(a["x"] @ a["w1"] + a["b1"], 0.0)
    want = h @ a["w2"] + a["b2"]
    outdir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(out, "out")
    got = np.load(os.path.join(outdir, "logits.npy"))
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-3, atol=1e-4):
        print("mlp: MISMATCH, max abs error", float(np.max(np.abs(got - want))))
        return 1
    print("mlp: logits match NumPy (max abs error %.2e)" % float(np.max(np.abs(got - want))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
