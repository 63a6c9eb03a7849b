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
        "conv_transpose": dict(x=r(1, 2, 3, 3), w=r(2, 3, 3, 3), bias=r(3),
                               y=r(1, 4, 5), v=r(4, 1, 2),
                               z=r(1, 2, 2, 3, 2), u=r(2, 2, 2, 2, 2),
                               a=r(1, 4, 6), k=r(6, 2, 3),
                               c=r(1, 4, 3, 4, 4), e=r(2, 2, 2, 2, 2)),
        "training": dict(p=r(2, 3), g=r(2, 3), a=r(2, 3), m=r(2, 3),
                         v=np.abs(r(2, 3)) + 0.1, acc=np.abs(r(2, 3)) + 0.1,
                         lin=r(2, 3), x=r(2, 3, 2, 2), sc=r(3), bi=r(3),
                         lg=r(3, 4) * 3, lb=r(3, 4)),
        "recurrent": dict(x=r(3, 2, 4),
                          lw=r(2, 12, 4), lr=r(2, 12, 3), lb=r(2, 24),
                          lw1=r(1, 12, 4), lr1=r(1, 12, 3), lb1=r(1, 24),
                          lp1=r(1, 9), lh1=r(1, 2, 3), lc1=r(1, 2, 3),
                          gw=r(2, 9, 4), gr=r(2, 9, 3), gb=r(2, 18), gh=r(2, 2, 3),
                          gw1=r(1, 9, 4), gr1=r(1, 9, 3), gb1=r(1, 18),
                          gh1=r(1, 2, 3)),
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
    if case == "integer":
        return integer_expected()
    if case == "resize":
        return resize_expected()
    if case == "indexing":
        return indexing_expected()
    if case == "dynamic":
        x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
        y = np.array([[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]])
        z = np.array([[2.0], [-3.0]])
        p = (x + y) * z
        return [p, p.sum(axis=0)]
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
    if case == "conv_transpose":
        return conv_transpose_expected(v)
    if case == "training":
        return training_expected(v)
    if case == "recurrent":
        return recurrent_expected(v)
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


def conv_transpose_expected(v):
    """PyTorch's transposed and grouped convolutions; asymmetric padding by
    cropping (transposed) or explicit padding (direct)."""
    import torch
    import torch.nn.functional as F
    t = {k: torch.tensor(a) for k, a in v.items()}

    def transposed(x, w, bias=None, stride=1, dil=1, low=(0,), high=(0,),
                   out_pad=0, groups=1):
        fn = {3: F.conv_transpose1d, 4: F.conv_transpose2d,
              5: F.conv_transpose3d}[x.dim()]
        y = fn(x, w, bias, stride=stride, output_padding=out_pad,
               groups=groups, dilation=dil)
        index = [slice(None), slice(None)]
        for i, (lo, hi) in enumerate(zip(low, high)):
            index.append(slice(lo, y.shape[2 + i] - hi))
        return y[tuple(index)]

    def direct(x, w, stride, pad, dil, groups):
        fn = {3: F.conv1d, 5: F.conv3d}[x.dim()]
        flat = [p for pair in reversed(pad) for p in pair]
        return fn(F.pad(x, flat), w, stride=stride, dilation=dil, groups=groups)

    return [t.numpy() for t in [
        transposed(t["x"], t["w"], t["bias"], stride=2, low=(1, 1),
                   high=(1, 1), out_pad=1),
        transposed(t["y"], t["v"], stride=3, dil=2, low=(2,), high=(0,),
                   out_pad=2, groups=2),
        transposed(t["z"], t["u"], stride=(1, 2, 1), low=(0, 1, 0),
                   high=(0, 0, 1)),
        direct(t["a"], t["k"], 2, [(1, 1)], 1, 2),
        direct(t["c"], t["e"], (1, 2, 1), [(0, 0), (1, 0), (0, 1)],
               (1, 1, 2), 2)]]


def indexing_expected():
    """gather_nd and the scatters as plain loops over the index tuples."""
    x = np.array([[0.5, -1.0, 2.0, 3.0], [1.5, 0.25, -0.75, 4.0],
                  [-2.0, 6.0, 1.0, -3.5]])
    t = np.arange(1.0, 13.0).reshape(1, 3, 4) * np.array([1, -1]).reshape(2, 1, 1)
    m = np.array([[3, -7, 12, 0], [-4, -9, 5, 1], [8, 2, -6, -1],
                  [-3, 11, 4, -20]])
    n = np.array([[1, 2, 3, 4], [-1, -2, -3, -4], [0, 10, 0, -10]])
    ops = {"none": lambda a, b: b, "add": np.add, "mul": np.multiply,
           "max": np.maximum, "min": np.minimum}

    def scatter_elements(data, idx, upd, axis, red="none"):
        out = data.copy()
        for p in np.ndindex(*upd.shape):
            q = list(p)
            q[axis] = idx[p] % data.shape[axis]
            out[tuple(q)] = ops[red](out[tuple(q)], upd[p])
        return out

    def scatter_nd(data, idx, upd, red="none"):
        out = data.copy()
        for p in np.ndindex(*idx.shape[:-1]):
            q = tuple(int(i) % s for i, s in zip(idx[p], data.shape))
            out[q] = ops[red](out[q], upd[p])
        return out

    ie = np.array([[0, 3], [1, 1], [-1, 2]])
    i_n = np.array([[1], [2], [1]])
    uw = np.array([[1.0, 2, 3, 4], [5, 6, 7, 8], [-1, -2, -3, -4]])
    ip = np.array([[0, 1], [2, -1], [0, 1]])
    padded = np.pad(m, ((1, 0), (1, 0)), constant_values=np.iinfo(np.int32).min)
    pool = np.array([[padded[i:i + 2, j:j + 2].max() for j in range(4)]
                     for i in range(4)]).reshape(1, 1, 4, 4)
    return [x[[1, -1, 0], [2, 0, 3]], x[[2, 0]],
            np.stack([t[0][[2, 0]], t[1][[1, 1]]]),
            scatter_elements(x, ie, np.array([[10.0, 20], [30, 40], [50, 60]]), 1, "add"),
            scatter_elements(x, np.array([[2, 0, 1, 0]]), np.array([[7.0, 8, 9, 10]]), 0),
            scatter_elements(n, ie, np.array([[5, -5], [0, 9], [3, 3]]), 1, "max"),
            scatter_nd(x, i_n, uw, "add"), scatter_nd(x, i_n, uw, "mul"),
            scatter_nd(x, ip, np.array([4.5, -7.5, 1.0])),
            scatter_nd(n, ip, np.array([-8, 8, -2]), "min"),
            scatter_nd(x, i_n, uw, "max"), pool]


def training_expected(v):
    """TensorFlow's Apply* optimizer formulas, batch statistics and softmax
    cross-entropy, written out in NumPy."""
    p, g, a, m, w = v["p"], v["g"], v["a"], v["m"], v["v"]
    lr, mu = 0.1, 0.9
    accum = a * mu + g
    b1, b2, eps, b1p, b2p = 0.9, 0.999, 1e-7, 0.9 ** 3, 0.999 ** 3
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    m1 = b1 * m + (1 - b1) * g
    v1 = b2 * w + (1 - b2) * g * g
    acc, lin = v["acc"], v["lin"]
    l1, l2, power = 0.05, 0.01, -0.5
    acc1 = acc + g * g
    lin1 = lin + g - (acc1 ** -power - acc ** -power) / lr * p
    quad = acc1 ** -power / lr + 2 * l2
    p1 = np.where(np.abs(lin1) > l1, (np.sign(lin1) * l1 - lin1) / quad, 0.0)
    x, sc, bi = v["x"], v["sc"], v["bi"]
    mean = x.mean(axis=(0, 2, 3))
    var = x.var(axis=(0, 2, 3))
    sh = (1, 3, 1, 1)
    bn = (x - mean.reshape(sh)) / np.sqrt(var.reshape(sh) + 1e-3) * sc.reshape(sh) + bi.reshape(sh)
    lg, lb = v["lg"], v["lb"]
    logsm = lg - lg.max(axis=1, keepdims=True)
    logsm = logsm - np.log(np.exp(logsm).sum(axis=1, keepdims=True))
    sm = np.exp(logsm)
    sparse = np.array([2, 0, 3])
    onehot = np.eye(4)[sparse]
    return [p - lr * g,
            p - lr * accum, accum,
            p - lr * g - lr * mu * accum, accum,
            p - lr_t * m1 / (np.sqrt(v1) + eps), m1, v1,
            p1, acc1, lin1,
            bn, mean, var,
            -(lb * logsm).sum(axis=1), sm - lb,
            -(onehot * logsm).sum(axis=1), sm - onehot]


def resize_expected():
    """ONNX Resize: nearest rounds half down, linear clamps at the edges.
    Bilinear half_pixel and align_corners also go through PyTorch."""
    import torch
    import torch.nn.functional as F
    x = np.array([[[[0.5, -1.0, 2.0, 3.0], [1.5, 0.25, -0.75, 4.0],
                    [-2.0, 6.0, 1.0, -3.5]]]])
    n = np.array([[1, 2, 3], [40, 50, 60]])

    def coord(out, n_in, n_out, mode):
        scale = n_out / n_in
        if mode == "half_pixel":
            return (out + 0.5) / scale - 0.5
        if mode == "pytorch_half_pixel":
            return (out + 0.5) / scale - 0.5 if n_out > 1 else 0.0 * out
        if mode == "align_corners":
            return out * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0 * out
        return out / scale

    def resize(a, sizes, kind, mode="half_pixel"):
        out = a.astype(np.float64)
        for d, size in enumerate(sizes):
            n_in = out.shape[d]
            if n_in == size:
                continue
            c = coord(np.arange(size, dtype=np.float64), n_in, size, mode)
            if kind == "nearest":
                idx = np.clip(np.ceil(c - 0.5), 0, n_in - 1).astype(int)
                out = np.take(out, idx, axis=d)
            else:
                lo = np.floor(c)
                w = c - lo
                shape = [1] * out.ndim
                shape[d] = size
                w = w.reshape(shape)
                a0 = np.take(out, np.clip(lo, 0, n_in - 1).astype(int), axis=d)
                a1 = np.take(out, np.clip(lo + 1, 0, n_in - 1).astype(int), axis=d)
                out = a0 * (1 - w) + a1 * w
        return out

    t = torch.tensor(x)
    bilinear = F.interpolate(t, size=(5, 6), mode="bilinear",
                             align_corners=False).numpy()
    corners = F.interpolate(t, size=(4, 7), mode="bilinear",
                            align_corners=True).numpy()
    assert np.allclose(bilinear, resize(x, (1, 1, 5, 6), "linear"))
    assert np.allclose(corners, resize(x, (1, 1, 4, 7), "linear", "align_corners"))
    # Bicubic: PyTorch uses A = -0.75 and clamps at the edges, as ONNX with
    # its defaults (cubic_coeff_a = -0.75, exclude_outside = 0).
    cubic = F.interpolate(t, size=(5, 6), mode="bicubic", align_corners=False).numpy()
    cubic_corners = F.interpolate(t, size=(2, 7), mode="bicubic",
                                  align_corners=True).numpy()
    return [resize(x, (1, 1, 5, 7), "nearest"),
            resize(x, (1, 1, 2, 2), "nearest", "asymmetric"),
            bilinear, corners,
            resize(x, (1, 1, 1, 3), "linear", "pytorch_half_pixel"),
            resize(x, (1, 1, 6, 2), "linear", "asymmetric"),
            resize(n, (4, 5), "nearest", "align_corners"), cubic, cubic_corners]


ACTIVATIONS = {
    "Sigmoid": lambda x: 1 / (1 + np.exp(-x)), "Tanh": np.tanh,
    "Relu": lambda x: np.maximum(x, 0), "Softsign": lambda x: x / (1 + np.abs(x)),
    "Softplus": lambda x: np.log1p(np.exp(x))}


def rnn(cell, x, w, r, b, h0, c0, direction, lens, per_dir, acts, **kw):
    """ONNX LSTM/GRU (onnxruntime's sequence_lens semantics: a reversed row
    runs backwards from its own last step; Y is zero past a row's end)."""
    seq, batch, _ = x.shape
    dirs = w.shape[0]
    hidden = r.shape[2]
    lens = np.full(batch, seq) if lens is None else np.asarray(lens)
    y = np.zeros((seq, dirs, batch, hidden))
    yh = np.zeros((dirs, batch, hidden))
    yc = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        reverse = direction == "reverse" or d == 1
        f = [ACTIVATIONS[a] for a in acts[d * per_dir:(d + 1) * per_dir]]
        for row in range(batch):
            h = h0[d, row] if h0 is not None else np.zeros(hidden)
            c = c0[d, row] if c0 is not None else np.zeros(hidden)
            steps = range(lens[row])
            for t in (reversed(steps) if reverse else steps):
                h, c = cell(x[t, row], w[d], r[d], None if b is None else b[d],
                            h, c, f, d, **kw)
                y[t, d, row] = h
            yh[d, row], yc[d, row] = h, c
    return y, yh, yc


def lstm_cell(x, w, r, b, h, c, f, d, p=None, clip=None, input_forget=False):
    hidden = h.shape[0]
    g = w @ x + r @ h
    if b is not None:
        g = g + b[:4 * hidden] + b[4 * hidden:]
    gi, go, gf, gc = np.split(g, 4)
    pi, po, pf = np.split(p[d], 3) if p is not None else (0, 0, 0)
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    i = f[0](cl(gi + pi * c))
    fg = 1 - i if input_forget else f[0](cl(gf + pf * c))
    c = fg * c + i * f[1](cl(gc))
    o = f[0](cl(go + po * c))
    return o * f[2](c), c


def gru_cell(x, w, r, b, h, c, f, d, clip=None, linear_before_reset=False):
    hidden = h.shape[0]
    wz, wr, wh = np.split(w, 3)
    rz, rr, rh = np.split(r, 3)
    b = np.zeros(6 * hidden) if b is None else b
    wbz, wbr, wbh, rbz, rbr, rbh = np.split(b, 6)
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    z = f[0](cl(wz @ x + rz @ h + wbz + rbz))
    rg = f[0](cl(wr @ x + rr @ h + wbr + rbr))
    if linear_before_reset:
        cand = f[1](cl(wh @ x + rg * (rh @ h + rbh) + wbh))
    else:
        cand = f[1](cl(wh @ x + rh @ (rg * h) + rbh + wbh))
    return (1 - z) * cand + z * h, c


def recurrent_expected(v):
    import torch
    x = v["x"]
    lstm_acts = ["Sigmoid", "Tanh", "Tanh"] * 2
    l0 = rnn(lstm_cell, x, v["lw1"], v["lr1"], v["lb1"], v["lh1"], v["lc1"],
             "forward", None, 3, lstm_acts, p=v["lp1"])
    l1 = rnn(lstm_cell, x, v["lw"], v["lr"], v["lb"], None, None,
             "bidirectional", [3, 2], 3, lstm_acts)
    l2 = rnn(lstm_cell, x, v["lw1"], v["lr1"], v["lb1"], None, None,
             "reverse", None, 3, ["Sigmoid", "Relu", "Softsign"], clip=0.5,
             input_forget=True)
    gru_acts = ["Sigmoid", "Tanh"] * 2
    g0 = rnn(gru_cell, x, v["gw1"], v["gr1"], v["gb1"], v["gh1"], None,
             "forward", None, 2, gru_acts)
    g1 = rnn(gru_cell, x, v["gw"], v["gr"], v["gb"], v["gh"], None,
             "bidirectional", [1, 3], 2, gru_acts, linear_before_reset=True)
    g2 = rnn(gru_cell, x, v["gw1"], v["gr1"], None, None, None, "reverse",
             None, 2, ["Softsign", "Softplus"], clip=1.0)

    # The formulas above agree with PyTorch (gates reordered: LSTM i,f,g,o;
    # GRU r,z,n with the reset gate applied after the product).
    def reorder(a, order, n):
        parts = np.split(a, n, axis=0)
        return np.concatenate([parts[i] for i in order], axis=0)
    t = torch.nn.LSTM(4, 3, bias=True).double()
    with torch.no_grad():
        t.weight_ih_l0.copy_(torch.tensor(reorder(v["lw1"][0], [0, 2, 3, 1], 4)))
        t.weight_hh_l0.copy_(torch.tensor(reorder(v["lr1"][0], [0, 2, 3, 1], 4)))
        t.bias_ih_l0.copy_(torch.tensor(reorder(v["lb1"][0][:12], [0, 2, 3, 1], 4)))
        t.bias_hh_l0.copy_(torch.tensor(reorder(v["lb1"][0][12:], [0, 2, 3, 1], 4)))
        ty, _ = t(torch.tensor(x))
    plain = rnn(lstm_cell, x, v["lw1"], v["lr1"], v["lb1"], None, None,
                "forward", None, 3, lstm_acts)
    assert np.allclose(ty.numpy()[:, None], plain[0])
    t = torch.nn.GRU(4, 3, bias=True).double()
    with torch.no_grad():
        t.weight_ih_l0.copy_(torch.tensor(reorder(v["gw"][0], [1, 0, 2], 3)))
        t.weight_hh_l0.copy_(torch.tensor(reorder(v["gr"][0], [1, 0, 2], 3)))
        t.bias_ih_l0.copy_(torch.tensor(reorder(v["gb"][0][:9], [1, 0, 2], 3)))
        t.bias_hh_l0.copy_(torch.tensor(reorder(v["gb"][0][9:], [1, 0, 2], 3)))
        ty, _ = t(torch.tensor(x), torch.tensor(v["gh"][0:1]))
    plain = rnn(gru_cell, x, v["gw"][0:1], v["gr"][0:1], v["gb"][0:1],
                v["gh"][0:1], None, "forward", None, 2, gru_acts,
                linear_before_reset=True)
    assert np.allclose(ty.numpy()[:, None], plain[0])
    return [*l0, *l1, *l2, *g0[:2], *g1[:2], *g2[:2]]


def integer_expected():
    """Integer and boolean semantics, computed in NumPy's integer types."""
    a = np.array([[7, -7, 9], [-9, 0, 5]], np.int32)
    b = np.array([2, 3, -4], np.int32)
    c = np.array([[100, -37, 100], [-100, 37, 6]], np.int64)
    d = np.array([[7], [-5]], np.int64)
    p = np.array([[True, False, True], [False, False, True]])
    q = np.array([True, False, False])
    f = np.array([[1.7, -1.7, 2.5], [-0.5, 3.99, -3.99]], np.float32)

    def arg_last(x, axis, fn):
        flipped = np.flip(x, axis=axis)
        return x.shape[axis] - 1 - fn(flipped, axis=axis)

    return [a // b, np.mod(a, b), np.fmod(a, b), np.maximum(a, b),
            np.minimum(a, b), np.abs(a), -a, np.sign(a),
            np.where(a < b, a, b), (a >= b).astype(np.int32),
            p & q, p | q, p ^ q, ~p, (p < q), (c != d),
            a.astype(np.int64), c.astype(np.int32),
            np.trunc(f).astype(np.int32), a.astype(np.float32),
            (a != 0), (f != 0),
            c // d, np.mod(c, d), np.fmod(c, d), np.maximum(c, d),
            a.sum(axis=1), c.max(axis=0), a.min(), a.prod(axis=0, keepdims=True),
            a.argmax(axis=1), c.argmin(axis=0), arg_last(c, 1, np.argmax),
            p.argmax(axis=1)]


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
