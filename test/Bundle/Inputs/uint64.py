#!/usr/bin/env python3
"""uint64.py gen DIR | check DIR OUTDIR

ONNX's 64-bit unsigned integers end to end, against exact integer
arithmetic. 64-bit unsigned values have no wider type to divide or convert
in, so graphc computes them with signed i64 ops (UnsignedToSignless.cpp);
this test feeds the values where that can go wrong: 0, 1, 2^32 +- 1,
2^53 + 1, 2^63 - 1, 2^63, 2^63 + 1, 2^64 - 1, and random values over the
whole range.

`gen` writes uint64.onnx and its inputs (.npy):
* div, mod: Div and Mod of a by b (element by element) and of a by the
  constant 2^63 + 5 (broadcast);
* a_f32, a_f64: Cast of a to float and double;
* f_u64, d_u64: Cast of float and double values in [0, 2^64) to uint64;
* top_v, top_i: TopK (k = 6, largest) of a, whose values repeat.

`check` computes every expected value with Python integers: quotients and
remainders exactly, conversions to float rounded to nearest, ties to even,
from the integer's bits (not through NumPy's own casts), float-to-integer
by truncation. Everything must match bit for bit.
"""
import os
import random
import sys

import numpy as np

EDGES = [0, 1, 2, 3, 7, (1 << 32) - 1, 1 << 32, (1 << 32) + 1,
         (1 << 53) + 1, (1 << 63) - 1, 1 << 63, (1 << 63) + 1,
         (1 << 64) - 2, (1 << 64) - 1]
CONST = (1 << 63) + 5
K = 6


def inputs():
    rng = random.Random(7)
    a, b = [], []
    for x in EDGES:  # every edge against every nonzero edge
        for y in EDGES[1:]:
            a.append(x)
            b.append(y)
    for _ in range(200):
        a.append(rng.getrandbits(64))
        b.append(rng.getrandbits(rng.choice([3, 31, 33, 62, 63, 64])) or 1)
    a += [(1 << 64) - 1] * 3  # repeats for TopK's order
    b += [3, 3, 3]
    # Floats in [0, 2^64): integers, fractions, the bounds around 2^63.
    f = [0.0, 0.5, 1.0, 1.5, 2.0 ** 24, 2.0 ** 53, 2.0 ** 63 - 2.0 ** 39,
         2.0 ** 63, 2.0 ** 63 + 2.0 ** 40, 1.8e19, 2.0 ** 64 - 2.0 ** 40,
         123456.75]
    d = [0.0, 0.75, 2.0 ** 53 + 2, 2.0 ** 63 - 1024, 2.0 ** 63,
         2.0 ** 63 + 2048, 2.0 ** 64 - 2048, 1e19, 3.5]
    return (np.array(a, dtype=np.uint64), np.array(b, dtype=np.uint64),
            np.array(f, dtype=np.float32), np.array(d, dtype=np.float64))


def gen(d):
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    os.makedirs(d, exist_ok=True)
    a, b, f, dd = inputs()
    n, m, md = len(a), len(f), len(dd)
    c = h.make_tensor("c", T.UINT64, [], [CONST])
    k = h.make_tensor("k", T.INT64, [1], [K])
    nodes = [h.make_node("Div", ["a", "b"], ["div"]),
             h.make_node("Mod", ["a", "b"], ["mod"]),
             h.make_node("Div", ["a", "c"], ["div_c"]),
             h.make_node("Mod", ["a", "c"], ["mod_c"]),
             h.make_node("Cast", ["a"], ["a_f32"], to=T.FLOAT),
             h.make_node("Cast", ["a"], ["a_f64"], to=T.DOUBLE),
             h.make_node("Cast", ["f"], ["f_u64"], to=T.UINT64),
             h.make_node("Cast", ["d"], ["d_u64"], to=T.UINT64),
             h.make_node("TopK", ["a", "k"], ["top_v", "top_i"])]
    vi = h.make_tensor_value_info
    outs = [vi("div", T.UINT64, [n]), vi("mod", T.UINT64, [n]),
            vi("div_c", T.UINT64, [n]), vi("mod_c", T.UINT64, [n]),
            vi("a_f32", T.FLOAT, [n]), vi("a_f64", T.DOUBLE, [n]),
            vi("f_u64", T.UINT64, [m]), vi("d_u64", T.UINT64, [md]),
            vi("top_v", T.UINT64, [K]), vi("top_i", T.INT64, [K])]
    ins = [vi("a", T.UINT64, [n]), vi("b", T.UINT64, [n]),
           vi("f", T.FLOAT, [m]), vi("d", T.DOUBLE, [md])]
    graph = h.make_graph(nodes, "uint64", ins, outs, initializer=[c, k])
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 21)]),
              os.path.join(d, "uint64.onnx"))
    for name, v in (("a", a), ("b", b), ("f", f), ("d", dd)):
        np.save(os.path.join(d, name + ".npy"), v)


def round_int(x, bits):
    """The integer x >= 0 rounded to `bits` significant bits, to nearest,
    ties to even."""
    shift = x.bit_length() - bits
    if shift <= 0:
        return x
    q, r = divmod(x, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return q << shift


def check(d, out):
    a, b, f, dd = inputs()
    ai = [int(x) for x in a]
    bi = [int(x) for x in b]
    got = {name: np.load(os.path.join(out, name + ".npy"))
           for name in ("div", "mod", "div_c", "mod_c", "a_f32", "a_f64",
                        "f_u64", "d_u64", "top_v", "top_i")}
    want = {
        "div": [x // y for x, y in zip(ai, bi)],
        "mod": [x % y for x, y in zip(ai, bi)],
        "div_c": [x // CONST for x in ai],
        "mod_c": [x % CONST for x in ai],
        "a_f32": [float(round_int(x, 24)) for x in ai],
        "a_f64": [float(round_int(x, 53)) for x in ai],
        "f_u64": [int(x) for x in f.tolist()],
        "d_u64": [int(x) for x in dd.tolist()],
    }
    order = sorted(range(len(ai)), key=lambda i: (-ai[i], i))[:K]
    want["top_v"] = [ai[i] for i in order]
    want["top_i"] = order
    bad, total = [], 0
    for name, w in want.items():
        g = got[name].tolist()
        if len(g) != len(w):
            bad.append(f"{name}: {len(g)} values, expected {len(w)}")
            continue
        for i, (x, y) in enumerate(zip(g, w)):
            total += 1
            same = (np.float32(x) == np.float32(y)) if name == "a_f32" \
                else x == y
            if not same:
                bad.append(f"{name}[{i}]: got {x!r}, expected {y!r}")
    for line in bad[:20]:
        print(line)
    print(f"uint64: {total - len(bad)} of {total} values match")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
