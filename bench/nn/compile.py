#!/usr/bin/env python3
"""compile.py BUILD [--model resnet50|resnet18] [--stages]: graphc's compile
time and peak memory on a ResNet-50-sized model, beside PyTorch's own
ahead-of-time path on the same model. --stages also times graphc stopping at
each rung of the emit ladder (graph, linalg, llvm, obj), to show where the
time and memory go.

The model is torch_models.resnet50 (torchvision's layout, 25.6 M parameters,
random weights), exported with torch.onnx.export (BN folded into the
convolutions) into a temporary folder. Measured in this run:
* graphc: `graphc resnet50.onnx --input-shape x:1x3x224x224 -o job.gjob`
  (import to a linked .so and weights files), wall seconds and peak RSS from
  GNU time (`%e %M`), and the peak RSS of graphc on a one-node model for the
  process's own footprint; the goal is < 30 s and peak RSS < 4x the weight
  bytes (the initializers of the exported file);
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


def main():
    build = os.path.abspath(sys.argv[1])
    model_name = "resnet50"
    if "--model" in sys.argv:
        model_name = sys.argv[sys.argv.index("--model") + 1]
    mb = 1024.0 * 1024.0
    print("compile bench: %s; %s" % (model_name, common.load_info()))
    with tempfile.TemporaryDirectory(prefix="graphc-compile-") as tmp:
        module = getattr(torch_models, model_name)()
        path = os.path.join(tmp, model_name + ".onnx")
        torch_models.export(module, torch.randn(1, 3, 224, 224), path)
        weights = sum(len(i.raw_data) or 4 * len(i.float_data)
                      for i in onnx.load(path).graph.initializer)
        print("model: %.1f M parameters, ONNX file %.1f MB, initializers "
              "%.1f MB" % (torch_models.params(module) / 1e6,
                           os.path.getsize(path) / mb, weights / mb))
        tiny_secs, tiny_rss = common.compile_model(build,
                                                   *common.tiny_model(tmp))
        try:
            secs, rss = common.compile_model(
                build, path, os.path.join(tmp, model_name + ".gjob"),
                ["x:1x3x224x224"])
        except common.Failed as e:
            print("graphc: %s" % e)
            return 1
        p_secs, p_rss = measure_peer(model_name)
        stages = []
        if "--stages" in sys.argv:
            for emit in ("graph", "linalg", "llvm", "obj"):
                stages.append((emit, common.compile_model(
                    build, path, os.devnull, ["x:1x3x224x224"],
                    ["--emit=" + emit])))
    print("graphc compile: %.1f s (goal < 30 s: %s), peak RSS %.0f MB = %.2fx "
          "the weights (goal < 4x: %s)"
          % (secs, "met" if secs < 30 else "MISSED", rss / mb, rss / weights,
             "met" if rss < 4 * weights else "MISSED"))
    print("graphc on a one-node model: %.1f s, peak RSS %.0f MB; the model "
          "adds %.0f MB = %.2fx the weights"
          % (tiny_secs, tiny_rss / mb, (rss - tiny_rss) / mb,
             (rss - tiny_rss) / weights))
    print("peer torch.jit trace+freeze+optimize_for_inference: %.1f s, peak "
          "RSS of the process %.0f MB; graphc/peer time %.2f, RSS %.2f"
          % (p_secs, p_rss / mb, secs / p_secs, rss / p_rss))
    for emit, (t, m) in stages:
        print("  graphc --emit=%-6s %6.1f s  peak RSS %5.0f MB = %.2fx the "
              "weights" % (emit, t, m / mb, m / weights))
    print(common.load_info())
    return 0


if __name__ == "__main__":
    sys.exit(main())
