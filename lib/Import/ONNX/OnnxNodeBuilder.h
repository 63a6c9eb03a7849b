//===- OnnxNodeBuilder.h - shorthands for composing graph ops ---*- C++ -*-===//
//
// Private to lib/Import: the few builders the OnnxImport*.cpp family files
// use to compose one ONNX node from graph ops. Every builder returns a null
// Value when an operand is null or the op fails to build (having emitted
// at the node), so a chain of them fails once, at its end.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_IMPORT_ONNXNODEBUILDER_H
#define GRAPHC_LIB_IMPORT_ONNXNODEBUILDER_H

#include "OnnxImporterImpl.h"

namespace graphc::import {

struct NodeBuilder {
  OnnxImporter &imp;
  Location at;

  NamedAttribute named(StringRef name, Attribute value) {
    return imp.builder.getNamedAttr(name, value);
  }
  NamedAttribute i64(StringRef name, int64_t value) {
    return named(name, imp.builder.getI64IntegerAttr(value));
  }
  NamedAttribute i64s(StringRef name, ArrayRef<int64_t> value) {
    return named(name, imp.builder.getDenseI64ArrayAttr(value));
  }
  NamedAttribute unit(StringRef name) {
    return named(name, imp.builder.getUnitAttr());
  }
  /// `#graph<KIND VALUE>` (e.g. "reduce_kind", "sum"); null after emitting
  /// when the dialect does not know it.
  Attribute enumAttr(StringRef kind, StringRef value) {
    return parseAttr(imp.ctx, at, ("#graph<" + kind + " " + value + ">").str());
  }
  /// Builds `name`; element type of the result defaults to the first
  /// operand's.
  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {}, Type element = {}) {
    for (Value v : operands) {
      if (!v) {
        return {};
      }
    }
    return imp.build1(at, name, operands, attrs, element);
  }
  Value compare(Value lhs, Value rhs, StringRef direction) {
    Attribute dir = enumAttr("compare_direction", direction);
    if (!dir) {
      return {};
    }
    return op("graph.compare", {lhs, rhs}, {named("direction", dir)},
              imp.builder.getI1Type());
  }
  Value cast(Value x, Type to) {
    return op("graph.cast", {x}, {named("to", mlir::TypeAttr::get(to))}, to);
  }
  Value scalar(Type element, double value) {
    return imp.scalar(at, element, value);
  }
  /// Reduces `x` by `kind` over `axes`, or over all axes when empty.
  Value reduce(Value x, StringRef kind, ArrayRef<int64_t> axes = {},
               bool keepdims = false) {
    auto shape = x ? getShape(x) : std::nullopt;
    Attribute k = enumAttr("reduce_kind", kind);
    if (!shape || !k) {
      return {};
    }
    llvm::SmallVector<int64_t> all(axes);
    if (all.empty()) {
      for (int64_t i = 0; i < int64_t(shape->size()); ++i) {
        all.push_back(i);
      }
    }
    llvm::SmallVector<NamedAttribute> attrs = {named("kind", k),
                                               i64s("axes", all)};
    if (keepdims) {
      attrs.push_back(unit("keepdims"));
    }
    return op("graph.reduce", {x}, attrs);
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    return op("graph.reshape", {x}, {i64s("shape", shape)});
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    return op("graph.transpose", {x}, {i64s("perm", perm)});
  }
  /// `x[starts:limits]` with unit strides.
  Value slice(Value x, ArrayRef<int64_t> starts, ArrayRef<int64_t> limits) {
    llvm::SmallVector<int64_t> strides(starts.size(), 1);
    return op("graph.slice", {x},
              {i64s("starts", starts), i64s("limits", limits),
               i64s("strides", strides)});
  }
  Value gather(Value x, Value indices, int64_t axis, int64_t batchDims = 0) {
    llvm::SmallVector<NamedAttribute> attrs = {i64("axis", axis)};
    if (batchDims) {
      attrs.push_back(i64("batch_dims", batchDims));
    }
    return op("graph.gather", {x, indices}, attrs);
  }
  Value concat(ValueRange xs, int64_t axis) {
    return op("graph.concat", xs, {i64("axis", axis)});
  }
};

/// Wraps a node's results (failure when any is null) for the family
/// importers' return type.
inline std::optional<FailureOr<llvm::SmallVector<Value>>>
nodeResults(llvm::SmallVector<Value> values) {
  if (llvm::is_contained(values, Value())) {
    return FailureOr<llvm::SmallVector<Value>>(mlir::failure());
  }
  return FailureOr<llvm::SmallVector<Value>>(std::move(values));
}

/// The failure result after a diagnostic.
inline std::optional<FailureOr<llvm::SmallVector<Value>>>
nodeFailed(mlir::LogicalResult) {
  return FailureOr<llvm::SmallVector<Value>>(mlir::failure());
}

} // namespace graphc::import

#endif // GRAPHC_LIB_IMPORT_ONNXNODEBUILDER_H
