"""run_configs.py BUILD DIR MODEL... -- FLAGS...: for each model exported by
torch_export.py into DIR, compiles the single-task job and one job per FLAGS
string, runs each with graph-run, and compares every distributed job's
output with the single-task job's and PyTorch's (compare.py). Prints, per
model and flags, the job's task count and compare.py's verdict."""
import json
import os
import subprocess
import sys

build, work = sys.argv[1], sys.argv[2]
sep = sys.argv.index("--")
models, configs = sys.argv[3:sep], sys.argv[sep + 1:]
bin_ = os.path.join(build, "bin")
here = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout))
    return p.stdout


def job(model, flags, tag):
    path = os.path.join(work, "%s-%s.gjob" % (model, tag))
    run([os.path.join(bin_, "graphc"), os.path.join(work, model + ".onnx"),
         "-o", path] + flags.split())
    out = path + ".out"
    run([os.path.join(bin_, "graph-run"), "--quiet", path, "--input",
         "x=" + os.path.join(work, "x_%s.npy" % model), "--output-dir", out])
    tasks = len(json.load(open(os.path.join(path, "manifest.json")))["tasks"])
    return os.path.join(out, "y.npy"), tasks


for model in models:
    single, _ = job(model, "", "single")
    for i, flags in enumerate(configs):
        got, tasks = job(model, flags, "c%d" % i)
        name = "%s %s" % (model, flags)
        print("%s: %d tasks" % (name, tasks))
        sys.stdout.write(run([sys.executable, os.path.join(here, "compare.py"),
                              name, got, single,
                              os.path.join(work, "ref_%s.npy" % model)]))
