#!/usr/bin/env python3
"""fwdbwd.py BUILD [--quick] [--rounds R] [--only resnet18|convs]
[--filter SUBSTRING] [--work DIR]: forward + backward against PyTorch 1.13,
both on one thread.

* resnet18: ResNet-18's training step at batch 8 (224x224, 1000 classes):
  graphc --train --labels=y --loss=softmax_cross_entropy --optimizer=sgd
  --lr=0.01 --no-openmp (batch norm with the batch's statistics, as
  PyTorch's train()), run by `graph-run --repeat N --stats` under
  OMP_NUM_THREADS=1 with the batch from --data files of one batch; the
  figure is the in-worker step (median_ms, min_ms). The peer: the same
  model in train() mode, zero_grad + forward + cross-entropy + backward +
  SGD step, torch.set_num_threads(1), median and minimum over N timed
  steps after 2 warm-up steps. Both start from the same weights (the ONNX
  export of the peer's model), and the first-step losses are printed.
  CPU time per step is printed too (graphc: getrusage of graph-run and its
  worker, a run of N steps minus a run of 1, over N - 1; torch: the
  median of time.process_time() per step; the lowest round of each): on a
  shared machine the wall times swing with the load, the CPU times much
  less.
* convs: the backward convolutions of ResNet-18's layer shapes at batch 8,
  standalone. The data gradient is an ONNX ConvTranspose of dY by the
  forward filter (what graph-autodiff emits for it); the filter gradient an
  ONNX Transpose + Conv + Transpose of x and dY, the form graph-autodiff
  emits (x with its batch as channels, cut to the rows the forward pass
  read, convolved by dY as a filter of Ho x Wo taps). The peer: torch.ops.aten.convolution_backward with
  output_mask (True, False, False) and (False, True, False), the kernel
  autograd calls (and torch.nn.grad.conv2d_input/conv2d_weight wrap).
  Results are compared (max abs error over the largest element).

Each round runs graphc and then the peer (a separate process whose
environment alone has OPENBLAS_CORETYPE, see common.peer_openblas_coretype);
--rounds R (default 3, 1 with --quick) interleaves R rounds and reports the
median of the per-round medians and the minimum of the minima, and their
ratios graphc/torch (goal <= 1.25). --work DIR keeps the exported models and
compiled bundles for the next run.
"""
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import torch
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import torch_models  # noqa: E402

BATCH = 8
LR = 0.01
GOAL = 1.25

# ResNet-18's convolutions at 224x224: (name, C, O, kernel, stride, H=W of
# the input, how many the network has). The stem has no data gradient (its
# input is the image).
LAYERS = [
    ("stem 7x7/2 3->64 @224", 3, 64, 7, 2, 224, 1),
    ("3x3 64->64 @56", 64, 64, 3, 1, 56, 4),
    ("3x3/2 64->128 @56", 64, 128, 3, 2, 56, 1),
    ("1x1/2 64->128 @56", 64, 128, 1, 2, 56, 1),
    ("3x3 128->128 @28", 128, 128, 3, 1, 28, 3),
    ("3x3/2 128->256 @28", 128, 256, 3, 2, 28, 1),
    ("1x1/2 128->256 @28", 128, 256, 1, 2, 28, 1),
    ("3x3 256->256 @14", 256, 256, 3, 1, 14, 3),
    ("3x3/2 256->512 @14", 256, 512, 3, 2, 14, 1),
    ("1x1/2 256->512 @14", 256, 512, 1, 2, 14, 1),
    ("3x3 512->512 @7", 512, 512, 3, 1, 7, 3),
]


def out_size(hw, k, stride):
    return (hw + 2 * (k // 2) - k) // stride + 1


def dgrad_model(path, c, o, k, stride, hw, w):
    """dX = ConvTranspose(dY, W): [N, O, Ho, Wo] -> [N, C, H, W]."""
    p, ho = k // 2, out_size(hw, k, stride)
    outpad = hw - (stride * (ho - 1) + k - 2 * p)
    node = h.make_node("ConvTranspose", ["dy", "w"], ["dx"],
                       kernel_shape=[k, k], strides=[stride, stride],
                       pads=[p] * 4, output_padding=[outpad, outpad])
    g = h.make_graph([node], "dgrad",
                     [h.make_tensor_value_info("dy", T.FLOAT, [BATCH, o, ho, ho])],
                     [h.make_tensor_value_info("dx", T.FLOAT, [BATCH, c, hw, hw])],
                     initializer=[numpy_helper.from_array(w, "w")])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), path)


def wgrad_model(path, c, o, k, stride, hw):
    """dW[O, C, K, K] from x [N, C, H, W] and dY [N, O, Ho, Wo], as
    graph-autodiff's filter gradient: Transpose(Conv(x^T, dY^T, dilations =
    stride, pads)), with x and its high padding cut to the rows the forward
    convolution read ((Ho - 1) * stride + K), so the Conv's output is K x K."""
    p, ho = k // 2, out_size(hw, k, stride)
    cut = hw + 2 * p - ((ho - 1) * stride + k)
    high = p - min(p, cut)
    rows = hw - (cut - min(p, cut))
    nodes, inits, src = [], [], "x"
    if rows != hw:
        inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
                 (("st", [0, 0]), ("en", [rows, rows]), ("ax", [2, 3]))]
        nodes.append(h.make_node("Slice", ["x", "st", "en", "ax"], ["xc"]))
        src = "xc"
    nodes += [h.make_node("Transpose", [src], ["xt"], perm=[1, 0, 2, 3]),
              h.make_node("Transpose", ["dy"], ["gt"], perm=[1, 0, 2, 3]),
              h.make_node("Conv", ["xt", "gt"], ["cw"], kernel_shape=[ho, ho],
                          dilations=[stride, stride],
                          pads=[p, p, high, high]),
              h.make_node("Transpose", ["cw"], ["dw"], perm=[1, 0, 2, 3])]
    g = h.make_graph(nodes, "wgrad",
                     [h.make_tensor_value_info("x", T.FLOAT, [BATCH, c, hw, hw]),
                      h.make_tensor_value_info("dy", T.FLOAT, [BATCH, o, ho, ho])],
                     [h.make_tensor_value_info("dw", T.FLOAT, [o, c, k, k])],
                     initializer=inits)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), path)


# --- The peer (run as `fwdbwd.py --peer SPEC OUT`) ---------------------------

def peer(spec_path, out_path):
    torch.set_num_threads(1)
    spec = json.load(open(spec_path))
    d = spec["dir"]
    result = {"openblas": common.openblas_info()}
    if spec["kind"] == "resnet18":
        model = torch_models.resnet18()
        model.load_state_dict(torch.load(os.path.join(d, "state.pt")))
        model.train()
        x = torch.from_numpy(np.load(os.path.join(d, "x.npy")))
        y = torch.from_numpy(np.load(os.path.join(d, "y.npy")))
        opt = torch.optim.SGD(model.parameters(), lr=LR)
        loss_fn = torch.nn.CrossEntropyLoss()
        times, cpu, losses = [], [], []
        for i in range(2 + spec["repeat"]):
            t, c = time.perf_counter(), time.process_time()
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            if i >= 2:
                times.append(1e3 * (time.perf_counter() - t))
                cpu.append(1e3 * (time.process_time() - c))
            losses.append(loss.item())
        result.update(ms=times, cpu_ms=cpu, loss=losses[0])
    else:
        rows = {}
        for case in spec["cases"]:
            a = {n: torch.from_numpy(np.load(os.path.join(d, f)))
                 for n, f in case["arrays"].items()}
            k, s = case["k"], case["stride"]
            mask = (True, False, False) if case["grad"] == "data" else (
                False, True, False)
            fn = lambda: torch.ops.aten.convolution_backward(
                a["dy"], a["x"], a["w"], None, [s, s], [k // 2, k // 2],
                [1, 1], False, [0, 0], 1, mask)[0 if mask[0] else 1]
            with torch.no_grad():
                got = fn()
                np.save(os.path.join(d, case["name"] + ".torch.npy"),
                        got.numpy())
                times = []
                for _ in range(3):
                    fn()
                for _ in range(case["repeat"]):
                    t = time.perf_counter()
                    fn()
                    times.append(1e3 * (time.perf_counter() - t))
            rows[case["name"]] = times
        result["cases"] = rows
    json.dump(result, open(out_path, "w"))


def run_peer(spec, d):
    spec_path = os.path.join(d, "peer-spec.json")
    out_path = os.path.join(d, "peer-out.json")
    json.dump(spec, open(spec_path, "w"))
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    if common.peer_openblas_coretype():
        env["OPENBLAS_CORETYPE"] = common.peer_openblas_coretype()
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--peer",
                        spec_path, out_path], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=3600)
    if p.returncode != 0:
        raise common.Failed("torch failed: " + common.first_error(p.stderr))
    return json.load(open(out_path))


def graphc_cpu_ms(build, job, extra, repeat):
    """CPU ms per step of graph-run and its worker (getrusage of the
    children): a run of `repeat` steps minus a run of 1, over repeat - 1,
    so start-up and the warm-up step cancel. On a shared machine this is
    steadier than wall time (time waiting for a core is not in it)."""
    import resource

    def cpu(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        common.run_job(build, job, {}, n, threads=1, extra=extra)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime + after.ru_stime - before.ru_utime -
                before.ru_stime)
    one = cpu(1)
    return 1e3 * (cpu(repeat) - one) / (repeat - 1)


def summary(meds, mins):
    return statistics.median(meds), min(mins)


# --- ResNet-18 training step ---------------------------------------------------

def bench_resnet18(build, d, rounds, repeat):
    rng = np.random.default_rng(0)
    np.save(os.path.join(d, "x.npy"),
            rng.standard_normal((BATCH, 3, 224, 224)).astype(np.float32))
    np.save(os.path.join(d, "y.npy"),
            rng.integers(0, 1000, BATCH).astype(np.int64))
    onnx_path = os.path.join(d, "resnet18.onnx")
    if not os.path.exists(onnx_path):
        torch.manual_seed(0)
        model = torch_models.resnet18()
        torch.save(model.state_dict(), os.path.join(d, "state.pt"))
        torch_models.export(model, torch.randn(BATCH, 3, 224, 224), onnx_path,
                            dynamic_batch=False, keep_batch_norm=True)
    job = os.path.join(d, "train.gjob")
    secs = None
    if not os.path.exists(job):
        secs, _ = common.compile_model(
            build, onnx_path, job,
            extra=["--train", "--labels=y", "--loss=softmax_cross_entropy",
                   "--optimizer=sgd", "--lr=%g" % LR, "--no-openmp"])
    g_meds, g_mins, t_meds, t_mins, g_cpu, t_cpu = [], [], [], [], [], []
    g_loss = t_loss = None
    openblas = ""
    data = ["--steps", "1", "--no-shuffle",
            "--data", "x=" + os.path.join(d, "x.npy"),
            "--data", "y=" + os.path.join(d, "y.npy")]
    for _ in range(rounds):
        metrics = job + ".metrics.json"
        stats, _ = common.run_job(build, job, {}, repeat, threads=1,
                                  extra=["--metrics", metrics] + data)
        g_meds.append(stats["median_ms"])
        g_mins.append(stats["min_ms"])
        g_loss = json.load(open(metrics))["per_step"][0].get("loss")
        g_cpu.append(graphc_cpu_ms(build, job, data, repeat))
        r = run_peer({"kind": "resnet18", "dir": d, "repeat": repeat}, d)
        t_meds.append(float(np.median(r["ms"])))
        t_mins.append(min(r["ms"]))
        t_cpu.append(float(np.median(r["cpu_ms"])))
        t_loss, openblas = r["loss"], r["openblas"]
    g_med, g_min = summary(g_meds, g_mins)
    t_med, t_min = summary(t_meds, t_mins)
    common.table(
        ["model", "steps x rounds", "graphc ms", "torch ms", "ratio",
         "graphc min", "torch min", "min ratio", "graphc CPU ms",
         "torch CPU ms", "CPU ratio", "first loss graphc/torch", "compile s"],
        [["ResNet-18 train step, batch %d" % BATCH,
          "%d x %d" % (repeat, rounds), "%.1f" % g_med, "%.1f" % t_med,
          "%.2f" % (g_med / t_med), "%.1f" % g_min, "%.1f" % t_min,
          "%.2f" % (g_min / t_min), "%.0f" % min(g_cpu),
          "%.0f" % min(t_cpu), "%.2f" % (min(g_cpu) / min(t_cpu)),
          "%s / %.5f" % (common.fmt(g_loss, "%.5f"), t_loss),
          common.fmt(secs, "%.1f")]])
    print("per-round medians, graphc: %s; torch: %s; CPU ms per step "
          "(lowest round shown above), graphc: %s; torch: %s"
          % (", ".join("%.0f" % v for v in g_meds),
             ", ".join("%.0f" % v for v in t_meds),
             ", ".join("%.0f" % v for v in g_cpu),
             ", ".join("%.0f" % v for v in t_cpu)))
    return openblas


# --- Backward convolutions -----------------------------------------------------

def bench_convs(build, d, rounds, quick, only):
    rng = np.random.default_rng(0)
    cases, jobs = [], {}
    for i, (name, c, o, k, stride, hw, count) in enumerate(LAYERS):
        if only and only not in name:
            continue
        ho = out_size(hw, k, stride)
        w = (rng.standard_normal((o, c, k, k), dtype=np.float32)
             / np.sqrt(c * k * k)).astype(np.float32)
        x = rng.standard_normal((BATCH, c, hw, hw), dtype=np.float32)
        dy = rng.standard_normal((BATCH, o, ho, ho), dtype=np.float32)
        base = os.path.join(d, "l%d" % i)
        for a, v in (("w", w), ("x", x), ("dy", dy)):
            np.save("%s.%s.npy" % (base, a), v)
        arrays = {a: "l%d.%s.npy" % (i, a) for a in ("w", "x", "dy")}
        # A cost estimate (multiply-adds) sizes the repeat count.
        macs = BATCH * o * c * k * k * ho * ho
        repeat = 3 if quick else max(3, min(30, int(3e10 / macs)))
        for grad in (("filter",) if name.startswith("stem") else
                     ("data", "filter")):
            tag = "l%d-%s" % (i, grad)
            model = os.path.join(d, tag + ".onnx")
            job = os.path.join(d, tag + ".gjob")
            if not os.path.exists(job):
                if grad == "data":
                    dgrad_model(model, c, o, k, stride, hw, w)
                else:
                    wgrad_model(model, c, o, k, stride, hw)
                common.compile_model(build, model, job, extra=["--no-openmp"])
            inputs = ({"dy": base + ".dy.npy"} if grad == "data" else
                      {"x": base + ".x.npy", "dy": base + ".dy.npy"})
            jobs[tag] = (job, inputs, repeat)
            cases.append({"name": tag, "label": name, "grad": grad, "k": k,
                          "stride": stride, "count": count, "repeat": repeat,
                          "arrays": arrays})
    got = {c["name"]: ([], [], [], []) for c in cases}
    outs = {}
    for _ in range(rounds):
        for case in cases:
            job, inputs, repeat = jobs[case["name"]]
            stats, o = common.run_job(build, job, inputs, repeat, threads=1,
                                      outdir=job + ".out")
            outs[case["name"]] = next(iter(o.values()))
            got[case["name"]][0].append(stats["median_ms"])
            got[case["name"]][1].append(stats["min_ms"])
        r = run_peer({"kind": "convs", "dir": d, "cases": cases}, d)
        for name, times in r["cases"].items():
            got[name][2].append(float(np.median(times)))
            got[name][3].append(min(times))
    rows, ratios, min_ratios = [], [], []
    totals = {"data": [0.0, 0.0], "filter": [0.0, 0.0]}
    for case in cases:
        g_meds, g_mins, t_meds, t_mins = got[case["name"]]
        g_med, g_min = summary(g_meds, g_mins)
        t_med, t_min = summary(t_meds, t_mins)
        want = np.load(os.path.join(d, case["name"] + ".torch.npy"))
        err = float(np.max(np.abs(outs[case["name"]] - want))
                    / max(np.max(np.abs(want)), 1e-30))
        ratios.append(g_med / t_med)
        min_ratios.append(g_min / t_min)
        totals[case["grad"]][0] += case["count"] * g_med
        totals[case["grad"]][1] += case["count"] * t_med
        rows.append([case["label"], case["grad"], str(case["count"]),
                     "%.2f" % g_med, "%.2f" % t_med, "%.2f" % ratios[-1],
                     "%.2f" % g_min, "%.2f" % t_min, "%.2f" % min_ratios[-1],
                     ("%.1e" % err) if err < 1e-4 else "MISMATCH %.2g" % err])
    common.table(["layer (batch %d)" % BATCH, "gradient", "in ResNet-18",
                  "graphc ms", "torch ms", "ratio", "graphc min", "torch min",
                  "min ratio", "max err / max"], rows)
    for grad, (g, t) in totals.items():
        if t:
            print("ResNet-18's %s gradients (each layer times its count): "
                  "graphc %.0f ms, torch %.0f ms, ratio %.2f"
                  % (grad, g, t, g / t))
    if ratios:
        common.print_ratio_summary(ratios, min_ratios, GOAL)
    return r.get("openblas", "")


def main():
    build = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    arg = lambda flag, default: (sys.argv[sys.argv.index(flag) + 1]
                                 if flag in sys.argv else default)
    rounds = int(arg("--rounds", 1 if quick else 3))
    only = arg("--only", None)
    work = arg("--work", None)
    print("fwdbwd bench: forward + backward, graphc vs PyTorch %s, 1 thread "
          "each (graphc --no-openmp, OMP_NUM_THREADS=1; torch."
          "set_num_threads(1)), %d interleaved rounds; %s; %s"
          % (torch.__version__, rounds, common.cpu_name(), common.load_info()))
    openblas = ""
    for part in ("resnet18", "convs"):
        if only and only != part:
            continue
        if work:
            os.makedirs(os.path.join(work, part), exist_ok=True)
        with (contextlib.nullcontext(os.path.abspath(os.path.join(work, part)))
              if work else tempfile.TemporaryDirectory(
                  prefix="graphc-fwdbwd-")) as d:
            try:
                if part == "resnet18":
                    openblas = bench_resnet18(build, d, rounds,
                                              2 if quick else 5) or openblas
                else:
                    openblas = bench_convs(build, d, rounds, quick,
                                           arg("--filter", None)) or openblas
            except common.Failed as e:
                print("%s: %s" % (part, e))
        print()
    print("graphc ms/min: graph-run --stats median_ms/min_ms (in the worker), "
          "median of the rounds' medians and minimum of their minima; torch: "
          "the same over its timed calls; ratio = graphc/torch (goal <= %.2f)."
          % GOAL)
    print("peer: PyTorch %s, 1 process, torch.set_num_threads(1), OpenBLAS: "
          "%s; %s; %s" % (torch.__version__, openblas or "n/a",
                          common.cpu_name(), common.load_info()))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        peer(sys.argv[2], sys.argv[3])
    else:
        main()
