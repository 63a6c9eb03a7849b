#!/usr/bin/env python3
"""compile.py BUILD [--model resnet50|densenet121|resnet18] [--stages]:
graphc's compile time and peak memory on ResNet-50 and DenseNet-121 (the
goals of the CPU-performance issue: ResNet-50 <= 10 s, DenseNet-121 <= 20 s,
peak RSS <= 3x the weights), beside PyTorch's own ahead-of-time path on the
same models. --model runs one model only; --stages also times graphc stopping
at each rung of the emit ladder (graph, linalg, llvm, obj), to show where the
time and memory go (`graphc --mlir-timing` splits it by pass).

The models are torch_models.resnet50 and densenet121 (torchvision's layouts,
25.6 M and 8.0 M parameters, random weights), exported with
torch.onnx.export (BN folded into the convolutions where it follows one)
into a temporary folder. Measured in this run, per model:
* graphc: `graphc MODEL.onnx --input-shape x:1x3x224x224 -o job.gjob`
  (import to a linked .so and weights files): wall seconds and peak RSS
  from GNU time (`%e %M`), the goal is judged on that peak; and beside it
  the peak anonymous RSS (RssAnon of /proc/PID/status, sampled every 5 ms:
  graphc's own allocations, without the pages of the shared libraries
  libLLVM and libMLIR it runs, which are file-backed and shared). The same
  for graphc on a one-node model: the process's own footprint, the floor
  under both figures;
* the peer: torch.jit.trace + torch.jit.freeze + optimize_for_inference of
  the same nn.Module in a fresh interpreter, the seconds of those calls and
  the process's peak RSS (torch's own footprint included).
"""
import os
import shlex
import subprocess
import sys
import tempfile
import time

import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import torch_models  # noqa: E402

# name: compile-time goal in seconds (None: no goal, measured only).
GOAL_SECS = {"resnet50": 10.0, "densenet121": 20.0, "resnet18": None}
# Peak RSS goal, in multiples of the weights' bytes.
GOAL_RSS = 3.0

PEER = """
import sys, time, torch
sys.path.insert(0, sys.argv[1])
import torch_models
torch.set_num_threads(2)
m = getattr(torch_models, sys.argv[2])()
x = torch.randn(1, 3, 224, 224)
t = time.perf_counter()
with torch.no_grad():
    s = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(m, x)))
print("@@peer", time.perf_counter() - t)
"""


def measure_peer(model_name):
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(["/usr/bin/time", "-f", "@@ %e %M", "/usr/bin/python3",
                        "-c", PEER, here, model_name], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace",
                       check=True)
    secs = float([l for l in r.stdout.splitlines()
                  if l.startswith("@@peer")][-1].split()[1])
    kb = int([l for l in r.stderr.splitlines() if l.startswith("@@ ")][-1]
             .split()[2])
    return secs, kb * 1024


# How often the anonymous RSS is sampled: short enough to catch a phase that
# lasts a few tens of milliseconds, long enough to cost the compile little.
SAMPLE_SECS = 0.005


def proc_status(pid):
    """RssAnon and RssFile of process pid in bytes, or None once it is gone."""
    fields = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("RssAnon", "RssFile"):
                    fields[key] = int(value.split()[0]) * 1024
    except OSError:
        return None
    return fields if len(fields) == 2 else None


def child_pid(pid):
    """The first child of process pid, or None."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            children = f.read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def compile_sampled(build, model, job, input_shapes=(), extra=(),
                    timeout=1800):
    """graphc MODEL -o JOB under GNU time, as common.compile_model runs it
    (GRAPHC_FLAGS included), its RssAnon sampled while it runs. Returns a
    dict: secs (wall) and rss (peak RSS) from GNU time's %e and %M, anon
    (the largest RssAnon sampled) and file (RssFile in that sample). (GNU
    time, not this process, starts graphc: a child forked from this Python,
    which holds PyTorch, would count Python's RSS in its own peak.) Raises
    common.Failed."""
    cmd = [common.tool(build, "graphc"), model, "-o", job] + list(extra)
    cmd += shlex.split(os.environ.get("GRAPHC_FLAGS", ""))
    cmd += ["--input-shape=" + s for s in input_shapes]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(["/usr/bin/time", "-f", "@@ %e %M"] + cmd,
                             env=common.tool_env(),
                             stdout=subprocess.DEVNULL, stderr=err)
        anon = {"RssAnon": 0, "RssFile": 0}
        graphc = None
        while p.poll() is None:
            if time.perf_counter() - start > timeout:
                p.kill()
                p.wait()
                raise common.Failed("compile failed: timed out after %d s"
                                    % timeout)
            graphc = graphc or child_pid(p.pid)
            now = proc_status(graphc) if graphc else None
            if now and now["RssAnon"] > anon["RssAnon"]:
                anon = now
            time.sleep(SAMPLE_SECS)
        err.seek(0)
        text = err.read().decode(errors="replace")
    stats = [l for l in text.splitlines() if l.startswith("@@ ")]
    if p.returncode != 0 or not stats:
        raise common.Failed("compile failed: " + common.first_error(
            "\n".join(l for l in text.splitlines()
                      if not l.startswith("@@ ") and
                      not l.startswith("Command exited"))))
    wall, kb = stats[-1].split()[1:]
    return {"secs": float(wall), "rss": int(kb) * 1024,
            "anon": anon["RssAnon"], "file": anon["RssFile"]}


def met(ok):
    return "met" if ok else "MISSED"


def measure(build, tmp, model_name, stages):
    """Returns a dict of the model's figures, or one with "error"."""
    mb = 1024.0 * 1024.0
    module = getattr(torch_models, model_name)()
    path = os.path.join(tmp, model_name + ".onnx")
    torch_models.export(module, torch.randn(1, 3, 224, 224), path)
    weights = sum(len(i.raw_data) or 4 * len(i.float_data)
                  for i in onnx.load(path).graph.initializer)
    print("%s: %.1f M parameters, ONNX file %.1f MB, initializers %.1f MB"
          % (model_name, torch_models.params(module) / 1e6,
             os.path.getsize(path) / mb, weights / mb))
    r = {"model": model_name, "weights": weights}
    try:
        r["graphc"] = compile_sampled(
            build, path, os.path.join(tmp, model_name + ".gjob"),
            ["x:1x3x224x224"])
    except common.Failed as e:
        r["error"] = str(e)
        return r
    r["peer_secs"], r["peer_rss"] = measure_peer(model_name)
    r["stages"] = []
    if stages:
        for emit in ("graph", "linalg", "llvm", "obj"):
            r["stages"].append((emit, compile_sampled(
                build, path, os.devnull, ["x:1x3x224x224"],
                ["--emit=" + emit])))
    return r


def main():
    build = os.path.abspath(sys.argv[1])
    names = ["resnet50", "densenet121"]
    if "--model" in sys.argv:
        names = [sys.argv[sys.argv.index("--model") + 1]]
    unknown = [n for n in names if n not in GOAL_SECS]
    if unknown:
        print("compile bench: unknown model %s; models: %s"
              % (unknown[0], ", ".join(GOAL_SECS)))
        return 2
    mb = 1024.0 * 1024.0
    print("compile bench: %s; %s" % (", ".join(names), common.load_info()))
    with tempfile.TemporaryDirectory(prefix="graphc-compile-") as tmp:
        tiny = compile_sampled(build, *common.tiny_model(tmp))
        results = [measure(build, tmp, n, "--stages" in sys.argv)
                   for n in names]

    def mb_x(value, weights):
        return "%.0f MB = %.2fx" % (value / mb, value / weights)

    rows = []
    for r in results:
        if "error" in r:
            rows.append([r["model"], "graphc: " + r["error"]])
            continue
        g, w = r["graphc"], r["weights"]
        goal = GOAL_SECS[r["model"]]
        ratio = g["rss"] / w
        rows.append([
            r["model"], "%.0f" % (w / mb), "%.1f" % g["secs"],
            "n/a" if goal is None else "<= %.0f s: %s" % (goal,
                                                         met(g["secs"] <= goal)),
            mb_x(g["rss"], w),
            "<= %.0fx: %s" % (GOAL_RSS, met(ratio <= GOAL_RSS)),
            mb_x(g["anon"], w), mb_x(tiny["rss"], w), mb_x(tiny["anon"], w),
            "%.1f s, %.0f MB" % (r["peer_secs"], r["peer_rss"] / mb)])
    common.table(["model", "weights MB", "graphc s", "goal",
                  "peak RSS (the goal's figure)", "goal",
                  "peak anon RSS", "one-node peak RSS",
                  "one-node anon RSS", "peer jit trace+freeze+optimize"],
                 rows)
    print("The RSS goal is judged on the peak RSS (GNU time's %%M), "
          "shared-library pages included. Anon RSS: graphc's "
          "own allocations (RssAnon, sampled every %.0f ms), without the "
          "file-backed pages of libLLVM/libMLIR. One-node: graphc on a "
          "one-Relu model, %.1f s, peak RSS %.0f MB (of which anon %.0f MB, "
          "file %.0f MB at the anon peak): the process's own footprint, "
          "as a multiple of each model's weights."
          % (SAMPLE_SECS * 1000, tiny["secs"], tiny["rss"] / mb,
             tiny["anon"] / mb, tiny["file"] / mb))
    for r in results:
        for emit, g in r.get("stages", []):
            print("  %s graphc --emit=%-6s %6.1f s  peak RSS %s the weights, "
                  "anon %s" % (r["model"], emit, g["secs"],
                               mb_x(g["rss"], r["weights"]),
                               mb_x(g["anon"], r["weights"])))
    print(common.load_info())
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
