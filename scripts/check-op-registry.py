#!/usr/bin/env python3
# check-op-registry.py: `graphc --list-unsupported` agrees with the importers.
#
# For every model given (ONNX backend suites are searched as
# scripts/onnx-conformance.py does; other paths are models), runs
#   graphc --list-unsupported MODEL        -> the op types it says it cannot take
#   graphc MODEL --emit=import -o /dev/null -> whether the import refuses an op
# and fails when they disagree:
#   * the import refuses op X for want of a rule, a translation or an opset,
#     yet --list-unsupported does not list X;
#   * --list-unsupported lists ops, yet an ONNX model imports (a TensorFlow
#     model's listing covers functions its outputs never reach, such as a
#     SavedModel's saver functions: counted apart).
# Imports that fail for other reasons (a shape computed at run time, an
# attribute graphc refuses) are not registry disagreements and are counted
# apart.
import argparse
import concurrent.futures
import importlib.util
import os
import re
import subprocess
import sys

REFUSAL = re.compile(
    r"error: (?:ONNX op '([\w.]+)' (?:has no import rule|has a planned rule"
    r"|is not supported at opset)"
    r"|op '([\w.]+)' is not a standard ONNX op and has no import rule"
    r"|TensorFlow op '([\w.]+)' (?:has no import rule|has a planned rule)"
    r"|(internal error: the ONNX op registry .*))")
LISTED = re.compile(r"^  (\S+) x\d+ \(")


def conformance_models(root, suites):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "conformance", os.path.join(here, "onnx-conformance.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [t.model for t in mod.discover(root, suites, None)]


def shared_models(testdata):
    """The shared models: ONNX files and folders, TensorFlow graphs and
    SavedModel folders."""
    out = []
    onnx = os.path.join(testdata, "onnx-models")
    for name in sorted(os.listdir(onnx)):
        path = os.path.join(onnx, name)
        if name.endswith(".onnx"):
            out.append(path)
        elif os.path.isfile(os.path.join(path, "model.onnx")):
            out.append(os.path.join(path, "model.onnx"))
    tf = os.path.join(testdata, "tf-graphs")
    for name in sorted(os.listdir(tf)):
        path = os.path.join(tf, name)
        if name.endswith((".pb", ".pbtxt", ".meta")) or os.path.isfile(
                os.path.join(path, "saved_model.pb")):
            out.append(path)
    return out


def check(graphc, model):
    listed = subprocess.run([graphc, "--list-unsupported", model],
                            capture_output=True, text=True, timeout=300)
    if listed.returncode not in (0, 1) or (
            listed.returncode == 1 and "unsupported op types" not in
            listed.stdout):
        return model, "list-failed", listed.stderr.strip()[:300]
    ops = {m.group(1) for line in listed.stdout.splitlines()
           if (m := LISTED.match(line))}
    imp = subprocess.run([graphc, model, "--emit=import", "-o", os.devnull],
                         capture_output=True, text=True, timeout=300)
    refused = set()
    for m in REFUSAL.finditer(imp.stderr):
        if m.group(4):
            return model, "disagree", m.group(4)
        refused.add(m.group(1) or m.group(2) or m.group(3))
    if refused - ops:
        return model, "disagree", (f"the import refuses {sorted(refused)}, "
                                   f"--list-unsupported lists {sorted(ops)}")
    if ops and imp.returncode == 0:
        # A TensorFlow model's listing covers every function of its library,
        # but only the outputs' ancestors are imported (a SavedModel's saver
        # functions are not): listed ops the import never reaches.
        if not model.endswith(".onnx"):
            return model, "imports (listed ops not reached)", ""
        return model, "disagree", (f"--list-unsupported lists {sorted(ops)} "
                                   f"but the import succeeds")
    if imp.returncode == 0:
        return model, "imports", ""
    return model, "refused" if refused else "other-error", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphc", required=True)
    ap.add_argument("--testdata", help="the shared testdata folder: its "
                    "ONNX conformance suites (onnx-backend) and models")
    ap.add_argument("--suites", default="node,simple,pytorch-converted,"
                    "pytorch-operator,light")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    models = list(args.models)
    if args.testdata:
        models += shared_models(args.testdata)
        models += conformance_models(
            os.path.join(args.testdata, "onnx-backend"),
            args.suites.split(","))
    counts = {}
    bad = []
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for model, kind, detail in pool.map(
                lambda m: check(args.graphc, m), models):
            counts[kind] = counts.get(kind, 0) + 1
            if kind in ("disagree", "list-failed"):
                bad.append(f"{model}: {kind}: {detail}")
    for line in bad:
        print("check-op-registry: " + line)
    print(f"check-op-registry: {len(models)} models: " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print("check-op-registry: " +
          ("agree" if not bad else f"{len(bad)} disagreements"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
