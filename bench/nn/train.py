#!/usr/bin/env python3
"""train.py BUILD [--quick] [--only NAME] [--work DIR]: data-parallel
training steps, graphc's 2 replicas against PyTorch DistributedDataParallel.

--work DIR keeps the exported models and compiled bundles in DIR/NAME and
reuses them on the next run, so a slow compile (ResNet-18's training step)
can be done once, even on a busy machine, and the timing run made later on
an idle one.

For each model (an MLP 784-512-512-10 and ResNet-18) at global batch 16:

* graphc: the untrained model exported to ONNX, compiled with `graphc
  --train --labels=y --loss=softmax_cross_entropy --optimizer=sgd --lr=0.01
  --no-openmp` as one task and with `--replicas 2`, and run with `graph-run
  --repeat R --stats` under OMP_NUM_THREADS=1 (so 2 workers use 2 cores).
  The figure is `wall_median_ms`, the whole job's step (feeding the global
  batch, the split, forward, backward, the gradient all-reduce, the update).
  The batch comes from --data files of one batch (cut by the worker); the
  2-worker job also runs under --per-step (one RPC per step, the loop before
  RunSteps) and once more right after DDP, for a back-to-back ratio.
* the peer: PyTorch 1.13, 2 processes under DistributedDataParallel (gloo on
  127.0.0.1), each with one thread and half the global batch, the same
  model, cross-entropy loss and SGD step (zero_grad, forward, backward with
  DDP's all-reduce, optimizer.step); and 1 process without DDP on the whole
  batch. The figure is the median over the timed steps of the slowest rank's
  step, after warm-up steps.

ResNet-18's batch normalisation uses the running statistics on both sides
(graphc --batch-norm=running, the PyTorch model in eval() while its weights
train): dist-place refuses batch-norm training under --replicas, since each
replica's batch statistics would not be the global batch's.

Printed: graphc's scaling efficiency = (1-task step / 2-worker step) / 2
(goal >= 90%), throughput against DDP = DDP step / graphc 2-worker step
(goal >= 1.0), and PyTorch's own scaling efficiency for context.
"""
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import torch_models  # noqa: E402

BATCH = 16
LR = 0.01
WORKERS = 2

# name: (constructor, per-example input shape, classes, graphc flags, repeats
# (full, --quick))
MODELS = {
    "mlp": (torch_models.mlp, (784,), 10, [], (50, 10)),
    "resnet18": (torch_models.resnet18, (3, 224, 224), 1000,
                 ["--batch-norm=running"], (6, 2)),
}


def peer_env():
    """The PyTorch processes' environment: one thread, and OpenBLAS told the
    core on AVX-512 CPUs (its run-time detection picks a slower kernel on
    some of them). graphc's processes never get OPENBLAS_CORETYPE."""
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOO_SOCKET_IFNAME="lo")
    env.pop("OPENBLAS_CORETYPE", None)
    if common.peer_openblas_coretype():
        env["OPENBLAS_CORETYPE"] = common.peer_openblas_coretype()
    return env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- The peer: one PyTorch process (run as `train.py --peer ...`) -----------

def peer(name, data, world, rank, port, warmup, repeat):
    torch.set_num_threads(1)
    make = MODELS[name][0]
    model = make()
    # ResNet-18 stays in eval(): batch norm from the running statistics, as
    # graphc --batch-norm=running; its weights still train.
    if name == "resnet18":
        model.eval()
    x = torch.from_numpy(np.load(os.path.join(data, "x.npy")))
    y = torch.from_numpy(np.load(os.path.join(data, "y.npy")))
    share = BATCH // world
    x, y = x[rank * share:(rank + 1) * share], y[rank * share:(rank + 1) * share]
    if world > 1:
        torch.distributed.init_process_group(
            "gloo", init_method="tcp://127.0.0.1:%d" % port,
            rank=rank, world_size=world)
        model = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    times, losses = [], []
    for i in range(warmup + repeat):
        t = time.perf_counter()
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if i >= warmup:
            times.append(time.perf_counter() - t)
        losses.append(loss.item())
    json.dump({"ms": [1e3 * t for t in times], "losses": losses},
              open(os.path.join(data, "peer%d-%d.json" % (world, rank)), "w"))
    if world > 1:
        torch.distributed.destroy_process_group()


def run_peer(name, data, world, warmup, repeat):
    """Starts `world` peer processes and waits for them. Returns (median step
    ms: per step the slowest rank, first-step loss averaged over ranks)."""
    port = free_port()
    procs = [subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--peer", name, data,
         str(world), str(rank), str(port), str(warmup), str(repeat)],
        env=peer_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True) for rank in range(world)]
    errors = []
    for p in procs:
        _, err = p.communicate(timeout=3600)
        if p.returncode != 0:
            errors.append(common.first_error(err))
    if errors:
        raise common.Failed("torch failed: " + errors[0])
    ranks = [json.load(open(os.path.join(data, "peer%d-%d.json" % (world, r))))
             for r in range(world)]
    step = np.max([r["ms"] for r in ranks], axis=0)
    return float(np.median(step)), float(np.mean([r["losses"][0] for r in ranks]))


# --- graphc -----------------------------------------------------------------

def run_graphc(build, onnx_path, data, workers, flags, repeat, per_step=False):
    """Compiles (once per worker count) and runs the training step; returns
    (step ms, first-step loss, compile s: None when the bundle was there).
    The batch comes from --data files of exactly one batch, so every step
    trains on the same examples as the peer's while the feed path is the
    real one: by default each worker runs all the steps with one RunSteps
    call and cuts its batches itself; `per_step` is graph-run --per-step
    (one RunStep per step and worker, the batch sent by graph-run)."""
    job = os.path.join(data, "train%d.gjob" % workers)
    replicas = ["--replicas=%d" % workers] if workers > 1 else []
    secs = None
    if not os.path.exists(job):
        secs, _ = common.compile_model(
            build, onnx_path, job,
            extra=["--train", "--labels=y", "--loss=softmax_cross_entropy",
                   "--optimizer=sgd", "--lr=%g" % LR, "--no-openmp"] + flags +
            replicas)
    metrics = job + ".metrics.json"
    stats, _ = common.run_job(
        build, job, {}, repeat, threads=1,
        extra=["--metrics", metrics, "--steps", "1", "--no-shuffle",
               "--data", "x=" + os.path.join(data, "x.npy"),
               "--data", "y=" + os.path.join(data, "y.npy")] +
        (["--per-step"] if per_step else []))
    first = json.load(open(metrics))["per_step"][0].get("loss")
    return stats["wall_median_ms"], first, secs


def pct(v):
    return "n/a" if v is None else "%.0f%%" % (100 * v)


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    names = ([sys.argv[sys.argv.index("--only") + 1]] if "--only" in sys.argv
             else list(MODELS))
    env = peer_env()
    peer_config = ("PyTorch %s, %d processes x torch.set_num_threads(1), gloo "
                   "on 127.0.0.1, OPENBLAS_CORETYPE=%s"
                   % (torch.__version__, WORKERS,
                      env.get("OPENBLAS_CORETYPE", "unset (not an AVX-512 Intel CPU)")))
    print("train bench: global batch %d, SGD lr %g, softmax cross-entropy; "
          "graphc --train, 1 thread per worker, vs DistributedDataParallel; "
          "%s; %s" % (BATCH, LR, common.cpu_name(), common.load_info()))
    print("peer: " + peer_config)
    rows, ratios = [], []
    for name in names:
        make, shape, classes, flags, repeats = MODELS[name]
        repeat = repeats[quick]
        warmup = 1 if quick else 2
        work = (sys.argv[sys.argv.index("--work") + 1] if "--work" in sys.argv
                else None)
        if work:
            os.makedirs(os.path.join(work, name), exist_ok=True)
        with (contextlib.nullcontext(os.path.abspath(os.path.join(work, name)))
              if work else
              tempfile.TemporaryDirectory(prefix="graphc-train-")) as data:
            rng = np.random.default_rng(0)
            np.save(os.path.join(data, "x.npy"),
                    rng.standard_normal((BATCH,) + shape).astype(np.float32))
            np.save(os.path.join(data, "y.npy"),
                    rng.integers(0, classes, BATCH).astype(np.int64))
            onnx_path = os.path.join(data, name + ".onnx")
            if not os.path.exists(onnx_path):
                torch_models.export(make(), torch.randn(BATCH, *shape),
                                    onnx_path, dynamic_batch=False,
                                    keep_batch_norm=True)
            got = {}
            jobs = [("graphc", 1, "1 task", lambda: run_graphc(
                        build, onnx_path, data, 1, flags, repeat)),
                    ("graphc", WORKERS, "--replicas %d" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat)),
                    ("graphc-per-step", WORKERS,
                     "--replicas %d, graph-run --per-step" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat, per_step=True)),
                    ("torch", 1, "1 process, no DDP",
                     lambda: run_peer(name, data, 1, warmup, repeat) + (None,)),
                        ("torch", WORKERS, "DDP %d processes" % WORKERS,
                     lambda: run_peer(name, data, WORKERS, warmup, repeat) + (None,)),
                    # Again right after graphc's 2-worker run, so that the
                    # ratio compares two measurements taken back to back on
                    # a shared machine.
                    ("graphc-again", WORKERS, "--replicas %d (again)" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat))]
            for side, n, label, fn in jobs:
                try:
                    ms, loss, secs = fn()
                except common.Failed as e:
                    rows.append([name, label, str(n), str(e)])
                    print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)
                    continue
                got[side, n] = ms
                rows.append([name, label, str(n), str(repeat), "%.1f" % ms,
                             "%.1f" % (BATCH * 1e3 / ms),
                             common.fmt(loss, "%.5f"), common.fmt(secs, "%.1f")])
                print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)

            def ratio(a, b):
                return got[a] / got[b] if a in got and b in got else None
            eff = ratio(("graphc", 1), ("graphc", WORKERS))
            eff1 = ratio(("graphc", 1), ("graphc-per-step", WORKERS))
            teff = ratio(("torch", 1), ("torch", WORKERS))
            ratios.append([name, pct(eff and eff / WORKERS),
                           pct(eff1 and eff1 / WORKERS),
                           common.fmt(ratio(("torch", WORKERS),
                                            ("graphc-again", WORKERS)), "%.2f"),
                           pct(teff and teff / WORKERS)])
    common.table(["model", "job", "processes", "steps", "step ms (median)",
                  "examples/s", "first-step loss", "compile s"], rows)
    print()
    common.table(["model", "graphc scaling efficiency (goal >= 90%)",
                  "the same, --per-step",
                  "DDP step / graphc 2-worker step (goal >= 1.0)",
                  "PyTorch DDP scaling efficiency"], ratios)
    print("graphc step: graph-run --stats wall_median_ms (the whole job's "
          "step), OMP_NUM_THREADS=1, code compiled --no-openmp, the batch from "
          "--data files of one batch; the DDP ratio takes graphc's 2-worker "
          "run made right after DDP's (the '(again)' row); torch step: "
          "median over as many timed steps of the slowest rank's step, after "
          "warm-up steps. Scaling efficiency = (1-process step / %d-process step) "
          "/ %d. ResNet-18: batch norm from the running statistics on both "
          "sides (graphc --batch-norm=running; PyTorch in eval() while its "
          "weights train), since dist-place refuses batch-norm training "
          "under --replicas." % (WORKERS, WORKERS))
    print("peer: %s; %s; %s" % (peer_config, common.cpu_name(),
                                common.load_info()))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        a = sys.argv[2:]
        peer(a[0], a[1], *map(int, a[2:7]))
    else:
        main()
