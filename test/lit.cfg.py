# lit configuration for graphc's regression tests.
# -*- Python -*-

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "graphc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.graphc_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%graphc_src", config.graphc_src_root))
config.substitutions.append(("%shared", config.graphc_shared_dir))
config.substitutions.append(("%graphc_obj", config.graphc_obj_root))
# Debian's python3 has NumPy, ONNX and PyTorch; a python3 earlier on PATH may not.
config.substitutions.append(("%python", "/usr/bin/python3"))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.graphc_tools_dir, append_path=True)

# `lit -Druntime_only=1` runs the runtime's end-to-end tests in a build that
# has only the runtime (scripts/sanitize.sh's TSan build): the compiler's
# tools may then be missing, and tests that need them (REQUIRES: compiler)
# are unsupported.
runtime_only = lit_config.params.get("runtime_only", "0") == "1"
if not runtime_only:
    config.available_features.add("compiler")
tools = [
    ToolSubst("graph-opt", unresolved="ignore" if runtime_only else "fatal"),
    ToolSubst("graphc", unresolved="ignore" if runtime_only else "fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.graphc_tools_dir])

# The runtime (graph-run, graph-worker) and the task libraries its
# end-to-end tests bundle; test/runtime/ is unsupported without it.
if config.graphc_runtime_enabled:
    config.available_features.add("runtime")
    llvm_config.add_tool_substitutions(
        [ToolSubst("graph-run", unresolved="fatal"),
         ToolSubst("graph-worker", unresolved="fatal")],
        [config.graphc_tools_dir])
    config.substitutions.append(
        ("%graphrt_test_libs", os.path.join(config.graphc_obj_root, "lib")))

# The CUDA toolkit CMake found (ptxas): --target=cuda then embeds sm_90
# cubins; tests of them need it. Everything else of the cuda target runs
# without it (PTX only).
if config.graphc_cuda_toolkit:
    config.available_features.add("ptxas")

if os.path.isdir(config.graphc_shared_dir):
    config.available_features.add("shared-testdata")

# scikit-learn's handwritten digits, from Debian's python3-sklearn (setup.sh
# installs it): the README's training run (test/Train/digits.test).
if os.path.exists("/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"):
    config.available_features.add("sklearn-digits")

# lit substitutes in list order and %mlir_runner is a prefix of
# %mlir_runner_utils, so the longer names are registered first.
# CPU code generation: mlir-runner's support libraries, the OpenMP runtime
# the pipeline's parallel loops call, and a python3 that has NumPy (the
# pyenv python3 on PATH may not) for independent numeric references.
import glob

_llvm_lib = "/usr/lib/llvm-22/lib"
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(_llvm_lib, "libmlir_c_runner_utils.so")))
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(_llvm_lib, "libmlir_runner_utils.so")))
_omp = sorted(glob.glob(os.path.join(_llvm_lib, "libomp.so*")) +
              glob.glob("/usr/lib/x86_64-linux-gnu/libomp.so*"))
if _omp:
    config.substitutions.append(("%libomp", _omp[0]))
    config.available_features.add("libomp")
config.substitutions.append(("%numpy_python", "/usr/bin/python3"))

# Numeric end-to-end tests (test/e2e) run lowered code with mlir-runner and
# compare against NumPy, which only the system Python has.
config.substitutions.append(
    ("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
config.substitutions.append(
    ("%runner_libs",
     ",".join(os.path.normpath(os.path.join(config.llvm_tools_dir, "..", "lib", lib)) for lib in
              ["libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])))
