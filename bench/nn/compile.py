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
  (import to a linked .so and weights files), wall seconds and peak RSS from
  GNU time (`%e %M`), and the peak RSS of graphc on a one-node model for the
  process's own footprint;
* the peer: torch.jit.trace + torch.jit.freeze + optimize_for_inference of
  the same nn.Module in a fresh interpreter, the seconds of those calls and
  the process's peak RSS (torch's own footprint included).
"""
import os
import subprocess
import sys
import tempfile

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
        r["secs"], r["rss"] = common.compile_model(
            build, path, os.path.join(tmp, model_name + ".gjob"),
            ["x:1x3x224x224"])
    except common.Failed as e:
        r["error"] = str(e)
        return r
    r["peer_secs"], r["peer_rss"] = measure_peer(model_name)
    r["stages"] = []
    if stages:
        for emit in ("graph", "linalg", "llvm", "obj"):
            r["stages"].append((emit, common.compile_model(
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
        tiny_secs, tiny_rss = common.compile_model(build,
                                                   *common.tiny_model(tmp))
        results = [measure(build, tmp, n, "--stages" in sys.argv)
                   for n in names]
    rows = []
    for r in results:
        if "error" in r:
            rows.append([r["model"], "graphc: " + r["error"]])
            continue
        goal = GOAL_SECS[r["model"]]
        ratio = r["rss"] / r["weights"]
        rows.append([
            r["model"], "%.1f" % r["secs"],
            "n/a" if goal is None else "<= %.0f s: %s" % (goal,
                                                         met(r["secs"] <= goal)),
            "%.0f" % (r["rss"] / mb), "%.2fx" % ratio,
            "<= %.0fx: %s" % (GOAL_RSS, met(ratio <= GOAL_RSS)),
            "%.0f" % ((r["rss"] - tiny_rss) / mb),
            "%.1f s, %.0f MB" % (r["peer_secs"], r["peer_rss"] / mb)])
    common.table(["model", "graphc s", "goal", "peak RSS MB", "x weights",
                  "goal", "MB over a one-node model",
                  "peer jit trace+freeze+optimize"], rows)
    print("graphc on a one-node model: %.1f s, peak RSS %.0f MB (the "
          "process's own footprint)" % (tiny_secs, tiny_rss / mb))
    for r in results:
        for emit, (t, m) in r.get("stages", []):
            print("  %s graphc --emit=%-6s %6.1f s  peak RSS %5.0f MB = %.2fx "
                  "the weights" % (r["model"], emit, t, m / mb,
                                   m / r["weights"]))
    print(common.load_info())
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
