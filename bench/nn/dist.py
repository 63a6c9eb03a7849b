#!/usr/bin/env python3
"""dist.py BUILD [--quick] [--batch N] [--workers LIST] [--replicas-only]:
throughput of partitioned jobs against the same model as one task.

ResNet-18 (torch.nn, torchvision's layout) is exported at batch 8 and compiled
twice: as one task, and with `graphc --replicas N` for each N in --workers
(default 2). Every worker runs one thread (OMP_NUM_THREADS=1, and the code is
compiled with --no-openmp so nothing else can spin up threads), so N workers
use N cores. Each job runs `graph-run --repeat R --stats`; the figure compared
is the step as graph-run sees it (`wall_median_ms`: the whole job's step,
feeding the global batch, splitting, computing and gathering), because the
in-worker time of one task says nothing about the job. Each compile also
writes `--report`, and its estimated step time is printed beside the
measured one (issue 10 asks for within 25% on 2-4 local workers); the
machine model is the built-in one with `shared_cores` set to this machine's
CPU count, since the workers of a local job share it. Beside both, the
scaling simulation (`graphc --simulate-replicas 1,N,...`, strong scaling:
the batch split as --replicas splits it) predicts every N from the one-task
step without building the N-task job (issue 11 asks for within 25% too). Throughput ratio =
single-task step time / N-replica step time (goal for N = 2: >= 1.8). The
outputs of every job are compared with the single task's (max abs error).

Then (unless --replicas-only) the other strategies of issue 11 on 2 workers:
`--pipeline-stages 2 --microbatches 4` (GPipe) and `--tensor-parallel 2`
(Megatron splits; ResNet-18's only matmul is its classifier, so this mostly
measures what a replicated convolution stack costs). The simulation covers
data parallelism only; their rows show the report's estimate.

The peer is graphc's own single-task job, measured in the same run on the
same machine: the comparison isolates what partitioning costs and gains.
"""
import json
import os
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


def simulate(build, onnx_path, machine, counts, tmp):
    """graphc --simulate-replicas: {replicas: predicted step ms}."""
    report = os.path.join(tmp, "simulation.json")
    cmd = [common.tool(build, "graphc"), onnx_path, "--machine-model", machine,
           "--simulate-replicas", ",".join(str(n) for n in counts),
           "--report", report, "--emit=dist", "-o", os.devnull]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=3600)
    if r.returncode != 0:
        raise common.Failed("simulation failed: " + common.first_error(r.stderr))
    points = json.load(open(report))["simulation"]["points"]
    return {p["replicas"]: p["step_ns"] / 1e6 for p in points if "step_ns" in p}


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    batch = int(sys.argv[sys.argv.index("--batch") + 1]) if "--batch" in sys.argv else 8
    workers = ([int(w) for w in sys.argv[sys.argv.index("--workers") + 1].split(",")]
               if "--workers" in sys.argv else [2])
    repeat = 3 if quick else 10
    print("dist bench: ResNet-18 at batch %d, 1 thread per worker, "
          "--replicas N, a 2-stage pipeline and 2-way tensor parallelism vs "
          "one task; %s; %s"
          % (batch, common.cpu_name(), common.load_info()))
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
        jobs = [("1 task", 1, [])] + [("--replicas %d" % n, n, ["--replicas=%d" % n])
                                      for n in workers]
        if "--replicas-only" not in sys.argv:
            jobs += [("--pipeline-stages 2 --microbatches 4", 2,
                      ["--pipeline-stages=2", "--microbatches=4"]),
                     ("--tensor-parallel 2", 2, ["--tensor-parallel=2"])]
        base = None
        # The built-in machine model, told that every task of this local job
        # shares this machine's cores (it cannot know that by itself).
        machine = None
        cores = os.cpu_count()
        for index, (label, n, flags) in enumerate(jobs):
            job = os.path.join(tmp, "j%d.gjob" % index)
            try:
                report = job + ".report.json"
                model_flags = ["--machine-model", machine] if machine else []
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
                if n == 1:
                    try:
                        simulated = simulate(build, onnx_path, machine,
                                             [1] + workers, tmp)
                    except common.Failed as e:
                        print("  " + str(e), file=sys.stderr)
                        simulated = {}
                stats, y = run(build, job, {"x": xpath}, repeat,
                               os.path.join(tmp, "out%d" % index))
            except common.Failed as e:
                rows.append([label, str(n), str(e)])
                continue
            wall = stats["wall_median_ms"]
            if base is None:
                base = (wall, y)
            ratio = base[0] / wall
            err = float(np.max(np.abs(y - base[1])))
            sim = simulated.get(n) if index <= len(workers) else None
            rows.append([label, str(n), "%d" % stats["steps"], "%.1f" % wall,
                         "%.1f" % estimate, "%+.0f%%" % (100 * (estimate - wall) / wall),
                         "%.1f" % sim if sim else "-",
                         "%+.0f%%" % (100 * (sim - wall) / wall) if sim else "-",
                         "%.2f" % (batch * 1e3 / wall), "%.2f" % ratio,
                         "%.2e" % err, "%.1f" % secs])
            print("  " + " | ".join(rows[-1]), file=sys.stderr, flush=True)
    common.table(["job", "workers", "steps", "step ms (median)",
                  "estimated ms", "estimate error", "simulated ms",
                  "simulation error",
                  "images/s", "throughput ratio", "max abs err vs 1 task",
                  "compile s"], rows)
    print("step ms: graph-run --stats wall_median_ms (the whole "
          "job's step); ratio = 1-task step / N-replica step (goal for 2 "
          "workers: >= 1.8); estimated ms: graphc --report's step estimate "
          "(built-in machine model, its tasks sharing this machine's %d cores), "
          "error against the measured median; simulated ms: graphc "
          "--simulate-replicas (strong scaling) from the one-task step with the "
          "same machine model, without building the N-task job. "
          "%s; %s" % (cores, common.cpu_name(), common.load_info()))


if __name__ == "__main__":
    main()
