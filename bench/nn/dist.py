#!/usr/bin/env python3
"""dist.py BUILD [--quick] [--batch N] [--workers LIST] [--replicas-only]
[--machine-model FILE] [--rounds R]:
throughput of partitioned jobs against the same model as one task, and the
report's estimate and the scaling simulation of each beside the measurement.

ResNet-18 (torch.nn, torchvision's layout) is exported at batch 8 and compiled
as one task and, for each N in --workers (default 2), as `--replicas N`,
`--pipeline-stages N` (GPipe, N microbatches) and `--tensor-parallel N`
(Megatron splits; ResNet-18's only matmul is its classifier, so this mostly
measures what a replicated convolution stack costs); --replicas-only keeps
the first. Every worker runs one thread (OMP_NUM_THREADS=1, and the code is
compiled with --no-openmp so nothing else can spin up threads), so N workers
use N cores. Each job runs `graph-run --repeat R --stats` once per round (--rounds,
default 3; --quick 1), the rounds taking every job in turn, and the median of
the rounds' medians is the measured step; the figure compared
is the step as graph-run sees it (`wall_median_ms`: the whole job's step,
feeding the global batch, splitting, computing and gathering), because the
in-worker time of one task says nothing about the job. Each compile also
writes `--report`, and its estimated step time is printed beside the
measured one; the machine model is the built-in one (or --machine-model FILE) with `shared_cores` set
to this machine's CPU count, since the workers of a local job share it.
Beside both, the scaling simulation (`graphc --simulate-replicas 1,N,...`
with `--simulate-strategy replicas|pipeline|tensor-parallel`) predicts every
N without building the N-task job (issue 11 asks for within 25% of the
measured step). Throughput ratio = single-task step time / N-task step time.
The outputs of every job are compared with the single task's (max abs
error).

The peer is graphc's own single-task job, measured in the same run on the
same machine: the comparison isolates what partitioning costs and gains.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import torch_models  # noqa: E402


def run(build, job, inputs, repeat, outdir):
    stats = job + ".stats.json"
    cmd = [common.tool(build, "graph-run"), "--quiet", "--repeat", str(repeat),
           "--stats", stats, "--output-dir", outdir, job]
    for name, path in inputs.items():
        cmd += ["--input", "%s=%s" % (name, path)]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=3600)
    if r.returncode != 0:
        raise common.Failed("run failed: " + common.first_error(r.stderr))
    return json.load(open(stats)), np.load(os.path.join(outdir, "y.npy"))


def simulate(build, onnx_path, machine, counts, strategy, tmp):
    """graphc --simulate-replicas with --simulate-strategy STRATEGY:
    {workers: predicted step ms}."""
    report = os.path.join(tmp, "simulation-%s.json" % strategy)
    cmd = [common.tool(build, "graphc"), onnx_path, "--machine-model", machine,
           "--simulate-replicas", ",".join(str(n) for n in counts),
           "--simulate-strategy", strategy, "--report", report,
           "--emit=dist", "-o", os.devnull]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=3600)
    if r.returncode != 0:
        raise common.Failed("simulation failed: " + common.first_error(r.stderr))
    points = json.load(open(report))["simulation"]["points"]
    key = "replicas" if strategy == "replicas" else "workers"
    return {p[key]: p["step_ns"] / 1e6 for p in points if "step_ns" in p}


def pct(value, wall):
    return "%+.0f%%" % (100 * (value - wall) / wall) if value else "-"


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    batch = int(sys.argv[sys.argv.index("--batch") + 1]) if "--batch" in sys.argv else 8
    workers = ([int(w) for w in sys.argv[sys.argv.index("--workers") + 1].split(",")]
               if "--workers" in sys.argv else [2])
    repeat = 3 if quick else 10
    rounds = (int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv
              else 1 if quick else 3)
    strategies = [("replicas", "--replicas=%d")]
    if "--replicas-only" not in sys.argv:
        strategies += [("pipeline", "--pipeline-stages=%d"),
                       ("tensor-parallel", "--tensor-parallel=%d")]
    print("dist bench: ResNet-18 at batch %d, 1 thread per worker, %s at %s "
          "workers vs one task; %s; %s"
          % (batch, ", ".join(s for s, _ in strategies),
             ",".join(str(n) for n in workers), common.cpu_name(),
             common.load_info()))
    rows = []
    with tempfile.TemporaryDirectory(prefix="graphc-dist-") as tmp:
        model = torch_models.resnet18().eval()
        onnx_path = os.path.join(tmp, "resnet18.onnx")
        torch_models.export(model, torch.randn(batch, 3, 224, 224), onnx_path,
                            dynamic_batch=False)
        x = np.random.default_rng(0).standard_normal(
            (batch, 3, 224, 224)).astype(np.float32)
        xpath = os.path.join(tmp, "x.npy")
        np.save(xpath, x)
        # (strategy, workers, flags); the one task is every strategy's
        # 1-worker row.
        jobs = [("1 task", 1, [])] + [(name, n, [flag % n])
                                      for name, flag in strategies
                                      for n in workers]
        base = None
        # The built-in machine model (or --machine-model FILE, e.g. this
        # machine's from `bash bench/run.sh machine-model`), told that every
        # task of this local job shares this machine's cores (it cannot know
        # that by itself).
        machine = None
        cores = os.cpu_count()
        given = (os.path.abspath(sys.argv[sys.argv.index("--machine-model") + 1])
                 if "--machine-model" in sys.argv else None)
        simulated = {}
        # Compile every job first, then run them in --rounds rounds, each
        # round every job once in turn: the machine's speed drifts by 15-25%
        # over minutes (a shared host), and a job measured in one slow spell
        # would be compared with jobs measured in a fast one. The figure is
        # the median of the rounds' medians; the spread of the rounds is
        # printed beside it.
        built = []
        for index, (label, n, flags) in enumerate(jobs):
            job = os.path.join(tmp, "j%d.gjob" % index)
            try:
                report = job + ".report.json"
                model_file = machine or given
                model_flags = ["--machine-model", model_file] if model_file else []
                secs, _ = common.compile_model(
                    build, onnx_path, job,
                    extra=["--no-openmp", "--report", report] + model_flags + flags)
                written = json.load(open(report))
                estimate = written["estimate"]["step_ns"] / 1e6
                if machine is None:
                    model = written["machine_model"]
                    model["shared_cores"] = cores
                    model["name"] += ", %d shared cores" % cores
                    machine = os.path.join(tmp, "machine.json")
                    json.dump(model, open(machine, "w"))
                    # The one task is compiled before the machine file
                    # exists; its estimate is the same (one task shares
                    # no cores).
                    for name, _ in strategies:
                        try:
                            simulated[name] = simulate(
                                build, onnx_path, machine, [1] + workers,
                                name, tmp)
                        except common.Failed as e:
                            print("  " + str(e), file=sys.stderr)
                            simulated[name] = {}
            except common.Failed as e:
                rows.append([label, str(n), str(e)])
                continue
            built.append((index, label, n, job, estimate, secs))
        walls = {index: [] for index, *_ in built}
        outputs = {}
        failed = {}
        for _ in range(rounds):
            for index, label, n, job, estimate, secs in built:
                if index in failed:
                    continue
                try:
                    stats, y = run(build, job, {"x": xpath}, repeat,
                                   os.path.join(tmp, "out%d" % index))
                except common.Failed as e:
                    failed[index] = str(e)
                    continue
                walls[index].append(stats["wall_median_ms"])
                outputs[index] = (stats["steps"], y)
        for index, label, n, job, estimate, secs in built:
            if index in failed:
                rows.append([label, str(n), failed[index]])
                continue
            wall = statistics.median(walls[index])
            spread = "%.0f-%.0f" % (min(walls[index]), max(walls[index]))
            steps, y = outputs[index]
            if base is None:
                base = (wall, y)
            ratio = base[0] / wall
            err = float(np.max(np.abs(y - base[1])))
            sims = ([(name, simulated.get(name, {}).get(1))
                     for name, _ in strategies] if n == 1
                    else [(label, simulated.get(label, {}).get(n))])
            for name, sim in sims:
                rows.append([name, str(n), "%d x %d" % (len(walls[index]), steps),
                             "%.1f" % wall, spread,
                             "%.1f" % estimate, pct(estimate, wall),
                             "%.1f" % sim if sim else "-", pct(sim, wall),
                             "%.2f" % (batch * 1e3 / wall), "%.2f" % ratio,
                             "%.2e" % err, "%.1f" % secs])
                print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)
    common.table(["strategy", "workers", "rounds x steps", "step ms (median)",
                  "rounds' medians", "estimated ms", "estimate error", "simulated ms",
                  "simulation error",
                  "images/s", "throughput ratio", "max abs err vs 1 task",
                  "compile s"], rows)
    print("strategy at N workers: --replicas N, --pipeline-stages N (N "
          "microbatches), --tensor-parallel N; 1 worker: the one-task job. "
          "step ms: graph-run --stats wall_median_ms (the whole job's step), the "
          "median over the rounds (each round runs every job once in turn); "
          "ratio = 1-task step / N-task step; estimated ms: graphc --report's "
          "step estimate (%s, its tasks sharing this "
          "machine's %d cores), error against the measured median; simulated "
          "ms: graphc --simulate-replicas with --simulate-strategy (the same "
          "machine model), without building the N-task job. %s; %s"
          % ("machine model " + given if given else "built-in machine model",
             cores, common.cpu_name(), common.load_info()))


if __name__ == "__main__":
    main()
