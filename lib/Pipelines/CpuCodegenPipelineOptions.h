//===- CpuCodegenPipelineOptions.h - graph-opt options of the CPU pipeline ===//
//
// Shared by `graphc-cpu-codegen` and `graphc-task-codegen`, which runs the
// CPU pipeline on every task module: the same option names in both.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_CPUCODEGENPIPELINEOPTIONS_H
#define GRAPHC_LIB_PIPELINES_CPUCODEGENPIPELINEOPTIONS_H

#include "graphc/Pipelines/CpuCodegen.h"

#include "mlir/Pass/PassOptions.h"

namespace graphc {

/// Command-line form of CpuCodegenOptions for graph-opt.
struct CpuCodegenPipelineOptions
    : public mlir::PassPipelineOptions<CpuCodegenPipelineOptions> {
  Option<int64_t> vectorWidth{*this, "vector-width",
                              llvm::cl::desc("f32 lanes per vector (0: host)"),
                              llvm::cl::init(0)};
  Option<int64_t> mr{*this, "mr", llvm::cl::desc("matmul register tile rows"),
                     llvm::cl::init(0)};
  Option<int64_t> nr{*this, "nr",
                     llvm::cl::desc("matmul register tile columns"),
                     llvm::cl::init(0)};
  Option<int64_t> kc{*this, "kc",
                     llvm::cl::desc("matmul K block (0: by shape)"),
                     llvm::cl::init(0)};
  Option<int64_t> unrollK{
      *this, "unroll-k",
      llvm::cl::desc("matmul K-loop unroll (0: by shape, 1: none)"),
      llvm::cl::init(0)};
  Option<int64_t> parallelM{*this, "parallel-m",
                            llvm::cl::desc("matmul task rows (0: by shape)"),
                            llvm::cl::init(0)};
  Option<int64_t> parallelN{*this, "parallel-n",
                            llvm::cl::desc("matmul task columns (0: by shape)"),
                            llvm::cl::init(0)};
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("lower parallel loops to OpenMP"),
                      llvm::cl::init(true)};
  Option<unsigned> numThreads{*this, "num-threads",
                              llvm::cl::desc("OpenMP threads (0: runtime)"),
                              llvm::cl::init(0)};
  Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("element operations below which a parallel loop runs "
                     "serially (0: never)"),
      llvm::cl::init(131072)};
  Option<bool> convGemm{
      *this, "conv-gemm",
      llvm::cl::desc("2-D NCHW convolutions as im2col + GEMM"),
      llvm::cl::init(true)};
  Option<bool> packB{
      *this, "pack-b",
      llvm::cl::desc("copy each matmul B micro-panel into a contiguous buffer"),
      llvm::cl::init(true)};

  Option<std::string> directConv{
      *this, "direct-conv",
      llvm::cl::desc("2-D NCHW f32 convolutions given the direct "
                     "(im2col-free) kernel: all, or a comma-separated list "
                     "of 3x3, 1x1, strided, other, wgrad (default: none)"),
      llvm::cl::init("")};

  Option<bool> prepareWeights{
      *this, "prepare-weights",
      llvm::cl::desc("In task modules, compute what depends only on "
                     "read-only variables once at load time "
                     "(graphc-cpu-prepare-weights)"),
      llvm::cl::init(true)};

  CpuCodegenOptions options() const {
    CpuCodegenOptions o;
    o.vectorWidth = vectorWidth;
    o.mr = mr;
    o.nr = nr;
    o.kc = kc;
    o.unrollK = unrollK;
    o.parallelM = parallelM;
    o.parallelN = parallelN;
    o.openmp = openmp;
    o.numThreads = numThreads;
    o.minParallelWork = minParallelWork;
    o.convGemm = convGemm;
    o.packB = packB;
    o.directConv = directConv;
    o.prepareWeights = prepareWeights;
    return o;
  }
};

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CPUCODEGENPIPELINEOPTIONS_H
