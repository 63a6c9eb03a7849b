"""Shared pieces of the model benchmarks (conv, e2e, compile): compiling with
graphc under GNU time, running a job with graph-run --stats, timing PyTorch
the same way, and printing tables.

Every graphc figure is the `median_ms` that `graph-run --stats` reports: the
step's time inside the worker (one untimed warm-up step first). The step as
graph-run sees it (`wall_median_ms`) adds the coordinator -> worker RPC; both
are printed, and `runtime_floor` measures them on a one-element job so a
reader can tell compute from overhead.
"""
import json
import platform
import os
import shlex
import subprocess
import sys
import time

import numpy as np

THREADS = 2


def tool(build, name):
    return os.path.join(build, "bin", name)


def tool_env(**extra):
    """The environment of graphc's own processes (and of peers that do not use
    OpenBLAS): never the PyTorch peer's OPENBLAS_CORETYPE."""
    env = dict(os.environ, **extra)
    env.pop("OPENBLAS_CORETYPE", None)
    return env


def cpu_flag(flag):
    try:
        return any(l.startswith("flags") and (" %s " % flag) in l + " "
                   for l in open("/proc/cpuinfo"))
    except OSError:
        return False


def peer_openblas_coretype():
    """OPENBLAS_CORETYPE for a PyTorch peer's process, or None. Debian's
    OpenBLAS 0.3.21 does not know Intel CPUs newer than it and falls back to
    its Prescott kernel on them (about 5x slower). On AMD Zen 5 it picks
    Cooperlake itself, but this project's machine images set
    OPENBLAS_CORETYPE=Haswell in the environment, which runs its AVX2
    kernels at half speed (sgemm 2048^3 on one Zen 5 core: 92-95 GFLOP/s
    against 185-194 with SkylakeX's, 2026-12-03). So on every AVX-512 CPU
    the peer gets SkylakeX, whatever the environment says (the sgemm
    kernels of the AVX-512 cores it knows, Cooperlake and SapphireRapids,
    are SkylakeX's)."""
    return "SkylakeX" if cpu_flag("avx512f") else None


def openblas_info():
    """The OpenBLAS this (PyTorch) process loaded: config, core, threads."""
    import ctypes
    libs = sorted({l.split()[-1] for l in open("/proc/self/maps")
                   if "openblas" in l and l.split()[-1].startswith("/")})
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_config.restype = ctypes.c_char_p
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return "%s, core %s, %d threads, OPENBLAS_CORETYPE=%s" % (
                lib.openblas_get_config().decode(),
                lib.openblas_get_corename().decode(),
                lib.openblas_get_num_threads(),
                os.environ.get("OPENBLAS_CORETYPE", "unset"))
        except (OSError, AttributeError):
            continue
    return "no OpenBLAS loaded"


def first_error(text):
    """The first line that says `error`, else the first line, of a tool's
    stderr."""
    lines = [l for l in text.strip().splitlines() if l.strip()]
    for l in lines:
        if "error" in l:
            return l.strip()
    return lines[0].strip() if lines else "(no message)"


class Failed(Exception):
    """A step that did not work; str() is what the table prints."""


def compile_model(build, model, job, input_shapes=(), extra=(), timeout=1800):
    """graphc MODEL -o JOB under GNU time; returns (seconds, peak RSS bytes).
    input_shapes: "NAME:DxD" strings; extra: more graphc flags. Raises
    Failed with the first error."""
    cmd = [tool(build, "graphc"), model, "-o", job] + list(extra)
    # GRAPHC_FLAGS: more graphc flags for every model of a bench run, to
    # compare code generation options back to back (e.g. --direct-conv=all).
    cmd += shlex.split(os.environ.get("GRAPHC_FLAGS", ""))
    for s in input_shapes:
        cmd.append("--input-shape=" + s)
    r = subprocess.run(["/usr/bin/time", "-f", "@@ %e %M"] + cmd,
                       env=tool_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=timeout)
    stats = [l for l in r.stderr.splitlines() if l.startswith("@@ ")]
    if r.returncode != 0 or not stats:
        rest = "\n".join(l for l in r.stderr.splitlines()
                         if not l.startswith("@@ ") and
                         not l.startswith("Command exited"))
        raise Failed("compile failed: " + first_error(rest))
    wall, kb = stats[-1].split()[1:]
    return float(wall), int(kb) * 1024


def manifest_task(job):
    return json.load(open(os.path.join(job, "manifest.json")))["tasks"][0]


def run_job(build, job, inputs, repeat, outdir=None, timeout=1800,
            threads=THREADS, extra=()):
    """graph-run JOB --repeat REPEAT --stats with OMP_NUM_THREADS=threads.
    inputs: {name: .npy path}; extra: more graph-run flags. Returns the
    --stats dict and, when outdir is given, {output name: array} of the last
    step."""
    stats = job + ".stats.json"
    cmd = [tool(build, "graph-run"), "--quiet", "--repeat", str(repeat),
           "--stats", stats, job] + list(extra)
    for name, path in inputs.items():
        cmd += ["--input", "%s=%s" % (name, path)]
    if outdir:
        cmd += ["--output-dir", outdir]
    env = tool_env(OMP_NUM_THREADS=str(threads))
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace",
                       timeout=timeout)
    if r.returncode != 0:
        raise Failed("run failed: " + first_error(r.stderr))
    result = json.load(open(stats))
    outs = {}
    if outdir:
        for o in manifest_task(job)["outputs"]:
            outs[o["name"]] = np.load(os.path.join(outdir, o["name"] + ".npy"))
    return result, outs


def write_inputs(job, tmp, seed=0, given=None):
    """Random f32 (or zero integer) inputs for every input of JOB's task,
    saved as .npy under tmp; given: {name: array} used as is. Returns
    ({name: path}, {name: array})."""
    rng = np.random.default_rng(seed)
    paths, arrays = {}, {}
    for i, sig in enumerate(manifest_task(job)["inputs"]):
        name = sig["name"]
        # protobuf's JSON printer quotes 64-bit integers and leaves out an
        # empty (scalar) shape.
        shape = [int(d) for d in sig.get("shape", [])]
        if given and name in given:
            a = given[name]
        elif sig["dtype"].startswith("f"):
            a = rng.standard_normal(shape).astype(np.float32)
        else:
            a = np.zeros(shape, dtype=np.int64)
        path = os.path.join(tmp, "%s.in%d.npy" % (os.path.basename(job), i))
        np.save(path, a)
        paths[name], arrays[name] = path, a
    return paths, arrays


def torch_time_ms(fn, repeat, warmup=3):
    """(median, min) wall ms of fn() over repeat calls after warmup calls,
    under torch.no_grad with THREADS intra-op threads."""
    import torch
    torch.set_num_threads(THREADS)
    times = []
    with torch.no_grad():
        for _ in range(warmup):
            fn()
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times)), 1e3 * min(times)


def pick_repeat(ms, budget_ms=1500, lo=5, hi=200):
    """Steps to time a workload of about `ms` within budget_ms."""
    return int(max(lo, min(hi, budget_ms / max(ms, 1e-3))))


def tiny_model(tmp):
    """An ONNX model of one Relu on a 1-element tensor, saved under tmp;
    returns (model path, job path) for it."""
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    model = os.path.join(tmp, "tiny.onnx")
    g = h.make_graph([h.make_node("Relu", ["x"], ["y"])], "tiny",
                     [h.make_tensor_value_info("x", T.FLOAT, [1])],
                     [h.make_tensor_value_info("y", T.FLOAT, [1])])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), model)
    return model, os.path.join(tmp, "tiny.gjob")


def runtime_floor(build, tmp):
    """graph-run's figures for a job whose step does (almost) nothing: the
    tiny_model. Returns (median_ms, wall_median_ms)."""
    model, job = tiny_model(tmp)
    compile_model(build, model, job)
    paths, _ = write_inputs(job, tmp)
    s, _ = run_job(build, job, paths, 500)
    return s["median_ms"], s["wall_median_ms"]


def print_floor(build, tmp):
    med, wall = runtime_floor(build, tmp)
    print("runtime floor (a 1-element Relu job, 500 steps): in-worker median "
          "%.4f ms, step as graph-run sees it %.3f ms; the graphc columns are "
          "in-worker times, the per-step RPC (~%.3f ms) is not in them"
          % (med, wall, wall - med))
    return med, wall


def fmt(v, spec="%.3f"):
    return "n/a" if v is None else spec % v


def table(header, rows):
    """Prints rows (lists of str) under header, columns left-aligned. A
    shorter row (a failure message after the first cells) runs its last cell
    on past the columns."""
    widths = [max(len(str(r[i])) for r in [header] + rows
                  if i < len(r) - 1 or len(r) == len(header))
              for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths))
    print(line(header).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r).rstrip())
    sys.stdout.flush()


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def load_info():
    """One line about the machine's state, for the reader of the numbers."""
    try:
        la = os.getloadavg()
        return "load average %.2f %.2f %.2f on %d CPUs" % (la + (os.cpu_count(),))
    except OSError:
        return "load average unknown"


def geomean(v):
    return float(np.exp(np.mean(np.log(v))))


def print_ratio_summary(ratios, min_ratios, goal):
    met = sum(r <= goal for r in ratios)
    print("graphc/torch geometric mean: %.2f of medians, %.2f of minima, over "
          "%d cases; %d of %d medians meet the goal (<= %.2f)"
          % (geomean(ratios), geomean(min_ratios), len(ratios), met,
             len(ratios), goal))
