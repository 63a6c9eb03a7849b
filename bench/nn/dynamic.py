#!/usr/bin/env python3
"""dynamic.py BUILD [--quick]: the cost of one dynamic-batch bundle against
bundles specialised per batch size (docs/design/dynamic-batch.md).

Each model is exported with a dynamic batch (torch.onnx.export, dynamic_axes)
and compiled twice: once as is (one bundle for every batch size) and once per
batch with `--input-shape x:BATCHx...`. Both run the same input with
`graph-run --repeat N --stats` under OMP_NUM_THREADS=2, N steps of about
1.5 s (at most 2000), three rounds alternating the two bundles; the table
prints the median of the rounds' in-worker medians and dynamic/specialised
(goal <= 1.1), and checks the two
outputs agree. Models: an MLP 784-512-512-10 and a small CNN; ResNet-18
unless --quick. Batches 1 and 8 (--quick: 8).
"""
import os
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import torch_models  # noqa: E402

GOAL = 1.1
ROUNDS = 3


def small_cnn():
    torch.manual_seed(0)
    nn = torch.nn
    return torch_models.randomise_bn(nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32),
        nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 8 * 8, 10)))


def main():
    build = sys.argv[1]
    quick = "--quick" in sys.argv
    models = [("mlp", torch_models.mlp, [784]), ("cnn", small_cnn, [3, 32, 32])]
    if not quick:
        models.append(("resnet18", torch_models.resnet18, [3, 224, 224]))
    batches = [8] if quick else [1, 8]
    print("CPU: %s; %s; %d threads" % (common.cpu_name(), common.load_info(),
                                       common.THREADS))
    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, shape in models:
            path = os.path.join(tmp, name + ".onnx")
            torch_models.export(make().eval(), torch.randn([2] + shape), path)
            dyn = os.path.join(tmp, name + "-dyn.gjob")
            try:
                common.compile_model(build, path, dyn)
            except common.Failed as e:
                rows.append([name, "-", str(e)])
                continue
            for b in batches:
                static = os.path.join(tmp, "%s-b%d.gjob" % (name, b))
                x = np.random.default_rng(b).standard_normal(
                    [b] + shape).astype(np.float32)
                xp = os.path.join(tmp, "%s-x%d.npy" % (name, b))
                np.save(xp, x)
                try:
                    common.compile_model(
                        build, path, static,
                        ["x:" + "x".join(str(d) for d in [b] + shape)])
                    probe, _ = common.run_job(build, static, {"x": xp}, 3)
                    # Steps of well under a millisecond get up to 2000
                    # steps, and both bundles run ROUNDS times alternately:
                    # with 200 steps in one round each, the MLP's 0.08 ms
                    # step read 0.83-1.71 from run to run.
                    repeat = common.pick_repeat(probe["median_ms"], hi=2000)
                    smeds, dmeds = [], []
                    for r in range(ROUNDS):
                        s, so = common.run_job(build, static, {"x": xp},
                                               repeat, outdir=static + ".out")
                        d, do = common.run_job(build, dyn, {"x": xp}, repeat,
                                               outdir=dyn + ".out%d" % b)
                        smeds.append(s["median_ms"])
                        dmeds.append(d["median_ms"])
                except common.Failed as e:
                    rows.append([name, str(b), str(e)])
                    continue
                err = float(np.abs(so["y"] - do["y"]).max())
                ok = np.allclose(so["y"], do["y"], rtol=1e-4, atol=1e-5)
                s = {"median_ms": float(np.median(smeds))}
                d = {"median_ms": float(np.median(dmeds))}
                ratio = d["median_ms"] / s["median_ms"]
                ratios.append(ratio)
                rows.append([name, str(b), "%.3f" % s["median_ms"],
                             "%.3f" % d["median_ms"], "%.2f" % ratio,
                             "%.1e" % err + ("" if ok else " MISMATCH")])
    common.table(["model", "batch", "specialised ms", "dynamic ms",
                  "dynamic/specialised", "max abs diff"], rows)
    if ratios:
        met = sum(r <= GOAL for r in ratios)
        print("dynamic/specialised geometric mean %.2f over %d cases; %d meet "
              "the goal (<= %.2f)" % (common.geomean(ratios), len(ratios), met,
                                      GOAL))


main()
