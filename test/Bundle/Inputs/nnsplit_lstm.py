#!/usr/bin/env python3
"""nnsplit_lstm.py MODEL_DIR WORK_DIR: the NNSplit byte-level sentence
splitter (two bidirectional ONNX LSTMs) through graphc and graph-run.

1. A NumPy implementation of the model, written from the ONNX operator
   definitions (Gather, Transpose, LSTM with gates i, o, f, c, Reshape,
   MatMul, Add) independently of graphc, is first checked against the
   model's reference output in io.npz (produced by its exporter).
2. graphc compiles the model for the reference input's shape, graph-run runs
   it, and the output is compared with io.npz.
3. The same for other batch and length sizes with random bytes, compared
   with the NumPy implementation.

The model's input is uint8 (the job says u8): the 3x9 case uses all byte
values, so bytes >= 128 must index the embedding as unsigned numbers (a
signed reading would wrap through Gather's negative-index rule instead).
Prints one line per check.
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm(x, w, r, b):
    """ONNX LSTM, layout 0, zero initial state, no sequence_lens: x [seq,
    batch, input], w [dirs, 4H, input], r [dirs, 4H, H], b [dirs, 8H];
    returns Y [seq, dirs, batch, H]."""
    seq, batch, _ = x.shape
    dirs, four_h, _ = w.shape
    hidden = four_h // 4
    y = np.zeros((seq, dirs, batch, hidden))
    for d in range(dirs):
        h = np.zeros((batch, hidden))
        c = np.zeros((batch, hidden))
        steps = range(seq) if d == 0 else range(seq - 1, -1, -1)
        for t in steps:
            gates = x[t] @ w[d].T + h @ r[d].T + b[d, :four_h] + b[d, four_h:]
            i, o, f, g = np.split(gates, 4, axis=1)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
            y[t, d] = h
    return y


def reference(model, ids):
    """The model on `ids` [batch, length] in float64."""
    weights = {t.name: numpy_helper.to_array(t).astype(np.float64)
               for t in model.graph.initializer}
    lstms = [n for n in model.graph.node if n.op_type == "LSTM"]
    x = weights["embedding.weight"][ids.astype(np.int64)]  # [B, L, E]
    x = x.transpose(1, 0, 2)  # [L, B, E]
    for node in lstms:
        w, r, b = (weights[name] for name in node.input[1:4])
        y = lstm(x, w, r, b)  # [L, 2, B, H]
        seq, dirs, batch, hidden = y.shape
        x = y.transpose(0, 2, 1, 3).reshape(seq, batch, dirs * hidden)
    matmul = next(n for n in model.graph.node if n.op_type == "MatMul")
    add = next(n for n in model.graph.node if n.op_type == "Add")
    return (x.transpose(1, 0, 2) @ weights[matmul.input[1]]
            + weights[add.input[1]]).astype(np.float32)


def run_graphc(model_path, ids, work, name):
    job = os.path.join(work, name + ".gjob")
    out = os.path.join(work, name + ".out")
    shape = "x".join(str(d) for d in ids.shape)
    r = subprocess.run(["graphc", model_path, f"--input-shape=input:{shape}",
                        "-o", job], capture_output=True, text=True,
                       timeout=600)
    if r.returncode:
        return (r.stderr.strip().splitlines() or ["(no message)"])[0]
    task = json.load(open(os.path.join(job, "manifest.json")))["tasks"][0]
    path = os.path.join(work, name + ".input.npy")
    np.save(path, ids.astype(np.uint8))
    r = subprocess.run(["graph-run", job, "--input", f"input={path}",
                        "--output-dir", out], capture_output=True, text=True,
                       timeout=600)
    if r.returncode:
        return (r.stderr.strip().splitlines() or ["(no message)"])[-1]
    return np.load(os.path.join(out, task["outputs"][0]["name"] + ".npy"))


def compare(name, got, want, rtol=1e-4, atol=1e-4):
    if isinstance(got, str):
        print(f"{name}: failed: {got}")
    elif got.shape != want.shape:
        print(f"{name}: MISMATCH shapes {got.shape} {want.shape}")
    elif not np.allclose(got, want, rtol=rtol, atol=atol):
        print(f"{name}: MISMATCH max abs err {np.abs(got - want).max():.3g}")
    else:
        print(f"{name}: match (max abs err {np.abs(got - want).max():.2g})")


def main():
    src, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    model_path = os.path.join(src, "model.onnx")
    model = onnx.load(model_path)
    io = np.load(os.path.join(src, "io.npz"))
    ids, want = io["input"], io["Add_26"]

    compare("numpy vs io.npz", reference(model, ids), want)
    compare("graphc 2x58 vs io.npz", run_graphc(model_path, ids, work, "ref"),
            want)
    rng = np.random.default_rng(7)
    for batch, length, top in [(1, 23, 128), (3, 9, 256)]:
        ids = rng.integers(0, top, size=(batch, length), dtype=np.uint8)
        name = f"graphc {batch}x{length} vs numpy"
        compare(name, run_graphc(model_path, ids, work, f"r{batch}x{length}"),
                reference(model, ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
