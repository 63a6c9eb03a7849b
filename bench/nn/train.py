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
train). Batch-statistics training would not compare the same computation:
graphc --replicas synchronises the batch statistics across the replicas
(the global batch's, as SyncBatchNorm), while DDP's default BatchNorm uses
each process's own half batch; with running statistics both sides compute
the same step.

Two data-parallel figures, each against the 1-task step at batch 16:
* strong scaling (the issue's definition, global batch 16, 8 per worker):
  (1-task step / 2-worker step) / 2, goal >= 90%;
* weak scaling (16 per worker, global batch 32): 1-task step at 16 /
  2-worker step at 32, the same work per worker, so 100% is perfect.
Printed besides: throughput against DDP = DDP step / graphc 2-worker step
at global batch 16 (goal >= 1.0), PyTorch's own strong and weak scaling (DDP
2 processes x 1 thread against one process x 1 thread, the same global
batch), graphc's 2-worker step with --overlap-collectives=false (every
all-reduce blocking where it stands) for the effect of the overlap, and
graphc's one-task step at batch 8, one replica's share of the global batch:
(1-task step at 16 / 1-task step at 8) / 2 is the strong scaling that two
replicas would reach with a free exchange and no slowdown from running side
by side, the bound the shares' compute sets. The same with the shares run
side by side (WORKERS copies of the batch-8 job at once, exchanging
nothing) includes the machine's slowdown from running them together: on a
2-core Zen 5 VM two batch-8 ResNet-18 steps side by side take 25-30% longer
than one alone (DRAM bandwidth: a streaming loop reads 45 GB/s alone, 30
each side by side), which no exchange can win back.
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

def peer(name, data, world, rank, port, warmup, repeat, batch):
    torch.set_num_threads(1)
    make = MODELS[name][0]
    model = make()
    # ResNet-18 stays in eval(): batch norm from the running statistics, as
    # graphc --batch-norm=running; its weights still train.
    if name == "resnet18":
        model.eval()
    x = torch.from_numpy(np.load(os.path.join(data, "x.npy")))
    y = torch.from_numpy(np.load(os.path.join(data, "y.npy")))
    share = batch // world
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


def run_peer(name, data, world, warmup, repeat, batch=BATCH):
    """Starts `world` peer processes on the global batch `batch` (in
    data/x.npy) and waits for them. Returns (median step ms: per step the
    slowest rank, first-step loss averaged over ranks)."""
    port = free_port()
    procs = [subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--peer", name, data,
         str(world), str(rank), str(port), str(warmup), str(repeat),
         str(batch)],
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

def run_graphc(build, onnx_path, data, workers, flags, repeat, per_step=False,
               tag=""):
    """Compiles (once per worker count) and runs the training step; returns
    (step ms, first-step loss, compile s: None when the bundle was there).
    The batch comes from --data files of exactly one batch, so every step
    trains on the same examples as the peer's while the feed path is the
    real one: by default each worker runs all the steps with one RunSteps
    call and cuts its batches itself; `per_step` is graph-run --per-step
    (one RunStep per step and worker, the batch sent by graph-run)."""
    job = os.path.join(data, "train%d%s.gjob" % (workers, tag))
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


def run_side_by_side(build, onnx_path, data, flags, repeat):
    """WORKERS independent one-task jobs of one replica's share (data/share),
    run at the same time, each in its own process with one thread: what
    each replica's compute costs when the replicas share the machine (its
    memory bandwidth, its caches) but exchange nothing. Returns the slowest
    job's (step ms, first-step loss, compile s) like run_graphc."""
    import shutil
    import threading
    first = run_graphc(build, onnx_path, data, 1, flags, 1)
    job = os.path.join(data, "train1.gjob")
    copies = [job]
    for i in range(1, WORKERS):
        copy = os.path.join(data, "train1-copy%d.gjob" % i)
        if not os.path.exists(copy):
            shutil.copytree(job, copy)
        copies.append(copy)
    results, errors = [None] * WORKERS, []

    def one(i):
        try:
            results[i] = common.run_job(
                build, copies[i], {}, repeat, threads=1,
                extra=["--steps", "1", "--no-shuffle",
                       "--data", "x=" + os.path.join(data, "x.npy"),
                       "--data", "y=" + os.path.join(data, "y.npy")])[0]
        except common.Failed as e:
            errors.append(e)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return (max(r["wall_median_ms"] for r in results), first[1], None)


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
                      env.get("OPENBLAS_CORETYPE", "unset (not an AVX-512 CPU)")))
    print("train bench: global batch %d (and %d per worker for weak "
          "scaling), SGD lr %g, softmax cross-entropy; graphc --train, 1 "
          "thread per worker, vs DistributedDataParallel; %s; %s"
          % (BATCH, BATCH, LR, common.cpu_name(), common.load_info()))
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
            # Global batch 16 in data/, 16 per worker (global 32, the
            # weak-scaling figure) in data/weak/, and one replica's share
            # (8) in data/share/.
            weak = os.path.join(data, "weak")
            share = os.path.join(data, "share")
            onnx = {}
            for d, batch in ((data, BATCH), (weak, WORKERS * BATCH),
                             (share, BATCH // WORKERS)):
                os.makedirs(d, exist_ok=True)
                rng = np.random.default_rng(0)
                np.save(os.path.join(d, "x.npy"),
                        rng.standard_normal((batch,) + shape).astype(np.float32))
                np.save(os.path.join(d, "y.npy"),
                        rng.integers(0, classes, batch).astype(np.int64))
                onnx[d] = os.path.join(d, name + ".onnx")
                if not os.path.exists(onnx[d]):
                    torch_models.export(make(), torch.randn(batch, *shape),
                                        onnx[d], dynamic_batch=False,
                                        keep_batch_norm=True)
            onnx_path = onnx[data]
            got = {}
            jobs = [("graphc", 1, BATCH, "1 task", lambda: run_graphc(
                        build, onnx_path, data, 1, flags, repeat)),
                    ("graphc-share", 1, BATCH // WORKERS,
                     "1 task, one replica's share", lambda: run_graphc(
                         build, onnx[share], share, 1, flags, repeat)),
                    ("graphc-side", WORKERS, BATCH // WORKERS,
                     "%d one-task shares side by side (no exchange)" % WORKERS,
                     lambda: run_side_by_side(build, onnx[share], share, flags,
                                              repeat)),
                    ("graphc", WORKERS, BATCH, "--replicas %d" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat)),
                    ("graphc-no-overlap", WORKERS, BATCH,
                     "--replicas %d --overlap-collectives=false" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS,
                                        flags + ["--overlap-collectives=false"],
                                        repeat, tag="-no-overlap")),
                    ("graphc-per-step", WORKERS, BATCH,
                     "--replicas %d, graph-run --per-step" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat, per_step=True)),
                    ("graphc-weak", WORKERS, WORKERS * BATCH,
                     "--replicas %d, 16 per worker" % WORKERS,
                     lambda: run_graphc(build, onnx[weak], weak, WORKERS,
                                        flags, repeat)),
                    ("torch", 1, BATCH, "1 process, no DDP",
                     lambda: run_peer(name, data, 1, warmup, repeat) + (None,)),
                    ("torch", WORKERS, BATCH, "DDP %d processes" % WORKERS,
                     lambda: run_peer(name, data, WORKERS, warmup, repeat) + (None,)),
                    ("torch-weak", WORKERS, WORKERS * BATCH,
                     "DDP %d processes, 16 per process" % WORKERS,
                     lambda: run_peer(name, weak, WORKERS, warmup, repeat,
                                      WORKERS * BATCH) + (None,)),
                    # Again right after graphc's 2-worker run, so that the
                    # ratio compares two measurements taken back to back on
                    # a shared machine.
                    ("graphc-again", WORKERS, BATCH,
                     "--replicas %d (again)" % WORKERS,
                     lambda: run_graphc(build, onnx_path, data, WORKERS, flags,
                                        repeat))]
            for side, n, batch, label, fn in jobs:
                try:
                    ms, loss, secs = fn()
                except common.Failed as e:
                    rows.append([name, label, str(n), str(batch), str(e)])
                    print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)
                    continue
                got[side, n] = ms
                rows.append([name, label, str(n), str(batch), str(repeat),
                             "%.1f" % ms, "%.1f" % (batch * 1e3 / ms),
                             common.fmt(loss, "%.5f"), common.fmt(secs, "%.1f")])
                print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)

            def ratio(a, b):
                return got[a] / got[b] if a in got and b in got else None
            eff = ratio(("graphc", 1), ("graphc", WORKERS))
            eff1 = ratio(("graphc", 1), ("graphc-per-step", WORKERS))
            weff = ratio(("graphc", 1), ("graphc-weak", WORKERS))
            bound = ratio(("graphc", 1), ("graphc-share", 1))
            side = ratio(("graphc", 1), ("graphc-side", WORKERS))
            # The exchange's own cost: the replicas' step over their shares
            # run side by side without one.
            exch = ratio(("graphc", WORKERS), ("graphc-side", WORKERS))
            teff = ratio(("torch", 1), ("torch", WORKERS))
            tweff = ratio(("torch", 1), ("torch-weak", WORKERS))
            ratios.append([name, pct(eff and eff / WORKERS),
                           pct(bound and bound / WORKERS),
                           pct(side and side / WORKERS),
                           common.fmt(exch, "%.2f"),
                           pct(weff),
                           pct(eff1 and eff1 / WORKERS),
                           common.fmt(ratio(("graphc-no-overlap", WORKERS),
                                            ("graphc", WORKERS)), "%.2f"),
                           common.fmt(ratio(("torch", WORKERS),
                                            ("graphc-again", WORKERS)), "%.2f"),
                           pct(teff and teff / WORKERS), pct(tweff)])
    common.table(["model", "job", "processes", "global batch", "steps",
                  "step ms (median)", "examples/s", "first-step loss",
                  "compile s"], rows)
    print()
    common.table(["model",
                  "graphc strong scaling, global batch 16 (goal >= 90%)",
                  "bound from the share: (1 task at 16 / 1 task at 8) / 2",
                  "bound with the shares side by side",
                  "2-worker step / shares side by side",
                  "graphc weak scaling, 16 per worker",
                  "strong, --per-step",
                  "2-worker step, overlap off / on",
                  "DDP step / graphc 2-worker step (goal >= 1.0)",
                  "PyTorch strong scaling (DDP 2 x 1 thread / 1 process x 1 "
                  "thread, global batch 16)", "DDP weak scaling"], ratios)
    print("graphc step: graph-run --stats wall_median_ms (the whole job's "
          "step), OMP_NUM_THREADS=1, code compiled --no-openmp, the batch from "
          "--data files of one batch; the DDP ratio takes graphc's 2-worker "
          "run made right after DDP's (the '(again)' row); torch step: "
          "median over as many timed steps of the slowest rank's step, after "
          "warm-up steps. Strong scaling (the issue's figure) = (1-process "
          "step at global batch %d / %d-process step at global batch %d) / %d; "
          "weak scaling = 1-process step at %d / %d-process step at global "
          "batch %d (%d per process). Bound from the share: (1-task step at "
          "global batch %d / 1-task step at %d, one replica's share) / %d, "
          "what %d replicas would reach with a free exchange. Bound with the "
          "shares side by side: the same with %d copies of the share's job "
          "run at once (one process and thread each, nothing exchanged), so "
          "the machine's slowdown from running them together (memory "
          "bandwidth, caches) is in it; the 2-worker step over that is what "
          "the exchange itself costs. Overlap off / on: the 2-worker step "
          "compiled --overlap-collectives=false over the default's (> 1: the "
          "overlap helps). ResNet-18: batch norm from the running statistics "
          "on both sides (graphc --batch-norm=running; PyTorch in eval() "
          "while its weights train): graphc --replicas would synchronise "
          "batch statistics across replicas (SyncBatchNorm), DDP's default "
          "BatchNorm would not, so running statistics compare the same "
          "computation." % (BATCH, WORKERS, BATCH, WORKERS, BATCH, WORKERS,
                            WORKERS * BATCH, BATCH, BATCH,
                            BATCH // WORKERS, WORKERS, WORKERS, WORKERS))
    print("peer: %s; %s; %s" % (peer_config, common.cpu_name(),
                                common.load_info()))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        a = sys.argv[2:]
        peer(a[0], a[1], *map(int, a[2:8]))
    else:
        main()
