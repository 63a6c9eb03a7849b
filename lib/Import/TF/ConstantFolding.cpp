//===- ConstantFolding.cpp - TensorFlow shape arithmetic on constants ----===//
//
// Gradient graphs compute shapes at run time (Shape, BroadcastGradientArgs,
// integer Add/Mul/FloorDiv, Reshape/Slice/Concat of the results). When the
// operands are integer constants, importNode folds the node here, so the
// Reshape/Sum/Tile downstream see constant operands.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

/// Integer arithmetic (Add, Sub, Mul, FloorDiv, FloorMod, Maximum, Minimum,
/// Div, RealDiv) of two integer constants, with broadcasting.
LogicalResult GraphDefImporter::foldIntegerArithmetic(const GraphNode &node,
                                                      Location at, StringRef op,
                                                      llvm::ArrayRef<Value> in,
                                                      bool &folded) {
  if (in.size() >= 2 && in[0] && in[1] &&
      (op == "Add" || op == "AddV2" || op == "Sub" || op == "Mul" ||
       op == "FloorDiv" || op == "FloorMod" || op == "Maximum" ||
       op == "Minimum" || op == "Div" || op == "RealDiv")) {
    auto a = constTensor(in[0]), b = constTensor(in[1]);
    if (a && b && !getElementType(in[0]).isInteger(1)) {
      IntTensor r;
      size_t rank = std::max(a->shape.size(), b->shape.size());
      r.shape.assign(rank, 1);
      auto dimOf = [&](const IntTensor &t, size_t i) -> int64_t {
        size_t off = rank - t.shape.size();
        return i < off ? 1 : t.shape[i - off];
      };
      for (size_t i = 0; i < rank; ++i) {
        int64_t x = dimOf(*a, i), y = dimOf(*b, i);
        if (x != y && x != 1 && y != 1) {
          return emitError(at) << op << ": shapes do not broadcast";
        }
        r.shape[i] = x == 1 ? y : x;
      }
      int64_t count = 1;
      for (int64_t d : r.shape) {
        count *= d;
      }
      auto at_ = [&](const IntTensor &t, int64_t flat) {
        int64_t index = 0, stride = 1;
        size_t off = rank - t.shape.size();
        for (size_t i = rank; i-- > 0;) {
          int64_t coord = flat % r.shape[i];
          flat /= r.shape[i];
          if (i >= off) {
            int64_t d = t.shape[i - off];
            index += (d == 1 ? 0 : coord) * stride;
            stride *= d;
          }
        }
        return t.data[index];
      };
      for (int64_t f = 0; f < count; ++f) {
        int64_t x = at_(*a, f), y = at_(*b, f), v;
        if ((op == "FloorDiv" || op == "FloorMod" || op == "Div" ||
             op == "RealDiv") &&
            y == 0) {
          return emitError(at) << op << ": division by zero in a constant";
        }
        if (op == "Add" || op == "AddV2") {
          v = x + y;
        } else if (op == "Sub") {
          v = x - y;
        } else if (op == "Mul") {
          v = x * y;
        } else if (op == "Maximum") {
          v = std::max(x, y);
        } else if (op == "Minimum") {
          v = std::min(x, y);
        } else if (op == "FloorMod") {
          v = ((x % y) + y) % y;
        } else if (op == "Div") {
          v = x / y; // TF's integer Div truncates
        } else {
          v = x / y;
          if ((x % y != 0) && ((x < 0) != (y < 0))) {
            --v;
          }
        }
        r.data.push_back(v);
      }
      Value c = intConst(at, r, getElementType(in[0]));
      if (!c) {
        return failure();
      }
      values[node.name + ":0"] = c;
      folded = true;
      return annotate(c.getDefiningOp(), node);
    }
  }
  return success();
}

/// Identity, Cast, Reshape, Slice and Concat of integer constants.
LogicalResult GraphDefImporter::foldIntegerDataMovement(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, bool &done) {
  if (!in.empty() && in[0]) {
    auto c = constTensor(in[0]);
    Type element = c ? getElementType(in[0]) : Type();
    std::optional<IntTensor> folded;
    if (c && (op == "Identity" || op == "StopGradient" || op == "Snapshot")) {
      folded = c;
    } else if (c && op == "Cast") {
      const tensorflow::AttrValue *dst = attr(nd, "DstT");
      Type to = dst ? convertTFType(ctx, dst->type()) : Type();
      if (to && isa<IntegerType>(to) && !to.isInteger(1)) {
        folded = c;
        element = to;
      }
    } else if (c && op == "Reshape" && in.size() > 1) {
      auto shape = constInts(in[1]);
      int64_t known = 1, unknown = -1;
      if (shape) {
        for (unsigned i = 0; i < shape->size(); ++i) {
          if ((*shape)[i] == -1) {
            unknown = i;
          } else {
            known *= (*shape)[i];
          }
        }
        if (known != 0) {
          folded = c;
          folded->shape = *shape;
          if (unknown >= 0) {
            folded->shape[unknown] = int64_t(c->data.size()) / known;
          }
        }
      }
    } else if (c && op == "Slice" && in.size() > 2 && c->shape.size() == 1) {
      auto begin = constInts(in[1]), size = constInts(in[2]);
      if (begin && size && begin->size() == 1 && size->size() == 1) {
        int64_t b = (*begin)[0];
        int64_t e = (*size)[0] == -1 ? int64_t(c->data.size()) : b + (*size)[0];
        if (b >= 0 && b <= e && e <= int64_t(c->data.size())) {
          folded = IntTensor{{e - b}, {}};
          folded->data.assign(c->data.begin() + b, c->data.begin() + e);
        }
      }
    } else if ((op == "ConcatV2" || op == "Concat") && in.size() > 2) {
      // ConcatV2 takes the axis last, TF1's Concat first.
      bool v2 = op == "ConcatV2";
      auto axis = constInts(v2 ? in.back() : in.front());
      llvm::ArrayRef<Value> parts = llvm::ArrayRef<Value>(in)
                                        .drop_front(v2 ? 0 : 1)
                                        .drop_back(v2 ? 1 : 0);
      IntTensor t;
      bool ok =
          axis && axis->size() == 1 && ((*axis)[0] == 0 || (*axis)[0] == -1);
      for (Value v : parts) {
        auto part = ok && v ? constTensor(v) : std::nullopt;
        ok = part && part->shape.size() == 1;
        if (ok) {
          t.data.append(part->data.begin(), part->data.end());
        }
      }
      if (ok) {
        t.shape = {int64_t(t.data.size())};
        folded = t;
        element = getElementType(parts.front());
      }
    }
    if (folded) {
      Value v = intConst(at, *folded, element);
      if (!v) {
        return failure();
      }
      values[node.name + ":0"] = v;
      done = true;
      return annotate(v.getDefiningOp(), node);
    }
  }
  return success();
}

} // namespace graphc::import
