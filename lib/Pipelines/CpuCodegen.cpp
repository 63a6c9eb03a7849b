//===- CpuCodegen.cpp - the graphc-cpu-codegen pipeline -------------------===//

#include "graphc/Pipelines/CpuCodegen.h"

#include "CpuCodegenPipelineOptions.h"
#include "CpuPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace graphc {

void addElementwiseFusionPasses(OpPassManager &pm, bool keepKernelRoots) {
  // Fold constants and simplify shapes so fusion sees the real producers.
  pm.addPass(createCanonicalizerPass());
  // Merge chains of elementwise generics (bias, activation, scaling) into one
  // loop nest: one pass over memory instead of one per op. The CPU pipeline
  // keeps matmuls and convolutions as they are for its GEMM strategy.
  if (keepKernelRoots) {
    pm.addPass(createCpuFuseElementwise());
  } else {
    pm.addPass(createLinalgElementwiseOpFusionPass());
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void addOneShotBufferizePasses(OpPassManager &pm) {
  // Write results into the destination operand's buffer where possible
  // (tensor.empty feeding an insert becomes the insert's target): buffer
  // reuse instead of a temporary and a copy.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  // One-shot analysis over the whole module, function signatures included,
  // with plain (identity-layout) memrefs at the ABI so callers pass dense
  // buffers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // scf.while loops imported from ONNX Loop/Scan (and TF while loops) yield
  // values computed in the body, not in-place updates of their iter args;
  // such a loop gets a new buffer per iteration, which the ownership-based
  // deallocation below frees, instead of failing the analysis.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
}

void buildCpuCodegenPipeline(OpPassManager &pm,
                             const CpuCodegenOptions &options) {
  // --- Fusion on tensors -------------------------------------------------
  addElementwiseFusionPasses(pm, /*keepKernelRoots=*/true);
  // A training step's gradients made in their bucket and its updates in
  // their variables (before tiling, while each is one linalg op).
  pm.addNestedPass<func::FuncOp>(createCpuInPlaceStep());

  // --- Tiling and vectorisation on tensors -------------------------------
  // Threads (scf.forall), caches and registers for matmul/conv, vector tiles
  // for everything else; vectorised while slices are still value-based so
  // the vectoriser sees exact shapes.
  // Direct (im2col-free) kernels for the convolution classes asked for;
  // the rest keep im2col + GEMM below.
  if (!options.directConv.empty() && options.directConv != "none") {
    CpuDirectConvOptions direct;
    direct.vectorWidth = options.vectorWidth;
    direct.convs_ = options.directConv;
    pm.addNestedPass<func::FuncOp>(createCpuDirectConv(direct));
  }
  CpuTileAndVectorizeOptions tiling;
  tiling.vectorWidth = options.vectorWidth;
  tiling.mr = options.mr;
  tiling.nr = options.nr;
  tiling.kc = options.kc;
  tiling.unrollK = options.unrollK;
  tiling.parallelM = options.parallelM;
  tiling.parallelN = options.parallelN;
  tiling.parallel = options.openmp;
  tiling.convGemm = options.convGemm;
  tiling.packB = options.packB;
  pm.addNestedPass<func::FuncOp>(createCpuTileAndVectorize(tiling));
  // Fold the affine.min/extract_slice clutter tiling leaves behind.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Lift transfer_read/transfer_write pairs on loop-carried tensors out of
  // the K loop so the accumulator tile is read once per K block (upstream's
  // loop-invariant-subset-hoisting, without its solver for constant
  // indices).
  pm.addPass(createCpuHoistSubsets());

  // Weight-only work (filter re-layouts) once at load time, not per step.
  if (options.prepareWeights) {
    pm.addPass(createCpuPrepareWeights());
  }

  // --- Bufferization ------------------------------------------------------
  addOneShotBufferizePasses(pm);
  // A result that is just an (updated) argument needs no return value, also
  // in public functions: no clone of the output per call.
  pm.addPass(createCpuDropEquivalentResults());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Register accumulation for the matmul micro-kernel on memrefs (the tensor
  // hoisting above misses slices that were only invariant after bufferizing).
  pm.addNestedPass<func::FuncOp>(createCpuHoistVectorTransfers());
  // Allocate temporaries once, outside loops, as early as their sizes allow.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferHoistingPass());
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  // Small constant-size temporaries live on the stack: no malloc per call.
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass());
  // Free every heap temporary after its last use (ownership-based).
  bufferization::buildBufferDeallocationPipeline(pm);
  // Move each dealloc right after its last use so later allocations can
  // reuse the memory sooner.
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOptimizeAllocationLivenessPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Copies as inline loops: no memrefCopy from MLIR's runner library at run
  // time.
  CpuExpandCopiesOptions copies;
  copies.vectorWidth = options.vectorWidth;
  pm.addNestedPass<func::FuncOp>(createCpuExpandCopies(copies));

  // --- Loops and parallelism ---------------------------------------------
  // Tasks too small to share between threads run serially: a fork and join
  // of the team would cost more than the second thread saves.
  if (options.openmp) {
    CpuSerialSmallTasksOptions serial;
    serial.minWork = options.minParallelWork;
    pm.addNestedPass<func::FuncOp>(createCpuSerialSmallTasks(serial));
  }
  // Ops the vectoriser rejected run as scalar loops.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // scf.forall tasks become scf.parallel, then OpenMP worksharing loops
  // (libomp's thread pool; see docs/design/cpu-codegen.md for the choice).
  pm.addPass(createForallToParallelLoopPass());
  if (options.openmp) {
    ConvertSCFToOpenMPPassOptions omp;
    omp.numThreads = options.numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(omp));
  }

  // --- Vector lowering ----------------------------------------------------
  // Masks from partial tiles become masked loads/stores.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  // Reductions along the vector become per-lane adds then one horizontal
  // reduction at the end.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerParallel));
  // N-d transfers unrolled to 1-d vector loads/stores (register rows).
  VectorTransferToSCFOptions toScf;
  toScf.enableFullUnroll(true);
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(toScf));
  pm.addPass(createCanonicalizerPass());
  // Strided memref metadata to plain index arithmetic LLVM can fold.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // OpenMP loop bodies sit in alloca scopes, which must stay single-block:
  // lower them to stack save/restore before loops become branches.
  pm.addNestedPass<func::FuncOp>(createCpuLowerAllocaScopes());
  pm.addPass(createSCFToControlFlowPass());

  // bf16 conversions in integer arithmetic, so no CPU needs a compiler-rt
  // builtin (__truncsfbf2) that the task library cannot resolve.
  pm.addNestedPass<func::FuncOp>(createCpuExpandBF16());
  // --- LLVM dialect -------------------------------------------------------
  // Transcendentals: expand to exp-based forms, then LLVM intrinsics; what
  // has no intrinsic calls libm.
  pm.addPass(math::createMathExpandOpsPass());
  // f32 exp as a vector polynomial, not one libm expf call per lane.
  pm.addNestedPass<func::FuncOp>(createCpuApproximateExp());
  // Math before vectors: math-to-libm unrolls a vector op with no intrinsic
  // (math.erf) into vector.extract / scalar call / vector.insert, which
  // vector-to-llvm must still see; math-to-llvm runs first so that ops with
  // an intrinsic (exp, log, ...) keep it instead of becoming libm calls.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // vector.contract as outer products: one broadcast-FMA per row of the
  // register tile, the shape the FMA units want.
  ConvertVectorToLLVMPassOptions toLLVM;
  toLLVM.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  toLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle16x16;
  // Floating-point reductions may be reassociated into a tree.
  toLLVM.reassociateFPReductions = true;
  pm.addPass(createConvertVectorToLLVMPass(toLLVM));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  // Poison values the vectoriser uses as transfer padding.
  pm.addPass(createUBToLLVMConversionPass());
  if (options.openmp) {
    pm.addPass(createConvertOpenMPToLLVMPass());
  }
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void registerCpuCodegenPasses() {
  registerCpuPasses();
  PassPipelineRegistration<CpuCodegenPipelineOptions>(
      "graphc-cpu-codegen",
      "Lower linalg on tensors to the LLVM dialect for the host CPU: fusion, "
      "tiling, vectorisation, bufferization, OpenMP",
      [](OpPassManager &pm, const CpuCodegenPipelineOptions &cl) {
        buildCpuCodegenPipeline(pm, cl.options());
      });
}

} // namespace graphc
