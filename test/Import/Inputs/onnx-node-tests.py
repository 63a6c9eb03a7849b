#!/usr/bin/env python3
"""onnx-node-tests.py DIR [MIN]: runs ONNX's backend node tests through graphc.

For every test in DIR (DIR/*/model.onnx):
* covered: `graphc --list-unsupported` accepts every op (the graph dialect
  has the ops its translation needs);
* the model is imported and `graph-opt --verify-each` must accept it;
* when that fails and a graph input feeds an input that earlier opsets had
  as an attribute (Reshape's shape, Reduce*'s axes, Slice's starts, ...),
  those inputs are bound to the test's own data (test_data_set_0) as
  initializers and the import is tried again; both counts are printed;
* independent check: the result types of @main are compared with the
  shapes and element types of test_data_set_0/output_*.pb (written by
  ONNX's reference implementation). A dynamic dimension is not checked;
  an output with a NAME:valid_count companion result is bounded (NonZero,
  Compress on run-time data: docs/design/importers.md) and must be at least
  the reference's size in every dimension; every mismatch is printed and
  fails the run.
Prints the counts, per-op coverage, and fails under MIN percent (default 90)
of covered tests importing and verifying.
"""
import collections
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto as T

ATTR_LIKE = {
    "Reshape": {1}, "Expand": {1}, "Tile": {1}, "ConstantOfShape": {0},
    "Squeeze": {1}, "Unsqueeze": {1}, "Split": {1}, "Slice": {1, 2, 3, 4},
    "Pad": {1, 2, 3}, "Resize": {1, 2, 3}, "Upsample": {1}, "OneHot": {1},
    "Range": {0, 1, 2}, "Dropout": {1, 2}, "ReduceSum": {1},
    "ReduceMean": {1}, "ReduceMax": {1}, "ReduceMin": {1}, "ReduceProd": {1},
    "ReduceL1": {1}, "ReduceL2": {1}, "ReduceLogSum": {1},
    "ReduceLogSumExp": {1}, "ReduceSumSquare": {1},
    "NonMaxSuppression": {2, 3, 4},
}
MLIR_ELEMENT = {
    T.FLOAT: "f32", T.DOUBLE: "f64", T.FLOAT16: "f16", T.BFLOAT16: "bf16",
    T.BOOL: "i1", T.INT8: "i8", T.UINT8: "ui8", T.INT16: "i16",
    T.UINT16: "ui16", T.INT32: "i32", T.UINT32: "ui32", T.INT64: "i64",
    T.UINT64: "ui64",
}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=120)
    return p.returncode, p.stderr


def import_and_verify(model, out):
    rc, err = run(["graphc", model, "--emit=graph", "-o", out])
    if rc == 0:
        rc, err = run(["graph-opt", "--verify-each", out, "-o", os.devnull])
    if rc < 0 or rc > 1:
        return "crash", "CRASH (%d): %s" % (rc, err.strip().split("\n")[0])
    return ("ok" if rc == 0 else "fail"), (err.strip().split("\n") or [""])[0]


def result_types(mlir):
    with open(mlir) as f:
        text = f.read()
    m = re.search(r"func\.func @main\(.*?\)\s*->\s*(.*?)\s*\{\n", text, re.S)
    if not m:
        return []
    types = []
    for body in re.findall(r"tensor<([^>]*)>", m.group(1)):
        parts = body.split("x")
        types.append((parts[:-1], parts[-1]))
    return types


def output_names(mlir):
    with open(mlir) as f:
        m = re.search(r"graph\.output_names = \[([^\]]*)\]", f.read())
    return re.findall(r'"([^"]*)"', m.group(1)) if m else []


def bind_attr_like_inputs(model_path, bound_path):
    model = onnx.load(model_path)
    graph = model.graph
    inits = {t.name for t in graph.initializer}
    inputs = [i.name for i in graph.input if i.name not in inits]
    wanted = set()
    for node in graph.node:
        for index in ATTR_LIKE.get(node.op_type, ()):
            if index < len(node.input) and node.input[index] in inputs:
                wanted.add(node.input[index])
    if not wanted:
        return False
    data_dir = os.path.join(os.path.dirname(model_path), "test_data_set_0")
    for k, name in enumerate(inputs):
        if name not in wanted:
            continue
        tensor = onnx.TensorProto()
        with open(os.path.join(data_dir, "input_%d.pb" % k), "rb") as f:
            tensor.ParseFromString(f.read())
        tensor.name = name
        graph.initializer.append(tensor)
    keep = [i for i in graph.input if i.name not in wanted]
    del graph.input[:]
    graph.input.extend(keep)
    onnx.save(model, bound_path)
    return True


def check_shapes(test_dir, mlir):
    """Returns (matched, unchecked dims, mismatches, bounded)."""
    got = result_types(mlir)
    names = output_names(mlir)
    matched, unchecked, bad, bounded = 0, 0, [], 0
    for k, (dims, element) in enumerate(got):
        path = os.path.join(test_dir, "test_data_set_0", "output_%d.pb" % k)
        if not os.path.exists(path):
            continue
        ref = onnx.TensorProto()
        with open(path, "rb") as f:
            ref.ParseFromString(f.read())
        want_element = MLIR_ELEMENT.get(ref.data_type)
        if want_element and element != want_element:
            bad.append("output %d: element %s, reference %s" % (k, element, want_element))
            continue
        if dims == ["*"]:
            unchecked += 1
            continue
        if len(dims) != len(ref.dims):
            bad.append("output %d: rank %d, reference %s" % (k, len(dims), list(ref.dims)))
            continue
        is_bounded = k < len(names) and names[k] + ":valid_count" in names
        ok = True
        for d, r in zip(dims, ref.dims):
            if d == "?":
                unchecked += 1
            elif int(d) < r if is_bounded else int(d) != r:
                ok = False
        if ok and is_bounded:
            bounded += 1
        elif ok:
            matched += 1
        else:
            bad.append("output %d: %s, reference %s" % (k, "x".join(dims), list(ref.dims)))
    return matched, unchecked, bad, bounded


def one_test(model, tmp):
    test_dir = os.path.dirname(model)
    name = os.path.basename(test_dir)
    ops = sorted({n.op_type for n in onnx.load(model).graph.node})
    rc, _ = run(["graphc", "--list-unsupported", model])
    if rc != 0:
        return name, ops, "uncovered", "", None
    out = os.path.join(tmp, name + ".mlir")
    status, msg = import_and_verify(model, out)
    how = "as-is"
    if status == "fail":
        bound = os.path.join(tmp, name + ".bound.onnx")
        if bind_attr_like_inputs(model, bound):
            status2, msg2 = import_and_verify(bound, out)
            if status2 != "fail":
                status, msg, how = status2, msg2, "bound"
    shapes = check_shapes(test_dir, out) if status == "ok" else None
    return name, ops, status, (how if status == "ok" else msg), shapes


def main():
    root = sys.argv[1]
    minimum = int(sys.argv[2]) if len(sys.argv) > 2 else 90
    models = sorted(glob.glob(os.path.join(root, "*", "model.onnx")))
    counts = collections.Counter()
    per_op = collections.defaultdict(lambda: [0, 0])
    failures, mismatches = [], []
    matched = unchecked = bounded = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        for name, ops, status, info, shapes in pool.map(
                lambda m: one_test(m, tmp), models):
            counts["total"] += 1
            if status == "uncovered":
                continue
            counts["covered"] += 1
            for op in ops:
                per_op[op][0] += 1
            if status == "crash":
                failures.append("%s: %s" % (name, info))
                counts["crash"] += 1
                continue
            if status != "ok":
                failures.append("%s: %s" % (name, info))
                continue
            counts[info] += 1
            for op in ops:
                per_op[op][1] += 1
            m, u, bad, b = shapes
            matched += m
            unchecked += u
            bounded += b
            mismatches += ["%s: %s" % (name, b) for b in bad]
    passed = counts["as-is"] + counts["bound"]
    print("onnx node tests: %d total, %d with covered ops, %d import and verify "
          "(%d as they are, %d with attribute-like inputs bound to the test's data)"
          % (counts["total"], counts["covered"], passed, counts["as-is"],
             counts["bound"]))
    print("onnx node tests: result shapes: %d outputs match output_0.pb, "
          "%d dynamic dimensions unchecked, %d mismatches; %d bounded "
          "outputs at least the reference's size"
          % (matched, unchecked, len(mismatches), bounded))
    print("per op (covered tests containing the op: imported/covered):")
    line = []
    for op in sorted(per_op):
        line.append("%s %d/%d" % (op, per_op[op][1], per_op[op][0]))
    for i in range(0, len(line), 6):
        print("  " + ", ".join(line[i:i + 6]))
    for m in mismatches:
        print("  SHAPE MISMATCH " + m)
    for f in failures:
        print("  FAIL " + f)
    status = 0
    if counts["crash"]:
        print("onnx node tests: %d crashes" % counts["crash"])
        status = 1
    if counts["covered"] and passed * 100 < counts["covered"] * minimum:
        print("onnx node tests: under %d%% of covered tests pass" % minimum)
        status = 1
    if mismatches:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
