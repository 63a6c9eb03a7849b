#!/usr/bin/env python3
"""NumPy reference for the graph-to-linalg end-to-end tests.

Usage: reference.py CASE OUTPUT_FILE
Computes the expected results of test CASE independently of graphc and
compares them, in order, with the memrefs printed by mlir-runner
(printMemrefF32) in OUTPUT_FILE. Exits non-zero on any mismatch in shape or
value (rtol 1e-5, atol 1e-5). `reference.py --inputs CASE` prints the
inputs as MLIR dense literals, which is how the .mlir files got them.
"""

import re
import sys

import numpy as np


def inputs(case):
    rng = np.random.RandomState(sum(map(ord, case)))
    def r(*shape):
        return np.round(rng.uniform(-2, 2, size=shape), 2).astype(np.float32)
    return {
        "elementwise": dict(a=r(2, 3), b=r(3), c=r(2, 1), d=r(1, 3)),
        "softmax": dict(x=r(2, 5) * 10, y=r(2, 3, 4)),
        "matmul": dict(a=r(3, 4), b=r(4, 2), q=r(2, 3, 4), k=r(1, 5, 4), v=r(4)),
        "conv_pool": dict(x=r(1, 2, 5, 5), w=r(3, 2, 3, 3), bias=r(3),
                          g=r(1, 4, 4, 4), gw=r(4, 2, 2, 2)),
        "data_movement": dict(t=r(5, 3), a=r(2, 3), b=r(2, 2)),
        "norm": dict(x=r(2, 3, 2, 2), scale=r(3), bias=r(3),
                     mean=r(3), var=np.abs(r(3)) + 0.1,
                     y=r(2, 4), gamma=r(4), beta=r(4)),
    }[case]


def conv2d(x, w, stride=(1, 1), pad=((0, 0), (0, 0)), dil=(1, 1), groups=1):
    x = np.pad(x, ((0, 0), (0, 0), pad[0], pad[1]))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dil[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    og = o // groups
    for b in range(n):
        for f in range(o):
            g = f // og
            for i in range(oh):
                for j in range(ow):
                    acc = 0.0
                    for ci in range(cg):
                        for p in range(kh):
                            for q in range(kw):
                                acc += (x[b, g * cg + ci, i * stride[0] + p * dil[0],
                                          j * stride[1] + q * dil[1]] * w[f, ci, p, q])
                    out[b, f, i, j] = acc
    return out


def pool2d(x, window, stride, pad, kind, count_include_pad=False):
    n, c, h, w = x.shape
    ph, pw = pad
    oh = (h + sum(ph) - window[0]) // stride[0] + 1
    ow = (w + sum(pw) - window[1]) // stride[1] + 1
    out = np.zeros((n, c, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride[0] - ph[0], j * stride[1] - pw[0]
            r1, c1 = r0 + window[0], c0 + window[1]
            win = x[:, :, max(r0, 0):min(r1, h), max(c0, 0):min(c1, w)]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                count = (window[0] * window[1] if count_include_pad
                         else win.shape[2] * win.shape[3])
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def expected(case):
    v = {k: a.astype(np.float64) for k, a in inputs(case).items()}
    if case == "elementwise":
        a, b, c, d = v["a"], v["b"], v["c"], v["d"]
        return [a + b, c * d, np.maximum(a - b, c),
                np.where(a < b, a / b, -a), np.clip(a, -0.5, 0.5),
                np.tanh(a) + np.exp(b) * np.sqrt(np.abs(a)),
                np.mod(a, b), np.sign(a - c)]
    if case == "softmax":
        x, y = v["x"], v["y"]
        lse = np.log(np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True))
        return [softmax(x, 1), x - x.max(axis=1, keepdims=True) - lse,
                y.mean(axis=(0, 2), keepdims=True), y.max(axis=2),
                y.sum(axis=(0, 1, 2)), x.argmax(axis=1).astype(np.float64)]
    if case == "matmul":
        a, b, q, k, vec = v["a"], v["b"], v["q"], v["k"], v["v"]
        return [a @ b, q @ np.swapaxes(k, -1, -2), a @ vec, vec @ b]
    if case == "conv_pool":
        x, w, bias, g, gw = v["x"], v["w"], v["bias"], v["g"], v["gw"]
        y = conv2d(x, w, stride=(2, 2), pad=((1, 1), (1, 1))) + bias[None, :, None, None]
        return [y, conv2d(g, gw, groups=2, dil=(2, 1)),
                pool2d(x, (3, 3), (2, 2), ((1, 1), (1, 1)), "max"),
                pool2d(x, (2, 2), (2, 2), ((1, 0), (1, 0)), "avg", True),
                pool2d(x, (2, 2), (2, 2), ((1, 0), (1, 0)), "avg", False)]
    if case == "data_movement":
        t, a, b = v["t"], v["a"], v["b"]
        idx = np.array([[4, 0], [-1, 2]])
        return [t[idx], np.concatenate([a, b], axis=1), a.T,
                t[4:0:-2, ::-1], np.pad(a, ((1, 1), (2, 1)), mode="reflect"),
                np.pad(a, ((0, 1), (1, 0)), constant_values=9.0),
                np.tile(b, (2, 3)), np.broadcast_to(a[:, None, :], (2, 2, 3))]
    if case == "norm":
        x, y = v["x"], v["y"]
        sh = (1, 3, 1, 1)
        bn = ((x - v["mean"].reshape(sh)) / np.sqrt(v["var"].reshape(sh) + 1e-3)
              * v["scale"].reshape(sh) + v["bias"].reshape(sh))
        mu = y.mean(axis=1, keepdims=True)
        var = ((y - mu) ** 2).mean(axis=1, keepdims=True)
        ln = (y - mu) / np.sqrt(var + 1e-5) * v["gamma"] + v["beta"]
        return [bn, ln]
    raise SystemExit(f"unknown case {case}")


def parse(text):
    """The (sizes, values) of every memref printed by printMemrefF32."""
    results = []
    for block in text.split("Unranked Memref")[1:]:
        sizes = [int(s) for s in re.search(r"sizes = \[([^\]]*)\]", block)
                 .group(1).replace(" ", "").split(",") if s]
        data = block.split("data =", 1)[1]
        values = re.findall(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
        results.append((sizes, np.array([float(x) for x in values])))
    return results


def literal(a):
    return "dense<" + np.array2string(
        a, separator=", ", threshold=1 << 30,
        max_line_width=1 << 30,
        formatter={"float_kind": lambda f: "%.2f" % f}).replace("\n", "") + ">"


def main():
    if sys.argv[1] == "--inputs":
        for name, a in inputs(sys.argv[2]).items():
            shape = "x".join(map(str, a.shape))
            print(f"%{name} = arith.constant {literal(a)} : tensor<{shape}xf32>")
        return 0
    case, path = sys.argv[1], sys.argv[2]
    want = expected(case)
    got = parse(open(path).read())
    if len(got) != len(want):
        print(f"{case}: expected {len(want)} printed results, got {len(got)}")
        return 1
    status = 0
    for i, (w, (sizes, values)) in enumerate(zip(want, got)):
        w = np.asarray(w)
        if list(w.shape) != sizes:
            print(f"{case} result {i}: shape {sizes}, expected {list(w.shape)}")
            status = 1
            continue
        if not np.allclose(values, w.ravel(), rtol=1e-5, atol=1e-5):
            print(f"{case} result {i}: got\n{values.reshape(w.shape)}\nexpected\n{w}")
            status = 1
    if status == 0:
        print(f"{case}: {len(want)} results match NumPy")
    return status


if __name__ == "__main__":
    sys.exit(main())
