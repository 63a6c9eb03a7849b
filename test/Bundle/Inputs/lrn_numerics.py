#!/usr/bin/env python3
"""lrn_numerics.py NODE_DIR WORK_DIR: ONNX LRN through graphc and graph-run.

Runs ONNX's backend node tests test_lrn and test_lrn_default against their
output_0.pb, then small generated LRN models (even and odd window sizes,
ranks 2, 3 and 5) against the NumPy formula below, written from the ONNX
specification independently of graphc. Prints one line per case: `NAME:
match (max abs err E)` or `NAME: MISMATCH ...` / `NAME: failed: ...`.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def lrn_reference(x, size, alpha, beta, bias):
    """ONNX LRN: the window over channels is [c - floor((size - 1) / 2),
    c + ceil((size - 1) / 2)], clipped to the channels that exist."""
    x = x.astype(np.float64)
    channels = x.shape[1]
    lo = (size - 1) // 2
    hi = size - 1 - lo
    square_sum = np.zeros_like(x)
    for c in range(channels):
        first, last = max(0, c - lo), min(channels - 1, c + hi)
        square_sum[:, c] = (x[:, first:last + 1] ** 2).sum(axis=1)
    return (x / (bias + alpha / size * square_sum) ** beta).astype(np.float32)


def read_pb(path):
    t = TensorProto()
    with open(path, "rb") as fh:
        t.ParseFromString(fh.read())
    return numpy_helper.to_array(t)


def run(model, inputs, work, name):
    """Compiles `model` and runs it with `inputs` (name -> array); returns
    the first output or an error string."""
    job = os.path.join(work, name + ".gjob")
    out = os.path.join(work, name + ".out")
    r = subprocess.run(["graphc", model, "-o", job], capture_output=True,
                       text=True, timeout=300)
    if r.returncode:
        return (r.stderr.strip().splitlines() or ["(no message)"])[0]
    args = []
    for key, value in inputs.items():
        path = os.path.join(work, f"{name}.{key}.npy")
        np.save(path, value)
        args += ["--input", f"{key}={path}"]
    r = subprocess.run(["graph-run", job, *args, "--output-dir", out],
                       capture_output=True, text=True, timeout=300)
    if r.returncode:
        return (r.stderr.strip().splitlines() or ["(no message)"])[-1]
    output = onnx.load(model).graph.output[0].name
    return np.load(os.path.join(out, output + ".npy"))


def report(name, got, want):
    if isinstance(got, str):
        print(f"{name}: failed: {got}")
    elif got.shape != want.shape:
        print(f"{name}: MISMATCH shapes {got.shape} {want.shape}")
    elif not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        print(f"{name}: MISMATCH max abs err {np.abs(got - want).max():.3g}")
    else:
        print(f"{name}: match (max abs err {np.abs(got - want).max():.3g})")


def main():
    node, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    for test in ["test_lrn", "test_lrn_default"]:
        model = os.path.join(node, test, "model.onnx")
        data = os.path.join(node, test, "test_data_set_0")
        x = read_pb(os.path.join(data, "input_0.pb"))
        want = read_pb(os.path.join(data, "output_0.pb"))
        report(test, run(model, {"x": x}, work, test), want)

    rng = np.random.default_rng(4)
    cases = [
        ("size1_rank2", (3, 7), dict(size=1)),
        ("size2_rank3", (2, 6, 5), dict(size=2, alpha=0.5, beta=0.6, bias=1.5)),
        ("size4_rank4", (2, 9, 4, 3), dict(size=4, alpha=0.3, beta=0.75,
                                            bias=2.0)),
        ("size5_rank5", (1, 4, 3, 2, 3), dict(size=5, alpha=0.9, beta=1.2,
                                               bias=0.5)),
        # The window is wider than the channels: every channel sums all.
        ("size7_wide", (2, 3, 4, 4), dict(size=7, alpha=1.0)),
    ]
    for name, shape, attrs in cases:
        x = (rng.standard_normal(shape) * 2).astype(np.float32)
        graph = helper.make_graph(
            [helper.make_node("LRN", ["x"], ["y"], **attrs)], name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
        model = os.path.join(work, name + ".onnx")
        onnx.save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13)]), model)
        want = lrn_reference(x, attrs["size"], attrs.get("alpha", 1e-4),
                             attrs.get("beta", 0.75), attrs.get("bias", 1.0))
        report(name, run(model, {"x": x}, work, name), want)
    return 0


if __name__ == "__main__":
    sys.exit(main())
