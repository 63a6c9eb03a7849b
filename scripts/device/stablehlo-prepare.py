#!/usr/bin/env python3
"""stablehlo-prepare.py: the TPU target's device-check cases, compiled here.

    stablehlo-prepare.py --bin BUILD/bin --shared ../shared/testdata --out DIR
        [--cpu-results FILE.json] [--node-filter REGEX] [--no-resnet]
        [--max-case-bytes N]

Writes DIR/index.json and one folder per case with what stablehlo-check.py
needs on a machine that has JAX but no graphc: the task's
TASK.stablehlo.mlir, manifest.json and weights files (graphc --target=tpu),
the inputs as .npy and the references as .npy.

Cases:
  node/NAME   every ONNX node test (../shared/testdata/onnx-backend/node) that
              passes on CPU: --cpu-results is onnx-conformance.py's --results
              JSON (default DIR/../onnx-node-results.json, made by running
              onnx-conformance.py --suites node when missing). Compiled with
              the same --input-shape/--freeze-input as on CPU; the reference
              is the suite's expected output, which graphc's CPU output
              matches for these tests (rtol 1e-3, atol 1e-4). A test the TPU
              target cannot compile is recorded as failed, with the reason.
  mnist-8     the model zoo's three data sets; references: graphc's CPU
              output (graph-run) and the zoo's expected output.
  resnet18    bench/nn/torch_models.resnet18 (seeded weights), batch 1,
              3x224x224; references: graphc's CPU output and PyTorch's.
              About 45 MB of weights: --no-resnet leaves it out.
  replicas2   test/Train/Inputs/mlp.mlir trained with --replicas 2: one SPMD
              module (mhlo.num_replicas = 2); reference: the CPU job's loss
              over 3 steps (graph-run --metrics), each replica fed its half
              of the batch.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_conformance():
    spec = importlib.util.spec_from_file_location(
        "onnx_conformance", os.path.join(ROOT, "scripts", "onnx-conformance.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else ""


def pack_bundle(job, case_dir):
    """Copies the bundle's files (module, manifest, weights) into case_dir;
    returns the manifest's first task."""
    os.makedirs(case_dir, exist_ok=True)
    for f in os.listdir(job):
        shutil.copy(os.path.join(job, f), case_dir)
    with open(os.path.join(job, "manifest.json")) as fh:
        return json.load(fh)["tasks"][0]


def case_size(case_dir):
    return sum(os.path.getsize(os.path.join(case_dir, f))
               for f in os.listdir(case_dir))


def cpu_results(args, conf):
    path = args.cpu_results or os.path.join(os.path.dirname(args.out),
                                            "onnx-node-results.json")
    if not os.path.exists(path):
        print(f"stablehlo-prepare: no CPU results at {path}; running "
              f"onnx-conformance.py --suites node (several minutes)",
              file=sys.stderr)
        r = subprocess.run(
            ["/usr/bin/python3", os.path.join(ROOT, "scripts",
                                              "onnx-conformance.py"),
             "--suites", "node", "--bin", args.bin, "--results", path,
             "--jobs", "2", os.path.join(args.shared, "onnx-backend")])
        if not os.path.exists(path):
            raise SystemExit("stablehlo-prepare: onnx-conformance.py wrote no "
                             f"results (exit {r.returncode})")
    with open(path) as fh:
        return json.load(fh)


def node_cases(args, conf, index):
    results = cpu_results(args, conf)
    passing = {k.split("/", 1)[1] for k, v in results.items()
               if k.startswith("node/") and v["status"] == "pass"}
    tests = conf.discover(os.path.join(args.shared, "onnx-backend"), ["node"],
                          args.node_filter)
    tests = [t for t in tests if t.name in passing]
    work = os.path.join(args.out, "_work")
    for n, t in enumerate(tests):
        entry = {"name": "node/" + t.name, "kind": "node", "rtol": conf.RTOL,
                 "atol": conf.ATOL}
        index.append(entry)
        import onnx
        model = onnx.load(t.model, load_external_data=False)
        init = {i.name for i in model.graph.initializer}
        inputs = [vi for vi in model.graph.input if vi.name not in init]
        in_files, out_files = t.data_sets[0]
        shapes, arrays = {}, {}
        for vi, path in zip(inputs, in_files):
            _, arr = conf.load_tensor(path)
            shapes[vi.name] = list(arr.shape)
            arrays[vi.name] = (arr, path)
        job = os.path.join(work, t.name + ".gjob")
        shutil.rmtree(job, ignore_errors=True)
        frozen, reason = [], ""
        while True:
            cmd = [os.path.join(args.bin, "graphc"), t.model, "-o", job,
                   "--target=tpu"]
            for name, dims in shapes.items():
                if name not in frozen:
                    cmd.append(f"--input-shape={name}:" +
                               "x".join(map(str, dims)))
            for name in frozen:
                cmd.append(f"--freeze-input={name}={arrays[name][1]}")
            r = run(cmd, timeout=300)
            if r.returncode == 0:
                break
            reason = first_error(r.stderr)
            more = conf.inputs_to_freeze(model, reason, inputs, frozen)
            if not more:
                break
            frozen += more
        if r.returncode != 0:
            entry.update(status="compile", reason=reason)
            continue
        case_dir = os.path.join(args.out, "node", t.name)
        task = pack_bundle(job, case_dir)
        entry["dir"] = os.path.relpath(case_dir, args.out)
        entry["inputs"] = []
        for sig in task.get("inputs", []):
            arr = arrays[sig["name"]][0]
            f = f"in_{len(entry['inputs'])}.npy"
            np.save(os.path.join(case_dir, f), arr)
            entry["inputs"].append(f)
        entry["refs"] = []
        for i, path in enumerate(out_files):
            _, want = conf.load_tensor(path)
            f = f"ref_{i}.npy"
            np.save(os.path.join(case_dir, f), want)
            entry["refs"].append(f)
        if case_size(case_dir) > args.max_case_bytes:
            shutil.rmtree(case_dir)
            entry.update(status="skipped",
                         reason=f"over {args.max_case_bytes} bytes")
            del entry["dir"]
            continue
        entry["status"] = "ready"
        if n % 100 == 0:
            print(f"stablehlo-prepare: node {n}/{len(tests)}", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)


def graph_run(args, job, feeds, odir, extra=()):
    cmd = [os.path.join(args.bin, "graph-run"), "--quiet", job, "--output-dir",
           odir, *extra]
    for name, path in feeds:
        cmd += ["--input", f"{name}={path}"]
    r = run(cmd, timeout=600)
    if r.returncode:
        raise SystemExit(f"stablehlo-prepare: graph-run {job} failed: "
                         f"{first_error(r.stderr)}")


def compile_pair(args, model, name, flags):
    """The TPU bundle and the CPU bundle of one model."""
    work = os.path.join(args.out, "_work")
    os.makedirs(work, exist_ok=True)
    jobs = {}
    for target in ("tpu", "cpu"):
        job = os.path.join(work, f"{name}.{target}.gjob")
        shutil.rmtree(job, ignore_errors=True)
        r = run([os.path.join(args.bin, "graphc"), model, "-o", job,
                 f"--target={target}", *flags], timeout=1200)
        if r.returncode:
            raise SystemExit(f"stablehlo-prepare: graphc --target={target} "
                             f"{model} failed: {first_error(r.stderr)}")
        jobs[target] = job
    return jobs


def model_case(args, index, name, model, flags, data_sets, extra_ref=None):
    """data_sets: [(input name -> .npy path, independent reference or None)]."""
    jobs = compile_pair(args, model, name, flags)
    case_dir = os.path.join(args.out, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    task = pack_bundle(jobs["tpu"], case_dir)
    entry = {"name": name, "kind": "model", "dir": name, "rtol": 1e-3,
             "atol": 1e-4, "sets": [], "status": "ready"}
    for k, (feeds, independent) in enumerate(data_sets):
        odir = os.path.join(args.out, "_work", f"{name}.out{k}")
        graph_run(args, jobs["cpu"], feeds.items(), odir)
        s = {"inputs": [], "refs": [], "independent": []}
        for i, sig in enumerate(task.get("inputs", [])):
            f = f"set{k}_in_{i}.npy"
            shutil.copy(feeds[sig["name"]], os.path.join(case_dir, f))
            s["inputs"].append(f)
        for i, sig in enumerate(task.get("outputs", [])):
            f = f"set{k}_ref_{i}.npy"
            shutil.copy(os.path.join(odir, sig["name"] + ".npy"),
                        os.path.join(case_dir, f))
            s["refs"].append(f)
        if independent is not None:
            f = f"set{k}_independent_0.npy"
            np.save(os.path.join(case_dir, f), independent)
            s["independent"].append(f)
        entry["sets"].append(s)
    index.append(entry)


def mnist_case(args, conf, index):
    base = os.path.join(args.shared, "onnx-models", "mnist-8_modelzoo")
    sets = []
    tmp = os.path.join(args.out, "_work", "mnist")
    os.makedirs(tmp, exist_ok=True)
    for k in range(3):
        ds = os.path.join(base, f"test_data_set_{k}")
        _, x = conf.load_tensor(os.path.join(ds, "input_0.pb"))
        _, y = conf.load_tensor(os.path.join(ds, "output_0.pb"))
        path = os.path.join(tmp, f"in{k}.npy")
        np.save(path, x)
        sets.append(({"Input3": path}, y))
    model_case(args, index, "mnist-8", os.path.join(base, "model.onnx"), [],
               sets)


def resnet_case(args, index):
    sys.path.insert(0, os.path.join(ROOT, "bench", "nn"))
    import torch
    import torch_models
    tmp = os.path.join(args.out, "_work", "resnet18")
    os.makedirs(tmp, exist_ok=True)
    model = torch_models.resnet18().eval()
    onnx_path = os.path.join(tmp, "resnet18.onnx")
    x = torch.from_numpy(
        np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(
            np.float32))
    torch_models.export(model, x, onnx_path)
    with torch.no_grad():
        want = model(x).numpy()
    path = os.path.join(tmp, "x.npy")
    np.save(path, x.numpy())
    model_case(args, index, "resnet18", onnx_path,
               ["--input-shape=x:1x3x224x224"], [({"x": path}, want)])


def replicas_case(args, index):
    """One SPMD module for 2 replicas; the CPU job runs 3 steps and its
    losses are the reference (the losses after step 1 depend on the
    all-reduced gradients)."""
    model = os.path.join(ROOT, "test", "Train", "Inputs", "mlp.mlir")
    flags = ["--train", "--labels=y", "--replicas", "2"]
    jobs = compile_pair(args, model, "replicas2", flags)
    case_dir = os.path.join(args.out, "replicas2")
    shutil.rmtree(case_dir, ignore_errors=True)
    task = pack_bundle(jobs["tpu"], case_dir)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 4)).astype(np.float32)
    y = rng.integers(0, 3, size=(6,)).astype(np.int64)
    tmp = os.path.join(args.out, "_work", "replicas2")
    os.makedirs(tmp, exist_ok=True)
    np.save(os.path.join(tmp, "x.npy"), x)
    np.save(os.path.join(tmp, "y.npy"), y)
    steps = 3
    metrics = os.path.join(tmp, "metrics.json")
    graph_run(args, jobs["cpu"], [("x", os.path.join(tmp, "x.npy")),
                                  ("y", os.path.join(tmp, "y.npy"))],
              os.path.join(tmp, "out"),
              ["--steps", str(steps), "--metrics", metrics])
    with open(metrics) as fh:
        m = json.load(fh)
    losses = [s["loss"] for s in m.get("per_step", m.get("steps_detail", []))
              if isinstance(s, dict) and "loss" in s]
    if len(losses) != steps:
        raise SystemExit("stablehlo-prepare: graph-run --metrics has no "
                         f"per-step loss ({metrics})")
    # Replica r gets rows [3r, 3r+3): the partitioner's split of the batch.
    shards = {}
    for sig in task.get("inputs", []):
        full = x if sig["name"].startswith("x") else y
        for r in range(2):
            f = f"{sig['name']}_r{r}.npy"
            np.save(os.path.join(case_dir, f), full[3 * r:3 * r + 3])
            shards.setdefault(sig["name"], []).append(f)
    index.append({"name": "replicas2", "kind": "spmd", "dir": "replicas2",
                  "replicas": 2, "steps": steps, "shards": shards,
                  "ref_losses": losses, "rtol": 1e-4, "atol": 1e-5,
                  "status": "ready"})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cpu-results")
    ap.add_argument("--node-filter", default="")
    ap.add_argument("--no-resnet", action="store_true")
    ap.add_argument("--only", default="node,mnist,resnet,replicas",
                    help="comma-separated subset of the case groups")
    ap.add_argument("--max-case-bytes", type=int, default=2 << 20)
    args = ap.parse_args()
    only = set(args.only.split(","))
    if args.no_resnet:
        only.discard("resnet")
    conf = load_conformance()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    index = []
    if "replicas" in only:
        replicas_case(args, index)
    if "mnist" in only:
        mnist_case(args, conf, index)
    if "resnet" in only:
        resnet_case(args, index)
    if "node" in only:
        node_cases(args, conf, index)
    shutil.rmtree(os.path.join(args.out, "_work"), ignore_errors=True)
    shutil.copy(os.path.join(HERE, "stablehlo-check.py"), args.out)
    with open(os.path.join(args.out, "index.json"), "w") as fh:
        json.dump({"cases": index}, fh, indent=1)
    ready = sum(1 for e in index if e["status"] == "ready")
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(args.out) for f in fs)
    print(f"stablehlo-prepare: {ready} of {len(index)} cases ready in "
          f"{args.out} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
