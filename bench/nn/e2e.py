#!/usr/bin/env python3
"""e2e.py BUILD [--quick] [--only SUBSTRING]: end-to-end latency of whole
models, graphc against PyTorch 1.13 eager and ONNX Runtime (CPU), batch 1
and 8, 2 threads on every side.

Models:
* the ONNX backend suite's light/ CNNs and mnist-8 (model zoo). They have no
  PyTorch definition; their PyTorch peer is onnx_torch.py, which runs the
  ONNX graph node by node with torch operators (eager, weights prepared
  once). Their files hard-code batch 1; batch 8 runs a copy declaring batch
  8 whose flattening Reshapes infer it (Case.at_batch), on every side.
* ResNet-18 (torch.nn, torchvision's layout) and a transformer encoder layer
  (nn.TransformerEncoderLayer, d_model 256 and 512, 8 heads, seq 128),
  exported with torch.onnx.export (dynamic batch) into a temporary folder;
  their peer is the nn.Module itself under no_grad (the encoder layer takes
  PyTorch's fused inference path there).

Every model is compiled with `graphc --input-shape NAME:BATCHx...` and run
with `graph-run --repeat N --stats` under OMP_NUM_THREADS=2; the PyTorch
peer is timed over N calls after 3 warm-up calls with
torch.set_num_threads(2) (this process; on AVX-512 Intel CPUs it restarts
itself with OPENBLAS_CORETYPE=SkylakeX, which graphc's processes never get);
ONNX Runtime (ort_runner.js under node, npm's onnxruntime-node, which
bench/run.sh installs into GRAPHC_ORT_DIR) over N session.run calls after 3
warm-ups, intraOpNumThreads 2, interOpNumThreads 1. The last step's outputs
are compared with the PyTorch peer's on the same input (max abs error;
MISMATCH past rtol 1e-3 / atol 1e-3 of the output's scale). A side that
fails says so in its row and in the summary. --quick: shorter runs (a smoke
run, not a result).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

# The PyTorch peer runs in this process: on CPUs where OpenBLAS needs to be
# told its core, start again with it set (graphc's processes and ORT's drop
# it: common.tool_env).
if (common.peer_openblas_coretype() and os.environ.get("OPENBLAS_CORETYPE")
        != common.peer_openblas_coretype()):
    os.execve(sys.executable, [sys.executable] + sys.argv,
              dict(os.environ,
                   OPENBLAS_CORETYPE=common.peer_openblas_coretype()))
import onnx_torch  # noqa: E402
import torch_models  # noqa: E402

ORT_RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "ort_runner.js")


def safe(name):
    return "".join(c if c.isalnum() else "_" for c in name)


def shared_root():
    # The lit config's %shared; overridable for other checkouts.
    return os.environ.get("GRAPHC_SHARED", "/work/shared")


class Case:
    """A model to time: an ONNX file, its input name and shape without the
    batch, and a peer factory ((batch, ONNX path) -> callable(x) ->
    np.ndarray, or raises onnx_torch.Unsupported). fixed_batch: the file
    hard-codes batch 1 (the model zoo's), so other batches get a rewritten
    copy (at_batch)."""

    def __init__(self, name, onnx_path, input_name, sample_shape, peer,
                 fixed_batch=False):
        self.name, self.onnx = name, onnx_path
        self.input_name, self.sample_shape = input_name, sample_shape
        self.peer, self.fixed_batch = peer, fixed_batch

    def at_batch(self, tmp, batch):
        """The ONNX file every side runs at BATCH. The model zoo's files
        declare batch 1 and their flattening Reshapes say 1 in dimension 0
        (PyTorch's export of x.view(1, -1)); the batch-B copy declares B and
        lets those Reshapes infer it (-1), which is what an export at batch B
        would have written. Reshapes of weights (a leading dimension other
        than 1) are left alone."""
        if batch == 1 or not self.fixed_batch:
            return self.onnx
        path = os.path.join(tmp, "%s.b%d.onnx" % (safe(self.name), batch))
        if os.path.exists(path):
            return path
        m = onnx.load(self.onnx)
        g = m.graph
        inits = {i.name: i for i in g.initializer}
        for n in g.node:
            if n.op_type == "Reshape" and n.input[1] in inits:
                t = inits[n.input[1]]
                shape = numpy_helper.to_array(t)
                if shape.ndim == 1 and len(shape) > 1 and shape[0] == 1:
                    shape = shape.copy()
                    shape[0] = -1
                    t.CopyFrom(numpy_helper.from_array(shape, t.name))
        for v in list(g.input) + list(g.output):
            if v.name in inits:
                continue
            d = v.type.tensor_type.shape.dim
            if d and d[0].dim_value == 1:
                d[0].dim_value = batch
        del g.value_info[:]
        onnx.save(m, path)
        return path


def onnx_peer(batch, path):
    m = onnx_torch.Model(path)
    return lambda x: m.run({m.inputs[0]: x})[0]


def module_peer(module):
    return lambda _batch, _path: module


def cases(tmp, only):
    out = []
    light = os.path.join(shared_root(), "testdata/onnx-backend/light")
    mnist = os.path.join(shared_root(),
                         "testdata/onnx-models/mnist-8_modelzoo/model.onnx")
    paths = [os.path.join(light, f) for f in sorted(os.listdir(light))
             if f.endswith(".onnx")] if os.path.isdir(light) else []
    if os.path.exists(mnist):
        paths.append(mnist)
    for p in paths:
        name = ("mnist-8" if p == mnist else os.path.basename(p)[:-5])
        if only and only not in name:
            continue
        g = onnx.load(p, load_external_data=False).graph
        inits = {i.name for i in g.initializer}
        inp = [i for i in g.input if i.name not in inits][0]
        dims = [d.dim_value for d in inp.type.tensor_type.shape.dim]
        out.append(Case(name, p, inp.name, dims[1:], onnx_peer,
                        fixed_batch=True))
    exported = [("resnet18", torch_models.resnet18, [3, 224, 224])]
    for d in (256, 512):
        exported.append(("encoder d%d seq128" % d,
                         lambda d=d: torch_models.encoder_layer(d), [128, d]))
    for name, make, shape in exported:
        if only and only not in name:
            continue
        module = make()
        path = os.path.join(tmp, safe(name) + ".onnx")
        torch_models.export(module, torch.randn([1] + shape), path)
        out.append(Case(name, path, "x", shape, module_peer(module)))
    return out


class OrtPeer:
    """ONNX Runtime (npm onnxruntime-node, CPU) through ort_runner.js under
    node. bench/run.sh installs it into GRAPHC_ORT_DIR; `error` says why it
    is unavailable when it is."""

    def __init__(self):
        self.dir = os.environ.get("GRAPHC_ORT_DIR",
                                  os.path.expanduser("~/.cache/graphc/ort"))
        self.error, self.config = None, None
        if not shutil.which("node"):
            self.error = "node not found (Debian: apt-get install nodejs npm)"
        elif not os.path.isdir(os.path.join(self.dir, "node_modules",
                                            "onnxruntime-node")):
            self.error = ("onnxruntime-node not installed in %s (bash "
                          "bench/run.sh e2e installs it)" % self.dir)

    def run(self, tmp, case, model, x, repeat):
        """(median ms, min ms, first output) of REPEAT runs of MODEL on X
        (CASE's file at X's batch); raises
        common.Failed with ORT's message."""
        if self.error:
            raise common.Failed(self.error)
        stem = os.path.join(tmp, "%s.b%d.ort" % (safe(case.name), x.shape[0]))
        x.astype("<f4").tofile(stem + ".in")
        spec = {"model": model, "input": case.input_name,
                "shape": list(x.shape), "data": stem + ".in",
                "output": stem + ".out", "threads": common.THREADS,
                "repeat": repeat, "warmup": 3}
        with open(stem + ".json", "w") as f:
            json.dump(spec, f)
        env = common.tool_env(NODE_PATH=os.path.join(self.dir, "node_modules"))
        try:
            r = subprocess.run(["node", ORT_RUNNER, stem + ".json"], env=env,
                               capture_output=True, text=True,
                               errors="replace", timeout=1800)
        except subprocess.TimeoutExpired:
            raise common.Failed("ORT timed out")
        if r.returncode != 0:
            raise common.Failed(common.first_error(r.stderr))
        res = json.loads(r.stdout.strip().splitlines()[-1])
        self.config = ("onnxruntime-node %s, intraOpNumThreads %d, "
                       "interOpNumThreads %d, %s execution"
                       % (res["version"], res["intra_op_threads"],
                          res["inter_op_threads"], res["execution_mode"]))
        out = np.fromfile(stem + ".out", dtype="<f4").reshape(res["dims"])
        return res["median_ms"], res["min_ms"], out


def compare(got, want):
    """The error column: max abs error of GOT against WANT, or MISMATCH."""
    if got.shape != want.shape:
        return "MISMATCH shapes %s vs %s" % (got.shape, want.shape)
    err = float(np.max(np.abs(got - want)))
    scale = max(1.0, float(np.max(np.abs(want))))
    ok = np.allclose(got, want, rtol=1e-3, atol=1e-3 * scale)
    return ("%.1e" % err) if ok else "MISMATCH max err %.3g" % err


def ratio(a, b):
    return a / b if a is not None and b else None


# The most timed steps per side. Sub-millisecond models (mnist-8, 0.04-0.2
# ms) get up to 2000: over 200 steps (20-40 ms) one scheduling hiccup of a
# 2-vCPU machine moved graphc's batch-8 median from 0.18 to 0.56 ms.
MAX_STEPS = 2000


def bench_case(build, tmp, ort, case, batch, budget):
    """One result for CASE at BATCH: {"row": table cells, "g", "t", "o":
    (median, min) or None, "fail": {side: message}}."""
    shape = [batch] + case.sample_shape
    rng = np.random.default_rng(batch)
    x = rng.standard_normal(shape).astype(np.float32)
    tx = torch.from_numpy(x)
    fail, res = {}, {"g": None, "t": None, "o": None}
    peer, want, probe = None, None, None
    model = case.at_batch(tmp, batch)
    try:
        peer = case.peer(batch, model)
        fn = lambda: peer(tx)
        with torch.no_grad():
            want = fn().numpy()
        probe = common.torch_time_ms(fn, 3, warmup=1)[1]
    except (onnx_torch.Unsupported, RuntimeError) as e:
        peer, fail["torch"] = None, str(e).splitlines()[0]
    job = os.path.join(tmp, "%s.b%d.gjob" % (safe(case.name), batch))
    got, ctime = None, None
    try:
        ctime, _ = common.compile_model(
            build, model, job,
            ["%s:%s" % (case.input_name, "x".join(map(str, shape)))])
        paths, _ = common.write_inputs(job, tmp, given={case.input_name: x})
        if probe is None:
            probe = common.run_job(build, job, paths, 2)[0]["median_ms"]
        repeat = common.pick_repeat(probe, budget, hi=MAX_STEPS)
        stats, outs = common.run_job(build, job, paths, repeat,
                                     outdir=job + ".out")
        got = list(outs.values())[0]
        res["g"] = (stats["median_ms"], stats["min_ms"])
        wall = stats["wall_median_ms"]
    except common.Failed as e:
        # Most batch-8 failures are models that hard-code batch 1 in a
        # Reshape; the peers failing on the same input show that.
        fail["graphc"], wall = str(e), None
        repeat = (common.pick_repeat(probe, budget, hi=MAX_STEPS) if probe
                  else 5)
    if peer is not None:
        res["t"] = common.torch_time_ms(fn, repeat)
    ort_out = None
    try:
        o_med, o_min, ort_out = ort.run(tmp, case, model, x, repeat)
        res["o"] = (o_med, o_min)
    except common.Failed as e:
        fail["ORT"] = str(e)
    ref = want if want is not None else got
    check_g = compare(got, want) if got is not None and want is not None \
        else "-"
    check_o = compare(ort_out, ref) if ort_out is not None and \
        ref is not None else "-"
    med = lambda k: res[k][0] if res[k] else None
    low = lambda k: res[k][1] if res[k] else None
    res["row"] = [case.name, str(batch), str(repeat)] + [
        common.fmt(med(k)) for k in "gto"] + [
        common.fmt(ratio(med("g"), med("t")), "%.2f"),
        common.fmt(ratio(med("g"), med("o")), "%.2f")] + [
        common.fmt(low(k)) for k in "gto"] + [
        common.fmt(wall), check_g, check_o,
        common.fmt(ctime, "%.1f")]
    res["fail"] = fail
    if fail:
        res["row"].append("; ".join("%s: %s" % kv for kv in fail.items()))
    return res


def summary_cell(res, peer):
    """graphc/PEER median ratio, or which side failed."""
    r = ratio(res["g"][0] if res["g"] else None,
              res[peer][0] if res[peer] else None)
    if r is not None:
        return "%.2f" % r
    name = {"t": "torch", "o": "ORT"}[peer]
    sides = [s for s in ("graphc", name) if s in res["fail"]]
    return (" and ".join(sides) + " failed") if sides else "n/a"


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    batches = [1, 8]
    budget = 300 if quick else 2000
    torch.set_num_threads(common.THREADS)
    ort = OrtPeer()
    print("e2e bench: whole models, %d threads, graphc vs PyTorch %s eager and "
          "ONNX Runtime; CPU: %s; %s"
          % (common.THREADS, torch.__version__, common.cpu_name(),
             common.load_info()))
    print("PyTorch's OpenBLAS (the peer's process only): %s"
          % common.openblas_info())
    results = []
    with tempfile.TemporaryDirectory(prefix="graphc-e2e-") as tmp:
        common.print_floor(build, tmp)
        for case in cases(tmp, only):
            for b in batches:
                res = bench_case(build, tmp, ort, case, b, budget)
                results.append(res)
                print("  %s" % " | ".join(res["row"]), file=sys.stderr,
                      flush=True)
    common.table(["model", "N", "steps", "graphc ms", "torch ms", "ORT ms",
                  "g/torch", "g/ORT", "graphc min", "torch min", "ORT min",
                  "graphc wall ms", "err vs torch", "ORT err", "compile s"],
                 [r["row"] for r in results])
    print("ONNX Runtime: %s" % (ort.config or "not run: %s" % ort.error))
    # The summary: one row per model, medians, batch 1 and 8 side by side.
    by_model, geo = {}, {}
    for r in results:
        by_model.setdefault(r["row"][0], {})[r["row"][1]] = r
    rows = []
    for name, per in by_model.items():
        row = [name]
        for peer in "to":
            for b in map(str, batches):
                row.append(summary_cell(per[b], peer) if b in per else "-")
                if b in per and per[b]["g"] and per[b][peer]:
                    geo.setdefault((peer, b), []).append(
                        per[b]["g"][0] / per[b][peer][0])
        rows.append(row)
    rows.append(["geometric mean"] + [
        "%.2f (%d)" % (common.geomean(geo[(p, b)]), len(geo[(p, b)]))
        if (p, b) in geo else "-" for p in "to" for b in map(str, batches)])
    print()
    common.table(["model"] + ["graphc/%s N=%d" % (p, b)
                              for p in ("torch", "ORT") for b in batches],
                 rows)
    print("g/torch, g/ORT: graphc median / peer median (lower is better for "
          "graphc; the geometric means count, in brackets, the models both "
          "sides ran); graphc ms/min: graph-run --stats median_ms/min_ms "
          "(inside the worker); torch: median/min of as many eager calls "
          "(light/ and mnist-8 through onnx_torch.py, node by node; the "
          "others as nn.Modules); ORT: the same count of session.run calls "
          "after 3 warm-up runs; graphc wall ms adds the per-step RPC; "
          "errors: graphc and ORT against the torch peer (ORT against graphc "
          "where torch has no peer). %s" % common.load_info())


if __name__ == "__main__":
    main()
