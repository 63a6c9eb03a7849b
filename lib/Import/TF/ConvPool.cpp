//===- ConvPool.cpp - TensorFlow NHWC convolution and pooling -------------===//
//
// Conv2D, DepthwiseConv2dNative, MaxPool, AvgPool: NHWC transposed to
// channels-first around graph.conv/graph.pool, TensorFlow padding resolved.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

LogicalResult GraphDefImporter::convOrPool(const tensorflow::NodeDef &nd,
                                           Location at,
                                           llvm::ArrayRef<Value> in,
                                           Value &result) {
  StringRef op = nd.op();
  bool isConv = op == "Conv2D" || op == "DepthwiseConv2dNative";
  if (in.size() < (isConv ? 2u : 1u)) {
    return emitError(at) << op << " needs " << (isConv ? 2 : 1) << " inputs";
  }
  const tensorflow::AttrValue *format = attr(nd, "data_format");
  bool nhwc = !format || format->s() == "NHWC";
  unsigned h = nhwc ? 1 : 2, w = nhwc ? 2 : 3;
  auto list = [&](StringRef name, llvm::SmallVector<int64_t> def) {
    const tensorflow::AttrValue *a = attr(nd, name);
    if (!a || a->list().i_size() != 4) {
      return def;
    }
    return llvm::SmallVector<int64_t>{a->list().i(h), a->list().i(w)};
  };
  llvm::SmallVector<int64_t> strides = list("strides", {1, 1});
  llvm::SmallVector<int64_t> dilations = list("dilations", {1, 1});
  llvm::SmallVector<int64_t> padLow(2, 0), padHigh(2, 0);
  Value x = in[0];
  // A dilated convolution spelled SpaceToBatchND -> Conv2D -> BatchToSpaceND.
  bool dilatedByBlock = false;
  if (!x && isConv) {
    auto it = spaceToBatch.find(inKeys[0]);
    if (it == spaceToBatch.end()) {
      return emitError(at) << op << ": input is not a tensor";
    }
    const PendingSpaceToBatch &s2b = it->second;
    if (s2b.block.size() != 2 || !nhwc ||
        strides != llvm::SmallVector<int64_t>{1, 1}) {
      return emitError(at) << "dilated convolution needs a 2-d block, NHWC "
                              "and unit strides";
    }
    x = s2b.input;
    dilations = s2b.block;
    padLow = {s2b.paddings[0], s2b.paddings[2]};
    padHigh = {s2b.paddings[1], s2b.paddings[3]};
    dilatedByBlock = true;
  }
  auto shape = getShape(x);
  if (!shape || shape->size() != 4) {
    return emitError(at) << op << " needs a rank-4 input";
  }
  llvm::SmallVector<int64_t> window;
  if (isConv) {
    auto fshape = getShape(in[1]);
    if (!fshape || fshape->size() != 4) {
      return emitError(at) << op << " needs a rank-4 filter";
    }
    window = {(*fshape)[0], (*fshape)[1]};
  } else {
    window = list("ksize", {});
    if (window.size() != 2) {
      return emitError(at) << op << " needs a 4-element ksize";
    }
  }
  const tensorflow::AttrValue *padding = attr(nd, "padding");
  StringRef mode = padding ? StringRef(padding->s()) : "VALID";
  if (dilatedByBlock && mode != "VALID") {
    return emitError(at) << "dilated convolution through SpaceToBatchND "
                            "needs VALID padding";
  }
  if (mode == "SAME") {
    for (unsigned i = 0; i < 2; ++i) {
      int64_t size = (*shape)[i == 0 ? h : w];
      if (size == ShapedType::kDynamic) {
        return emitError(at) << op
                             << ": SAME padding needs static spatial "
                                "dimensions";
      }
      int64_t out = (size + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(
          (out - 1) * strides[i] + (window[i] - 1) * dilations[i] + 1 - size,
          0);
      padLow[i] = total / 2;
      padHigh[i] = total - total / 2;
    }
  } else if (mode == "EXPLICIT") {
    const tensorflow::AttrValue *e = attr(nd, "explicit_paddings");
    if (!e || e->list().i_size() != 8) {
      return emitError(at) << op
                           << ": EXPLICIT padding needs 8 "
                              "explicit_paddings";
    }
    padLow = {e->list().i(2 * h), e->list().i(2 * w)};
    padHigh = {e->list().i(2 * h + 1), e->list().i(2 * w + 1)};
  } else if (mode != "VALID") {
    return emitError(at) << op << ": unknown padding '" << mode << "'";
  }
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  Value nchw = nhwc ? transpose(at, x, {0, 3, 1, 2}) : x;
  if (!nchw) {
    return failure();
  }
  llvm::SmallVector<NamedAttribute> attrs = {
      named("strides", builder.getDenseI64ArrayAttr(strides)),
      named("dilations", builder.getDenseI64ArrayAttr(dilations)),
      named("pad_low", builder.getDenseI64ArrayAttr(padLow)),
      named("pad_high", builder.getDenseI64ArrayAttr(padHigh))};
  Value y;
  if (isConv) {
    Value filter = in[1];
    auto fshape = *getShape(filter);
    int64_t groups = 1;
    if (op == "DepthwiseConv2dNative") {
      // [H, W, C, M] -> [H, W, 1, C*M]: one group per input channel.
      groups = fshape[2];
      filter =
          reshape(at, filter, {fshape[0], fshape[1], 1, fshape[2] * fshape[3]});
      if (!filter) {
        return failure();
      }
    }
    filter = transpose(at, filter, {3, 2, 0, 1}); // HWIO -> OIHW
    if (!filter) {
      return failure();
    }
    attrs.push_back(named("groups", builder.getI64IntegerAttr(groups)));
    y = emit(at, "graph.conv", {nchw, filter}, attrs);
  } else {
    Attribute kind = parseAttr(ctx, at,
                               op == "MaxPool" ? "#graph<pool_kind max>"
                                               : "#graph<pool_kind avg>");
    if (!kind) {
      return failure();
    }
    attrs.push_back(named("kind", kind));
    attrs.push_back(named("window", builder.getDenseI64ArrayAttr(window)));
    y = emit(at, "graph.pool", {nchw}, attrs);
  }
  if (!y) {
    return failure();
  }
  result = nhwc ? transpose(at, y, {0, 2, 3, 1}) : y;
  if (!result) {
    return failure();
  }
  if (dilatedByBlock) {
    fromSpaceToBatch.insert(result);
  }
  return success();
}

} // namespace graphc::import
