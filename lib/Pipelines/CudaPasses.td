//===- CudaPasses.td - passes of the CUDA code generation pipeline -*- tablegen -*-===//

#ifndef GRAPHC_PIPELINES_CUDAPASSES_TD
#define GRAPHC_PIPELINES_CUDAPASSES_TD

include "mlir/Pass/PassBase.td"

def CudaLibraryCalls : Pass<"graphc-cuda-library-calls", "mlir::func::FuncOp"> {
  let summary = "Replace linalg matmuls on buffers by cuBLASLt GEMM calls";
  let description = [{
    After bufferization, every `linalg.matmul` and `linalg.batch_matmul`
    with the default indexing maps, f32, f16 or bf16 operands of one element
    type and unit innermost strides becomes a call of `graphc_cuda_gemm`
    (lib/Target/CUDA/CudaTaskGlue.c), which forwards to the runtime's
    `gpu->gemm` (cuBLASLt) with beta 1: linalg accumulates into its output,
    which the `linalg.fill` before it initialises. Other contractions stay
    linalg and become generated kernels. Pointers, leading dimensions and
    batch strides come from `memref.extract_strided_metadata`, so views
    (subviews, collapsed shapes) need no copy.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def CudaDeviceBuffers : Pass<"graphc-cuda-device-buffers", "mlir::ModuleOp"> {
  let summary = "Put a task's buffers on the GPU: uploads, resident "
                "variables and constants, downloads, device temporaries";
  let description = [{
    Runs on a task module (`graphc-task-lowering`'s form) after
    bufferization, on `graphc_task_run`, whose memref arguments are the
    runtime's host tensors (inputs, variables, outputs, in the order of the
    module's `graphrt.*` attributes):

    * an input is uploaded at entry (`graphc_cuda_upload`), an output gets a
      device buffer that is downloaded before return, a variable is the
      device copy `init` uploaded (`graphc_cuda_variable`; downloaded after
      the step only when the step writes it);
    * a `memref.get_global` constant is uploaded once and kept
      (`graphc_cuda_constant`);
    * a `memref.alloc` of the entry block becomes device memory
      (`graphc_cuda_alloc`), freed before return (stream-ordered, so after
      the last kernel that uses it);
    * the step starts with `graphc_cuda_enter` and returns through
      `graphc_cuda_leave` (waits for the stream, returns the first failure),
      and service calls of the dist lowering get the table whose
      collectives take device buffers (`graphc_cuda_services`).

    Device pointers become memrefs through their LLVM descriptors
    (`builtin.unrealized_conversion_cast`, folded by the LLVM lowering).
    The module gets `graphrt.target = "cuda"`, and `graphc_task_init` is
    declared for the descriptor. An allocation outside the entry block (a
    dynamic size) is diagnosed.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def CudaMapToGpu : Pass<"graphc-cuda-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Turn linalg ops and copies on buffers into parallel loops "
                "mapped to GPU blocks and threads";
  let description = [{
    `memref.copy` becomes `linalg.copy`; every linalg op becomes an
    `scf.parallel` over its parallel dimensions with its reductions as
    `scf.for` inside (an op without parallel dimensions runs in a parallel
    loop of one iteration). Each outermost `scf.parallel` is collapsed to one
    dimension and tiled by `block-size` with the bounds check inside, the
    tiles mapped to blocks (x) and the points to threads (x), ready for
    `convert-parallel-loops-to-gpu`.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::linalg::LinalgDialect"];
}

def CudaCheckHost : Pass<"graphc-cuda-check-host", "mlir::ModuleOp"> {
  let summary = "Refuse host code that still touches device buffers";
  let description = [{
    After kernel outlining, the host code of a cuda task may only call the
    glue, launch kernels and pass buffers around: a `memref.load`,
    `memref.store`, linalg op or other memory access left on the host would
    dereference a device pointer there. Each one is an error naming the op
    and where it came from (the graph op's location).
  }];
}

#endif // GRAPHC_PIPELINES_CUDAPASSES_TD
