"""check_layering.py SRC: the include rules of docs/architecture.md.

* dialects/ is self-contained: it includes its own dialects, MLIR, LLVM and the
  standard library, never the compiler (graphc/...) or the runtime;
* runtime/ includes neither MLIR, LLVM nor anything of the compiler: the
  binaries that run a job must not need the compiler's libraries; nor a CUDA
  header: the runtime opens CUDA with dlopen (runtime/lib/Gpu/CudaApi.h) and
  builds where the toolkit is missing.
Prints each violation as FILE:LINE: INCLUDE (RULE) and exits 1 if any."""
import os
import re
import sys

src = sys.argv[1]
CUDA_HEADERS = {"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cublas_v2.h",
                "cublasLt.h", "cudnn.h", "nccl.h", "library_types.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
RULES = {
    "dialects": ("dialects/ includes no compiler or runtime header",
                 lambda inc: inc.startswith(("graphc/", "graphrt/", "runtime/"))),
    "runtime": ("runtime/ includes no MLIR, LLVM, compiler or CUDA header",
                lambda inc: inc.startswith(("mlir/", "llvm/", "llvm-c/", "mlir-c/",
                                            "graphc/", "graph/", "dist/"))
                or inc in CUDA_HEADERS),
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
