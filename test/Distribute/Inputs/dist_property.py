"""dist_property.py: a property test of placement and partitioning.

Generates random placed graphs (random ops and shapes, 2-5 tasks, control
edges), compiles each twice with graphc -- once as placed (a multi-task job
partitioned by dist-partition) and once with every placement removed (one
task) -- runs both with graph-run under a timeout and checks that they compute
the same outputs. Every case prints its seed when it fails, so
`dist_property.py BUILD --seed S --count 1 --keep DIR` reproduces it.

Usage: dist_property.py BUILD_DIR [--count N] [--seed S] [--jobs J] [--keep DIR]
Prints "N passed, M failed" and exits 1 if any case failed.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# Value shapes the generator works with; every op maps shapes in this pool to
# shapes in this pool, so any two values of one shape can be combined.
ROWS, COLS = 4, 8
SHAPES = {"a": (ROWS, COLS), "b": (COLS, COLS), "v": (COLS,)}


def ttype(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


class Graph:
    """A random placed graph-dialect function."""

    def __init__(self, rng):
        self.rng = rng
        self.tasks = rng.randint(2, 5)
        self.values = []  # (ssa name, shape key, op index or None)
        self.lines = []
        self.num_ops = 0
        self.args = []
        self.used = set()  # names of values some op takes

    def device(self, task):
        return '#dist.device<"/job:worker/task:%d">' % task

    def pick(self, key=None):
        cands = [v for v in self.values if key is None or v[1] == key]
        return self.rng.choice(cands) if cands else None

    def emit(self, expr, key, operands, attrs=""):
        """Appends one op placed on a random task, maybe with a control edge."""
        name = "%%n%d" % self.num_ops
        node = "n%d" % self.num_ops
        extra = ['dist.device = %s' % self.device(self.rng.randrange(self.tasks))]
        ops = [v for v in self.values if v[2] is not None]
        if ops and self.rng.random() < 0.2:
            dep = self.rng.choice(ops)
            extra.append('graph.control_deps = ["n%d"]' % dep[2])
        if attrs:
            extra.insert(0, attrs)
        self.used.update(o[0] for o in operands)
        in_types = ", ".join(ttype(SHAPES[o[1]]) for o in operands)
        self.lines.append('  %s = %s %s {%s} : (%s) -> %s loc("%s")' % (
            name, expr, ", ".join(o[0] for o in operands), ", ".join(extra),
            in_types, ttype(SHAPES[key]), node))
        self.values.append((name, key, self.num_ops))
        self.num_ops += 1

    def random_op(self):
        r = self.rng.random()
        if r < 0.3:
            x = self.pick()
            op = self.rng.choice(["graph.tanh", "graph.relu", "graph.neg",
                                  "graph.abs", "graph.sigmoid"])
            self.emit(op, x[1], [x])
        elif r < 0.6:
            x = self.pick()
            same = self.pick(x[1])
            # A row vector broadcasts against either matrix.
            if x[1] != "v" and self.rng.random() < 0.3 and self.pick("v"):
                same = self.pick("v")
            op = self.rng.choice(["graph.add", "graph.sub", "graph.mul",
                                  "graph.max"])
            self.emit(op, x[1], [x, same])
        elif r < 0.8:
            lhs = self.pick(self.rng.choice(["a", "b"])) or self.pick("a")
            rhs = self.pick("b")
            if lhs is None or rhs is None:
                return self.random_op()
            self.emit("graph.matmul", lhs[1], [lhs, rhs])
            # Keep magnitudes bounded so float differences stay relative.
            t = self.values[-1]
            self.emit("graph.tanh", t[1], [t])
        elif r < 0.9:
            x = self.pick("b")
            if x is None:
                return self.random_op()
            self.emit("graph.transpose", "b", [x],
                      "perm = array<i64: 1, 0>")
        else:
            x = self.pick("b") or self.pick("a")
            self.emit("graph.reduce", "v", [x],
                      "axes = array<i64: 0>, kind = #graph<reduce_kind sum>")
            t = self.values[-1]
            self.emit("graph.tanh", "v", [t])

    def build(self):
        nargs = self.rng.randint(1, 3)
        keys = ["a", "b"] + [self.rng.choice(list(SHAPES)) for _ in range(nargs)]
        for i, key in enumerate(keys[:max(2, nargs)]):
            self.args.append(("x%d" % i, key))
            self.values.append(("%%x%d" % i, key, None))
        for _ in range(self.rng.randint(3, 14)):
            self.random_op()
        # Every value no op uses is an output, so no op is dead (the
        # canonicalizer would drop it before placement) and every task that
        # computes something sends or returns it.
        produced = [v for v in self.values if v[2] is not None]
        outs = [v for v in produced if v[0] not in self.used]
        self.outputs = outs or produced[-1:]

        def placed(name_attr):
            # Inputs and outputs may ask for a task too, as the TF
            # importer's placed placeholders and _Send results do.
            if self.rng.random() < 0.4:
                return '{%s, dist.device = %s}' % (
                    name_attr, self.device(self.rng.randrange(self.tasks)))
            return '{%s}' % name_attr
        args = ", ".join('%%%s: %s %s' % (n, ttype(SHAPES[k]),
                                          placed('graph.name = "%s"' % n))
                         for n, k in self.args)
        results = ", ".join('%s %s' % (ttype(SHAPES[o[1]]),
                                       placed('graph.name = "y%d"' % i))
                            for i, o in enumerate(self.outputs))
        outs = self.outputs
        text = ["func.func @main(%s) -> (%s) {" % (args, results)]
        text += self.lines
        text.append("  return %s : %s" % (
            ", ".join(o[0] for o in outs),
            ", ".join(ttype(SHAPES[o[1]]) for o in outs)))
        text.append("}")
        return "\n".join(text) + "\n"


def unplaced(text):
    """The same function with every placement and control edge removed."""
    import re
    text = re.sub(r', dist\.device = #dist\.device<"[^"]*">', "", text)
    text = re.sub(r'dist\.device = #dist\.device<"[^"]*">(, )?', "", text)
    text = re.sub(r', graph\.control_deps = \["n\d+"\]', "", text)
    return text.replace(" {}", "")


def run(cmd, timeout):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d:\n%s" % (" ".join(cmd), p.returncode,
                                                 p.stdout[-3000:]))
    return p.stdout


def check(build, seed, keep):
    rng = random.Random(seed)
    g = Graph(rng)
    text = g.build()
    work = keep or tempfile.mkdtemp(prefix="distprop-")
    os.makedirs(work, exist_ok=True)
    try:
        bin_ = os.path.join(build, "bin")
        data = np.random.default_rng(seed)
        inputs = []
        for name, key in g.args:
            path = os.path.join(work, name + ".npy")
            np.save(path, data.uniform(-1, 1, SHAPES[key]).astype(np.float32))
            inputs += ["--input", "%s=%s" % (name, path)]
        outs = {}
        for kind, src in (("placed", text), ("single", unplaced(text))):
            mlir = os.path.join(work, kind + ".mlir")
            with open(mlir, "w") as f:
                f.write(src)
            job = os.path.join(work, kind + ".gjob")
            run([os.path.join(bin_, "graphc"), mlir, "--no-openmp", "-o", job], 120)
            out = os.path.join(work, kind + ".out")
            run([os.path.join(bin_, "graph-run"), "--quiet", job, "--output-dir",
                 out, "--step-timeout", "60", "--recv-timeout", "30"] + inputs, 90)
            outs[kind] = out
        for i in range(len(g.outputs)):
            a = np.load(os.path.join(outs["placed"], "y%d.npy" % i))
            b = np.load(os.path.join(outs["single"], "y%d.npy" % i))
            if a.shape != b.shape or not np.allclose(a, b, rtol=1e-5, atol=1e-6):
                raise RuntimeError("output y%d differs: max abs err %g" % (
                    i, float(np.max(np.abs(a - b))) if a.shape == b.shape else -1))
        return None
    except Exception as e:  # noqa: BLE001 - every failure is reported
        return "seed %d (%d tasks, %d ops): %s" % (seed, g.tasks, g.num_ops, e)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--keep", help="keep one case's files here (with --count 1)")
    ap.add_argument("--print", action="store_true",
                    help="print the generated module of --seed and exit")
    a = ap.parse_args()
    if a.print:
        sys.stdout.write(Graph(random.Random(a.seed)).build())
        return 0
    seeds = range(a.seed, a.seed + a.count)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda s: check(a.build, s, a.keep), seeds))
    failures = [r for r in results if r]
    for f in failures:
        print("FAIL " + f)
    print("%d passed, %d failed" % (len(results) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
