"""check_layering.py SRC: the include rules of docs/architecture.md.

* dialects/ is self-contained: it includes its own dialects, MLIR, LLVM and the
  standard library, never the compiler (graphc/...) or the runtime;
* runtime/ includes neither MLIR, LLVM nor anything of the compiler: the
  binaries that run a job must not need the compiler's libraries.
Prints each violation as FILE:LINE: INCLUDE (RULE) and exits 1 if any."""
import os
import re
import sys

src = sys.argv[1]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
RULES = {
    "dialects": ("dialects/ includes no compiler or runtime header",
                 lambda inc: inc.startswith(("graphc/", "graphrt/", "runtime/"))),
    "runtime": ("runtime/ includes no MLIR, LLVM or compiler header",
                lambda inc: inc.startswith(("mlir/", "llvm/", "llvm-c/", "mlir-c/",
                                            "graphc/", "graph/", "dist/"))),
}
bad = 0
files = 0
for top, (rule, forbidden) in RULES.items():
    for root, _, names in os.walk(os.path.join(src, top)):
        for name in sorted(names):
            if not name.endswith((".h", ".hpp", ".cpp", ".cc", ".c", ".inc")):
                continue
            path = os.path.join(root, name)
            files += 1
            with open(path, errors="replace") as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if m and forbidden(m.group(1)):
                        print("%s:%d: %s (%s)" % (os.path.relpath(path, src), n,
                                                  m.group(1), rule))
                        bad += 1
print("layering: %d files checked, %d violations" % (files, bad))
sys.exit(1 if bad else 0)
