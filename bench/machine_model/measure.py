#!/usr/bin/env python3
"""measure.py BUILD OUT.json [--quick] [--batch N]: measure this machine for the
communication report's machine model (docs/design/distribution.md) and write
it as the JSON `graphc --machine-model` reads.

Everything is measured through graphc's own code, one thread per worker
(OMP_NUM_THREADS=1), because that is what the estimate predicts:
* flops_per_second: a 256x1024 . 1024x1024 f32 MatMul (ONNX, both operands
  inputs so nothing folds) compiled by graphc, its step time from
  `graph-run --stats` (the median step inside the worker: run it on an idle
  machine);
* efficiency["graph.conv"]: the fraction of that rate ResNet's eleven
  distinct convolution shapes reach together, at batch N (default 1: give
  the batch of the jobs the model will predict, since a convolution's rate
  depends on its shape). When the convolutions outrun the GEMM (a larger
  batch can), the convolution rate becomes flops_per_second and the GEMM's
  fraction of it becomes efficiency["graph.matmul"];
* memory_bytes_per_second: an f32 Add of two 1M-element tensors (12 MB read
  plus written), the bytes the graph cost interface counts over its step;
* link_latency_seconds and link_bytes_per_second: the runtime's hand-written
  producer/consumer pair (test/runtime/pair.test) on loopback, from its
  `--trace`: an 8-byte message's time from the send's start to the end of
  the receive that was waiting for it is the latency; the 400 000-byte
  message's time less that latency gives the bandwidth. Medians over the
  steps after the first (which opens the connections).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "bench", "nn"))
sys.path.insert(0, os.path.join(root, "test", "runtime", "Inputs"))
import common  # noqa: E402
import graphrt_test  # noqa: E402

common.THREADS = 1

# (in channels, out channels, kernel, stride, input height = width): the
# distinct convolution shapes of ResNet-18/34 (torchvision's layout).
CONV_MIX = [
    (3, 64, 7, 2, 224),
    (64, 64, 3, 1, 56),
    (64, 128, 3, 2, 56), (64, 128, 1, 2, 56), (128, 128, 3, 1, 28),
    (128, 256, 3, 2, 28), (128, 256, 1, 2, 28), (256, 256, 3, 1, 14),
    (256, 512, 3, 2, 14), (256, 512, 1, 2, 14), (512, 512, 3, 1, 7),
]


def onnx_model(path, op, inputs, output, **attrs):
    """A one-node ONNX model: inputs [(name, shape)], output (name, shape)."""
    node = helper.make_node(op, [n for n, _ in inputs], [output[0]], **attrs)
    graph = helper.make_graph(
        [node], op.lower(),
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info(output[0], TensorProto.FLOAT, output[1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, path)


def step_seconds(build, tmp, name, op, inputs, output, repeat, **attrs):
    model = os.path.join(tmp, name + ".onnx")
    job = os.path.join(tmp, name + ".gjob")
    onnx_model(model, op, inputs, output, **attrs)
    # One thread, as the report models a worker (and bench/run.sh dist runs
    # them): single-threaded code, not the suites' OpenMP default.
    common.compile_model(build, model, job, extra=["--no-openmp"])
    paths, _ = common.write_inputs(job, tmp)
    stats, _ = common.run_job(build, job, paths, repeat)
    # The median step, as the benchmarks the estimate is compared with
    # report (the fastest step is what an uninterrupted run can do, and made
    # every estimate optimistic); measure on an otherwise idle machine.
    return stats["median_ms"] / 1e3


def link(build, tmp, steps):
    d = os.path.join(tmp, "pair")
    os.makedirs(d, exist_ok=True)
    graphrt_test.pair_bundle(d, os.path.join(build, "lib"))
    trace = os.path.join(tmp, "pair.trace.json")
    cmd = [common.tool(build, "graph-run"), "--quiet", "--steps", str(steps),
           "--input", "x=" + os.path.join(d, "x.npy"), "--trace", trace,
           os.path.join(d, "pair.gjob")]
    r = subprocess.run(cmd, env=dict(os.environ, OMP_NUM_THREADS="1"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    if r.returncode != 0:
        raise common.Failed("pair run failed: " + common.first_error(r.stderr))
    events = json.load(open(trace))["traceEvents"]
    names = {e["pid"]: e["args"]["name"].split()[-1]
             for e in events if e["ph"] == "M"}
    spans = {}
    for e in events:
        if e["ph"] == "X" and e["cat"] in ("send", "recv"):
            spans[(names[e["pid"]], e["name"], e["args"]["step"])] = e

    def message_seconds(sender, receiver, key, step):
        s = spans[(sender, "send " + key, step)]
        r = spans[(receiver, "recv " + key, step)]
        return (r["ts"] + r["dur"] - s["ts"]) / 1e6

    latency, big = [], []
    for step in range(1, steps):
        latency.append(message_seconds("consumer", "producer", "back", step))
        big.append(message_seconds("producer", "consumer", "edge", step))
    lat = statistics.median(latency)
    edge_bytes = graphrt_test.N * 4
    bw = edge_bytes / max(statistics.median(big) - lat, 1e-9)
    return lat, bw


def main():
    build, out = sys.argv[1], sys.argv[2]
    quick = "--quick" in sys.argv[3:]
    repeat = 5 if quick else 30
    batch = (int(sys.argv[sys.argv.index("--batch") + 1])
             if "--batch" in sys.argv else 1)
    with tempfile.TemporaryDirectory() as tmp:
        m, k, n = 256, 1024, 1024
        gemm = step_seconds(build, tmp, "gemm", "MatMul",
                            [("a", [m, k]), ("b", [k, n])], ("c", [m, n]),
                            repeat)
        flops = 2.0 * m * k * n / gemm
        # Convolutions run below the GEMM rate (im2col copies, GEMMs with
        # small K or few output pixels, edge tiles), and how far below
        # depends on the shape, so graph.conv gets the fraction of the GEMM
        # rate that a CNN's mix of layers reaches: ResNet's layer shapes at
        # --batch (the stem, 3x3 at every width, the strided 3x3 and 1x1
        # that downsample), total FLOPs over total time.
        conv_flops = conv_time = 0.0
        for i, (cin, cout, kernel, stride, hw) in enumerate(CONV_MIX):
            pad = kernel // 2
            ho = (hw + 2 * pad - kernel) // stride + 1
            conv_time += step_seconds(
                build, tmp, "conv%d" % i, "Conv",
                [("x", [batch, cin, hw, hw]),
                 ("w", [cout, cin, kernel, kernel])],
                ("y", [batch, cout, ho, ho]), repeat, pads=[pad] * 4,
                strides=[stride, stride])
            conv_flops += 2.0 * batch * cout * cin * kernel * kernel * ho * ho
        gemm_flops = flops
        flops = max(flops, conv_flops / conv_time)
        efficiency = {"graph.conv": float("%.3g" % (conv_flops / conv_time / flops))}
        if gemm_flops < flops:
            efficiency["graph.matmul"] = float("%.3g" % (gemm_flops / flops))
        elems = 1 << 20
        add = step_seconds(build, tmp, "add", "Add",
                           [("a", [elems]), ("b", [elems])], ("c", [elems]),
                           repeat)
        membw = 3.0 * 4 * elems / add
        lat, bw = link(build, tmp, 6 if quick else 40)
    model = {
        "name": "%s, 1 thread (bench/run.sh machine-model)" % common.cpu_name(),
        "flops_per_second": float("%.4g" % flops),
        "memory_bytes_per_second": float("%.4g" % membw),
        "link_bytes_per_second": float("%.4g" % bw),
        "link_latency_seconds": float("%.4g" % lat),
        "efficiency": efficiency,
    }
    with open(out, "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")
    print("machine model (%s):" % model["name"])
    print("  GEMM %dx%dx%d: %.3f ms, %.2f GFLOP/s"
          % (m, k, n, gemm * 1e3, gemm_flops / 1e9))
    print("  %d ResNet conv layers at batch %d: %.3f ms, %.2f GFLOP/s"
          % (len(CONV_MIX), batch, conv_time * 1e3, conv_flops / conv_time / 1e9))
    print("  Add of 2 x %d f32: %.3f ms, %.2f GB/s" % (elems, add * 1e3, membw / 1e9))
    print("  loopback link: latency %.1f us, %.2f GB/s" % (lat * 1e6, bw / 1e9))
    print("wrote " + out)


if __name__ == "__main__":
    main()
