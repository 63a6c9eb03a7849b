#!/usr/bin/env python3
"""light_models.py LIGHT_DIR WORK_DIR: compiles every model of the ONNX
backend suite's light/ folder with graphc, runs it with graph-run and
compares its first output with the suite's expected output_0.pb (rtol 1e-3,
atol 1e-4). Prints one line per model: `NAME: match`, `NAME: MISMATCH ...`,
or `NAME: compile failed: FIRST ERROR LINE`.

These models have their weights replaced by ConstantOfShape nodes, so their
expected outputs are nearly constant: the check proves the compiled graph
runs end to end with the right shapes and structure, not fine numerics.
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def main():
    light, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    for f in sorted(os.listdir(light)):
        if not f.endswith(".onnx"):
            continue
        name = f[:-5]
        job = os.path.join(work, name + ".gjob")
        out = os.path.join(work, name + ".out")
        r = subprocess.run(["graphc", os.path.join(light, f), "-o", job],
                           capture_output=True, text=True, timeout=600)
        if r.returncode:
            first = (r.stderr.strip().splitlines() or ["(no message)"])[0]
            print(f"{name}: compile failed: {first}")
            continue
        task = json.load(open(os.path.join(job, "manifest.json")))["tasks"][0]
        args = []
        rng = np.random.default_rng(0)
        for i, sig in enumerate(task["inputs"]):
            path = os.path.join(work, f"{name}.in{i}.npy")
            np.save(path, rng.standard_normal(sig["shape"]).astype(np.float32))
            args += ["--input", f"{sig['name']}={path}"]
        r = subprocess.run(["graph-run", job, *args, "--output-dir", out],
                           capture_output=True, text=True, timeout=600)
        if r.returncode:
            print(f"{name}: run failed: {r.stderr.strip().splitlines()[-1]}")
            continue
        t = onnx.TensorProto()
        with open(os.path.join(light, name + "_output_0.pb"), "rb") as fh:
            t.ParseFromString(fh.read())
        want = numpy_helper.to_array(t)
        got = np.load(os.path.join(out, task["outputs"][0]["name"] + ".npy"))
        if got.shape == want.shape and np.allclose(got, want, rtol=1e-3,
                                                   atol=1e-4):
            print(f"{name}: match")
        else:
            print(f"{name}: MISMATCH shapes {got.shape} {want.shape}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
