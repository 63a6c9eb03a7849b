//===- ConvKernels.h - pieces of the hand-built conv kernels ----*- C++ -*-===//
//
// The CPU strategies that rewrite a convolution into a kernel they build
// themselves (the plane kernels of graphc-cpu-tile-and-vectorize, the
// direct convolution and its filter-gradient form) end the same way and
// build their per-block task loops the same way: one copy of each here.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_CONVKERNELS_H
#define GRAPHC_LIB_PIPELINES_CONVKERNELS_H

#include "IndexMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace graphc {

/// Replaces `conv` by `result`, the kernel's output: its `epilogue` (the
/// elementwise consumer the kernel applied; may be null) when there is one,
/// else `conv` itself, and erases `conv` either way; then erases `fill`
/// (the fill of `conv`'s accumulator; may be null) when nothing reads it
/// any more.
inline void replaceConvResult(mlir::RewriterBase &rewriter,
                              mlir::Operation *conv,
                              mlir::linalg::GenericOp epilogue,
                              mlir::linalg::FillOp fill, mlir::Value result) {
  if (epilogue) {
    rewriter.replaceOp(epilogue, result);
    rewriter.eraseOp(conv);
  } else {
    rewriter.replaceOp(conv, result);
  }
  if (fill && fill->use_empty()) {
    rewriter.eraseOp(fill);
  }
}

/// `init` ([B, ...], typically a tensor.empty) written one block per task:
/// an `scf.forall` over its first dimension, each task's `fillRow(b, row)`
/// returning block `b` (`row`, the slice of `init`'s other dimensions at
/// `b`) filled, inserted back. Returns the forall's result; the rewriter's
/// insertion point is where it was.
inline mlir::Value forEachRow(
    mlir::RewriterBase &rewriter, mlir::Location loc, mlir::Value init,
    llvm::function_ref<mlir::Value(mlir::Value b, mlir::Value row)> fillRow) {
  auto type = mlir::cast<mlir::RankedTensorType>(init.getType());
  llvm::ArrayRef<int64_t> shape = type.getShape();
  auto forall = mlir::scf::ForallOp::create(
      rewriter, loc, indexAttrs(rewriter, {shape[0]}), mlir::ValueRange{init},
      std::nullopt);
  mlir::OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getTerminator());
  mlir::Value b = forall.getInductionVars()[0];
  mlir::Value out = forall.getRegionIterArgs()[0];
  llvm::SmallVector<mlir::OpFoldResult> offsets(shape.size(),
                                                rewriter.getIndexAttr(0));
  offsets[0] = b;
  llvm::SmallVector<int64_t> blockSizes(shape);
  blockSizes[0] = 1;
  llvm::SmallVector<mlir::OpFoldResult> sizes =
      indexAttrs(rewriter, blockSizes);
  llvm::SmallVector<mlir::OpFoldResult> unit =
      indexAttrs(rewriter, llvm::SmallVector<int64_t>(shape.size(), 1));
  mlir::Value row = mlir::tensor::ExtractSliceOp::create(
      rewriter, loc,
      mlir::RankedTensorType::get(shape.drop_front(), type.getElementType()),
      out, offsets, sizes, unit);
  mlir::Value filled = fillRow(b, row);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  mlir::tensor::ParallelInsertSliceOp::create(rewriter, loc, filled, out,
                                              offsets, sizes, unit);
  return forall.getResult(0);
}

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CONVKERNELS_H
