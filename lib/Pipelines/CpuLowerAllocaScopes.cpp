//===- CpuLowerAllocaScopes.cpp - alloca scopes as stack save/restore -----===//
//
// convert-scf-to-openmp wraps each parallel loop body in a memref.alloca_scope
// whose region must stay a single block; lowering the loops inside it to
// branches would break that. Replacing the scope by an explicit stack
// save/restore around its inlined body keeps the lifetime and lifts the
// constraint.
//
//===----------------------------------------------------------------------===//

#include "CpuPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace graphc {
#define GEN_PASS_DEF_CPULOWERALLOCASCOPES
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

struct CpuLowerAllocaScopes
    : public graphc::impl::CpuLowerAllocaScopesBase<CpuLowerAllocaScopes> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    for (memref::AllocaScopeOp scope : scopes) {
      if (failed(lower(scope))) {
        return signalPassFailure();
      }
    }
  }

  static LogicalResult lower(memref::AllocaScopeOp scope) {
    Region &region = scope.getBodyRegion();
    if (!region.hasOneBlock()) {
      return scope.emitOpError(
          "graphc-cpu-lower-alloca-scopes: expected a single-block body");
    }
    Block &body = region.front();
    auto ret = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
    OpBuilder builder(scope);
    Location loc = scope.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(scope.getContext());
    Value stack = LLVM::StackSaveOp::create(builder, loc, ptrType);
    SmallVector<Value> results(ret.getResults());
    ret.erase();
    // The body runs in place, then the stack goes back to where it was.
    scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                              body.getOperations());
    builder.setInsertionPoint(scope);
    LLVM::StackRestoreOp::create(builder, loc, stack);
    scope.replaceAllUsesWith(results);
    scope.erase();
    return success();
  }
};

} // namespace
