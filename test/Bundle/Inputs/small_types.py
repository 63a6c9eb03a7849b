#!/usr/bin/env python3
"""small_types.py gen DIR | check DIR OUTDIR

ONNX's small element types end to end, against NumPy. `gen` writes two
models and their inputs (.pb, packed as ONNX packs them):

* decode.onnx casts every bit pattern of each f8/f4 format, and every value
  of int4/uint4/int2/uint2, to float32;
* encode.onnx casts edge values (subnormals, ties, the largest finite
  values and just beyond, infinities, NaN, -0, random values) from float32
  to each f8/f4 format (saturate 1, and 0 for the four float8 formats) and
  to the 2- and 4-bit integers, and casts a packed int4 initializer.

`check` computes every expected value here, independently of graphc: the
formats are decoded from their definitions, and rounding is a brute-force
search for the nearest representable value with ties to the even encoding
(never bit tricks like the compiler's). Floats must match bit for bit (NaN
only needs to be some NaN of the format); integers exactly.
"""
import functools
import os
import sys

import numpy as np

# ONNX type: (name, exponent bits, mantissa bits, bias, kind)
FLOATS = {17: ("f8e4m3fn", 4, 3, 7, "fn"), 18: ("f8e4m3fnuz", 4, 3, 8, "fnuz"),
          19: ("f8e5m2", 5, 2, 15, "ieee"), 20: ("f8e5m2fnuz", 5, 2, 16, "fnuz"),
          23: ("f4e2m1", 2, 1, 1, "none"), 24: ("f8e8m0", 8, 0, 127, "e8m0")}
INTS = {22: ("i4", 4, True), 21: ("u4", 4, False),
        26: ("i2", 2, True), 25: ("u2", 2, False)}
INT4_INIT = np.array([-8, 7, -1, 0, 3], dtype=np.int64)
UINT2_INIT = np.array([3, 0, 1, 2, 3, 1], dtype=np.int64)  # as int32_data


def decode(bits, t):
    """Value of each bit pattern, from the format's definition."""
    _, e, m, bias, kind = FLOATS[t]
    out = []
    for b in np.asarray(bits, dtype=np.int64).ravel():
        if kind == "e8m0":
            out.append(np.nan if b == 0xFF else 2.0 ** (int(b) - bias))
            continue
        s, ex, man = b >> (e + m), (b >> m) & ((1 << e) - 1), b & ((1 << m) - 1)
        if kind == "ieee" and ex == (1 << e) - 1:
            v = np.inf if man == 0 else np.nan
        elif kind == "fn" and ex == (1 << e) - 1 and man == (1 << m) - 1:
            v = np.nan
        elif kind == "fnuz" and s == 1 and ex == 0 and man == 0:
            v = np.nan
        elif ex == 0:
            v = man * 2.0 ** (1 - bias - m)
        else:
            v = (1 + man / 2.0 ** m) * 2.0 ** (ex - bias)
        out.append(-v if s else v)
    return np.array(out, dtype=np.float64)


def width(t):
    return 4 if t == 23 else 8


@functools.lru_cache(maxsize=None)
def positive_finite(t):
    """(value, pattern) of every finite non-negative value of format t."""
    kind = FLOATS[t][4]
    pats = [p for p in range(1 << width(t))
            if kind == "e8m0" or p < 1 << (width(t) - 1)]
    return [(v, p) for v, p in zip(decode(pats, t), pats) if np.isfinite(v)]


def encode(x, t, saturate):
    """The pattern ONNX's Cast gives for float32 `x` (None: any NaN)."""
    name, e, m, bias, kind = FLOATS[t]
    x = float(x)
    sign = (1 << (width(t) - 1)) if np.signbit(x) and kind != "e8m0" else 0
    finite = positive_finite(t)
    largest_v, largest_p = max(finite)
    if np.isnan(x):
        return 0x8 if kind == "none" else None
    if kind == "e8m0":  # ONNX: the f32 exponent field, rounded up
        a = abs(x)
        if a == 0:
            k = 0
        elif a < 2.0 ** -126:
            k = 1
        elif np.isinf(a):
            k = 255
        else:
            f, ex = np.frexp(a)  # a = f * 2^ex, f in [0.5, 1)
            k = (ex - 1 if f == 0.5 else ex) + 127
        if k > 254:
            return 254 if saturate else None
        return k
    a = abs(x)
    # The next value above the largest, as if the exponent went on; its
    # encoding's parity decides a tie with the largest.
    ulp = largest_v - max(v for v, _ in finite if v < largest_v)
    virtual = (largest_v + ulp, largest_p + 1)
    if a >= virtual[0]:  # (float64 differences would lose the tie here)
        best = virtual
    else:
        cands = finite + [virtual]
        d = min(abs(v - a) for v, _ in cands)
        near = [(v, p) for v, p in cands if abs(v - a) == d]
        best = near[0] if len(near) == 1 else \
            [c for c in near if c[1] % 2 == 0][0]
    if best == virtual:
        if saturate or kind == "none":
            return largest_p | sign
        if kind == "ieee":
            return (largest_p + 1) | sign  # infinity
        return None  # NaN
    v, p = best
    if kind == "fnuz" and p == 0:
        return 0
    return p | sign


def wrap(x, bits, signed):
    v = int(np.trunc(x)) & ((1 << bits) - 1)
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def edge_values():
    vals = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-7, -1e-7, 1e6, -1e6, np.inf,
            -np.inf, np.nan, 3.0e-38, 1.4e-45]
    for t, (name, e, m, bias, kind) in FLOATS.items():
        if kind == "e8m0":
            vals += [0.124, 0.25, 1.1, 2.0 ** 127, 2.0 ** 127 * 1.5, 3e38]
            continue
        fin = sorted(set(v for v in decode(range(1 << width(t)), t)
                         if np.isfinite(v) and v > 0))
        for lo, hi in zip(fin, fin[1:]):  # every tie, and one on each side
            mid = (lo + hi) / 2
            vals += [mid, -mid, np.nextafter(np.float32(mid), np.float32(0)),
                     np.nextafter(np.float32(mid), np.float32(np.inf))]
        top = fin[-1]
        ulp = top - fin[-2]
        vals += [top, -top, top + ulp / 2, top + ulp / 4, top + ulp, -top - ulp,
                 fin[0], fin[0] / 2, fin[0] / 4, -fin[0] / 2]
    rng = np.random.default_rng(7)
    vals += list(rng.standard_normal(64) * 8)
    vals += list(np.arange(-20, 21, 0.75))
    return np.array(vals, dtype=np.float32)


def tensor_pb(arr_bytes, dims, t):
    import onnx
    p = onnx.TensorProto()
    p.dims.extend(dims)
    p.data_type = t
    p.raw_data = bytes(arr_bytes)
    return p.SerializeToString()


def pack(values, bits):
    values = [int(v) & ((1 << bits) - 1) for v in values]
    per = 8 // bits
    out = bytearray((len(values) + per - 1) // per)
    for i, v in enumerate(values):
        out[i // per] |= v << (bits * (i % per))
    return out


def gen(d):
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    os.makedirs(d, exist_ok=True)
    opset = [h.make_opsetid("", 21)]
    # decode.onnx: one input per type, holding every pattern/value.
    nodes, ins, outs = [], [], []
    for t, (name, *_rest) in FLOATS.items():
        n = 1 << width(t)
        ins.append(h.make_tensor_value_info(name, t, [n]))
        outs.append(h.make_tensor_value_info(name + "_f32", T.FLOAT, [n]))
        nodes.append(h.make_node("Cast", [name], [name + "_f32"], to=T.FLOAT))
        data = pack(range(n), 4) if width(t) == 4 else bytearray(range(n))
        open(os.path.join(d, name + ".pb"), "wb").write(tensor_pb(data, [n], t))
    for t, (name, bits, signed) in INTS.items():
        lo = -(1 << (bits - 1)) if signed else 0
        vals = list(range(lo, lo + (1 << bits)))
        ins.append(h.make_tensor_value_info(name, t, [len(vals)]))
        outs.append(h.make_tensor_value_info(name + "_f32", T.FLOAT, [len(vals)]))
        nodes.append(h.make_node("Cast", [name], [name + "_f32"], to=T.FLOAT))
        open(os.path.join(d, name + ".pb"), "wb").write(
            tensor_pb(pack(vals, bits), [len(vals)], t))
    onnx.save(h.make_model(h.make_graph(nodes, "decode", ins, outs),
                           opset_imports=opset),
              os.path.join(d, "decode.onnx"))
    # encode.onnx: float32 edge values to every small type.
    x = edge_values()
    nodes, outs = [], []
    for t, (name, *_rest) in FLOATS.items():
        for sat in ([1, 0] if t in (17, 18, 19, 20, 24) else [1]):
            out = f"{name}_sat{sat}"
            outs.append(h.make_tensor_value_info(out, t, [len(x)]))
            nodes.append(h.make_node("Cast", ["x"], [out], to=t, saturate=sat))
    for t, (name, bits, signed) in INTS.items():
        outs.append(h.make_tensor_value_info(name, t, [len(x)]))
        nodes.append(h.make_node("Cast", ["x"], [name], to=t))
    init = onnx.TensorProto()
    init.name, init.data_type = "c", 22
    init.dims.append(len(INT4_INIT))
    init.raw_data = bytes(pack(INT4_INIT, 4))
    nodes.append(h.make_node("Cast", ["c"], ["const_i4"], to=T.FLOAT))
    outs.append(h.make_tensor_value_info("const_i4", T.FLOAT, [len(INT4_INIT)]))
    init2 = onnx.TensorProto()
    init2.name, init2.data_type = "c2", 25
    init2.dims.append(len(UINT2_INIT))
    init2.int32_data.extend(pack(UINT2_INIT, 2))
    nodes.append(h.make_node("Cast", ["c2"], ["const_u2"], to=T.FLOAT))
    outs.append(h.make_tensor_value_info("const_u2", T.FLOAT, [len(UINT2_INIT)]))
    graph = h.make_graph(nodes, "encode",
                         [h.make_tensor_value_info("x", T.FLOAT, [len(x)])],
                         outs, initializer=[init, init2])
    onnx.save(h.make_model(graph, opset_imports=opset),
              os.path.join(d, "encode.onnx"))
    open(os.path.join(d, "x.pb"), "wb").write(
        tensor_pb(x.tobytes(), [len(x)], T.FLOAT))
    print(" ".join(f"--input {n}={os.path.join(d, n + '.pb')}"
                   for n in [v[0] for v in FLOATS.values()] +
                   [v[0] for v in INTS.values()]),
          file=open(os.path.join(d, "decode.args"), "w"))


def check(d, out):
    bad, n = [], 0
    def same(got, want, what):
        nonlocal n
        n += 1
        if not (got == want or (np.isnan(got) and np.isnan(want))) or \
                (not np.isnan(want) and np.signbit(got) != np.signbit(want)):
            bad.append(f"{what}: got {got!r}, expected {want!r}")
    for t, (name, *_rest) in FLOATS.items():
        got = np.load(os.path.join(out, name + "_f32.npy"))
        want = decode(range(1 << width(t)), t).astype(np.float32)
        for p, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{name} {p:#04x} -> f32")
    for t, (name, bits, signed) in INTS.items():
        got = np.load(os.path.join(out, name + "_f32.npy"))
        lo = -(1 << (bits - 1)) if signed else 0
        for g, w in zip(got, range(lo, lo + (1 << bits))):
            same(g, float(w), f"{name} {w} -> f32")
    x = edge_values()
    for t, (name, *_rest) in FLOATS.items():
        for sat in ([1, 0] if t in (17, 18, 19, 20, 24) else [1]):
            got = np.load(os.path.join(out, f"{name}_sat{sat}.npy"))
            assert got.dtype == np.uint8, got.dtype
            for v, g in zip(x, got):
                w = encode(v, t, sat)
                n_before = len(bad)
                if w is None:
                    same(decode([g], t)[0], np.nan, f"{v!r} -> {name} sat={sat}")
                elif g != w:
                    n += 1
                    bad.append(f"{v!r} -> {name} sat={sat}: got {g:#04x}, "
                               f"expected {w:#04x}")
                else:
                    n += 1
    for t, (name, bits, signed) in INTS.items():
        got = np.load(os.path.join(out, name + ".npy"))
        assert got.dtype == (np.int8 if signed else np.uint8), got.dtype
        for v, g in zip(x, got):
            if np.isfinite(v) and abs(v) < 100:
                same(float(g), float(wrap(v, bits, signed)), f"{v!r} -> {name}")
    got = np.load(os.path.join(out, "const_i4.npy"))
    for g, w in zip(got, INT4_INIT):
        same(g, float(w), "int4 initializer (raw_data)")
    got = np.load(os.path.join(out, "const_u2.npy"))
    for g, w in zip(got, UINT2_INIT):
        same(g, float(w), "uint2 initializer (int32_data)")
    for b in bad[:20]:
        print(b)
    print(f"small types: {n - len(bad)} of {n} values match NumPy")


if __name__ == "__main__":
    {"gen": gen, "check": check}[sys.argv[1]](*sys.argv[2:])
