#!/usr/bin/env python3
"""onnx_control_flow.py WORK_DIR: ONNX If, Loop and Scan through graphc and
graph-run, against NumPy versions of ONNX's semantics (each case's `ref`).

Each case is a small model whose bodies capture values of the enclosing
graph; then NonZero and Compress on run-time values (bounded outputs with
a valid count, checked against NumPy). Prints `NAME: match`, `NAME: MISMATCH ...`, or, for the models graphc
must refuse, `NAME: refused: FIRST LINE OF THE ERROR`."""
import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import TensorProto as T
from onnx import helper as h

F = T.FLOAT
I64 = T.INT64


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def const(name, value):
    return h.make_node("Constant", [], [name],
                       value=onnx.numpy_helper.from_array(np.array(value)))


def model(nodes, inputs, outputs, opset=16, inits=()):
    g = h.make_graph(nodes, "cf", inputs, outputs, initializer=list(inits))
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def if_capture():
    # Both branches read the outer x and y; the condition is an input.
    then = h.make_graph([h.make_node("Add", ["x", "y"], ["t"])], "then", [],
                        [vi("t", F, [2, 3])])
    other = h.make_graph([h.make_node("Mul", ["x", "y"], ["e"])], "else", [],
                         [vi("e", F, [2, 3])])
    m = model([h.make_node("Neg", ["a"], ["x"]),
               h.make_node("If", ["c"], ["r"], then_branch=then,
                           else_branch=other)],
              [vi("c", T.BOOL, []), vi("a", F, [2, 3]), vi("y", F, [2, 3])],
              [vi("r", F, [2, 3])])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal((2, 3)).astype(np.float32)
    feeds = [{"c": np.array(v), "a": a, "y": y} for v in (True, False)]
    ref = lambda f: [(-f["a"] + f["y"]) if f["c"] else (-f["a"] * f["y"])]
    return m, feeds, ref


def loop_body(nodes, carried, scans=()):
    inputs = [vi("i", I64, []), vi("cin", T.BOOL, [])] + carried[0]
    outputs = [vi("cout", T.BOOL, [])] + carried[1] + list(scans)
    return h.make_graph(nodes, "body", inputs, outputs)


def loop_dynamic():
    # Trip count and condition at run time; the body adds the outer `step`
    # times the iteration number and stops once the sum passes `limit`.
    body = loop_body(
        [h.make_node("Cast", ["i"], ["fi"], to=F),
         h.make_node("Mul", ["fi", "step"], ["inc"]),
         h.make_node("Add", ["acc", "inc"], ["acc2"]),
         h.make_node("ReduceSum", ["acc2"], ["s"], keepdims=0),
         h.make_node("Less", ["s", "limit"], ["cout"])],
        ([vi("acc", F, [3])], [vi("acc2", F, [3])]))
    m = model([h.make_node("Loop", ["n", "c", "a"], ["r"], body=body)],
              [vi("n", I64, []), vi("c", T.BOOL, []), vi("a", F, [3]),
               vi("step", F, [3]), vi("limit", F, [])],
              [vi("r", F, [3])])
    feeds = []
    for n, limit in ((4, 100.0), (10, 20.0), (0, 1.0)):
        feeds.append({"n": np.array(n, np.int64), "c": np.array(True),
                      "a": np.array([1, 2, 3], np.float32),
                      "step": np.array([0.5, 1, 2], np.float32),
                      "limit": np.array(limit, np.float32)})

    def ref(f):
        acc, i, go = f["a"].copy(), 0, bool(f["c"])
        while go and i < f["n"]:
            acc = acc + np.float32(i) * f["step"]
            go = bool(acc.sum() < f["limit"])
            i += 1
        return [acc]
    return m, feeds, ref


def loop_scan():
    # A constant trip count and a condition that stays true: the scan
    # output (the running sum at each iteration) has 5 rows.
    body = loop_body(
        [h.make_node("Identity", ["cin"], ["cout"]),
         h.make_node("Add", ["acc", "x"], ["acc2"]),
         h.make_node("Identity", ["acc2"], ["row"])],
        ([vi("acc", F, [2])], [vi("acc2", F, [2])]), [vi("row", F, [2])])
    m = model([const("n", np.int64(5)), const("c", True),
               h.make_node("Loop", ["n", "c", "a"], ["r", "rows"], body=body)],
              [vi("a", F, [2]), vi("x", F, [2])],
              [vi("r", F, [2]), vi("rows", F, [5, 2])])
    feeds = [{"a": np.array([1, 2], np.float32),
              "x": np.array([0.5, -1], np.float32)}]
    ref = lambda f: [f["a"] + 5 * f["x"],
                     np.stack([f["a"] + k * f["x"] for k in range(1, 6)])]
    return m, feeds, ref


def scan_axes():
    # Opset 9+ Scan: a running product over axis 1 read backwards, the
    # scan output written along axis 1 and backwards too.
    body = h.make_graph(
        [h.make_node("Mul", ["p", "col"], ["p2"]),
         h.make_node("Add", ["p2", "bias"], ["o"])],
        "body", [vi("p", F, [2]), vi("col", F, [2])],
        [vi("p2", F, [2]), vi("o", F, [2])])
    m = model([h.make_node("Scan", ["p0", "x"], ["pf", "ys"], body=body,
                           num_scan_inputs=1, scan_input_axes=[1],
                           scan_input_directions=[1], scan_output_axes=[1],
                           scan_output_directions=[1])],
              [vi("p0", F, [2]), vi("x", F, [2, 4]), vi("bias", F, [2])],
              [vi("pf", F, [2]), vi("ys", F, [2, 4])])
    rng = np.random.default_rng(1)
    feeds = [{"p0": np.ones(2, np.float32),
              "x": rng.uniform(0.5, 1.5, (2, 4)).astype(np.float32),
              "bias": np.array([0.1, -0.2], np.float32)}]

    def ref(f):
        p, outs = f["p0"], []
        for t in reversed(range(4)):       # input read backwards
            p = p * f["x"][:, t]
            outs.append(p + f["bias"])
        # output k written at 3 - k, along axis 1
        return [p, np.stack(outs[::-1], axis=1)]
    return m, feeds, ref


def scan8_batch():
    # Opset 8 Scan: a leading batch axis (2), scanned entry by entry.
    body = h.make_graph(
        [h.make_node("Add", ["s", "v"], ["s2"]),
         h.make_node("Identity", ["s2"], ["o"])],
        "body", [vi("s", F, [3]), vi("v", F, [3])],
        [vi("s2", F, [3]), vi("o", F, [3])])
    m = model([h.make_node("Scan", ["", "s0", "x"], ["sf", "ys"], body=body,
                           num_scan_inputs=1)],
              [vi("s0", F, [2, 3]), vi("x", F, [2, 4, 3])],
              [vi("sf", F, [2, 3]), vi("ys", F, [2, 4, 3])], opset=8)
    rng = np.random.default_rng(2)
    feeds = [{"s0": rng.standard_normal((2, 3)).astype(np.float32),
              "x": rng.standard_normal((2, 4, 3)).astype(np.float32)}]
    ref = lambda f: [f["s0"] + f["x"].sum(axis=1),
                     f["s0"][:, None, :] + np.cumsum(f["x"], axis=1)]
    return m, feeds, ref


def loop_scan_dynamic():
    body = loop_body([h.make_node("Identity", ["cin"], ["cout"]),
                      h.make_node("Identity", ["acc"], ["acc2"]),
                      h.make_node("Identity", ["acc"], ["row"])],
                     ([vi("acc", F, [2])], [vi("acc2", F, [2])]),
                     [vi("row", F, [2])])
    return model([h.make_node("Loop", ["n", "", "a"], ["r", "rows"],
                              body=body, name="grow")],
                 [vi("n", I64, []), vi("a", F, [2])],
                 [vi("r", F, [2]), vi("rows", F, [None, 2])])


def loop_growing():
    body = loop_body([h.make_node("Identity", ["cin"], ["cout"]),
                      h.make_node("Concat", ["acc", "acc"], ["acc2"], axis=0)],
                     ([vi("acc", F, [2])], [vi("acc2", F, [None])]))
    return model([h.make_node("Loop", ["n", "", "a"], ["r"], body=body,
                              name="doubling")],
                 [vi("n", I64, []), vi("a", F, [2])], [vi("r", F, [None])])


def bounded_cases():
    """NonZero and Compress on run-time values: bounded outputs, valid
    entries first and zeros after, and OUTPUT:valid_count (numpy's answer
    padded the same way is the reference)."""
    x = np.array([[1, 0, 2], [0, 0, 3]], np.float32)
    nz = model([h.make_node("NonZero", ["x"], ["y"])],
               [vi("x", F, [2, 3])], [vi("y", I64, [2, None])])
    want = np.zeros((2, 6), np.int64)
    got = np.array(np.nonzero(x))
    want[:, :got.shape[1]] = got
    yield "nonzero_bounded", nz, {"x": x}, [want, np.array(3)]
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    cond = np.array([True, False, True, True])
    cp = model([h.make_node("Compress", ["d", "c"], ["y"], axis=1)],
               [vi("d", F, [3, 4]), vi("c", T.BOOL, [4])],
               [vi("y", F, [3, None])])
    want = np.zeros((3, 4), np.float32)
    want[:, :3] = np.compress(cond, data, axis=1)
    yield "compress_bounded", cp, {"d": data, "c": cond}, [want, np.array(3)]


def compile_and_run(m, feeds, work, name):
    path = os.path.join(work, name + ".onnx")
    onnx.save(m, path)
    job = os.path.join(work, name + ".gjob")
    r = subprocess.run(["graphc", path, "-o", job], capture_output=True,
                       text=True, timeout=300)
    if r.returncode:
        return (r.stderr.strip().splitlines() or ["(no message)"])[0]
    results = []
    for k, feed in enumerate(feeds):
        out = os.path.join(work, f"{name}.{k}.out")
        args = []
        for key, value in feed.items():
            p = os.path.join(work, f"{name}.{k}.{key}.npy")
            np.save(p, value)
            args += ["--input", f"{key}={p}"]
        r = subprocess.run(["graph-run", job, *args, "--output-dir", out],
                           capture_output=True, text=True, timeout=300)
        if r.returncode:
            return (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        names = [o.name for o in m.graph.output]
        names += [n + ":valid_count" for n in names
                  if os.path.exists(os.path.join(out, n + ":valid_count.npy"))]
        results.append([np.load(os.path.join(out, n + ".npy"))
                        for n in names])
    return results


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    for name, make in (("if_capture", if_capture),
                       ("loop_dynamic", loop_dynamic),
                       ("loop_scan", loop_scan), ("scan_axes", scan_axes),
                       ("scan8_batch", scan8_batch)):
        m, feeds, reference = make()
        got = compile_and_run(m, feeds, work, name)
        if isinstance(got, str):
            print(f"{name}: failed: {got}")
            continue
        bad = []
        for feed, outs in zip(feeds, got):
            want = reference(feed)
            for o, (g, w) in enumerate(zip(outs, want)):
                if g.shape != w.shape or not np.allclose(g, w, rtol=1e-5,
                                                         atol=1e-6):
                    bad.append(f"output {o}: {g.tolist()} != {w.tolist()}")
        print(f"{name}: " + ("MISMATCH " + "; ".join(bad) if bad
                             else f"match ({len(feeds)} feeds)"))
    for name, m, feed, want in bounded_cases():
        got = compile_and_run(m, [feed], work, name)
        if isinstance(got, str):
            print(f"{name}: failed: {got}")
        elif len(got[0]) != len(want) or not all(
                np.array_equal(g, w) for g, w in zip(got[0], want)):
            print(f"{name}: MISMATCH {[g.tolist() for g in got[0]]}")
        else:
            print(f"{name}: match, valid count {got[0][1].tolist()}")
    for name, make in (("loop_scan_dynamic", loop_scan_dynamic),
                       ("loop_growing", loop_growing)):
        got = compile_and_run(make(), [], work, name)
        print(f"{name}: refused: {got}" if isinstance(got, str)
              else f"{name}: ACCEPTED")


if __name__ == "__main__":
    main()
