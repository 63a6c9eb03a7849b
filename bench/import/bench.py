#!/usr/bin/env python3
"""bench.py BUILD [--layers N]: import speed and memory of graphc's ONNX importer.

Generates a ~45 MB ONNX model (a stack of Gemm layers with 1024x1024 f32
initializers, random weights), then measures in the same run:
* graphc: `graphc model.onnx --emit=graph -o /dev/null` (read, import, shape
  inference, canonicalization, print), wall time and peak RSS of the process
  (GNU time), best of 3, and the RSS of a 4x4 model for the baseline;
* the peer: `onnx.load` + `onnx.checker.check_model` in Python, wall time of
  those two calls in a fresh interpreter, best of 3.
Prints both against the goal (< 5 s, peak RSS < 4x the file size) and the
ratio graphc time / peer time.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper


def make_model(path, layers, width):
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    x = "x"
    for i in range(layers):
        w = rng.standard_normal((width, width), dtype=np.float32)
        b = rng.standard_normal((width,), dtype=np.float32)
        inits += [numpy_helper.from_array(w, "w%d" % i),
                  numpy_helper.from_array(b, "b%d" % i)]
        nodes.append(h.make_node("Gemm", [x, "w%d" % i, "b%d" % i], ["g%d" % i]))
        nodes.append(h.make_node("Relu", ["g%d" % i], ["r%d" % i]))
        x = "r%d" % i
    graph = h.make_graph(nodes, "stack",
                         [h.make_tensor_value_info("x", T.FLOAT, [8, width])],
                         [h.make_tensor_value_info(x, T.FLOAT, [8, width])],
                         initializer=inits)
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 13)]), path)


def measure(cmd):
    """Wall seconds and peak RSS (bytes) of one run of cmd, from GNU time.

    (wait4's rusage of a child forked from this interpreter would count the
    interpreter's own pages, copied at fork, as the child's peak.)"""
    out = subprocess.run(["/usr/bin/time", "-f", "@@ %e %M"] + cmd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, errors="replace")
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    line = [l for l in out.stderr.splitlines() if l.startswith("@@ ")][-1]
    wall, kb = line.split()[1:]
    return float(wall), int(kb) * 1024


PEER = """
import sys, time, onnx
t = time.perf_counter()
m = onnx.load(sys.argv[1])
onnx.checker.check_model(m)
print(time.perf_counter() - t)
"""


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    layers = 11
    if "--layers" in sys.argv:
        layers = int(sys.argv[sys.argv.index("--layers") + 1])
    graphc = os.path.join(build, "bin", "graphc")
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "stack.onnx")
        make_model(model, layers, 1024)
        size = os.path.getsize(model)
        runs = [measure([graphc, model, "--emit=graph", "-o", os.devnull])
                for _ in range(3)]
        # The process's own footprint (libMLIR and friends), for context.
        tiny = os.path.join(tmp, "tiny.onnx")
        make_model(tiny, 1, 4)
        base_rss = min(measure([graphc, tiny, "--emit=graph", "-o",
                                os.devnull])[1] for _ in range(3))
        g_time = min(r[0] for r in runs)
        g_rss = min(r[1] for r in runs)
        peer = []
        for _ in range(3):
            out = subprocess.run([sys.executable, "-c", PEER, model],
                                 stdout=subprocess.PIPE, check=True, text=True)
            peer.append(float(out.stdout.strip()))
        p_time = min(peer)
    mb = 1024 * 1024
    print("import bench: model %.1f MB (%d Gemm layers, 1024x1024 f32)"
          % (size / mb, layers))
    print("graphc import: %.2f s (goal < 5 s: %s), peak RSS %.0f MB = %.2fx "
          "the file (goal < 4x: %s)"
          % (g_time, "met" if g_time < 5 else "MISSED", g_rss / mb,
             g_rss / size, "met" if g_rss < 4 * size else "MISSED"))
    print("graphc on a 4x4 model: peak RSS %.0f MB; the 44 MB model adds "
          "%.0f MB = %.2fx the file" % (base_rss / mb, (g_rss - base_rss) / mb,
                                        (g_rss - base_rss) / size))
    print("peer onnx.load + onnx.checker.check_model: %.2f s; graphc/peer "
          "time ratio %.2f" % (p_time, g_time / p_time))


if __name__ == "__main__":
    main()
