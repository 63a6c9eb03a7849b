#!/usr/bin/env python3
"""bench.py BUILD_DIR [--quick]: the runtime benchmarks. Every ratio compares
numbers measured in this same run on this machine:

  (a) a 64 MiB tensor between two workers (graph-run, send/recv) vs a raw
      loopback TCP socket copy of the same bytes (goal >= 0.8x); memcpy beside.
  (b) 4 KiB round-trip latency (ping/pong tasks, many round trips per step)
      vs a bare gRPC unary ping-pong (goal <= 1.2x).
  (c) ring all-reduce of 4..256 MiB f32 across 2 and 4 workers vs
      torch.distributed gloo (goal >= 1.2x).

Runtime times are the in-worker step times graph-run --metrics reports, the
median over the steps after the first (warm-up); the slowest task of a step
counts. --quick: smaller sizes and fewer steps (a smoke run, not a result).
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

MIB = 1 << 20
GIB = 1 << 30


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def write_bundle(out, name, tasks, libdir, channels=(), groups=()):
    os.makedirs(out)
    files = []
    for t in tasks:
        src = os.path.join(libdir, "libgraphrt_bench_%s.so" % t["lib"])
        dst = t["library"] = t.pop("lib") + ".so"
        shutil.copyfile(src, os.path.join(out, dst))
        data = open(src, "rb").read()
        files.append({"path": dst, "sha256": hashlib.sha256(data).hexdigest(),
                      "size": len(data)})
    m = {"format_version": 1, "name": name, "tasks": tasks,
         "channels": list(channels), "collective_groups": list(groups),
         "files": files}
    json.dump(m, open(os.path.join(out, "manifest.json"), "w"), indent=1)


def out_sig(name):
    return [{"name": "check_" + name, "dtype": "f32", "shape": [1]}]


def graph_run(build, bundle, steps, env, extra=()):
    metrics = bundle + ".metrics.json"
    outdir = bundle + ".out"
    cmd = [os.path.join(build, "bin", "graph-run"), "--quiet", "--steps",
           str(steps), "--metrics", metrics, "--output-dir", outdir,
           "--stall-timeout", "300"] + list(extra) + [bundle]
    e = dict(os.environ)
    e.update({k: str(v) for k, v in env.items()})
    subprocess.run(cmd, env=e, check=True, timeout=1800)
    per = json.load(open(metrics))["per_step"][1:]
    checks = {}
    for f in os.listdir(outdir):
        import numpy as np
        checks[f[len("check_"):-4]] = float(np.load(os.path.join(outdir, f))[0])
    return per, checks


def baseline(build, *args):
    out = subprocess.run([os.path.join(build, "bin", "graphrt-bench-baselines")]
                         + [str(a) for a in args], check=True,
                         stdout=subprocess.PIPE, timeout=600).stdout.decode()
    return float(out.split()[1])


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    libdir = os.path.join(build, "lib")
    tmp = tempfile.mkdtemp(prefix="graphrt-bench-")
    results = []
    try:
        # (a) throughput.
        nbytes = (8 if quick else 64) * MIB
        reps = 5 if quick else 15
        memcpy = baseline(build, "memcpy", nbytes, reps)
        tcp = baseline(build, "tcp", nbytes, reps)
        b = os.path.join(tmp, "tx.gjob")
        sig = {"dtype": "u8", "shape": [nbytes]}
        write_bundle(b, "tx", [
            {"name": "send", "index": 0, "lib": "send", "outputs": out_sig("send")},
            {"name": "recv", "index": 1, "lib": "recv", "outputs": out_sig("recv")}],
            libdir, channels=[{"key": "data", "src": "send", "dst": "recv",
                               "payload": dict(sig, name="data")}])
        print("runtime: (a) %d MiB send/recv between two workers" % (nbytes // MIB))
        print("  memcpy                 %7.2f GiB/s" % memcpy)
        print("  raw TCP loopback       %7.2f GiB/s" % tcp)
        ratio = None
        # The default (tcp) data plane is what the goal is about; the gRPC
        # one is shown for reference.
        for plane in ("tcp", "grpc"):
            per, checks = graph_run(build, b, reps + 1,
                                    {"GRAPHRT_BENCH_BYTES": nbytes},
                                    ["--data-plane", plane,
                                     "--chunk-bytes", str(MIB)])
            last = reps  # the last step's first and last bytes
            assert checks["recv"] == (last % 256) + ((last + 1) % 256), checks
            t = median([max(r["task_seconds"].values()) for r in per])
            gibs = nbytes / t / GIB
            print("  graph-run send/recv    %7.2f GiB/s  (--data-plane %s)"
                  "  ratio vs TCP %.2fx" % (gibs, plane, gibs / tcp))
            ratio = ratio or gibs / tcp
        results.append(("(a) %d MiB send/recv vs raw TCP" % (nbytes // MIB),
                        ratio, ">= 0.8x"))

        # (b) latency.
        rounds = 100 if quick else 500
        grpc_us = baseline(build, "grpc-pingpong", 4096, rounds)
        b = os.path.join(tmp, "pp.gjob")
        sig = {"dtype": "u8", "shape": [4096]}
        write_bundle(b, "pp", [
            {"name": "ping", "index": 0, "lib": "ping", "outputs": out_sig("ping")},
            {"name": "pong", "index": 1, "lib": "pong", "outputs": out_sig("pong")}],
            libdir, channels=[
                {"key": "ping", "src": "ping", "dst": "pong", "payload": dict(sig, name="ping")},
                {"key": "pong", "src": "pong", "dst": "ping", "payload": dict(sig, name="pong")}])
        print("runtime: (b) 4 KiB round trip")
        print("  bare gRPC unary ping-pong  %8.1f us" % grpc_us)
        ours_us = None
        for plane in ("tcp", "grpc"):
            per, checks = graph_run(build, b, 6, {"GRAPHRT_BENCH_BYTES": 4096,
                                                  "GRAPHRT_BENCH_ROUNDS": rounds},
                                    ["--data-plane", plane])
            assert checks["ping"] == (rounds - 1) % 256, checks
            us = median([r["task_seconds"]["ping"] for r in per]) / rounds * 1e6
            print("  graph-run send+recv        %8.1f us  ratio %.2fx"
                  "  (--data-plane %s)" % (us, us / grpc_us, plane))
            ours_us = ours_us or us
        results.append(("(b) 4 KiB round trip vs bare gRPC", ours_us / grpc_us,
                        "<= 1.2x"))

        # (c) all-reduce.
        sizes = (4, 16) if quick else (4, 16, 64, 256)
        print("runtime: (c) all-reduce (f32, sum) vs torch.distributed gloo")
        here = os.path.dirname(os.path.abspath(__file__))
        for k in (2, 4):
            for mib in sizes:
                steps = 3 if mib >= 256 else 5
                if quick:
                    steps = 3
                gloo = subprocess.run(
                    ["/usr/bin/python3", os.path.join(here, "gloo_allreduce.py"),
                     str(k), str(mib), str(steps)], check=True,
                    stdout=subprocess.PIPE, timeout=1800).stdout.decode()
                gloo = float(gloo.split()[3])
                b = os.path.join(tmp, "ar%d_%d.gjob" % (k, mib))
                write_bundle(b, "ar", [
                    {"name": "r%d" % r, "index": r, "lib": "r%d" % r,
                     "outputs": out_sig(str(r))} for r in range(k)],
                    libdir, groups=[{"name": "all",
                                     "tasks": ["r%d" % r for r in range(k)]}])
                per, checks = graph_run(build, b, steps + 1,
                                        {"GRAPHRT_BENCH_COUNT": mib * (MIB // 4)},
                                        ["--data-plane", "tcp"])
                assert all(v == k * (k + 1) / 2 for v in checks.values()), checks
                t = median([max(r["task_seconds"].values()) for r in per])
                ours = mib / 1024 / t
                print("  k=%d %4d MiB: graph-run %6.3f GiB/s  gloo %6.3f GiB/s"
                      "  ratio %.2fx" % (k, mib, ours, gloo, ours / gloo))
                results.append(("(c) all-reduce k=%d %d MiB vs gloo" % (k, mib),
                                ours / gloo, ">= 1.2x"))
        print("runtime: ratios (this run)")
        for name, ratio, goal in results:
            print("  %-40s %5.2fx  (goal %s)" % (name, ratio, goal))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
