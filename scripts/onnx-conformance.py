#!/usr/bin/env python3
"""onnx-conformance.py: runs the ONNX backend test suite through graphc and
graph-run and compares every output with the suite's expected one.

    onnx-conformance.py [--suites node,simple,...] [--jobs N] [--work DIR]
                        [--table FILE.md] [--results FILE.json]
                        [--recorded FILE.json [--update]] [--filter REGEX]
                        [--bin DIR] SUITE_ROOT

SUITE_ROOT is ../shared/testdata/onnx-backend. Every test is compiled with
`graphc MODEL -o T.gjob --input-shape=NAME:DIMS ...` (the shapes of its first
data set, so a test never depends on dynamic shapes it does not exercise),
each data set is run with `graph-run T.gjob --input NAME=input_i.pb ...
--output-dir DIR`, and each output is compared with output_i.pb: floating
point with rtol 1e-3 and atol 1e-4 (NaN matches NaN), integers and booleans
exactly, shapes exactly.

Every test ends in one status:
  pass          every output of every data set matches
  unsupported   an input or output is not a tensor (sequence, optional,
                map) or has a type graphc has no element type for (string)
  import        graphc refused the model while importing it (its first
                error line is kept as the reason)
  compile       the model imported but a later stage failed
  run           graph-run failed or an output file is missing
  mismatch      an output differs (the worst element is named)
  timeout       graphc or graph-run ran past the per-test limit

With --recorded FILE the pass count of each suite is compared with FILE
(JSON {suite: count}); fewer passes than recorded is an error (exit 1).
--update rewrites FILE with the counts of this run instead. --table writes
the per-op Markdown table (docs/conformance/onnx-backend.md).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx import numpy_helper

SUITES = ["node", "simple", "pytorch-converted", "pytorch-operator", "light"]
RTOL, ATOL = 1e-3, 1e-4
TIMEOUT_S = 300


class Test:
    def __init__(self, suite, name, model, data_sets):
        self.suite = suite
        self.name = name
        self.model = model
        # [(inputs [path], outputs [path])]
        self.data_sets = data_sets


def discover(root, suites, pattern):
    tests = []
    for suite in suites:
        base = os.path.join(root, suite)
        if not os.path.isdir(base):
            raise SystemExit(f"onnx-conformance: error: no suite folder "
                             f"'{base}' (is ../shared beside the checkout?)")
        if suite == "light":
            # light_<name>.onnx with light_<name>_output_0.pb; the reference
            # evaluator ran them on inputs of ones (onnx's backend runner
            # feeds np.ones for `real`/`light` models without data sets).
            for f in sorted(os.listdir(base)):
                if not f.endswith(".onnx"):
                    continue
                name = f[:-5]
                out = os.path.join(base, name + "_output_0.pb")
                tests.append(Test(suite, name, os.path.join(base, f),
                                  [(None, [out])]))
            continue
        for name in sorted(os.listdir(base)):
            d = os.path.join(base, name)
            model = os.path.join(d, "model.onnx")
            if not os.path.isfile(model):
                continue
            sets = []
            for ds in sorted(os.listdir(d)):
                dsp = os.path.join(d, ds)
                if not ds.startswith("test_data_set_") or not os.path.isdir(
                        dsp):
                    continue

                def numbered(prefix):
                    files = [f for f in os.listdir(dsp)
                             if re.fullmatch(prefix + r"_(\d+)\.pb", f)]
                    files.sort(key=lambda f: int(f.split("_")[1][:-3]))
                    return [os.path.join(dsp, f) for f in files]

                sets.append((numbered("input"), numbered("output")))
            tests.append(Test(suite, name, model, sets))
    if pattern:
        rx = re.compile(pattern)
        tests = [t for t in tests if rx.search(t.suite + "/" + t.name)]
    return tests


def op_label(model):
    """The ops a test exercises, for the per-op table."""
    domains = {}
    for n in model.graph.node:
        if n.op_type == "Constant":
            continue
        dom = n.domain if n.domain not in ("", "ai.onnx") else ""
        domains.setdefault((dom + "." if dom else "") + n.op_type, None)
    if not domains:
        return "Constant"
    return "+".join(domains)


# ONNX element types that have a graph-run dtype (runtime/include/graphrt);
# the others (strings, complex) cannot be fed or returned.
RUNTIME_TYPES = {1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16",
                 6: "int32", 7: "int64", 9: "bool", 10: "float16",
                 11: "double", 12: "uint32", 13: "uint64", 16: "bfloat16",
                 17: "float8e4m3fn", 18: "float8e4m3fnuz", 19: "float8e5m2",
                 20: "float8e5m2fnuz", 21: "uint4", 22: "int4",
                 23: "float4e2m1", 24: "float8e8m0", 25: "uint2", 26: "int2"}

# The small types, which NumPy (and the onnx here, 1.12) cannot represent.
# graph-run writes them one element per byte (docs/user/graph-run.md): the
# float formats' bit patterns as uint8, int4/int2 as int8 (sign-extended),
# uint4/uint2 as uint8. The .pb files pack 4-bit types two to a byte and
# 2-bit types four to a byte, the first element in the lowest bits.
# Floats: ONNX type -> (exponent bits, mantissa bits, bias, NaN/inf kind).
SMALL_FLOATS = {17: (4, 3, 7, "fn"), 18: (4, 3, 8, "fnuz"),
                19: (5, 2, 15, "ieee"), 20: (5, 2, 16, "fnuz"),
                23: (2, 1, 1, "none"), 24: (8, 0, 127, "e8m0")}
# Integers: ONNX type -> (bits, signed).
SMALL_INTS = {21: (4, False), 22: (4, True), 25: (2, False), 26: (2, True)}
PACKED_BITS = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2}
ONNX_TYPE_NAMES = {8: "string", 14: "complex64", 15: "complex128",
                   17: "float8e4m3fn", 18: "float8e4m3fnuz",
                   19: "float8e5m2", 20: "float8e5m2fnuz", 21: "uint4",
                   22: "int4", 23: "float4e2m1", 24: "float8e8m0",
                   25: "uint2", 26: "int2"}


def value_kind(vi):
    """'tensor' or what the value is instead (sequence, optional, map, or
    a tensor of an element type the runtime has no dtype for)."""
    t = vi.type
    which = t.WhichOneof("value")
    if which == "tensor_type":
        et = t.tensor_type.elem_type
        if et not in RUNTIME_TYPES:
            return ONNX_TYPE_NAMES.get(et, f"type-{et}") + " tensor"
        return "tensor"
    return {"sequence_type": "sequence", "optional_type": "optional",
            "map_type": "map", "sparse_tensor_type": "sparse tensor"}.get(
                which, which or "untyped")


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[0] if lines else "(no message)"


def decode_small_float(bits, onnx_type):
    """The float64 values of small-float bit patterns (exact)."""
    e, m, bias, kind = SMALL_FLOATS[onnx_type]
    bits = np.asarray(bits).astype(np.int64)
    if kind == "e8m0":  # no sign, no mantissa, no zero; 0xff is NaN
        return np.where(bits == 0xFF, np.nan, np.ldexp(1.0, bits - bias))
    sign = (bits >> (e + m)) & 1
    mag = bits & ((1 << (e + m)) - 1)
    ex, man = mag >> m, mag & ((1 << m) - 1)
    v = np.where(ex == 0,
                 np.ldexp(man.astype(np.float64), 1 - bias - m),
                 np.ldexp((man + (1 << m)).astype(np.float64),
                          ex - bias - m))
    v = np.where(sign == 1, -v, v)
    if kind == "ieee":  # exponent all ones: inf (mantissa 0) or NaN
        top = ex == (1 << e) - 1
        v = np.where(top & (man == 0), np.copysign(np.inf, v), v)
        v = np.where(top & (man != 0), np.nan, v)
    elif kind == "fn":  # S.1111.111 is NaN, no inf
        v = np.where(mag == (1 << (e + m)) - 1, np.nan, v)
    elif kind == "fnuz":  # the sign bit alone (-0) is NaN
        v = np.where(bits == 1 << (e + m), np.nan, v)
    return v


def small_elements(t):
    """The elements of a small-type TensorProto, one per byte: bit
    patterns (uint8) for floats, values for integers."""
    count = int(np.prod(t.dims)) if len(t.dims) else 1
    data = np.frombuffer(t.raw_data, np.uint8) if t.raw_data else \
        np.array(t.int32_data, np.int64).astype(np.uint8)
    bits = PACKED_BITS.get(t.data_type)
    if bits:
        shifts = np.arange(0, 8, bits, dtype=np.uint8)
        data = ((data[:, None] >> shifts) & ((1 << bits) - 1)).reshape(-1)
    data = data[:count].reshape(tuple(t.dims))
    if t.data_type in SMALL_INTS:
        width, signed = SMALL_INTS[t.data_type]
        if signed:
            v = data.astype(np.int8)
            return np.where(v >= 1 << (width - 1), v - (1 << width),
                            v).astype(np.int8)
        return data.astype(np.uint8)
    return data.astype(np.uint8)


def load_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as fh:
        t.ParseFromString(fh.read())
    if t.data_type in SMALL_FLOATS or t.data_type in SMALL_INTS:
        return t, small_elements(t)
    return t, numpy_helper.to_array(t)


def compare_small(got, want, onnx_type):
    """compare() for a small type: graph-run's one-byte elements against
    the test's unpacked ones; floats compare as values (NaN equals NaN,
    +0 equals -0 only where the bit patterns agree), integers exactly."""
    if got.shape != want.shape:
        return f"shape {list(got.shape)} != expected {list(want.shape)}"
    if got.dtype.itemsize != 1:
        return f"dtype {got.dtype} != expected one byte per element"
    if onnx_type in SMALL_INTS:
        g, w = got.astype(np.int64), want.astype(np.int64)
    else:
        g = decode_small_float(got.view(np.uint8), onnx_type)
        w = decode_small_float(want, onnx_type)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    if onnx_type not in SMALL_INTS:
        same &= (np.signbit(g) == np.signbit(w)) | np.isnan(w)
    if same.all():
        return None
    i = np.unravel_index(np.argmin(same), g.shape) if g.ndim else ()
    return (f"{int((~same).sum())}/{g.size} elements differ, first at "
            f"{list(i)}: {g[i]!r} != expected {w[i]!r}")


VALID = ":valid_count"


def valid_part(got, want, count_path):
    """The valid prefix of bounded output `got` along the one axis where it
    is longer than the reference (its NAME:valid_count says how long), or a
    reason it cannot match: another rank, a shorter or second longer axis,
    a count that is not the reference's length."""
    if not os.path.exists(count_path):
        return got, f"graph-run wrote no '{os.path.basename(count_path)}'"
    count = int(np.load(count_path))
    if got.ndim != want.ndim:
        return got, f"shape {list(got.shape)} != expected {list(want.shape)}"
    longer = [d for d in range(got.ndim) if got.shape[d] != want.shape[d]]
    if len(longer) > 1 or any(got.shape[d] < want.shape[d] for d in longer):
        return got, (f"bounded shape {list(got.shape)} does not hold "
                     f"expected {list(want.shape)}")
    if longer:
        d = longer[0]
        if count != want.shape[d]:
            return got, (f"valid_count {count} != expected length "
                         f"{want.shape[d]} of axis {d}")
        got = np.take(got, np.arange(count), axis=d)
    return got, None


def compare(got, want):
    """None when equal within tolerance, else a short reason."""
    if got.shape != want.shape:
        return f"shape {list(got.shape)} != expected {list(want.shape)}"
    if want.dtype.kind in "fc":
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(g - w)
        with np.errstate(invalid="ignore"):
            bad = ~(both_nan | (g == w) | (diff <= ATOL + RTOL * np.abs(w)))
        if not bad.any():
            return None
        i = np.unravel_index(np.argmax(np.where(bad, diff, -1)), g.shape) \
            if g.ndim else ()
        return (f"{int(bad.sum())}/{g.size} elements differ, worst at "
                f"{list(i)}: {g[i]!r} != expected {w[i]!r}")
    if got.dtype != want.dtype and not (
            got.dtype.kind == want.dtype.kind == "b"):
        # graph-run writes the dtype the job declares; the value is what
        # matters for integers of the same signedness and width.
        if got.dtype.itemsize != want.dtype.itemsize or \
                got.dtype.kind != want.dtype.kind:
            return f"dtype {got.dtype} != expected {want.dtype}"
    if np.array_equal(got, want):
        return None
    bad = got != want
    i = np.unravel_index(np.argmax(bad), got.shape) if got.ndim else ()
    return (f"{int(bad.sum())}/{got.size} elements differ, first at "
            f"{list(i)}: {got[i]!r} != expected {want[i]!r}")


RUNTIME_OPERAND = re.compile(
    r"must be a constant|computed at run time|with computed|a computed")


# Ops whose every operand (operand 0 included) is a size, a shape or a
# bound: their results' shapes follow from the operands' values.
ALL_OPERANDS_STATIC = {"ConstantOfShape", "Range", "HannWindow",
                       "HammingWindow", "BlackmanWindow", "MelWeightMatrix"}


# Ops whose listed operands (and no others) fix their results' shapes:
# Loop's trip count and condition give its scan outputs' length;
# NonMaxSuppression's max_output_boxes_per_class and thresholds (not its
# boxes and scores) fix its bound; a sequence op's position (not the tensor
# SequenceInsert inserts) picks the tensors the importer resolves.
STATIC_OPERANDS = {"Loop": (0, 1), "NonMaxSuppression": (2, 3, 4),
                   "SequenceInsert": (2,), "SequenceErase": (1,),
                   "SequenceAt": (1,), "SplitToSequence": (1,)}


def inputs_to_freeze(model, reason, inputs, frozen):
    """Graph inputs the failing node's operands >= 1 (all operands for the
    ops in ALL_OPERANDS_STATIC) are, or are computed from, when the
    importer's reason says an operand must be known at compile time; never
    the data operand 0 of the other ops."""
    if not RUNTIME_OPERAND.search(reason):
        return []
    m = re.search(r":([^:\s]+): error:", reason)
    if not m:
        return []
    where = m.group(1)
    names = {vi.name for vi in inputs}
    producer = {o: n for n in model.graph.node for o in n.output}
    for i, n in enumerate(model.graph.node):
        if (n.name or f"{n.op_type}_#{i}") != where:
            continue
        first = 0 if n.op_type in ALL_OPERANDS_STATIC else 1
        data = n.input[0] if first == 1 and n.input else None
        # Walk back from the operands to the graph inputs they come from (an
        # expanded function computes a Range's limit or Pad's pads from its
        # inputs); Shape and Size read only the static shape, so the walk
        # stops there.
        found, todo, seen = [], list(n.input)[first:], set()
        if n.op_type in STATIC_OPERANDS:
            data = None
            todo = [n.input[i] for i in STATIC_OPERANDS[n.op_type]
                    if i < len(n.input)]
        while todo:
            x = todo.pop()
            if not x or x in seen or x == data:
                continue
            seen.add(x)
            if x in names:
                if x not in frozen:
                    found.append(x)
            elif x in producer and \
                    producer[x].op_type not in ("Shape", "Size"):
                todo += list(producer[x].input)
        return sorted(found)
    return []


def compile_test(test, job, shapes, frozen, feeds, bindir):
    """Runs graphc; returns (completed process or "timeout", imported)."""
    cmd = [os.path.join(bindir, "graphc"), test.model, "-o", job]
    for name, dims in shapes.items():
        if name not in frozen:
            cmd.append(f"--input-shape={name}:" + "x".join(map(str, dims)))
    paths = dict(feeds[0]) if feeds else {}
    for name in frozen:
        cmd.append(f"--freeze-input={name}={paths[name]}")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
        if r.returncode <= 0:
            return r, r.returncode == 0
        # Did it import? (cheap: the import stage alone)
        imp = subprocess.run(cmd[:2] + ["--emit=import", "-o", os.devnull] +
                             cmd[4:], capture_output=True, text=True,
                             timeout=TIMEOUT_S)
        return r, imp.returncode == 0
    except subprocess.TimeoutExpired:
        return "timeout", False


def run_test(test, work, bindir):
    """Returns (status, reason, op label)."""
    try:
        model = onnx.load(test.model, load_external_data=False)
    except Exception as e:  # a broken file is the suite's problem, not ours
        return "import", f"onnx.load failed: {e}", "?"
    label = op_label(model)
    init = {i.name for i in model.graph.initializer}
    inputs = [vi for vi in model.graph.input if vi.name not in init]
    for vi in list(inputs) + list(model.graph.output):
        kind = value_kind(vi)
        if kind != "tensor":
            return "unsupported", f"'{vi.name}' is a {kind}", label

    tdir = os.path.join(work, test.suite, test.name)
    shutil.rmtree(tdir, ignore_errors=True)
    os.makedirs(tdir)
    job = os.path.join(tdir, "t.gjob")

    # Fix every input's shape from the first data set (or the model's own
    # static shape for light/ models, which run on ones).
    feeds = []  # per data set: [(name, path)]
    shapes = {}
    for ds_index, (in_files, _) in enumerate(test.data_sets):
        if in_files is None:
            files = []
            for i, vi in enumerate(inputs):
                dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
                dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[
                    vi.type.tensor_type.elem_type]
                path = os.path.join(tdir, f"ones_{i}.npy")
                np.save(path, np.ones(dims, dtype=dtype))
                files.append((vi.name, path))
                shapes.setdefault(vi.name, dims)
            feeds.append(files)
            continue
        if len(in_files) != len(inputs):
            # Optional inputs left out of a data set are trailing ones.
            if len(in_files) > len(inputs):
                return "run", (f"data set {ds_index} has {len(in_files)} "
                               f"inputs, model {len(inputs)}"), label
        files = []
        for vi, path in zip(inputs, in_files):
            t, arr = load_tensor(path)
            shapes.setdefault(vi.name, list(arr.shape))
            files.append((vi.name, path))
        feeds.append(files)

    # graphc compiles static shapes: a value that fixes a shape (Reshape's
    # shape, Reduce's axes, Slice's starts, Resize's scales...) must be known
    # at compile time. When the importer says such an operand is computed at
    # run time and it is a graph input, freeze that input to the data set's
    # value (--freeze-input) and compile again; the test then checks the
    # same numerics with that operand constant, and says so.
    frozen = []
    while True:
        r, imported = compile_test(test, job, shapes, frozen, feeds, bindir)
        if r == "timeout":
            return "timeout", f"graphc ran past {TIMEOUT_S} s", label
        if r.returncode == 0:
            # A bounded output (NonZero, Compress on values computed at run
            # time) has its largest size, not the reference's: freeze the
            # inputs that decide it, as for a shape operand.
            bounded = [ln.replace(" warning: ", " error: ")
                       for ln in r.stderr.splitlines()
                       if " warning: " in ln and "is bounded to" in ln]
            more = inputs_to_freeze(model, bounded[0], inputs, frozen) \
                if bounded and len(test.data_sets) == 1 else []
            if not more:
                break
            frozen += more
            continue
        reason = first_error(r.stderr)
        if r.returncode < 0:
            return "compile", f"graphc crashed (signal {-r.returncode}): " \
                + reason, label
        more = inputs_to_freeze(model, reason, inputs, frozen) \
            if not imported else []
        if not more or len(test.data_sets) != 1:
            return ("compile" if imported else "import"), reason, label
        frozen += more
    note = ("frozen: " + ", ".join(frozen)) if frozen else ""
    feeds = [[(n, p) for n, p in files if n not in frozen] for files in feeds]

    with open(os.path.join(job, "manifest.json")) as fh:
        task = json.load(fh)["tasks"][0]
    out_names = [o["name"] for o in task["outputs"]]
    # A bounded output (NonZero, Compress, Unique, NonMaxSuppression on
    # values known only at run time) has a NAME:valid_count companion.
    bounded = {n[:-len(VALID)] for n in out_names if n.endswith(VALID)}
    out_names = [n for n in out_names if not n.endswith(VALID)]

    for ds_index, (files, (_, out_files)) in enumerate(
            zip(feeds, test.data_sets)):
        odir = os.path.join(tdir, f"out{ds_index}")
        cmd = [os.path.join(bindir, "graph-run"), "--quiet", job,
               "--output-dir", odir]
        for name, path in files:
            cmd += ["--input", f"{name}={path}"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "timeout", f"graph-run ran past {TIMEOUT_S} s", label
        if r.returncode:
            return "run", first_error(r.stderr) if r.returncode > 0 else \
                f"graph-run killed by signal {-r.returncode}", label
        if len(out_files) != len(out_names):
            return "run", (f"job has {len(out_names)} outputs, the test "
                           f"expects {len(out_files)}"), label
        for name, want_path in zip(out_names, out_files):
            got_path = os.path.join(odir, name + ".npy")
            if not os.path.exists(got_path):
                return "run", f"graph-run wrote no '{name}.npy'", label
            got = np.load(got_path)
            t, want = load_tensor(want_path)
            if name in bounded:
                got, why = valid_part(got, want, os.path.join(
                    odir, name + VALID + ".npy"))
                if why:
                    return "mismatch", f"output '{name}': {why}", label
            if t.data_type in SMALL_FLOATS or t.data_type in SMALL_INTS:
                why = compare_small(got, want, t.data_type)
            else:
                why = compare(got, want)
            if why:
                return "mismatch", f"output '{name}': {why}", label
    shutil.rmtree(tdir, ignore_errors=True)
    return "pass", note, label


def write_table(path, results, tests):
    by_suite = collections.OrderedDict((s, collections.Counter())
                                       for s in SUITES)
    for t in tests:
        by_suite[t.suite][results[t.suite + "/" + t.name][0]] += 1
    statuses = ["pass", "mismatch", "run", "compile", "import",
                "unsupported", "timeout"]
    lines = [
        "# ONNX backend conformance",
        "",
        "Generated by `bash scripts/conformance.sh --update` (do not edit):",
        "every test of `../shared/testdata/onnx-backend` compiled with "
        "`graphc` and run with `graph-run`, outputs compared with the "
        "expected ones (fp32 rtol 1e-3, atol 1e-4; integers and booleans "
        "exact). Statuses: `pass`; `mismatch` (wrong numbers); `run` "
        "(graph-run failed); `compile` (imported, a later stage failed); "
        "`import` (the importer refused the model); `unsupported` (a "
        "sequence, optional, map or string value); `timeout`.",
        "",
        "| suite | tests | " + " | ".join(statuses) + " |",
        "|---|---|" + "---|" * len(statuses),
    ]
    for s, c in by_suite.items():
        n = sum(c.values())
        if not n:
            continue
        lines.append(f"| {s} | {n} | " +
                     " | ".join(str(c[x]) for x in statuses) + " |")
    frozen = sum(1 for st, why, _ in results.values()
                 if st == "pass" and why.startswith("frozen"))
    lines += ["", f"{frozen} of the passes compiled with `--freeze-input` "
              "for an input that fixes a shape (axes, a target shape, "
              "starts, scales): graphc compiles static shapes, so such "
              "values must be known when compiling.", ""]
    lines += ["", "## Per op (node tests)", "",
              "| op | tests | pass | failing: status — first reason |",
              "|---|---|---|---|"]
    per_op = collections.OrderedDict()
    # An `_expanded` test is the function body of its sibling's op: file it
    # under that op rather than under the ops of the body.
    node_labels = {t.name: results["node/" + t.name][2] for t in tests
                   if t.suite == "node"}
    for t in tests:
        if t.suite != "node":
            continue
        st, why, label = results[t.suite + "/" + t.name]
        cut = t.name.find("_expanded")
        if cut > 0 and t.name[:cut] in node_labels:
            label = node_labels[t.name[:cut]] + " (expanded)"
        per_op.setdefault(label, []).append((t.name, st, why))
    for label in sorted(per_op, key=str.lower):
        rows = per_op[label]
        npass = sum(1 for _, st, _ in rows if st == "pass")
        fails = [(n, st, why) for n, st, why in rows if st != "pass"]
        cell = ""
        if fails:
            reasons = collections.Counter((st, why) for _, st, why in fails)
            (st, why), _ = reasons.most_common(1)[0]
            why = why.replace("|", "\\|").replace("\n", " ")
            if len(why) > 140:
                why = why[:137] + "..."
            cell = f"{len(fails)}: `{st}` — {why}"
        label_cell = label.replace("|", "\\|")
        lines.append(f"| {label_cell} | {len(rows)} | {npass} | {cell} |")
    lines += ["", "## Other suites", "",
              "| test | status | reason |", "|---|---|---|"]
    for t in tests:
        if t.suite == "node":
            continue
        st, why, _ = results[t.suite + "/" + t.name]
        why = why.replace("|", "\\|").replace("\n", " ")
        if len(why) > 140:
            why = why[:137] + "..."
        lines.append(f"| {t.suite}/{t.name} | {st} | {why} |")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default="/tmp/graphc-conformance")
    ap.add_argument("--bin", default="")
    ap.add_argument("--filter", default="")
    ap.add_argument("--table")
    ap.add_argument("--results")
    ap.add_argument("--recorded")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--from-results", metavar="FILE",
                    help="take the statuses from an earlier --results file "
                    "instead of running (to --update or write --table)")
    args = ap.parse_args()

    suites = [s for s in args.suites.split(",") if s]
    for s in suites:
        if s not in SUITES:
            ap.error(f"unknown suite '{s}' (suites: {', '.join(SUITES)})")
    bindir = args.bin or os.path.dirname(shutil.which("graphc") or "")
    if not args.from_results and (
            not bindir or not os.path.exists(os.path.join(bindir, "graph-run"))):
        ap.error("graphc/graph-run not found: pass --bin BUILD/bin")
    tests = discover(args.root, suites, args.filter)
    os.makedirs(args.work, exist_ok=True)

    start = time.time()
    results = {}
    if args.from_results:
        # Re-record from an earlier run's --results instead of running.
        with open(args.from_results) as fh:
            for k, v in json.load(fh).items():
                results[k] = (v["status"], v["reason"], v["op"])
        tests = [t for t in tests if t.suite + "/" + t.name in results]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_test, t, args.work, bindir): t
                   for t in tests if not args.from_results}
        for f in concurrent.futures.as_completed(futures):
            t = futures[f]
            try:
                results[t.suite + "/" + t.name] = f.result()
            except Exception as e:  # a driver bug must not hide a test
                results[t.suite + "/" + t.name] = ("run", f"driver: {e!r}",
                                                   "?")
            if args.verbose:
                st, why, _ = results[t.suite + "/" + t.name]
                print(f"{t.suite}/{t.name}: {st} {why}", flush=True)

    counts = collections.OrderedDict()
    for s in suites:
        c = collections.Counter(results[t.suite + "/" + t.name][0]
                                for t in tests if t.suite == s)
        counts[s] = c
        n = sum(c.values())
        if not n:
            continue
        print(f"{s}: {c['pass']} of {n} pass ({100.0 * c['pass'] / max(n, 1):.1f}%)"
              + "".join(f", {c[k]} {k}" for k in
                        ["mismatch", "run", "compile", "import",
                         "unsupported", "timeout"] if c[k]))
    print(f"conformance: {len(tests)} tests in {time.time() - start:.0f} s")

    if args.results:
        with open(args.results, "w") as fh:
            json.dump({k: {"status": v[0], "reason": v[1], "op": v[2]}
                       for k, v in sorted(results.items())}, fh, indent=1)
    if args.table:
        write_table(args.table, results, tests)

    status = 0
    if args.recorded:
        got = {s: counts[s]["pass"] for s in suites}
        if args.update:
            rec = {}
            if os.path.exists(args.recorded):
                with open(args.recorded) as fh:
                    rec = json.load(fh)
            rec.update(got)
            with open(args.recorded, "w") as fh:
                json.dump(rec, fh, indent=1, sort_keys=True)
                fh.write("\n")
        else:
            with open(args.recorded) as fh:
                rec = json.load(fh)
            for s in suites:
                want = rec.get(s)
                if want is None:
                    continue
                if got[s] < want:
                    print(f"error: {s}: {got[s]} tests pass, fewer than the "
                          f"recorded {want}; a change broke these (compare "
                          f"--results with a run on main):", file=sys.stderr)
                    status = 1
                elif got[s] > want:
                    print(f"note: {s}: {got[s]} tests pass, more than the "
                          f"recorded {want}; record them with "
                          f"`bash scripts/conformance.sh --update`")
    return status


if __name__ == "__main__":
    sys.exit(main())
