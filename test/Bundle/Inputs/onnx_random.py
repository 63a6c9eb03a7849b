#!/usr/bin/env python3
"""onnx_random.py WORK_DIR: ONNX's seeded random ops through graphc and
graph-run. graphc draws their values at import from its own generator
(lib/Import/ONNX/Random.cpp), so the checks are statistical: mean and
variance of RandomNormal/RandomUniform(Like), Bernoulli's rate against its
probabilities, Multinomial's class frequencies against softmax; and
determinism: the same seed gives the same numbers, another seed others."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

N = 20000


def save(nodes, inputs, outputs, path, opset=18):
    g = h.make_graph(nodes, "rnd", inputs, outputs)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]),
              path)


def run(path, feeds, work, name):
    job = os.path.join(work, name + ".gjob")
    r = subprocess.run(["graphc", path, "-o", job], capture_output=True,
                       text=True, timeout=300)
    if r.returncode:
        raise RuntimeError(r.stderr.strip().splitlines()[0])
    out = os.path.join(work, name + ".out")
    args = []
    for key, value in feeds.items():
        p = os.path.join(work, f"{name}.{key}.npy")
        np.save(p, value)
        args += ["--input", f"{key}={p}"]
    r = subprocess.run(["graph-run", job, *args, "--output-dir", out],
                       capture_output=True, text=True, timeout=300)
    if r.returncode:
        raise RuntimeError(r.stderr.strip().splitlines()[-1])
    return np.load(os.path.join(out, "y.npy"))


def check(name, ok, detail):
    print(f"{name}: {'ok' if ok else 'BAD'} ({detail})")


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    p = lambda n: os.path.join(work, n + ".onnx")
    y = [h.make_tensor_value_info("y", T.FLOAT, None)]

    # RandomNormal: mean 2, scale 3 -> sample mean within 5 standard errors
    # (3 * 5 / sqrt(N)), variance within 5%.
    for seed in (1.0, 1.0, 7.0):
        save([h.make_node("RandomNormal", [], ["y"], shape=[N], mean=2.0,
                          scale=3.0, seed=seed)], [], y, p(f"normal{seed}"))
    a = run(p("normal1.0"), {}, work, "normal_a")
    b = run(p("normal1.0"), {}, work, "normal_b")
    c = run(p("normal7.0"), {}, work, "normal_c")
    check("normal mean", abs(a.mean() - 2) < 15 / np.sqrt(N), f"{a.mean():.3f}")
    check("normal variance", abs(a.var() / 9 - 1) < 0.05, f"{a.var():.3f}")
    check("normal same seed", np.array_equal(a, b), "identical")
    check("normal other seed", not np.array_equal(a, c), "differs")
    check("normal shape", a.shape == (N,), str(a.shape))

    # RandomUniformLike over an input's shape, [-1, 3): mean 1, variance 4/3.
    save([h.make_node("RandomUniformLike", ["x"], ["y"], low=-1.0, high=3.0,
                      seed=3.0)],
         [h.make_tensor_value_info("x", T.FLOAT, [100, 200])], y, p("ulike"))
    u = run(p("ulike"), {"x": np.zeros((100, 200), np.float32)}, work, "ulike")
    check("uniform range", u.min() >= -1 and u.max() < 3,
          f"[{u.min():.3f}, {u.max():.3f}]")
    check("uniform mean", abs(u.mean() - 1) < 5 * np.sqrt(4 / 3 / u.size),
          f"{u.mean():.3f}")
    check("uniform variance", abs(u.var() / (4 / 3) - 1) < 0.05,
          f"{u.var():.3f}")

    # Bernoulli: the rate of ones follows each column's probability.
    probs = np.tile(np.array([0.1, 0.5, 0.9], np.float32), (N, 1))
    save([h.make_node("Bernoulli", ["x"], ["y"], seed=5.0)],
         [h.make_tensor_value_info("x", T.FLOAT, [N, 3])], y, p("bern"))
    bern = run(p("bern"), {"x": probs}, work, "bern")
    rates = bern.mean(axis=0)
    check("bernoulli values", set(np.unique(bern)) <= {0.0, 1.0},
          str(sorted(set(np.unique(bern).tolist()))))
    check("bernoulli rates",
          np.all(np.abs(rates - [0.1, 0.5, 0.9]) < 5 * 0.5 / np.sqrt(N)),
          np.array2string(rates, precision=3))

    # Multinomial: class frequencies against softmax of the logits.
    logits = np.log(np.array([[0.2, 0.3, 0.5]], np.float32))
    save([h.make_node("Multinomial", ["x"], ["y"], sample_size=N, seed=9.0,
                      dtype=T.INT64)],
         [h.make_tensor_value_info("x", T.FLOAT, [1, 3])],
         [h.make_tensor_value_info("y", T.INT64, None)], p("multi"))
    m = run(p("multi"), {"x": logits}, work, "multi")
    freq = np.bincount(m.ravel(), minlength=3) / m.size
    check("multinomial frequencies",
          m.shape == (1, N) and np.all(np.abs(freq - [0.2, 0.3, 0.5]) < 0.02),
          np.array2string(freq, precision=3))


if __name__ == "__main__":
    main()
