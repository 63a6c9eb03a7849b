//===- IndexMath.h - index arithmetic for hand-built loop nests -*- C++ -*-===//
//
// The CPU strategies that build their loop nests themselves (the im2col
// copies, the depthwise and pooling plane kernels, the direct convolution)
// compute offsets from index constants, sums and products; IndexMath makes
// those ops at the builder's insertion point and folds a factor of 1.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_INDEXMATH_H
#define GRAPHC_LIB_PIPELINES_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace graphc {

struct IndexMath {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value idx(int64_t v) const {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) const {
    return mlir::arith::AddIOp::create(b, loc, x, y);
  }
  mlir::Value mul(mlir::Value x, int64_t y) const {
    return y == 1 ? x : mlir::arith::MulIOp::create(b, loc, x, idx(y));
  }
  mlir::Value divu(mlir::Value x, int64_t y) const {
    return y == 1 ? x : mlir::arith::DivUIOp::create(b, loc, x, idx(y));
  }
};

/// Static sizes, offsets or strides as index attributes.
inline llvm::SmallVector<mlir::OpFoldResult>
indexAttrs(mlir::OpBuilder &b, llvm::ArrayRef<int64_t> values) {
  llvm::SmallVector<mlir::OpFoldResult> r;
  for (int64_t v : values) {
    r.push_back(b.getIndexAttr(v));
  }
  return r;
}

/// The largest divisor of `extent` not above `max` (the extent itself when
/// it fits): the direct kernels' choice of a tile or block.
inline int64_t largestDivisor(int64_t extent, int64_t max) {
  if (extent <= max) {
    return extent;
  }
  for (int64_t b = max; b > 1; --b) {
    if (extent % b == 0) {
      return b;
    }
  }
  return 1;
}

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_INDEXMATH_H
