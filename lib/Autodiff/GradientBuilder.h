//===- GradientBuilder.h - graph-op builders for gradient rules -*- C++ -*-===//
//
// The small vocabulary the gradient rules are written in: graph ops built
// with inferred result types, splat constants, and the reductions that undo
// broadcasting. Private to lib/Autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_AUTODIFF_GRADIENTBUILDER_H
#define GRAPHC_LIB_AUTODIFF_GRADIENTBUILDER_H

#include "graph/GraphOps.h"

#include "mlir/IR/Builders.h"

namespace graphc::autodiff {

/// Builds graph ops at one insertion point and location. Every value it
/// makes has a static ranked type (the pass refuses dynamic shapes first).
class GradientBuilder {
public:
  GradientBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() const { return loc; }
  mlir::MLIRContext *context() { return b.getContext(); }

  /// Any graph op, its result types inferred.
  template <typename OpTy>
  OpTy make(mlir::ValueRange operands,
            llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return OpTy::create(b, loc, operands, attrs);
  }
  template <typename OpTy>
  mlir::Value value(mlir::ValueRange operands,
                    llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return make<OpTy>(operands, attrs)->getResult(0);
  }

  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
    return b.getNamedAttr(name, value);
  }
  mlir::NamedAttribute i64s(llvm::StringRef name, llvm::ArrayRef<int64_t> v) {
    return attr(name, b.getDenseI64ArrayAttr(v));
  }
  mlir::NamedAttribute i64(llvm::StringRef name, int64_t v) {
    return attr(name, b.getI64IntegerAttr(v));
  }
  mlir::NamedAttribute unit(llvm::StringRef name) {
    return attr(name, b.getUnitAttr());
  }

  /// A tensor of `type` whose elements are all `v` (a float or an integer
  /// element type).
  mlir::Value splat(mlir::RankedTensorType type, double v);
  /// A 0-d tensor of `element` holding `v`.
  mlir::Value scalar(mlir::Type element, double v);
  mlir::Value zerosLike(mlir::Value v) { return splat(typeOf(v), 0.0); }

  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value div(mlir::Value a, mlir::Value b);
  mlir::Value neg(mlir::Value a);
  /// `a * v` for a constant `v` of a's element type.
  mlir::Value scale(mlir::Value a, double v);
  mlir::Value compare(mlir::Value a, mlir::Value b,
                      graph::CompareDirection direction);
  mlir::Value select(mlir::Value cond, mlir::Value t, mlir::Value f);
  /// `cond ? g : 0`.
  mlir::Value where(mlir::Value cond, mlir::Value g);

  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  mlir::Value broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::Value reduce(mlir::Value v, graph::ReduceKind kind,
                     llvm::ArrayRef<int64_t> axes, bool keepdims);
  mlir::Value sum(mlir::Value v, llvm::ArrayRef<int64_t> axes, bool keepdims) {
    return reduce(v, graph::ReduceKind::sum, axes, keepdims);
  }
  /// Sum of every element, as a 0-d tensor.
  mlir::Value sumAll(mlir::Value v);
  mlir::Value slice(mlir::Value v, llvm::ArrayRef<int64_t> starts,
                    llvm::ArrayRef<int64_t> limits,
                    llvm::ArrayRef<int64_t> strides);
  /// Pads with `fill` (a float) on both sides of every dimension.
  mlir::Value pad(mlir::Value v, llvm::ArrayRef<int64_t> low,
                  llvm::ArrayRef<int64_t> high, double fill = 0.0);
  mlir::Value cast(mlir::Value v, mlir::Type element);

  /// Sums `g` (of a broadcast result's shape) down to `target`'s shape: the
  /// adjoint of NumPy broadcasting from `target` to g's shape.
  mlir::Value sumTo(mlir::Value g, mlir::RankedTensorType target);
  /// The adjoint of `graph.slice` with these attributes: `g` (the slice's
  /// shape) scattered into zeros of `inputShape`.
  mlir::Value unslice(mlir::Value g, llvm::ArrayRef<int64_t> inputShape,
                      llvm::ArrayRef<int64_t> starts,
                      llvm::ArrayRef<int64_t> limits,
                      llvm::ArrayRef<int64_t> strides);

  static mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  static mlir::Type elementOf(mlir::Value v) {
    return typeOf(v).getElementType();
  }

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace graphc::autodiff

#endif // GRAPHC_LIB_AUTODIFF_GRADIENTBUILDER_H
