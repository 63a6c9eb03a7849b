#!/usr/bin/env python3
"""e2e.py BUILD [--quick] [--only SUBSTRING]: end-to-end latency of whole
models, graphc against PyTorch 1.13 eager, batch 1 and 8, 2 threads.

Models:
* the ONNX backend suite's light/ CNNs and mnist-8 (model zoo). They have no
  PyTorch definition; their PyTorch peer is onnx_torch.py, which runs the
  ONNX graph node by node with torch operators (eager, weights prepared
  once). A model that does not compile, or that the peer cannot run, says so.
* ResNet-18 (torch.nn, torchvision's layout) and a transformer encoder layer
  (nn.TransformerEncoderLayer, d_model 256 and 512, 8 heads, seq 128),
  exported with torch.onnx.export into a temporary folder; their peer is the
  nn.Module itself under no_grad (the encoder layer takes PyTorch's fused
  inference path there).

Every model is compiled with `graphc --input-shape NAME:BATCHx...` and run
with `graph-run --repeat N --stats` under OMP_NUM_THREADS=2; the peer is timed
over N calls after 3 warm-up calls with torch.set_num_threads(2). The last
step's output is compared with the peer's on the same input (max abs error;
MISMATCH past rtol 1e-3 / atol 1e-3 of the output's scale). --quick: batch 1
and shorter runs (a smoke run, not a result).
"""
import os
import sys
import tempfile

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import onnx_torch  # noqa: E402
import torch_models  # noqa: E402

def safe(name):
    return "".join(c if c.isalnum() else "_" for c in name)


def shared_root():
    # The lit config's %shared; overridable for other checkouts.
    return os.environ.get("GRAPHC_SHARED", "/work/shared")


class Case:
    """A model to time: an ONNX file, its input name and shape without the
    batch, and a peer factory (batch -> callable(x) -> np.ndarray, or raises
    onnx_torch.Unsupported)."""

    def __init__(self, name, onnx_path, input_name, sample_shape, peer):
        self.name, self.onnx = name, onnx_path
        self.input_name, self.sample_shape = input_name, sample_shape
        self.peer = peer


def onnx_peer(path):
    def make(_batch):
        m = onnx_torch.Model(path)
        return lambda x: m.run({m.inputs[0]: x})[0]
    return make


def module_peer(module):
    return lambda _batch: module


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
        out.append(Case(name, p, inp.name, dims[1:], onnx_peer(p)))
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


def bench_case(build, tmp, case, batch, budget):
    """One table row for CASE at BATCH."""
    shape = [batch] + case.sample_shape
    row = [case.name, str(batch)]
    rng = np.random.default_rng(batch)
    x = rng.standard_normal(shape).astype(np.float32)
    tx = torch.from_numpy(x)
    peer, want, t_ms, t_min, peer_error = None, None, None, None, None
    try:
        peer = case.peer(batch)
        fn = lambda: peer(tx)
        with torch.no_grad():
            want = fn().numpy()
        probe = common.torch_time_ms(fn, 3, warmup=1)[1]
        repeat = common.pick_repeat(probe, budget)
    except (onnx_torch.Unsupported, RuntimeError) as e:
        peer_error = str(e).splitlines()[0]
        repeat = 20
    row.append(str(repeat))
    job = os.path.join(tmp, "%s.b%d.gjob" % (safe(case.name), batch))
    try:
        ctime, _ = common.compile_model(
            build, case.onnx, job,
            ["%s:%s" % (case.input_name, "x".join(map(str, shape)))])
        paths, _ = common.write_inputs(job, tmp, given={case.input_name: x})
        stats, outs = common.run_job(build, job, paths, repeat,
                                     outdir=job + ".out")
    except common.Failed as e:
        # Most batch-8 failures are models that hard-code batch 1 in a
        # Reshape; the peer failing on the same input shows that.
        return row + [str(e) + ("; the peer fails too: " + peer_error
                                if peer_error else "")], None
    got = list(outs.values())[0]
    if peer is not None:
        t_ms, t_min = common.torch_time_ms(fn, repeat)
    g_ms = stats["median_ms"]
    ratio = g_ms / t_ms if t_ms else None
    min_ratio = stats["min_ms"] / t_min if t_min else None
    if want is None:
        check = "no peer: " + peer_error
    elif got.shape != want.shape:
        check = "MISMATCH shapes %s vs %s" % (got.shape, want.shape)
    else:
        err = float(np.max(np.abs(got - want)))
        scale = max(1.0, float(np.max(np.abs(want))))
        ok = np.allclose(got, want, rtol=1e-3, atol=1e-3 * scale)
        check = ("%.1e" % err) if ok else "MISMATCH max err %.3g" % err
    row += ["%.3f" % g_ms, common.fmt(t_ms), common.fmt(ratio, "%.2f"),
            "%.3f" % stats["min_ms"], common.fmt(t_min),
            common.fmt(min_ratio, "%.2f"), "%.3f" % stats["wall_median_ms"],
            check, "%.1f" % ctime]
    return row, (ratio, min_ratio) if ratio else None


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    batches = [1] if quick else [1, 8]
    budget = 300 if quick else 2000
    torch.set_num_threads(common.THREADS)
    print("e2e bench: whole models, %d threads, graphc vs PyTorch %s eager; %s"
          % (common.THREADS, torch.__version__, common.load_info()))
    rows, ratios, min_ratios = [], [], []
    with tempfile.TemporaryDirectory(prefix="graphc-e2e-") as tmp:
        common.print_floor(build, tmp)
        for case in cases(tmp, only):
            for b in batches:
                row, r = bench_case(build, tmp, case, b, budget)
                rows.append(row)
                if r:
                    ratios.append(r[0])
                    min_ratios.append(r[1])
                print("  %s" % " | ".join(row), file=sys.stderr, flush=True)
    common.table(["model", "N", "steps", "graphc ms", "torch ms", "ratio",
                  "graphc min", "torch min", "min ratio", "graphc wall ms",
                  "max abs err", "compile s"], rows)
    if ratios:
        common.print_ratio_summary(ratios, min_ratios, 1 / 0.8)
    print("graphc ms/min: graph-run --stats median_ms/min_ms (inside the "
          "worker); torch: median/min of as many eager calls (light/ and "
          "mnist-8 through onnx_torch.py, node by node; the others as "
          "nn.Modules); ratio = graphc/torch; graphc wall ms adds the "
          "per-step RPC; max abs err: graphc vs the torch peer. %s"
          % common.load_info())


if __name__ == "__main__":
    main()
