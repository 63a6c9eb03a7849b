"""tf_train_inputs.py JOB DIR: writes a batch for every input of JOB (f32
images in [0, 1), i64 labels in [0, 10)) into DIR and prints the graph-run
--input flags for them.
tf_train_inputs.py --compare ONE PS ONE_OUT PS_OUT: prints each job's task and
variable count and whether every output is equal (rtol 1e-5) in both."""
import json
import os
import sys

import numpy as np


def tasks(job):
    return json.load(open(os.path.join(job, "manifest.json")))["tasks"]


if sys.argv[1] == "--compare":
    one, ps, one_out, ps_out = sys.argv[2:6]
    for job in (one, ps):
        ts = tasks(job)
        print("%s: %d tasks, %d variables" % (
            os.path.basename(job), len(ts),
            sum(len(t.get("variables", [])) for t in ts)))
    ok = True
    for t in tasks(one):
        for o in t.get("outputs", []):
            a = np.load(os.path.join(one_out, o["name"] + ".npy"))
            b = np.load(os.path.join(ps_out, o["name"] + ".npy"))
            same = a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-6)
            ok &= same
            print("%s: %s after 3 steps" % (o["name"], "equal" if same else
                  "DIFFERENT (max abs err %g)" % float(np.max(np.abs(a - b)))))
    sys.exit(0 if ok else 1)

job, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(0)
flags = []
for t in tasks(job):
    for i, sig in enumerate(t.get("inputs", [])):
        shape = [int(d) for d in sig.get("shape", [])]
        if sig["dtype"].startswith("f"):
            a = rng.random(shape, dtype=np.float32)
        else:
            a = rng.integers(0, 10, shape).astype(np.int64)
        path = os.path.join(out, "in%d.npy" % len(flags))
        np.save(path, a)
        flags.append("--input=%s=%s" % (sig["name"], path))
print(" ".join(flags))
