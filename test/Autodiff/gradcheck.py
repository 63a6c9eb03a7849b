#!/usr/bin/env python3
"""Gradient check of graph-autodiff against finite differences.

Usage: gradcheck.py CASES.mlir --runner MLIR_RUNNER --libs LIB,LIB

CASES.mlir holds forward functions (`func.func @NAME(...) -> (...)`, one
header line each) over f64 tensors. For each function the driver

  1. turns its results y_k into the scalar loss sum_k sum(y_k * r_k) with
     fixed random r_k, so every output element matters;
  2. runs `graph-opt --graph-autodiff=wrt=arguments`, which appends
     grad/ARG for every float argument;
  3. writes a @main that evaluates, for every float argument a and a random
     direction v, the autodiff directional derivative sum(grad/a * v) and the
     central difference (f(a + h v) - f(a - h v)) / 2h, both computed in f64
     inside the compiled program (mlir-runner prints only six digits, so the
     difference is not taken here);
  4. lowers it with graph-to-linalg and graphc-cpu-codegen, runs it with
     mlir-runner, and compares the two numbers.

Inputs are uniform in [-2, 2] unless a directive says otherwise:
  // gradcheck @NAME ARG=pos          uniform in [0.5, 2]
  // gradcheck @NAME ARG=int:LO:HI    integers in [LO, HI) (index arguments)
  // gradcheck @NAME ARG=bool         random booleans
  // gradcheck @NAME ARG=spread       distinct values (no ties in max/min)
  // gradcheck @NAME ARG=unit         uniform in [-0.9, 0.9]
  // gradcheck @NAME ARG=gt1          uniform in [1.2, 3]
  // gradcheck @NAME h=STEP rtol=TOL    another step or tolerance, for a case
                                      over f32 (h=1e-2, rtol=1e-3: a linear
                                      or quadratic function, whose central
                                      difference is exact but for rounding)

Tolerance: |fd - ad| <= rtol * max(|fd|, |ad|) + 1e-6, with h = 1e-6 and
rtol = 1e-4 unless a directive says otherwise.
Prints one line per (function, argument) and a summary; exits 1 on any
mismatch.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

H = 1e-6
RTOL = 1e-4
ATOL = 1e-6

HEADER = re.compile(r"^func\.func @(\w+)\((.*)\)\s*->\s*(.*?)\s*\{\s*$")
RETURN = re.compile(r"^(\s*)return (.*?) : (.*)$")
TENSOR = re.compile(r"tensor<([0-9x]*?)x?(f64|f32|i64|i32|i1)>")


def parse_type(t):
    m = TENSOR.fullmatch(t.strip())
    if not m:
        raise SystemExit(f"gradcheck: unsupported type {t}")
    dims = [int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def split_top(s):
    """Splits on commas outside <>, () and {}."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def literal(a, dtype):
    if dtype == "i1":
        fmt = lambda x: "true" if x else "false"
    elif dtype.startswith("i"):
        fmt = lambda x: str(int(x))
    else:
        fmt = lambda x: repr(float(x))

    def rec(x):
        if x.ndim == 0:
            return fmt(x)
        return "[" + ", ".join(rec(e) for e in x) + "]"
    if a.ndim == 0:
        return f"dense<{fmt(a)}>"
    return f"dense<{rec(a)}>"


def axes_attr(rank):
    """`array<i64: 0, 1, ...>`: every axis (empty for a 0-d tensor)."""
    if rank == 0:
        return "array<i64>"
    return "array<i64: " + ", ".join(str(i) for i in range(rank)) + ">"


def ttype(dims, dtype):
    return "tensor<" + "".join(f"{d}x" for d in dims) + dtype + ">"


class Case:
    def __init__(self, name, args, results):
        self.name, self.args, self.results = name, args, results


def rewrite(text, rng):
    """Makes every function return its loss; returns the cases found."""
    out, cases, current = [], [], None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            name, args_s, res_s = m.groups()
            args, ssa = [], []
            for a in split_top(args_s):
                ssa.append(a.split(":", 1)[0].strip().lstrip("%"))
                ty = a.split(":", 1)[1].strip()
                ty = re.sub(r"\s*\{.*\}\s*$", "", ty)
                args.append(parse_type(ty))
            res_s = res_s.strip()
            if res_s.startswith("("):
                res_s = res_s[1:-1]
            results = [parse_type(r) for r in split_top(res_s)]
            current = Case(name, args, results)
            current.ssa = ssa
            cases.append(current)
            dtype = results[0][1]
            # Renamed so that no case is called like a libm function the
            # lowering calls (@erf, @exp).
            out.append(f"func.func @gc_{name}({args_s}) -> tensor<{dtype}> "
                       f"attributes {{graph.output_names = [\"loss\"]}} {{")
            continue
        m = RETURN.match(line)
        if m and current:
            indent, values, _ = m.groups()
            values = split_top(values)
            terms = []
            for k, (v, (dims, dtype)) in enumerate(zip(values, current.results)):
                r = rng.uniform(-1, 1, size=dims)
                ty = ttype(dims, dtype)
                p = f"%gc_{k}"
                out.append(f"{indent}{p}_r = graph.constant {literal(r, dtype)} : {ty}")
                out.append(f"{indent}{p}_m = graph.mul {v}, {p}_r : ({ty}, {ty}) -> {ty}")
                out.append(f"{indent}{p}_s = graph.reduce {p}_m {{axes = {axes_attr(len(dims))}, "
                           f"kind = #graph<reduce_kind sum>}} : ({ty}) -> tensor<{dtype}>")
                terms.append(f"{p}_s")
            acc = terms[0]
            for k, t in enumerate(terms[1:]):
                out.append(f"{indent}%gc_acc{k} = graph.add {acc}, {t} : "
                           f"(tensor<{dtype}>, tensor<{dtype}>) -> tensor<{dtype}>")
                acc = f"%gc_acc{k}"
            out.append(f"{indent}return {acc} : tensor<{dtype}>")
            current = None
            continue
        out.append(line)
    return "\n".join(out), cases


def directives(text):
    d = {}
    for m in re.finditer(r"//\s*gradcheck @(\w+)((?:\s+\w+=\S+)+)", text):
        for kv in m.group(2).split():
            k, v = kv.split("=", 1)
            d[(m.group(1), k)] = v
    return d


def make_input(rng, dims, dtype, kind):
    if kind and kind.startswith("int:"):
        lo, hi = map(int, kind.split(":")[1:])
        return rng.randint(lo, hi, size=dims)
    if kind == "bool" or dtype == "i1":
        return rng.randint(0, 2, size=dims).astype(bool)
    if kind == "pos":
        return rng.uniform(0.5, 2, size=dims)
    if kind == "unit":
        return rng.uniform(-0.9, 0.9, size=dims)
    if kind == "gt1":
        return rng.uniform(1.2, 3, size=dims)
    if kind == "spread":
        n = int(np.prod(dims)) if dims else 1
        return (rng.permutation(n) * 0.25 - n * 0.125 + rng.uniform(0, 0.1, n)).reshape(dims)
    return rng.uniform(-2, 2, size=dims)


def build_main(cases, rng, kinds):
    """A @main printing [fd, ad] for every (case, float argument)."""
    lines = ["func.func private @printMemrefF64(tensor<*xf64>)", "",
             "func.func @main() {"]
    checks = []
    n = 0

    def const(a, dtype):
        nonlocal n
        n += 1
        ty = ttype(list(a.shape), dtype)
        lines.append(f"  %c{n} = arith.constant {literal(a, dtype)} : {ty}")
        return f"%c{n}", ty

    for case in cases:
        names = case.ssa
        xs = [make_input(rng, dims, dt, kinds.get((case.name, names[i])))
              for i, (dims, dt) in enumerate(case.args)]
        floats = [i for i, (_, dt) in enumerate(case.args) if dt.startswith("f")]
        dtype = case.results[0][1]
        result_types = [f"tensor<{dtype}>"] + [ttype(*case.args[i]) for i in floats]

        def call(values):
            nonlocal n
            operands = [const(v, case.args[i][1]) for i, v in enumerate(values)]
            n += 1
            lines.append(f"  %r{n}:{len(result_types)} = func.call @gc_{case.name}("
                         + ", ".join(o for o, _ in operands) + ") : ("
                         + ", ".join(t for _, t in operands) + ") -> ("
                         + ", ".join(result_types) + ")")
            return f"%r{n}"

        base = call(xs)
        h = float(kinds.get((case.name, "h"), H))
        for k, i in enumerate(floats):
            dims, dt = case.args[i]
            v = rng.uniform(-1, 1, size=dims)
            plus = list(xs)
            plus[i] = xs[i] + h * v
            minus = list(xs)
            minus[i] = xs[i] - h * v
            rp, rm = call(plus), call(minus)
            vc, vty = const(v, dt)
            n += 1
            s = f"%s{n}"
            lty, aty = f"tensor<{dtype}>", f"tensor<{dt}>"
            lines += [
                f"  {s}_d = graph.sub {rp}#0, {rm}#0 : ({lty}, {lty}) -> {lty}",
                f"  {s}_h = graph.constant dense<{1.0 / (2 * h)!r}> : {lty}",
                f"  {s}_fd = graph.mul {s}_d, {s}_h : ({lty}, {lty}) -> {lty}",
                f"  {s}_gv = graph.mul {base}#{k + 1}, {vc} : ({vty}, {vty}) -> {vty}",
                f"  {s}_ad = graph.reduce {s}_gv {{axes = {axes_attr(len(dims))}, "
                f"kind = #graph<reduce_kind sum>}} : ({vty}) -> {aty}",
            ]
            pair = []
            for part, ty in ((f"{s}_fd", lty), (f"{s}_ad", aty)):
                if ty != "tensor<f64>":
                    lines.append(f"  {part}64 = graph.cast {part} {{to = f64}} : ({ty}) -> tensor<f64>")
                    part += "64"
                lines.append(f"  {part}1 = graph.reshape {part} {{shape = array<i64: 1>}} : "
                             "(tensor<f64>) -> tensor<1xf64>")
                pair.append(part + "1")
            lines.append(f"  {s}_p = graph.concat {pair[0]}, {pair[1]} {{axis = 0 : i64}} : "
                         "(tensor<1xf64>, tensor<1xf64>) -> tensor<2xf64>")
            p = f"{s}_p"
            lines.append(f"  {s}_u = tensor.cast {p} : tensor<2xf64> to tensor<*xf64>")
            lines.append(f"  func.call @printMemrefF64({s}_u) : (tensor<*xf64>) -> ()")
            checks.append((case.name, names[i],
                           float(kinds.get((case.name, "rtol"), RTOL))))
    lines += ["  return", "}"]
    return "\n".join(lines), checks


def parse_printed(text):
    out = []
    for block in text.split("Unranked Memref")[1:]:
        data = block.split("data =", 1)[1]
        values = re.findall(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
        out.append([float(x) for x in values])
    return out


def run(cmd, stdin):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"gradcheck: {cmd[0]} failed ({p.returncode})")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--runner", required=True)
    ap.add_argument("--libs", required=True)
    ap.add_argument("--keep", help="write the module that runs to this file")
    args = ap.parse_args()
    text = open(args.cases).read()
    rng = np.random.RandomState(1234)
    module, cases = rewrite(text, rng)
    diffed = run(["graph-opt", "--graph-autodiff=wrt=arguments"], module)
    main_text, checks = build_main(cases, rng, directives(text))
    # Put @main inside the module graph-opt printed.
    full = diffed.rstrip().rstrip("}") + "\n" + main_text + "\n}\n"
    if args.keep:
        open(args.keep, "w").write(full)
    lowered = run(["graph-opt", "--graph-to-linalg",
                   "--graphc-cpu-codegen=openmp=0"], full)
    printed = run([args.runner, "-e", "main", "-entry-point-result=void",
                   "-shared-libs=" + args.libs], lowered)
    values = parse_printed(printed)
    if len(values) != len(checks):
        raise SystemExit(f"gradcheck: expected {len(checks)} results, got {len(values)}")
    bad = 0
    for (name, arg, rtol), (fd, ad) in zip(checks, values):
        ok = abs(fd - ad) <= rtol * max(abs(fd), abs(ad)) + ATOL
        bad += not ok
        print(f"gradcheck: {name} {arg} {'ok' if ok else 'MISMATCH'} "
              f"fd={fd:.6g} ad={ad:.6g}")
    print(f"gradcheck: {len(checks) - bad} of {len(checks)} gradients match "
          f"finite differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
