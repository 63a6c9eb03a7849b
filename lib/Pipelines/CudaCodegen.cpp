//===- CudaCodegen.cpp - the graphc-cuda-* pipelines and their passes -----===//
//
// docs/design/cuda.md: linalg on tensors is fused and bufferized as on the
// CPU, matmuls become cuBLASLt calls, the task's buffers move to the device,
// the remaining linalg ops become parallel loops mapped to blocks and
// threads, and those are outlined into gpu.modules that MLIR's NVVM path
// turns into an sm_90 fatbin (or PTX). The host side reaches the GPU only
// through CudaTaskGlue.c and the runtime's graphrt_gpu_services_t.
//
//===----------------------------------------------------------------------===//

#include "graphc/Pipelines/CudaCodegen.h"
#include "graphc/Pipelines/CpuCodegen.h"

#include "CudaPasses.h"

#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Conversion/Passes.h"
#include "graphc/Target/CUDA/CudaTarget.h"

#include "graphrt/graphrt.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace graphc {
#define GEN_PASS_DEF_CUDALIBRARYCALLS
#define GEN_PASS_DEF_CUDADEVICEBUFFERS
#define GEN_PASS_DEF_CUDAMAPTOGPU
#define GEN_PASS_DEF_CUDACHECKHOST
#include "CudaPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace graphc {
namespace {

constexpr StringLiteral kRunFunction = "graphc_task_run";

/// Declares (once) the glue function `name` of CudaTaskGlue.c.
LLVM::LLVMFuncOp glueFunction(ModuleOp module, StringRef name, Type result,
                              ArrayRef<Type> args) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name)) {
    return fn;
  }
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                     LLVM::LLVMFunctionType::get(result, args));
  return fn;
}

Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(v));
}

/// An index value as an LLVM i64.
Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The aligned data pointer of a memref plus its element offset, as
/// !llvm.ptr.
Value dataPointer(OpBuilder &b, Location loc, Value memref, Value offset) {
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrTy, toI64(b, loc, base));
  if (!offset) {
    return ptr;
  }
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  return LLVM::GEPOp::create(b, loc, ptrTy, element, ptr,
                             ValueRange{toI64(b, loc, offset)});
}

//===----------------------------------------------------------------------===//
// graphc-cuda-library-calls
//===----------------------------------------------------------------------===//

/// The graphrt dtype of a GEMM element type, or INVALID.
int32_t gemmDType(Type t) {
  if (t.isF32()) {
    return GRAPHRT_DTYPE_F32;
  }
  if (t.isF16()) {
    return GRAPHRT_DTYPE_F16;
  }
  if (t.isBF16()) {
    return GRAPHRT_DTYPE_BF16;
  }
  return GRAPHRT_DTYPE_INVALID;
}

/// Static innermost stride 1 (rows may be strided, elements not).
bool unitInnerStride(MemRefType t) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset)) || strides.empty()) {
    return false;
  }
  return strides.back() == 1;
}

struct CudaLibraryCallsPass : impl::CudaLibraryCallsBase<CudaLibraryCallsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> gemms;
    getOperation().walk([&](linalg::LinalgOp op) {
      bool isMatmul = false;
      if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        isMatmul = !mm.hasUserDefinedMaps();
      } else if (auto bmm =
                     dyn_cast<linalg::BatchMatmulOp>(op.getOperation())) {
        isMatmul = !bmm.hasUserDefinedMaps();
      }
      if (!isMatmul || !op.hasPureBufferSemantics()) {
        return;
      }
      Type element;
      for (OpOperand &operand : op->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || !type.hasStaticShape() || !unitInnerStride(type)) {
          return;
        }
        if (element && element != type.getElementType()) {
          return;
        }
        element = type.getElementType();
      }
      if (gemmDType(element) != GRAPHRT_DTYPE_INVALID) {
        gemms.push_back(op);
      }
    });
    for (linalg::LinalgOp op : gemms) {
      replace(op);
    }
  }

  void replace(linalg::LinalgOp op) {
    ModuleOp module = op->getParentOfType<ModuleOp>();
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(b.getContext());
    LLVM::LLVMFuncOp gemm = glueFunction(
        module, "graphc_cuda_gemm", LLVM::LLVMVoidType::get(b.getContext()),
        {i32, i32, i32, i64, i64, i64, ptr, i64, i64, ptr, i64, i64, ptr, i64,
         i64, i64});
    Value a = op->getOperand(0), bm = op->getOperand(1), c = op->getOperand(2);
    auto aType = cast<MemRefType>(a.getType());
    auto cType = cast<MemRefType>(c.getType());
    bool batched = aType.getRank() == 3;
    int64_t r = aType.getRank();
    int64_t m = cType.getDimSize(r - 2), n = cType.getDimSize(r - 1);
    int64_t k = aType.getDimSize(r - 1);
    int64_t batch = batched ? aType.getDimSize(0) : 1;

    // Pointer, leading dimension and batch stride of each operand.
    SmallVector<Value> args = {
        LLVM::ConstantOp::create(
            b, loc, i32,
            b.getI32IntegerAttr(gemmDType(aType.getElementType()))),
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)),
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)),
        i64Constant(b, loc, m),
        i64Constant(b, loc, n),
        i64Constant(b, loc, k)};
    for (Value operand : {a, bm, c}) {
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, operand);
      args.push_back(dataPointer(b, loc, operand, meta.getOffset()));
      args.push_back(toI64(b, loc, meta.getStrides()[r - 2]));
      args.push_back(batched ? toI64(b, loc, meta.getStrides()[0])
                             : i64Constant(b, loc, 0));
    }
    args.push_back(i64Constant(b, loc, batch));
    LLVM::CallOp::create(b, loc, gemm, args);
    op->erase();
  }
};

//===----------------------------------------------------------------------===//
// graphc-cuda-device-buffers
//===----------------------------------------------------------------------===//

/// Whether the function writes `buffer` (or a view of it).
bool isWritten(Value buffer) {
  SmallVector<Value> work = {buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == v) {
          for (Value r : user->getResults()) {
            work.push_back(r);
          }
          continue;
        }
      }
      if (auto copy = dyn_cast<memref::CopyOp>(user)) {
        if (copy.getTarget() == v) {
          return true;
        }
        continue;
      }
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        if (linalgOp.isDpsInit(&use)) {
          return true;
        }
        continue;
      }
      if (isa<MemoryEffectOpInterface>(user) &&
          hasEffect<MemoryEffects::Write>(user, v)) {
        return true;
      }
    }
  }
  return false;
}

struct CudaDeviceBuffersPass
    : impl::CudaDeviceBuffersBase<CudaDeviceBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto run = module.lookupSymbol<func::FuncOp>(kRunFunction);
    if (!run || run.isExternal()) {
      // A job module: the task modules nested in it.
      bool any = false;
      for (auto task : module.getOps<ModuleOp>()) {
        any = true;
        if (failed(runOnTask(task))) {
          return signalPassFailure();
        }
      }
      if (!any) {
        module.emitError() << "no task module with a '" << kRunFunction
                           << "' function; run graphc-task-lowering first";
        return signalPassFailure();
      }
      return;
    }
    if (failed(runOnTask(module))) {
      signalPassFailure();
    }
  }

  LogicalResult runOnTask(ModuleOp task) {
    auto run = task.lookupSymbol<func::FuncOp>(kRunFunction);
    if (!run || run.isExternal()) {
      return task.emitError()
             << "task module has no '" << kRunFunction << "' function";
    }
    MLIRContext *ctx = task.getContext();
    OpBuilder b(ctx);
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = b.getI64Type();
    Type voidTy = LLVM::LLVMVoidType::get(ctx);
    auto enter = glueFunction(task, "graphc_cuda_enter", voidTy, {ptr, ptr});
    auto services = glueFunction(task, "graphc_cuda_services", ptr, {});
    auto leave = glueFunction(task, "graphc_cuda_leave", ptr, {ptr});
    auto alloc = glueFunction(task, "graphc_cuda_alloc", ptr, {i64});
    auto freeFn = glueFunction(task, "graphc_cuda_free", voidTy, {ptr});
    auto upload = glueFunction(task, "graphc_cuda_upload", ptr, {ptr, i64});
    auto download =
        glueFunction(task, "graphc_cuda_download", voidTy, {ptr, ptr, i64});
    auto variable = glueFunction(task, "graphc_cuda_variable", ptr, {i64});
    auto constant =
        glueFunction(task, "graphc_cuda_constant", ptr, {i64, ptr, i64});
    // graphc_task_init, for the descriptor (GraphrtTaskDescriptor).
    glueFunction(task, "graphc_task_init", ptr, {ptr, ptr, ptr, i64});
    task->setAttr("graphrt.target", b.getStringAttr("cuda"));

    Block &entry = run.getBody().front();
    Location loc = run.getLoc();
    b.setInsertionPointToStart(&entry);
    Value ctxArg = run.getArgument(0), svcArg = run.getArgument(1);
    LLVM::CallOp::create(b, loc, enter, ValueRange{ctxArg, svcArg});
    Value wrapped =
        LLVM::CallOp::create(b, loc, services, ValueRange{}).getResult();
    svcArg.replaceAllUsesExcept(wrapped,
                                wrapped.getDefiningOp()->getPrevNode());

    auto count = [&](StringRef attr) -> int64_t {
      auto list = task->getAttrOfType<ArrayAttr>(attr);
      return list ? list.size() : 0;
    };
    int64_t numInputs = count("graphrt.inputs");
    int64_t numVariables = count("graphrt.variables");
    int64_t numOutputs = count("graphrt.outputs");
    if (2 + numInputs + numVariables + numOutputs !=
        static_cast<int64_t>(run.getNumArguments())) {
      return run.emitError()
             << "'" << kRunFunction << "' has " << run.getNumArguments()
             << " arguments, and the task's attributes name " << numInputs
             << " inputs, " << numVariables << " variables and " << numOutputs
             << " outputs after ctx and services";
    }

    SmallVector<Value> toFree;
    // (host pointer, device pointer, bytes) downloaded before return.
    SmallVector<std::tuple<Value, Value, int64_t>> toDownload;
    for (unsigned i = 2; i < run.getNumArguments(); ++i) {
      Value arg = run.getArgument(i);
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type) {
        return run.emitError() << "argument " << i << " of '" << kRunFunction
                               << "' is not a memref";
      }
      int64_t bytes = byteSize(type);
      Value host = dataPointer(b, loc, arg, Value());
      Operation *hostUse = host.getDefiningOp()
                               ->getOperand(0)
                               .getDefiningOp()
                               ->getOperand(0)
                               .getDefiningOp();
      int64_t index = i - 2;
      Value dev;
      if (index < numInputs) {
        dev = LLVM::CallOp::create(b, loc, upload,
                                   ValueRange{host, i64Constant(b, loc, bytes)})
                  .getResult();
        toFree.push_back(dev);
      } else if (index < numInputs + numVariables) {
        dev = LLVM::CallOp::create(
                  b, loc, variable,
                  ValueRange{i64Constant(b, loc, index - numInputs)})
                  .getResult();
        if (isWritten(arg)) {
          toDownload.push_back({host, dev, bytes});
        }
      } else {
        dev = LLVM::CallOp::create(b, loc, alloc,
                                   ValueRange{i64Constant(b, loc, bytes)})
                  .getResult();
        toDownload.push_back({host, dev, bytes});
        toFree.push_back(dev);
      }
      arg.replaceAllUsesExcept(asMemRef(b, loc, dev, type), hostUse);
    }

    // Constants: uploaded at first use, then resident.
    int64_t slot = 0;
    SmallVector<memref::GetGlobalOp> globals;
    run.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp op : globals) {
      auto type = cast<MemRefType>(op.getType());
      b.setInsertionPointAfter(op);
      Value host = dataPointer(b, op.getLoc(), op, Value());
      Operation *hostUse = host.getDefiningOp()
                               ->getOperand(0)
                               .getDefiningOp()
                               ->getOperand(0)
                               .getDefiningOp();
      Value dev = LLVM::CallOp::create(
                      b, op.getLoc(), constant,
                      ValueRange{i64Constant(b, op.getLoc(), slot++), host,
                                 i64Constant(b, op.getLoc(), byteSize(type))})
                      .getResult();
      op.getResult().replaceAllUsesExcept(asMemRef(b, op.getLoc(), dev, type),
                                          hostUse);
    }

    // Temporaries.
    SmallVector<memref::AllocOp> allocs;
    run.walk([&](memref::AllocOp op) { allocs.push_back(op); });
    for (memref::AllocOp op : allocs) {
      auto type = op.getType();
      if (op->getBlock() != &entry || !type.hasStaticShape() ||
          !type.getLayout().isIdentity()) {
        return op.emitError()
               << "the cuda target needs every temporary buffer at the top "
                  "of the task with a static shape and identity layout, and "
                  "this one is "
               << type << (op->getBlock() != &entry ? " inside a region" : "");
      }
      b.setInsertionPoint(op);
      Value dev = LLVM::CallOp::create(
                      b, op.getLoc(), alloc,
                      ValueRange{i64Constant(b, op.getLoc(), byteSize(type))})
                      .getResult();
      toFree.push_back(dev);
      op.replaceAllUsesWith(asMemRef(b, op.getLoc(), dev, type));
      op.erase();
    }
    // Freed at the end of the step: nothing to do per buffer before.
    SmallVector<Operation *> deallocs;
    run.walk([&](memref::DeallocOp op) { deallocs.push_back(op); });
    for (Operation *op : deallocs) {
      op->erase();
    }

    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    if (ret.getNumOperands() != 1) {
      return ret.emitError()
             << "'" << kRunFunction << "' must return the step's status";
    }
    b.setInsertionPoint(ret);
    for (auto [host, dev, bytes] : toDownload) {
      LLVM::CallOp::create(b, loc, download,
                           ValueRange{host, dev, i64Constant(b, loc, bytes)});
    }
    for (Value dev : toFree) {
      LLVM::CallOp::create(b, loc, freeFn, ValueRange{dev});
    }
    Value status =
        LLVM::CallOp::create(b, loc, leave, ValueRange{ret.getOperand(0)})
            .getResult();
    ret->setOperand(0, status);
    return success();
  }

  static int64_t byteSize(MemRefType type) {
    unsigned bits = type.getElementTypeBitWidth();
    return type.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
  }

  /// A memref of `type` (static, identity layout) over device pointer `dev`,
  /// through its LLVM descriptor.
  static Value asMemRef(OpBuilder &b, Location loc, Value dev,
                        MemRefType type) {
    MLIRContext *ctx = b.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = b.getI64Type();
    int64_t rank = type.getRank();
    SmallVector<Type> fields = {ptr, ptr, i64};
    if (rank > 0) {
      fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
      fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    }
    auto descTy = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value desc = LLVM::PoisonOp::create(b, loc, descTy);
    desc = LLVM::InsertValueOp::create(b, loc, desc, dev, ArrayRef<int64_t>{0});
    desc = LLVM::InsertValueOp::create(b, loc, desc, dev, ArrayRef<int64_t>{1});
    desc = LLVM::InsertValueOp::create(b, loc, desc, i64Constant(b, loc, 0),
                                       ArrayRef<int64_t>{2});
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, i64Constant(b, loc, type.getDimSize(d)),
          ArrayRef<int64_t>{3, d});
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, i64Constant(b, loc, stride), ArrayRef<int64_t>{4, d});
      stride *= type.getDimSize(d);
    }
    return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
  }
};

//===----------------------------------------------------------------------===//
// graphc-cuda-map-to-gpu
//===----------------------------------------------------------------------===//

struct CudaMapToGpuPass : impl::CudaMapToGpuBase<CudaMapToGpuPass> {
  using CudaMapToGpuBase::CudaMapToGpuBase;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    IRRewriter rewriter(&getContext());
    if (blockSize < 1) {
      fn.emitError() << "block-size must be positive, not " << blockSize;
      return signalPassFailure();
    }

    // Copies are kernels too (device to device).
    SmallVector<memref::CopyOp> copies;
    fn.walk([&](memref::CopyOp op) { copies.push_back(op); });
    for (memref::CopyOp op : copies) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                  op.getTarget());
    }

    SmallVector<linalg::LinalgOp> ops;
    fn.walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<scf::ParallelOp>()) {
        ops.push_back(op);
      }
    });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op.emitError() << "the cuda target lowers linalg ops on buffers, and "
                          "this one still has tensors (bufferization left it)";
        return signalPassFailure();
      }
      Location loc = op.getLoc();
      // No parallel dimension (a full reduction, a 0-d op): one thread.
      if (op.getNumParallelLoops() == 0) {
        rewriter.setInsertionPoint(op);
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
        auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                              ValueRange{one}, ValueRange{one});
        rewriter.moveOpBefore(op, single.getBody()->getTerminator());
      }
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op))) {
        op.emitError() << "the cuda target could not turn this op into "
                          "parallel loops";
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }

    SmallVector<scf::ParallelOp> loops;
    fn.walk([&](scf::ParallelOp op) {
      if (!op->getParentOfType<scf::ParallelOp>()) {
        loops.push_back(op);
      }
    });
    for (scf::ParallelOp loop : loops) {
      if (loop.getNumLoops() > 1) {
        std::vector<unsigned> all(loop.getNumLoops());
        std::iota(all.begin(), all.end(), 0u);
        rewriter.setInsertionPoint(loop);
        collapseParallelLoops(rewriter, loop, {all});
      }
    }
    loops.clear();
    fn.walk([&](scf::ParallelOp op) {
      if (!op->getParentOfType<scf::ParallelOp>()) {
        loops.push_back(op);
      }
    });
    MLIRContext *ctx = &getContext();
    auto dim = [&](gpu::Processor p) {
      return gpu::ParallelLoopDimMappingAttr::get(
          ctx, p, AffineMap::getMultiDimIdentityMap(1, ctx),
          AffineMap::getMultiDimIdentityMap(1, ctx));
    };
    for (scf::ParallelOp loop : loops) {
      auto [outer, inner] =
          scf::tileParallelLoop(loop, {blockSize}, /*noMinMaxBounds=*/true);
      if (failed(gpu::setMappingAttr(outer, {dim(gpu::Processor::BlockX)})) ||
          failed(gpu::setMappingAttr(inner, {dim(gpu::Processor::ThreadX)}))) {
        loop.emitError() << "cannot map this loop to GPU blocks and threads";
        return signalPassFailure();
      }
      // Everything nested runs sequentially in its thread.
      inner.getBody()->walk([&](scf::ParallelOp nested) {
        SmallVector<gpu::ParallelLoopDimMappingAttr> seq(
            nested.getNumLoops(), dim(gpu::Processor::Sequential));
        (void)gpu::setMappingAttr(nested, seq);
      });
    }
  }
};

//===----------------------------------------------------------------------===//
// graphc-cuda-check-host
//===----------------------------------------------------------------------===//

struct CudaCheckHostPass : impl::CudaCheckHostBase<CudaCheckHostPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](Operation *op) {
      if (op->getParentOfType<gpu::GPUModuleOp>()) {
        return WalkResult::skip();
      }
      if (isa<memref::LoadOp, memref::StoreOp, linalg::LinalgOp,
              memref::CopyOp>(op)) {
        op->emitError()
            << "the cuda target cannot run '" << op->getName()
            << "' on the host of a GPU task: it accesses a device buffer "
               "outside a kernel (a graph op whose lowering reads or writes "
               "single elements on the host); compile this model with "
               "--target=cpu, or report the graph op at this location";
        failed = true;
      }
      return WalkResult::advance();
    });
    if (failed) {
      signalPassFailure();
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

std::string resolveCudaFormat(const CudaCodegenOptions &options,
                              bool *ptxOnly) {
  std::string toolkit =
      options.toolkit.empty() ? findCudaToolkit() : options.toolkit;
  bool fallback = options.format.empty() && toolkit.empty();
  if (ptxOnly) {
    *ptxOnly = fallback;
  }
  if (!options.format.empty()) {
    return options.format;
  }
  return fallback ? "isa" : "fatbin";
}

void buildCudaGpuPipeline(OpPassManager &pm,
                          const CudaCodegenOptions &options) {
  // --- Fusion and bufferization, as on the CPU: one kernel per fused chain.
  // No deallocation pipeline: every temporary is freed at the end of the
  // step by graphc-cuda-device-buffers, stream-ordered after the last kernel
  // that reads it (the runtime's pool reuses the memory next step).
  addElementwiseFusionPasses(pm);
  addOneShotBufferizePasses(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // --- Library calls, device buffers, kernels ------------------------------
  pm.addNestedPass<func::FuncOp>(createCudaLibraryCalls());
  pm.addPass(createCudaDeviceBuffers());
  CudaMapToGpuOptions map;
  map.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createCudaMapToGpu(map));
  // No canonicalization here: it folds the one-iteration block loops the
  // mapping relies on.
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createCudaCheckHost());
}

void buildCudaBinaryPipeline(OpPassManager &pm,
                             const CudaCodegenOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // Common to host and kernels (as gpu-lower-to-nvvm-pipeline).
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels: NVVM, libdevice for the transcendentals.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host: launches to mgpu* calls (defined by the task glue), the binary
  // embedded.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = resolveCudaFormat(options);
  binary.toolkitPath =
      options.toolkit.empty() ? findCudaToolkit() : options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(math::createMathExpandOpsPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void buildCudaCodegenPipeline(OpPassManager &pm,
                              const CudaCodegenOptions &options) {
  buildCudaGpuPipeline(pm, options);
  buildCudaBinaryPipeline(pm, options);
}

void buildCudaTaskCodegenPipeline(OpPassManager &pm,
                                  const CudaCodegenOptions &options) {
  OpPassManager &task = pm.nest<ModuleOp>();
  buildCudaCodegenPipeline(task, options);
  task.addPass(createGraphrtTaskDescriptor());
}

LogicalResult printCudaPtx(ModuleOp module, const CudaCodegenOptions &options,
                           llvm::raw_ostream &os) {
  CudaCodegenOptions ptx = options;
  ptx.format = "isa";
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  // A job module holds the task modules; a task module is lowered itself.
  bool job = !module.lookupSymbol(kRunFunction);
  buildCudaBinaryPipeline(job ? pm.nest<ModuleOp>() : pm, ptx);
  if (failed(pm.run(module))) {
    return failure();
  }
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      os << "// gpu.module @" << binary.getSymName() << " for "
         << object.getTarget() << "\n"
         << object.getObject().getValue() << "\n";
    }
  });
  return success();
}

namespace {

struct CudaCodegenCL : PassPipelineOptions<CudaCodegenCL> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("GPU architecture"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features"),
                               llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("fatbin, bin or isa (PTX); empty: fatbin when the CUDA "
                     "toolkit has ptxas, else isa"),
      llvm::cl::init("")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root (empty: GRAPHC_CUDA_TOOLKIT or the "
                     "one found at build time)"),
      llvm::cl::init("")};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("threads per block"),
                            llvm::cl::init(256)};

  CudaCodegenOptions options() const {
    CudaCodegenOptions o;
    o.chip = chip;
    o.features = features;
    o.format = format;
    o.toolkit = toolkit;
    o.blockSize = blockSize;
    return o;
  }
};

} // namespace

void registerCudaCodegenPasses() {
  registerCudaPasses();
  PassPipelineRegistration<CudaCodegenCL>(
      "graphc-cuda-gpu",
      "A task module's linalg on tensors to outlined GPU kernels, the host "
      "side on gpu ops and task glue calls (graphc --emit=gpu)",
      [](OpPassManager &pm, const CudaCodegenCL &cl) {
        buildCudaGpuPipeline(pm, cl.options());
      });
  PassPipelineRegistration<CudaCodegenCL>(
      "graphc-cuda-binary",
      "Outlined GPU kernels to NVVM and an embedded fatbin (or PTX), the "
      "host side to the LLVM dialect",
      [](OpPassManager &pm, const CudaCodegenCL &cl) {
        buildCudaBinaryPipeline(pm, cl.options());
      });
  PassPipelineRegistration<CudaCodegenCL>(
      "graphc-cuda-codegen", "graphc-cuda-gpu then graphc-cuda-binary",
      [](OpPassManager &pm, const CudaCodegenCL &cl) {
        buildCudaCodegenPipeline(pm, cl.options());
      });
  PassPipelineRegistration<CudaCodegenCL>(
      "graphc-cuda-task-codegen",
      "graphc --target=cuda's llvm stage: every task module through "
      "graphc-cuda-codegen, then its graphrt descriptor and step function",
      [](OpPassManager &pm, const CudaCodegenCL &cl) {
        buildCudaTaskCodegenPipeline(pm, cl.options());
      });
}

} // namespace graphc
