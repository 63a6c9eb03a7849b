#!/usr/bin/env python3
"""conv.py BUILD [--quick] [--batch B] [--only SUBSTRING] [--rounds R]: conv2d
on ResNet-50 layer shapes, MobileNet-v2 depthwise and ShuffleNet grouped ones,
graphc against PyTorch 1.13 (torch.nn.functional.conv2d), both on 2 threads.

For every shape and batch (1 and 8) it writes an ONNX model holding one Conv
(random f32 weights, no bias, ResNet padding), compiles it with graphc, runs
it with `graph-run --repeat N --stats` (OMP_NUM_THREADS=2) and times
F.conv2d on the same input and weights (torch.set_num_threads(2), median of
N after 3 warm-up calls). The graphc output of the last step is compared with
PyTorch's (max abs error); a result beyond tolerance is printed as MISMATCH.
Prints ms for both and graphc/PyTorch (goal <= 1/0.8 = 1.25), and the
runtime's own per-step floor measured on a trivial job.

--rounds R measures every case R times, alternating graphc and PyTorch, and
reports the median of the R medians and the minimum of the R minima: on a
loaded machine one round can land entirely in a busy spell of either side.
--batch 1,8,32 picks the batch sizes (default 1 and 8).

PyTorch's convolutions are oneDNN's (Debian's torch links libdnnl 2.6.3).
F.conv2d on dense NCHW tensors reorders input, weights and output to
oneDNN's blocked layouts on every call; the "onednn" columns run the same
convolution as oneDNN at its best, a `torch.utils.mkldnn` module on an
input already in the blocked layout (no reorders), as a model kept in that
layout would (docs/design/cpu-codegen.md, "Kernel libraries").
--only keeps the shapes whose name contains SUBSTRING.
"""
import statistics
import os
import sys
import tempfile

import numpy as np
import onnx
import torch
import torch.nn.functional as F
import torch.utils.mkldnn  # noqa: F401  (the oneDNN blocked-layout peer)
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

# (name, C_in, C_out, kernel, stride, H=W of the input[, groups]):
# ResNet-50's layers, MobileNet-v2's depthwise 3x3 (groups = channels),
# ShuffleNet's grouped 1x1 (groups 3 and 8), AlexNet's grouped 3x3 (conv4,
# groups 2) and ResNeXt-50's (conv2, 32 groups of 4 channels).
SHAPES = [
    ("stem 7x7/2 3->64 @224", 3, 64, 7, 2, 224),
    ("3x3 64->64 @56", 64, 64, 3, 1, 56),
    ("1x1 256->64 @56", 256, 64, 1, 1, 56),
    ("3x3 128->128 @28", 128, 128, 3, 1, 28),
    ("3x3/2 256->256 @28->14", 256, 256, 3, 2, 28),
    ("1x1 1024->256 @14", 1024, 256, 1, 1, 14),
    ("3x3 512->512 @7", 512, 512, 3, 1, 7),
    ("dw 3x3 32 @112", 32, 32, 3, 1, 112, 32),
    ("dw 3x3/2 96 @112->56", 96, 96, 3, 2, 112, 96),
    ("dw 3x3 144 @56", 144, 144, 3, 1, 56, 144),
    ("grouped 1x1 g3 240->240 @28", 240, 240, 1, 1, 28, 3),
    ("grouped 1x1 g8 384->384 @28", 384, 384, 1, 1, 28, 8),
    ("grouped 3x3 g2 384->384 @13", 384, 384, 3, 1, 13, 2),
    ("grouped 3x3 g32 128->128 @56", 128, 128, 3, 1, 56, 32),
]
GOAL = 1 / 0.8


def conv_model(path, n, cin, cout, k, stride, hw, w, groups=1):
    pad = k // 2
    node = h.make_node("Conv", ["x", "w"], ["y"], kernel_shape=[k, k],
                       strides=[stride, stride], pads=[pad] * 4,
                       group=groups)
    ho = (hw + 2 * pad - k) // stride + 1
    g = h.make_graph([node], "conv",
                     [h.make_tensor_value_info("x", T.FLOAT, [n, cin, hw, hw])],
                     [h.make_tensor_value_info("y", T.FLOAT, [n, cout, ho, ho])],
                     initializer=[numpy_helper.from_array(w, "w")])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), path)


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    batches = [1, 8]
    if "--batch" in sys.argv:
        batches = [int(b) for b in
                   sys.argv[sys.argv.index("--batch") + 1].split(",")]
    budget = 300 if quick else 1500
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    rounds = (int(sys.argv[sys.argv.index("--rounds") + 1])
              if "--rounds" in sys.argv else 1)
    print("conv bench: ResNet-50 conv2d shapes, %d threads, graphc vs PyTorch "
          "%s F.conv2d; %s" % (common.THREADS, torch.__version__,
                               common.load_info()))
    rows, ratios, min_ratios = [], [], []
    blk_ratios, blk_min_ratios = [], []
    with tempfile.TemporaryDirectory(prefix="graphc-conv-") as tmp:
        common.print_floor(build, tmp)
        rng = np.random.default_rng(0)
        for i, (name, cin, cout, k, stride, hw, *rest) in enumerate(SHAPES):
            if only and only not in name:
                continue
            groups = rest[0] if rest else 1
            cg = cin // groups
            w = (rng.standard_normal((cout, cg, k, k), dtype=np.float32)
                 / np.sqrt(cg * k * k)).astype(np.float32)
            for n in batches:
                x = rng.standard_normal((n, cin, hw, hw), dtype=np.float32)
                tx, tw = torch.from_numpy(x), torch.from_numpy(w)
                fn = lambda: F.conv2d(tx, tw, stride=stride, padding=k // 2,
                                      groups=groups)
                with torch.no_grad():
                    want = fn().numpy()
                    conv = torch.nn.Conv2d(cin, cout, k, stride, k // 2,
                                           groups=groups, bias=False).eval()
                    conv.weight.copy_(tw)
                    blocked = torch.utils.mkldnn.to_mkldnn(conv)
                    bx = tx.to_mkldnn()
                    b_err = float(np.max(np.abs(
                        blocked(bx).to_dense().numpy() - want)))
                blk = lambda: blocked(bx)
                # Size the run from one timed PyTorch call.
                probe = common.torch_time_ms(fn, 3, warmup=1)[1]
                repeat = common.pick_repeat(probe, budget)
                row = [name, str(n), str(repeat)]
                try:
                    model = os.path.join(tmp, "conv%d_%d.onnx" % (i, n))
                    job = model[:-5] + ".gjob"
                    conv_model(model, n, cin, cout, k, stride, hw, w, groups)
                    ctime, _ = common.compile_model(build, model, job)
                    paths, _ = common.write_inputs(job, tmp, given={"x": x})
                    g_meds, g_mins, t_meds, t_mins, walls = [], [], [], [], []
                    b_meds, b_mins = [], []
                    for _ in range(rounds):
                        stats, outs = common.run_job(build, job, paths, repeat,
                                                     outdir=job + ".out")
                        g_meds.append(stats["median_ms"])
                        g_mins.append(stats["min_ms"])
                        walls.append(stats["wall_median_ms"])
                        t_med, t_min1 = common.torch_time_ms(fn, repeat)
                        t_meds.append(t_med)
                        t_mins.append(t_min1)
                        with torch.no_grad():
                            b_med, b_min1 = common.torch_time_ms(blk, repeat)
                        b_meds.append(b_med)
                        b_mins.append(b_min1)
                    err = float(np.max(np.abs(outs["y"] - want)))
                    ok = np.allclose(outs["y"], want, rtol=1e-3, atol=1e-3)
                    g_ms = statistics.median(g_meds)
                except common.Failed as e:
                    rows.append(row + [str(e)])
                    continue
                t_ms, t_min = statistics.median(t_meds), min(t_mins)
                stats = {"min_ms": min(g_mins),
                         "wall_median_ms": statistics.median(walls)}
                ratio = g_ms / t_ms
                b_ms, b_min = statistics.median(b_meds), min(b_mins)
                blk_ratios.append(g_ms / b_ms)
                blk_min_ratios.append(min(g_mins) / b_min)
                ratios.append(ratio)
                min_ratios.append(stats["min_ms"] / t_min)
                rows.append(row + [
                    "%.3f" % g_ms, "%.3f" % t_ms, "%.2f" % ratio,
                    "%.3f" % stats["min_ms"], "%.3f" % t_min,
                    "%.2f" % min_ratios[-1], "%.3f" % b_ms, "%.3f" % b_min,
                    "%.2f" % blk_ratios[-1], "%.2f" % blk_min_ratios[-1],
                    "%.3f" % stats["wall_median_ms"],
                    ("%.1e" % err) if ok else "MISMATCH max err %.3g" % err,
                    "%.1e" % b_err,
                    "%.1f" % ctime])
    common.table(["shape", "N", "steps", "graphc ms", "torch ms",
                  "ratio", "graphc min", "torch min", "min ratio",
                  "onednn ms", "onednn min", "ratio", "min ratio",
                  "graphc wall ms", "max abs err", "onednn err", "compile s"],
                 rows)
    if ratios:
        common.print_ratio_summary(ratios, min_ratios, GOAL)
        print("graphc/onednn (blocked layout, no reorders) geometric mean: "
              "%.2f of medians, %.2f of minima" % (
                  common.geomean(blk_ratios), common.geomean(blk_min_ratios)))
    print("graphc ms/min: graph-run --stats median_ms/min_ms (inside the "
          "worker); torch ms/min: median/min of as many F.conv2d calls; "
          "ratio = graphc/torch; graphc wall ms: the step as graph-run sees it "
          "(adds the per-step RPC). %s" % common.load_info())


if __name__ == "__main__":
    main()
