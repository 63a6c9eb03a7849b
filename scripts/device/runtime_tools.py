#!/usr/bin/env python3
"""runtime_tools.py: the Python half of scripts/device-prepare.sh and scripts/device-check.sh.

  exchange-bundle OUT LIBDIR    (here) writes OUT/exchange.gjob, its inputs and
                                the expected outputs, for the 2-task cuda job
  compare OUT REF RTOL          every REF/NAME.npy against OUT/NAME.npy
  gemm DIR DTYPE [ITERS]        the runtime's GEMM result in DIR (a, b, c .npy
                                from graphrt-gpu-bench --out) against
                                torch.matmul on the GPU, and torch.matmul's time
  stats FILE                    median_ms of a graph-run --stats file

Each prints one line that device-check.sh puts in its table, and exits
non-zero when a check fails.
"""
import json
import os
import sys
import time

import numpy as np


def exchange_bundle(out, libdir):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "test", "runtime", "Inputs"))
    from graphrt_test import sig, write_bundle

    n = 1 << 16  # as kCount in GpuExchangeTask.cpp
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(14)
    xs = [rng.integers(-1000, 1000, size=n).astype(np.float32) for _ in range(2)]
    inputs = os.path.join(out, "exchange-inputs")
    ref = os.path.join(out, "exchange-ref")
    os.makedirs(inputs, exist_ok=True)
    os.makedirs(ref, exist_ok=True)
    for r, x in enumerate(xs):
        np.save(os.path.join(inputs, "x%d.npy" % r), x)
        np.save(os.path.join(ref, "g%d_sum.npy" % r), xs[0] + xs[1])
        np.save(os.path.join(ref, "g%d_peer.npy" % r), xs[1 - r])
    tasks, files = [], {}
    for r in range(2):
        lib = "g%d.so" % r
        files[lib] = os.path.join(libdir, "libgraphrt_test_gpu_exchange_r%d.so" % r)
        tasks.append({"name": "g%d" % r, "job": "worker", "index": r,
                      "library": lib, "target": "cuda",
                      "device": "/job:worker/task:%d/device:GPU:%d" % (r, r),
                      "entry": "graphrt_task_descriptor_v1",
                      "inputs": [sig("x%d" % r, "f32", [n])],
                      "outputs": [sig("g%d_sum" % r, "f32", [n]),
                                  sig("g%d_peer" % r, "f32", [n])]})
    manifest = {
        "format_version": 1, "name": "gpu-exchange", "tasks": tasks,
        "channels": [
            {"key": "g0_to_g1", "src": "g0", "dst": "g1",
             "payload": sig("g0_to_g1", "f32", [n])},
            {"key": "g1_to_g0", "src": "g1", "dst": "g0",
             "payload": sig("g1_to_g0", "f32", [n])}],
        "collective_groups": [{"name": "gpus", "tasks": ["g0", "g1"]}],
    }
    write_bundle(os.path.join(out, "exchange.gjob"), manifest, files)


def compare(out, ref, rtol):
    rtol = float(rtol)
    names = sorted(f for f in os.listdir(ref) if f.endswith(".npy"))
    if not names:
        sys.exit("no reference .npy in " + ref)
    worst, failed = 0.0, []
    for name in names:
        want = np.load(os.path.join(ref, name))
        path = os.path.join(out, name)
        if not os.path.exists(path):
            failed.append(name[:-4] + " missing")
            continue
        got = np.load(path)
        if got.shape != want.shape:
            failed.append("%s shape %s, expected %s" % (name[:-4], got.shape,
                                                        want.shape))
            continue
        g, w = got.astype(np.float64), want.astype(np.float64)
        # Relative to the reference's scale, so near-zero elements do not
        # dominate: max |got - want| / max |want|.
        scale = max(np.abs(w).max(initial=0.0), 1e-30)
        err = float(np.abs(g - w).max(initial=0.0) / scale)
        if not np.isfinite(g).all() and np.isfinite(w).all():
            err = float("inf")
        worst = max(worst, err)
        if err > rtol:
            failed.append("%s rel err %.2e" % (name[:-4], err))
    if failed:
        print("FAIL (%s)" % "; ".join(failed))
        sys.exit(1)
    print("ok (%d outputs, max rel err %.1e)" % (len(names), worst))


def gemm(d, dtype, iters=20):
    import torch

    iters = int(iters)
    tdt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    a = torch.from_numpy(np.load(os.path.join(d, "a.npy"))).cuda().to(tdt)
    b = torch.from_numpy(np.load(os.path.join(d, "b.npy"))).cuda().to(tdt)
    c = torch.from_numpy(np.load(os.path.join(d, "c.npy"))).cuda()
    # Plain fp32 on both sides (TF32 off), as the runtime's f32 GEMM is.
    torch.backends.cuda.matmul.allow_tf32 = False
    ref = torch.matmul(a, b).float()
    err = ((c - ref).abs().max() / ref.abs().max()).item()
    for _ in range(3):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3 / iters
    m, k = a.shape
    n = b.shape[1]
    tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
    tol = 1e-4 if dtype == "f32" else 2e-2
    verdict = "ok" if err <= tol else "FAIL"
    print("%s torch.matmul %.3f ms %.1f TFLOP/s, max rel diff %.1e" %
          (verdict, ms, tflops, err))
    if verdict != "ok":
        sys.exit(1)


def stats(path):
    with open(path) as f:
        print("%.3f" % json.load(f)["median_ms"])


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "exchange-bundle":
        exchange_bundle(*args)
    elif cmd == "compare":
        compare(*args)
    elif cmd == "gemm":
        gemm(*args)
    elif cmd == "stats":
        stats(*args)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
