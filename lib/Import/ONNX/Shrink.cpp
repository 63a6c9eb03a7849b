//===- Shrink.cpp - ONNX Shrink as graph ops ------------------------------===//
//
// Shrink (opset 9): y = x < -lambd ? x + bias : x > lambd ? x - bias : 0,
// two compares and two selects; no graph op of its own is needed.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/Diagnostics.h"

#include <cmath>

namespace graphc::import {

std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importShrink(const GraphNode &node, const onnx::NodeProto &def,
                           llvm::ArrayRef<Value> in, Location at) {
  if (node.op != "Shrink") {
    return std::nullopt;
  }
  if (in.empty() || !in[0]) {
    return FailureOr<llvm::SmallVector<Value>>(emitError(at)
                                               << "Shrink needs input 0");
  }
  Value x = in[0];
  Type element = getElementType(x);
  double lambd = attrFloat(def, "lambd", 0.5f);
  double bias = attrFloat(def, "bias", 0.0f);
  double low = -lambd, high = lambd;
  if (llvm::isa<IntegerType>(element)) {
    // Integer x against float bounds: x < -lambd <=> x < -floor(lambd) and
    // x > lambd <=> x > floor(lambd). A fractional bias would need the
    // float result rounded back, which ONNX leaves unsaid.
    if (bias != std::floor(bias)) {
      return FailureOr<llvm::SmallVector<Value>>(
          emitError(at) << "Shrink of integer type " << element
                        << " with fractional bias " << bias);
    }
    high = std::floor(lambd);
    low = -high;
  } else if (!llvm::isa<FloatType>(element)) {
    return FailureOr<llvm::SmallVector<Value>>(
        emitError(at) << "Shrink of element type " << element);
  }
  auto compare = [&](StringRef dir, double bound) -> Value {
    Attribute d =
        parseAttr(ctx, at, ("#graph<compare_direction " + dir + ">").str());
    return d ? build1(at, "graph.compare", {x, scalar(at, element, bound)},
                      {builder.getNamedAttr("direction", d)},
                      builder.getI1Type())
             : Value();
  };
  auto select = [&](Value c, Value a, Value b) {
    return c && a && b ? build1(at, "graph.select", {c, a, b}, {}, element)
                       : Value();
  };
  Value below = compare("lt", low), above = compare("gt", high);
  Value plus = build1(at, "graph.add", {x, scalar(at, element, bias)});
  Value minus = build1(at, "graph.sub", {x, scalar(at, element, bias)});
  Value y = select(below, plus, select(above, minus, scalar(at, element, 0)));
  if (!y) {
    return FailureOr<llvm::SmallVector<Value>>(mlir::failure());
  }
  return FailureOr<llvm::SmallVector<Value>>(llvm::SmallVector<Value>{y});
}

} // namespace graphc::import
