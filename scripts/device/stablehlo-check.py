#!/usr/bin/env python3
"""stablehlo-check.py [PACK] [--platform cpu|cuda|both]: run graphc's
StableHLO modules through JAX's PJRT client and compare with the references.

Runs on the GPU machine (JAX with its CPU and CUDA PJRT plugins), from the
folder stablehlo-prepare.sh wrote (default: this script's folder). For each
case of index.json it compiles TASK.stablehlo.mlir with the PJRT client,
feeds the inputs (then the variables from the weights files), and compares
the outputs with the references: ONNX node tests (pass share), mnist-8 and
ResNet-18 (max abs/rel error against graphc's CPU output and the
independent reference), and a 2-replica SPMD training step on two JAX CPU
devices (XLA_FLAGS=--xla_force_host_platform_device_count=2, set here before
JAX loads), three steps, losses against the CPU job's. It prints which API
route compiled the modules, one line per model and the pass share.
"""
import argparse
import json
import os
import sys
import time
import traceback

os.environ.setdefault("XLA_FLAGS", "")
if "xla_force_host_platform_device_count" not in os.environ["XLA_FLAGS"]:
    os.environ["XLA_FLAGS"] += " --xla_force_host_platform_device_count=2"

import numpy as np  # noqa: E402

try:
    import jax  # noqa: E402
except ImportError:
    print("stablehlo-check: no JAX here; run this on the GPU machine")
    sys.exit(77)  # skipped, for device-check.sh

ROUTES_TRIED = {}


def devices_of(platform):
    try:
        return jax.devices(platform)
    except RuntimeError:
        return []


def compile_options(num_replicas):
    """CompileOptions for `num_replicas` replicas, one partition."""
    from jax._src.lib import xla_client as xc
    try:
        from jax._src import compiler
        return compiler.get_compile_options(
            num_replicas=num_replicas, num_partitions=1,
            device_assignment=np.arange(num_replicas).reshape(num_replicas, 1))
    except Exception:  # older/newer signature: build it by hand
        opts = xc.CompileOptions()
        build = opts.executable_build_options
        build.num_replicas = num_replicas
        build.num_partitions = 1
        build.device_assignment = xc.DeviceAssignment.create(
            np.arange(num_replicas).reshape(num_replicas, 1))
        return opts


def ir_module(text):
    from jax._src.interpreters import mlir as jmlir
    ctx = jmlir.make_ir_context()
    with ctx:
        return ctx, jmlir.ir.Module.parse(text)


def bytecode(text):
    from jax._src.interpreters import mlir as jmlir
    ctx, m = ir_module(text)
    with ctx:
        return jmlir.module_to_bytecode(m)


def compile_module(text, devices, num_replicas):
    """Tries the routes JAX versions offer; returns (executable, route)."""
    client = devices[0].client
    opts = compile_options(num_replicas)
    errors = []

    def dev_list():
        try:
            from jax._src.lib import xla_client as xc
            return xc.DeviceList(tuple(devices))
        except Exception:
            return devices

    routes = [
        ("client.compile_and_load(text)",
         lambda: client.compile_and_load(text, dev_list(), opts)),
        ("client.compile_and_load(bytecode)",
         lambda: client.compile_and_load(bytecode(text), dev_list(), opts)),
        ("compiler.backend_compile_and_load(ir)",
         lambda: _backend_compile_and_load(client, text, dev_list(), opts)),
        ("client.compile(text)", lambda: client.compile(text, opts)),
        ("client.compile(bytecode)",
         lambda: client.compile(bytecode(text), opts)),
        ("compiler.backend_compile(ir)",
         lambda: _backend_compile(client, text, opts)),
    ]
    for name, fn in routes:
        try:
            exe = fn()
            ROUTES_TRIED[name] = ROUTES_TRIED.get(name, 0) + 1
            return exe, name
        except Exception as e:  # try the next route, keep the reason
            errors.append(f"{name}: {type(e).__name__}: {str(e)[:300]}")
    raise RuntimeError("no route compiled the module:\n  " +
                       "\n  ".join(errors))


def _backend_compile_and_load(client, text, devices, opts):
    from jax._src import compiler
    ctx, m = ir_module(text)
    with ctx:
        return compiler.backend_compile_and_load(client, m, devices, opts, [])


def _backend_compile(client, text, opts):
    from jax._src import compiler
    ctx, m = ir_module(text)
    with ctx:
        return compiler.backend_compile(client, m, opts, [])


def execute(exe, per_device_args, devices):
    """per_device_args[d] = the arguments of replica d; returns
    outputs[d] = list of numpy arrays."""
    n = len(devices)
    placed = [[jax.device_put(a, devices[d]) for a in per_device_args[d]]
              for d in range(n)]
    errors = []
    # Newer jaxlib: execute_sharded(args[i] = shards of argument i).
    try:
        by_arg = [[placed[d][i] for d in range(n)]
                  for i in range(len(placed[0]))]
        res = exe.execute_sharded(by_arg)
        outs = res.disassemble_into_single_device_arrays()
        return [[np.asarray(o[d]) for o in outs] for d in range(n)]
    except Exception as e:
        errors.append(f"execute_sharded: {e}")
    try:
        outs = exe.execute_sharded_on_local_devices(
            [[placed[d][i] for d in range(n)] for i in range(len(placed[0]))])
        return [[np.asarray(o[d]) for o in outs] for d in range(n)]
    except Exception as e:
        errors.append(f"execute_sharded_on_local_devices: {e}")
    if n == 1:
        try:
            return [[np.asarray(o) for o in exe.execute(placed[0])]]
        except Exception as e:
            errors.append(f"execute: {e}")
    raise RuntimeError("no route executed the module: " + "; ".join(errors))


# Manifest dtypes (docs/design/job-bundle.md) as numpy's.
NP_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
             "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
             "u8": np.uint8, "u16": np.uint16, "u32": np.uint32,
             "u64": np.uint64, "bool": np.bool_}


def np_dtype(name):
    if name == "bf16":
        import jax.numpy as jnp
        return jnp.bfloat16
    if name not in NP_DTYPES:
        raise ValueError(f"no numpy dtype for manifest dtype '{name}'")
    return NP_DTYPES[name]


def weights(case_dir, task):
    out = []
    for v in task.get("variables", []):
        # protobuf's JSON writes int64 dimensions as strings.
        shape = [int(d) for d in v["shape"]]
        dtype = np_dtype(v["dtype"])
        if v.get("file"):
            a = np.fromfile(os.path.join(case_dir, v["file"]), dtype=dtype)
        else:
            a = np.zeros(int(np.prod(shape)), dtype=dtype)
        out.append(a.reshape(shape))
    return out


def load_case(pack, entry):
    case_dir = os.path.join(pack, entry["dir"])
    with open(os.path.join(case_dir, "manifest.json")) as fh:
        task = json.load(fh)["tasks"][0]
    with open(os.path.join(case_dir, task["library"])) as fh:
        text = fh.read()
    return case_dir, task, text


def errors(got, want):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return float("inf"), float("inf"), f"shape {got.shape} != {want.shape}"
    if got.dtype == bool or want.dtype == bool or np.issubdtype(
            want.dtype, np.integer):
        bad = int(np.sum(got.astype(want.dtype) != want))
        return float(bad), float(bad), ""
    g, w = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    diff = np.where(both_nan, 0, np.abs(g - w))
    absmax = float(np.nanmax(diff)) if diff.size else 0.0
    rel = float(np.nanmax(diff / np.maximum(np.abs(w), 1e-30))) if diff.size \
        else 0.0
    return absmax, rel, ""


def close(got, want, rtol, atol):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if np.issubdtype(want.dtype, np.floating):
        return bool(np.allclose(got.astype(np.float64),
                                want.astype(np.float64), rtol=rtol, atol=atol,
                                equal_nan=True))
    return bool(np.array_equal(got.astype(want.dtype), want))


def run_node(pack, entry, devices):
    case_dir, task, text = load_case(pack, entry)
    exe, _ = compile_module(text, devices[:1], 1)
    args = [np.load(os.path.join(case_dir, f)) for f in entry["inputs"]]
    args += weights(case_dir, task)
    outs = execute(exe, [args], devices[:1])[0]
    refs = [np.load(os.path.join(case_dir, f)) for f in entry["refs"]]
    if len(outs) < len(refs):
        return False, f"{len(outs)} outputs, {len(refs)} expected"
    for i, (g, w) in enumerate(zip(outs, refs)):
        if not close(g, w, entry["rtol"], entry["atol"]):
            a, r, why = errors(g, w)
            return False, f"output {i}: {why or f'max abs {a:.3g} rel {r:.3g}'}"
    return True, ""


def run_model(pack, entry, devices):
    case_dir, task, text = load_case(pack, entry)
    t0 = time.time()
    exe, route = compile_module(text, devices[:1], 1)
    compile_s = time.time() - t0
    w = weights(case_dir, task)
    worst_cpu, worst_ind, ok = (0.0, 0.0), (0.0, 0.0), True
    for s in entry["sets"]:
        args = [np.load(os.path.join(case_dir, f)) for f in s["inputs"]] + w
        outs = execute(exe, [args], devices[:1])[0]
        for g, f in zip(outs, s["refs"]):
            ref = np.load(os.path.join(case_dir, f))
            a, r, _ = errors(g, ref)
            worst_cpu = (max(worst_cpu[0], a), max(worst_cpu[1], r))
            ok &= close(g, ref, entry["rtol"], entry["atol"])
        for g, f in zip(outs, s["independent"]):
            a, r, _ = errors(g, np.load(os.path.join(case_dir, f)))
            worst_ind = (max(worst_ind[0], a), max(worst_ind[1], r))
    return ok, (f"max abs err vs graphc CPU {worst_cpu[0]:.3g} (rel "
                f"{worst_cpu[1]:.3g}), vs independent {worst_ind[0]:.3g}; "
                f"compiled in {compile_s:.1f} s")


def run_spmd(pack, entry, devices):
    case_dir, task, text = load_case(pack, entry)
    n = entry["replicas"]
    if len(devices) < n:
        return False, f"needs {n} devices, have {len(devices)}"
    exe, route = compile_module(text, devices[:n], n)
    names = [sig["name"] for sig in task.get("inputs", [])]
    var_names = [v["name"] for v in task.get("variables", [])]
    state = weights(case_dir, task)
    losses = []
    for _ in range(entry["steps"]):
        per_dev = []
        for d in range(n):
            args = [np.load(os.path.join(case_dir, entry["shards"][nm][d]))
                    for nm in names]
            per_dev.append(args + state)
        outs = execute(exe, per_dev, devices[:n])
        num_out = len(task.get("outputs", []))
        losses.append(float(np.asarray(outs[0][0]).reshape(())))
        # Replicas must agree on the new weights (the all-reduced step).
        updated = outs[0][num_out:]
        for d in range(1, n):
            for a, b in zip(updated, outs[d][num_out:]):
                if not np.allclose(a, b, rtol=1e-5, atol=1e-6):
                    return False, "replicas disagree on the updated weights"
        if len(updated) != len(state):
            return False, (f"{len(updated)} updated variables returned, "
                           f"{len(var_names)} expected")
        state = [np.asarray(u) for u in updated]
    ref = entry["ref_losses"]
    ok = np.allclose(losses, ref, rtol=entry["rtol"], atol=entry["atol"])
    return bool(ok), (f"losses {['%.6f' % v for v in losses]} vs CPU "
                      f"{['%.6f' % v for v in ref]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pack", nargs="?",
                    default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--platform", default="both",
                    choices=["cpu", "cuda", "both"])
    ap.add_argument("--node-limit", type=int, default=0,
                    help="run at most N node tests (0: all)")
    args = ap.parse_args()
    with open(os.path.join(args.pack, "index.json")) as fh:
        cases = json.load(fh)["cases"]
    print(f"stablehlo-check: jax {jax.__version__}, devices "
          f"{[str(d) for d in jax.devices()]}")
    platforms = ["cpu", "cuda"] if args.platform == "both" else [args.platform]
    for platform in platforms:
        devices = devices_of(platform)
        if not devices:
            print(f"stablehlo-check: [{platform}] no devices, skipped")
            continue
        node_pass = node_total = 0
        failures = []
        t0 = time.time()
        nodes = [e for e in cases if e["kind"] == "node"]
        if args.node_limit:
            nodes = nodes[:args.node_limit]
        for e in cases:
            if e["kind"] == "node" and e not in nodes:
                continue
            if e["kind"] == "spmd" and platform != "cpu":
                continue  # the 2-replica job runs on JAX's CPU devices
            if e["status"] != "ready":
                if e["kind"] == "node":
                    node_total += 1
                    failures.append((e["name"], e["status"] + ": " +
                                     e.get("reason", "")))
                continue
            try:
                fn = {"node": run_node, "model": run_model,
                      "spmd": run_spmd}[e["kind"]]
                ok, note = fn(args.pack, e, devices)
            except Exception as ex:
                ok, note = False, f"{type(ex).__name__}: {str(ex)[:400]}"
                if e["kind"] != "node":
                    traceback.print_exc()
            if e["kind"] == "node":
                node_total += 1
                node_pass += ok
                if not ok:
                    failures.append((e["name"], note))
            else:
                print(f"stablehlo-check: [{platform}] {e['name']}: "
                      f"{'PASS' if ok else 'FAIL'}: {note}")
        if node_total:
            print(f"stablehlo-check: [{platform}] ONNX node tests passing on "
                  f"CPU: {node_pass}/{node_total} pass "
                  f"({100.0 * node_pass / node_total:.1f}%) in "
                  f"{time.time() - t0:.0f} s")
            for name, why in failures[:40]:
                print(f"  FAIL {name}: {why}")
            if len(failures) > 40:
                print(f"  ... {len(failures) - 40} more")
    print(f"stablehlo-check: compile routes that worked: {ROUTES_TRIED}")


if __name__ == "__main__":
    main()
