//===- TaskGlue.cpp - the graphrt descriptor and step in the LLVM dialect -===//
//
// After the CPU pipeline the task's code is `graphc_task_run`, an LLVM
// function taking one expanded memref descriptor (allocated, aligned, offset,
// sizes, strides) per input, variable and output. The glue added here is
// what the runtime sees: the exported `graphrt_task_descriptor_v1` global
// (runtime/include/graphrt/graphrt.h) with the task's signatures, and
// `graphc_task_step`, which reads the data pointers out of the runtime's
// graphrt_tensor_t arrays and calls `graphc_task_run`. Shapes are static, so
// sizes and strides are constants; the runtime checks every tensor's shape
// against the descriptor before it calls step.
//
//===----------------------------------------------------------------------===//

#include "graphc/Bundle/JobBundle.h"

#include "graphrt/common/DType.h"
#include "graphrt/graphrt.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstddef>

using namespace mlir;

namespace graphc {

// The LLVM struct types below mirror graphrt.h; check the C layout they
// assume (x86-64 / AArch64 LP64).
static_assert(offsetof(graphrt_tensor_t, data) == 16, "graphrt_tensor_t");
static_assert(sizeof(graphrt_tensor_t) == 32, "graphrt_tensor_t");
static_assert(sizeof(graphrt_tensor_signature_t) == 24,
              "graphrt_tensor_signature_t");
static_assert(sizeof(graphrt_task_descriptor_v1_t) == 112,
              "graphrt_task_descriptor_v1_t");

namespace {

/// Builds the glue's globals at the end of a module.
class GlueBuilder {
public:
  GlueBuilder(ModuleOp module)
      : module(module), ctx(module.getContext()), b(ctx),
        loc(module.getLoc()), ptrTy(LLVM::LLVMPointerType::get(ctx)),
        i32(IntegerType::get(ctx, 32)), i64(IntegerType::get(ctx, 64)) {
    b.setInsertionPointToEnd(module.getBody());
    sigTy = LLVM::LLVMStructType::getLiteral(ctx, {ptrTy, i32, i32, ptrTy});
  }

  /// A private NUL-terminated string global.
  StringRef string(StringRef value) {
    std::string sym = "graphc_str_" + std::to_string(counter++);
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                         value.size() + 1);
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Private, sym,
                           b.getStringAttr(value.str() + '\0'));
    return intern(sym);
  }

  /// A private i64 array global, or "" for an empty one.
  StringRef shape(ArrayRef<int64_t> dims) {
    if (dims.empty())
      return "";
    std::string sym = "graphc_shape_" + std::to_string(counter++);
    auto type = LLVM::LLVMArrayType::get(i64, dims.size());
    auto value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(dims.size())}, i64), dims);
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Private, sym, value);
    return intern(sym);
  }

  /// A private array of graphrt_tensor_signature_t, or "" when empty.
  StringRef signatures(ArrayRef<TaskTensor> tensors) {
    if (tensors.empty())
      return "";
    SmallVector<std::pair<StringRef, StringRef>> syms;
    for (const TaskTensor &t : tensors)
      syms.push_back({string(t.name), shape(t.shape)});
    std::string sym = "graphc_sigs_" + std::to_string(counter++);
    auto type = LLVM::LLVMArrayType::get(sigTy, tensors.size());
    auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                         LLVM::Linkage::Private, sym,
                                         Attribute());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&global.getInitializerRegion().emplaceBlock());
    Value array = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, t] : llvm::enumerate(tensors)) {
      Value sig = LLVM::UndefOp::create(b, loc, sigTy);
      sig = LLVM::InsertValueOp::create(b, loc, sig, address(syms[i].first),
                                        ArrayRef<int64_t>{0});
      sig = LLVM::InsertValueOp::create(
          b, loc, sig, constant(i32, graphrt::parseDType(t.dtype)), ArrayRef<int64_t>{1});
      sig = LLVM::InsertValueOp::create(
          b, loc, sig, constant(i32, t.shape.size()), ArrayRef<int64_t>{2});
      sig = LLVM::InsertValueOp::create(b, loc, sig, address(syms[i].second),
                                        ArrayRef<int64_t>{3});
      array = LLVM::InsertValueOp::create(
          b, loc, array, sig, ArrayRef<int64_t>{static_cast<int64_t>(i)});
    }
    LLVM::ReturnOp::create(b, loc, array);
    return intern(sym);
  }

  /// The address of global or function `sym`, or null for "".
  Value address(StringRef sym) {
    if (sym.empty())
      return LLVM::ZeroOp::create(b, loc, ptrTy);
    return LLVM::AddressOfOp::create(b, loc, ptrTy, sym);
  }

  Value constant(Type type, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, value));
  }

  /// `graphc_task_step`: graphrt_task_step_fn_t calling `run`.
  LogicalResult step(LLVM::LLVMFuncOp run, const TaskSignature &sig) {
    auto fnTy = LLVM::LLVMFunctionType::get(
        ptrTy, {ptrTy, ptrTy, i64, ptrTy, i64, ptrTy, i64, ptrTy, i64});
    auto fn = LLVM::LLVMFuncOp::create(b, loc, "graphc_task_step", fnTy,
                                       LLVM::Linkage::Internal);
    OpBuilder::InsertionGuard guard(b);
    Block *entry = fn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    auto tensorTy =
        LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptrTy, ptrTy, i64});
    SmallVector<Value> args;
    Value zero = constant(i64, 0);
    auto pass = [&](Value array, ArrayRef<TaskTensor> tensors) {
      for (auto [i, t] : llvm::enumerate(tensors)) {
        Value field = LLVM::GEPOp::create(
            b, loc, ptrTy, tensorTy, array,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i), 3});
        Value data = LLVM::LoadOp::create(b, loc, ptrTy, field);
        args.append({data, data, zero});
        SmallVector<int64_t> strides(t.shape.size(), 1);
        for (int64_t d = static_cast<int64_t>(t.shape.size()) - 2; d >= 0; --d)
          strides[d] = strides[d + 1] * t.shape[d + 1];
        for (int64_t size : t.shape)
          args.push_back(constant(i64, size));
        for (int64_t stride : strides)
          args.push_back(constant(i64, stride));
      }
    };
    // graphc_task_run's order: inputs, variables, outputs.
    pass(entry->getArgument(3), sig.inputs);
    pass(entry->getArgument(7), sig.variables);
    pass(entry->getArgument(5), sig.outputs);
    if (run.getNumArguments() != args.size() ||
        !isa<LLVM::LLVMVoidType>(run.getFunctionType().getReturnType()))
      return run.emitOpError()
             << "has " << run.getNumArguments()
             << " arguments after lowering, the task glue passes "
             << args.size() << " (expected identity-layout memrefs and no "
             << "results)";
    LLVM::CallOp::create(b, loc, run, args);
    LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptrTy));
    return success();
  }

  /// The exported descriptor.
  void descriptor(const TaskSignature &sig) {
    StringRef name = string(sig.name);
    StringRef inputs = signatures(sig.inputs);
    StringRef outputs = signatures(sig.outputs);
    StringRef variables = signatures(sig.variables);
    auto i32Ty = i32;
    auto type = LLVM::LLVMStructType::getLiteral(
        ctx, {i32Ty, i32Ty, ptrTy, ptrTy, ptrTy, i64, ptrTy, i64, ptrTy, i64,
              ptrTy, i64, ptrTy, i64, ptrTy});
    auto global = LLVM::GlobalOp::create(
        b, loc, type, /*isConstant=*/true, LLVM::Linkage::External,
        GRAPHRT_TASK_DESCRIPTOR_SYMBOL, Attribute());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&global.getInitializerRegion().emplaceBlock());
    SmallVector<Value> fields = {
        constant(i32, GRAPHRT_ABI_VERSION),
        constant(i32, sizeof(graphrt_task_descriptor_v1_t)),
        address(name),
        address(""), // init: variables come from weights files
        address("graphc_task_step"),
        constant(i64, sig.inputs.size()),
        address(inputs),
        constant(i64, sig.outputs.size()),
        address(outputs),
        constant(i64, sig.variables.size()),
        address(variables),
        constant(i64, 0), // channels: single-task jobs
        address(""),
        constant(i64, 0), // collective groups
        address("")};
    Value desc = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, v] : llvm::enumerate(fields))
      desc = LLVM::InsertValueOp::create(
          b, loc, desc, v, ArrayRef<int64_t>{static_cast<int64_t>(i)});
    LLVM::ReturnOp::create(b, loc, desc);
  }

private:
  StringRef intern(const std::string &s) {
    return StringAttr::get(ctx, s).getValue();
  }

  ModuleOp module;
  MLIRContext *ctx;
  OpBuilder b;
  Location loc;
  Type ptrTy, i32, i64, sigTy;
  int counter = 0;
};

} // namespace

LogicalResult lowerTaskToLLVM(ModuleOp module, const BundleOptions &options,
                              const TaskSignature &signature) {
  if (failed(lowerToLLVMDialect(module, options.codegen)))
    return failure();
  auto run = module.lookupSymbol<LLVM::LLVMFuncOp>("graphc_task_run");
  if (!run)
    return module.emitError()
           << "the CPU pipeline left no llvm.func @graphc_task_run";
  for (StringRef taken : {"graphc_task_step", GRAPHRT_TASK_DESCRIPTOR_SYMBOL})
    if (module.lookupSymbol(taken))
      return module.emitError() << "symbol '" << taken
                                << "' is reserved for the task glue";
  // The descriptor is the library's only export (graphrt.h).
  run.setLinkage(LLVM::Linkage::Internal);
  GlueBuilder glue(module);
  if (failed(glue.step(run, signature)))
    return failure();
  glue.descriptor(signature);
  return success();
}

} // namespace graphc
