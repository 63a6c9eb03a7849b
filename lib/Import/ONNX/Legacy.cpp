//===- Legacy.cpp - old (opset 1-8) forms of ONNX ops ---------------------===//
//
// graphc reads default-domain opsets 1 and up. The translations in
// OnnxImporter.cpp are written for the forms of opset 7 and later; the
// registry (OnnxOps.cpp) says which ops have a translated form at opsets 1-6
// (an entry's `since` below 7) and this file turns the old forms that differ
// into what those translations read (importLegacy), the way
// onnx.version_converter would:
//
//   * binary ops' `broadcast`/`axis` attributes (opset < 7) reshape B so
//     that NumPy broadcasting lines it up with A from `axis`;
//   * Pad-1's `paddings` is Pad-2's `pads`; Cast-1's `to` is a type name;
//     Selu-1's defaults are 4-digit constants; Upsample-1 (experimental)
//     has height_scale/width_scale;
//   * PRelu before opset 7 applies a rank-1 slope per channel (axis 1);
//   * Dropout before opset 7 runs in training mode unless is_test is set,
//     with its ratio in an attribute;
//   * BatchNormalization before opset 7 runs in training mode unless
//     is_test is set, and before opset 9 `spatial` = 0 normalises each
//     activation (C x D1 x ... x Dn statistics) instead of each channel.
//
// The `consumed_inputs` attribute of opsets 1-5 was an in-place hint with no
// effect on the results and is ignored.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include <limits>

namespace graphc::import {

using mlir::failure;
using mlir::ShapedType;
using mlir::success;

namespace {

/// Binary ops that took `broadcast` and `axis` attributes before opset 7.
bool hasLegacyBroadcast(StringRef op) {
  return llvm::is_contained({"Add", "Sub", "Mul", "Div", "Pow", "And", "Or",
                             "Xor", "Equal", "Less", "Greater"},
                            op);
}

/// Sets (or replaces) attribute `name` of `node`.
onnx::AttributeProto &setAttr(onnx::NodeProto &node, StringRef name,
                              onnx::AttributeProto::AttributeType type) {
  onnx::AttributeProto *a = nullptr;
  for (onnx::AttributeProto &existing : *node.mutable_attribute()) {
    if (existing.name() == name) {
      a = &existing;
    }
  }
  if (!a) {
    a = node.add_attribute();
  }
  a->Clear();
  a->set_name(name.str());
  a->set_type(type);
  return *a;
}

} // namespace

/// BatchNormalization before opset 9 with spatial = 0: statistics per
/// activation, shaped like X without N. X is flattened to N x (C*D1*...*Dn)
/// and the statistics to vectors: then each activation is a channel of a
/// 2-D batch_norm. Null after emitting at `at`.
static Value batchNormPerActivation(OnnxImporter &imp,
                                    const onnx::NodeProto &def,
                                    llvm::ArrayRef<Value> in, Location at) {
  auto reshape = [&](Value v, llvm::ArrayRef<int64_t> shape) {
    return v ? imp.build1(at, "graph.reshape", {v},
                          {imp.named("shape", imp.i64Array(shape))})
             : Value();
  };
  auto x = getShape(in[0]);
  if (!x || x->size() < 2 ||
      ShapedType::isDynamicShape(llvm::ArrayRef<int64_t>(*x).drop_front())) {
    emitError(at) << "BatchNormalization with spatial = 0 needs an input of "
                     "known rank >= 2 and static non-batch dimensions";
    return {};
  }
  int64_t features = 1;
  for (int64_t d : llvm::ArrayRef<int64_t>(*x).drop_front()) {
    features *= d;
  }
  llvm::SmallVector<Value> operands = {reshape(
      in[0], {ShapedType::isDynamic((*x)[0]) ? -1 : (*x)[0], features})};
  for (unsigned i = 1; i < 5; ++i) {
    auto s = getShape(in[i]);
    int64_t n = 1;
    for (int64_t d : s ? *s : llvm::SmallVector<int64_t>{-1}) {
      n = ShapedType::isDynamic(d) ? -1 : n * d;
    }
    if (n != features) {
      emitError(at) << "BatchNormalization with spatial = 0: input " << i
                    << " has " << n << " elements for " << features
                    << " activations";
      return {};
    }
    operands.push_back(reshape(in[i], {features}));
  }
  if (llvm::is_contained(operands, Value())) {
    return {};
  }
  Value y = imp.build1(
      at, "graph.batch_norm", operands,
      {imp.named("epsilon", imp.builder.getF32FloatAttr(
                                imp.attrFloat(def, "epsilon", 1e-5f)))});
  llvm::SmallVector<int64_t> back(*x);
  if (ShapedType::isDynamic(back[0])) {
    back[0] = -1;
  }
  return reshape(y, back);
}

FailureOr<OnnxImporter::LegacyForm>
OnnxImporter::importLegacy(const GraphNode &node, const onnx::NodeProto &def,
                           llvm::SmallVectorImpl<Value> &in, Location at) {
  LegacyForm form;
  StringRef op = node.op;
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto reshape = [&](Value v, llvm::ArrayRef<int64_t> shape) {
    return v ? build1(at, "graph.reshape", {v},
                      {named("shape", builder.getDenseI64ArrayAttr(shape))})
             : Value();
  };
  auto upgraded = [&]() -> onnx::NodeProto & {
    if (!form.upgraded) {
      form.upgraded = std::make_unique<onnx::NodeProto>(def);
    }
    return *form.upgraded;
  };

  if (opset < 7 && hasLegacyBroadcast(op) && attrInt(def, "broadcast", 0) &&
      in.size() >= 2 && in[0] && in[1]) {
    // B's dimensions line up with A's from `axis` (default: the trailing
    // ones); trailing 1s make that NumPy broadcasting.
    auto a = getShape(in[0]), b = getShape(in[1]);
    if (!a || !b) {
      return emitError(at) << op
                           << " with legacy broadcast needs ranked "
                              "operands";
    }
    int64_t axis = attrInt(def, "axis", int64_t(a->size() - b->size()));
    if (axis < 0 || axis + b->size() > a->size()) {
      return emitError(at) << "legacy broadcast axis " << axis
                           << " does not fit ranks " << a->size() << " and "
                           << b->size();
    }
    llvm::SmallVector<int64_t> shape(*b);
    shape.append(a->size() - axis - b->size(), 1);
    if (shape.size() != b->size()) {
      in[1] = reshape(in[1], shape);
      if (!in[1]) {
        return failure();
      }
    }
    return form;
  }

  if (op == "Pad" && opset < 2) {
    // Pad-1 named its pads `paddings` (same layout: all begins, then ends).
    if (auto paddings = attrInts(def, "paddings")) {
      onnx::AttributeProto &pads =
          setAttr(upgraded(), "pads", onnx::AttributeProto::INTS);
      for (int64_t p : *paddings) {
        pads.add_ints(p);
      }
    }
    return form;
  }

  if (op == "Cast" && opset < 6) {
    // Cast-1 named the target type: "FLOAT", "INT64", ...
    const onnx::AttributeProto *to = attr(def, "to");
    if (to && to->type() == onnx::AttributeProto::STRING) {
      onnx::TensorProto::DataType type;
      if (!onnx::TensorProto::DataType_Parse(to->s(), &type)) {
        return emitError(at) << "Cast (opset " << opset << ") to unknown type '"
                             << to->s() << "'";
      }
      setAttr(upgraded(), "to", onnx::AttributeProto::INT).set_i(type);
    }
    return form;
  }

  if (op == "Selu" && opset < 6) {
    // Selu-1's defaults were rounded to 4 digits.
    onnx::NodeProto &node6 = upgraded();
    if (!attr(def, "alpha")) {
      setAttr(node6, "alpha", onnx::AttributeProto::FLOAT).set_f(1.6732f);
    }
    if (!attr(def, "gamma")) {
      setAttr(node6, "gamma", onnx::AttributeProto::FLOAT).set_f(1.0507f);
    }
    return form;
  }

  if (op == "Upsample" && opset < 7) {
    // Experimental Upsample-1: 4-D NCHW, height_scale and width_scale.
    StringRef mode = attr(def, "mode") ? StringRef(attr(def, "mode")->s())
                                       : StringRef("nearest");
    if (mode != "nearest") {
      return emitError(at) << "Upsample (opset " << opset << ") mode '" << mode
                           << "' is not supported";
    }
    const onnx::AttributeProto *h = attr(def, "height_scale"),
                               *w = attr(def, "width_scale");
    if (!h || !w) {
      return emitError(at) << "Upsample (opset " << opset
                           << ") needs height_scale and width_scale";
    }
    onnx::AttributeProto &scales =
        setAttr(upgraded(), "scales", onnx::AttributeProto::FLOATS);
    for (float s : {1.0f, 1.0f, h->f(), w->f()}) {
      scales.add_floats(s);
    }
    return form;
  }

  if (op == "PRelu" && opset < 7 && in.size() >= 2 && in[0] && in[1]) {
    // A rank-1 slope of C values applies per channel (axis 1), as Caffe2
    // did; NumPy broadcasting (opset 7) would line it up with the last
    // axis.
    auto x = getShape(in[0]), slope = getShape(in[1]);
    if (x && slope && x->size() > 2 && slope->size() == 1 && (*slope)[0] != 1) {
      llvm::SmallVector<int64_t> shape = {(*slope)[0]};
      shape.append(x->size() - 2, 1);
      in[1] = reshape(in[1], shape);
      if (!in[1]) {
        return failure();
      }
    }
    return form;
  }

  if (op == "Dropout" && opset < 7) {
    // Dropout-1/6 run in training mode unless is_test is set; training
    // mode draws random numbers unless the ratio is 0.
    if (!attrInt(def, "is_test", 0) && attrFloat(def, "ratio", 0.5f) != 0) {
      return emitError(at) << "Dropout (opset " << opset
                           << ") in training mode (is_test = 0) with ratio "
                           << attrFloat(def, "ratio", 0.5f)
                           << " is not supported (no random ops); set "
                              "is_test = 1 for inference";
    }
    return form;
  }

  if (op == "BatchNormalization" && opset < 9) {
    if (opset < 7 && !attrInt(def, "is_test", 0)) {
      return emitError(at) << "BatchNormalization (opset " << opset
                           << ") in training mode (is_test = 0) is not "
                              "supported; set is_test = 1 for inference";
    }
    for (int i = 1; i < def.output_size(); ++i) {
      if (!def.output(i).empty()) {
        return emitError(at)
               << "BatchNormalization (opset " << opset << ") output " << i
               << " (training statistics) is not supported";
      }
    }
    if (attrInt(def, "spatial", 1) || in.size() < 5) {
      return form;
    }
    Value y = batchNormPerActivation(*this, def, in, at);
    if (!y) {
      return failure();
    }
    form.results = llvm::SmallVector<Value>{y};
    return form;
  }
  return form;
}

} // namespace graphc::import
