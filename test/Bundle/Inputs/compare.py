"""Compares graph-run outputs with references (rtol 1e-3, atol 1e-4).

  compare.py OUT.npy REF           REF: a .npy or an ONNX TensorProto .pb
  compare.py --mlp X.npy OUT.npy   NumPy's relu(x @ W + b) for emit-ladder.mlir
  compare.py --pb-to-npy IN.pb OUT.npy

Exits 1 with the largest error when an element is out of tolerance.
"""
import sys

import numpy as np


def load(path):
    if path.endswith(".pb"):
        import onnx
        from onnx import numpy_helper
        t = onnx.TensorProto()
        with open(path, "rb") as f:
            t.ParseFromString(f.read())
        return numpy_helper.to_array(t)
    return np.load(path)


def check(got, want, what):
    if got.shape != want.shape or got.dtype != want.dtype:
        print(f"{what}: got {got.dtype}{list(got.shape)}, want "
              f"{want.dtype}{list(want.shape)}")
        sys.exit(1)
    if not np.allclose(got, want, rtol=1e-3, atol=1e-4, equal_nan=True):
        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
        print(f"{what}: max abs error {err.max()} at {np.unravel_index(err.argmax(), err.shape)}")
        sys.exit(1)
    print(f"{what}: ok ({got.size} elements)")


if sys.argv[1] == "--mlp":
    # The constants of emit-ladder.mlir.
    w = np.array([[1, -2, 3, 0.5], [0.25, 4, -1, 2], [-3, 1, 1, -0.5]],
                 dtype=np.float32)
    b = np.array([0.5, -1, 2, 0], dtype=np.float32)
    x = np.load(sys.argv[2])
    check(np.load(sys.argv[3]), np.maximum(x @ w + b, 0), sys.argv[3])
elif sys.argv[1] == "--pb-to-npy":
    np.save(sys.argv[3], load(sys.argv[2]))
else:
    check(load(sys.argv[1]), load(sys.argv[2]), sys.argv[1])
