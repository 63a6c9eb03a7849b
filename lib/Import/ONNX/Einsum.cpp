//===- Einsum.cpp - ONNX Einsum -------------------------------------------===//
//
// Einsum as sums, transposes, reshapes and batched matmuls.
// Dispatched from the op registry (OnnxOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace mlir;

namespace graphc::import {

namespace {
/// An Einsum equation with its ellipses expanded: one subscript string per
/// input, the output's, and each index letter's size.
struct EinsumPlan {
  llvm::SmallVector<std::string> subs;
  std::string out;
  std::map<char, int64_t> size;
};
} // namespace

/// Reads and checks Einsum's `equation` against the input shapes.
static FailureOr<EinsumPlan> planEinsum(OnnxImporter &imp,
                                        const onnx::NodeProto &def,
                                        llvm::ArrayRef<Value> in, Location at) {
  const onnx::AttributeProto *eqAttr = imp.attr(def, "equation");
  if (!eqAttr || in.empty()) {
    return emitError(at) << "Einsum needs an equation and inputs";
  }
  std::string eq;
  for (char c : eqAttr->s()) {
    if (c != ' ') {
      eq += c;
    }
  }
  auto [lhs, rhs] = StringRef(eq).split("->");
  bool explicitOut = StringRef(eq).contains("->");
  llvm::SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != in.size()) {
    return emitError(at) << "Einsum equation '" << eq << "' has "
                         << terms.size() << " terms for " << in.size()
                         << " inputs";
  }
  // Expand "..." into upper-case letters, one per broadcast dimension
  // (aligned from the right, as NumPy does).
  int64_t ellipsisRank = 0;
  llvm::SmallVector<llvm::SmallVector<int64_t>> shapes;
  for (auto [term, v] : llvm::zip(terms, in)) {
    auto shape = getShape(v);
    if (!isStatic(shape)) {
      return emitError(at) << "Einsum needs static input shapes";
    }
    shapes.push_back(*shape);
    size_t letters = term.size() - (term.contains("...") ? 3 : 0);
    if (term.contains("...")) {
      ellipsisRank = std::max<int64_t>(ellipsisRank, shape->size() - letters);
    }
  }
  std::string ell;
  for (int64_t i = 0; i < ellipsisRank; ++i) {
    ell += char('A' + i);
  }
  auto expand = [&](StringRef term, int64_t rank) {
    size_t pos = term.find("...");
    if (pos == StringRef::npos) {
      return term.str();
    }
    int64_t n = rank - int64_t(term.size() - 3);
    return (term.take_front(pos) +
            StringRef(ell).take_back(std::max<int64_t>(n, 0)) +
            term.drop_front(pos + 3))
        .str();
  };
  llvm::SmallVector<std::string> subs;
  for (size_t i = 0; i < terms.size(); ++i) {
    subs.push_back(expand(terms[i], shapes[i].size()));
    if (int64_t(subs.back().size()) != int64_t(shapes[i].size())) {
      return emitError(at) << "Einsum term '" << terms[i].str()
                           << "' does not match rank " << shapes[i].size();
    }
    for (size_t a = 0; a < subs.back().size(); ++a) {
      if (subs.back().find(subs.back()[a], a + 1) != std::string::npos) {
        return emitError(at) << "Einsum with a repeated index in one term "
                                "(diagonals) is not supported";
      }
    }
  }
  std::string out;
  if (explicitOut) {
    out = expand(rhs, ellipsisRank + int64_t(rhs.size()) -
                          (rhs.contains("...") ? 3 : 0));
  } else {
    out = ell;
    std::map<char, int> count;
    for (const std::string &s : subs) {
      for (char c : s) {
        if (!(c >= 'A' && c < 'A' + ellipsisRank)) {
          ++count[c];
        }
      }
    }
    for (auto [c, n] : count) {
      if (n == 1) {
        out += c;
      }
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < subs.size(); ++i) {
    for (size_t a = 0; a < subs[i].size(); ++a) {
      int64_t d = shapes[i][a];
      auto [it, fresh] = size.try_emplace(subs[i][a], d);
      if (!fresh && it->second != d) {
        if (it->second == 1) {
          it->second = d;
        } else if (d != 1) {
          return emitError(at) << "Einsum index '" << subs[i][a]
                               << "' has sizes " << it->second << " and " << d;
        }
      }
    }
  }
  return EinsumPlan{std::move(subs), std::move(out), std::move(size)};
}

FailureOr<OnnxImporter::Results>
OnnxImporter::importEinsum(const onnx::NodeProto &def, llvm::ArrayRef<Value> in,
                           Location at) {
  FailureOr<EinsumPlan> plan = planEinsum(*this, def, in, at);
  if (failed(plan)) {
    return failure();
  }
  llvm::SmallVector<std::string> &subs = plan->subs;
  const std::string &out = plan->out;
  std::map<char, int64_t> &size = plan->size;
  Attribute sum = parseAttr(ctx, at, "#graph<reduce_kind sum>");
  if (!sum) {
    return failure();
  }
  auto named = [&](StringRef n, Attribute a) {
    return builder.getNamedAttr(n, a);
  };
  auto arr = [&](llvm::ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  // Sums out the letters of `v` (labelled `s`) not in `keep`.
  auto reduceTo = [&](Value v, std::string &s, StringRef keep) -> Value {
    llvm::SmallVector<int64_t> axes;
    std::string rest;
    for (size_t a = 0; a < s.size(); ++a) {
      if (keep.contains(s[a])) {
        rest += s[a];
      } else {
        axes.push_back(a);
      }
    }
    if (axes.empty()) {
      return v;
    }
    s = rest;
    return build1(at, "graph.reduce", {v},
                  {named("kind", sum), named("axes", arr(axes))});
  };
  auto permute = [&](Value v, StringRef from, StringRef to) -> Value {
    llvm::SmallVector<int64_t> perm;
    for (char c : to) {
      perm.push_back(from.find(c));
    }
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) {
      identity &= perm[i] == int64_t(i);
    }
    return identity
               ? v
               : build1(at, "graph.transpose", {v}, {named("perm", arr(perm))});
  };
  auto reshape = [&](Value v, llvm::ArrayRef<int64_t> shape) -> Value {
    return v ? build1(at, "graph.reshape", {v}, {named("shape", arr(shape))})
             : Value();
  };
  auto broadcastTo = [&](Value v, StringRef s) -> Value {
    // Size-1 dimensions standing for a larger index (ellipsis broadcast).
    llvm::SmallVector<int64_t> target;
    bool needed = false;
    auto shape = *getShape(v);
    for (size_t a = 0; a < s.size(); ++a) {
      target.push_back(size[s[a]]);
      needed |= shape[a] != size[s[a]];
    }
    return needed ? build1(at, "graph.broadcast_to", {v},
                           {named("shape", arr(target))})
                  : v;
  };
  auto product = [&](StringRef s) {
    int64_t p = 1;
    for (char c : s) {
      p *= size[c];
    }
    return p;
  };

  Value acc = in[0];
  std::string accS = subs[0];
  for (size_t k = 1; k <= subs.size(); ++k) {
    // Letters still needed after this step: the output's and later terms'.
    std::string keep = out;
    for (size_t j = k; j < subs.size(); ++j) {
      keep += subs[j];
    }
    if (k == subs.size()) {
      acc = reduceTo(acc, accS, keep);
      break;
    }
    std::string bS = subs[k];
    std::string keepA = keep + bS, keepB = keep + accS;
    acc = reduceTo(acc, accS, keepA);
    Value b = reduceTo(in[k], bS, keepB);
    if (!acc || !b) {
      return failure();
    }
    std::string batch, contract, aFree, bFree;
    for (char c : accS) {
      if (!StringRef(bS).contains(c)) {
        aFree += c;
      } else if (StringRef(keep).contains(c)) {
        batch += c;
      } else {
        contract += c;
      }
    }
    for (char c : bS) {
      if (!StringRef(accS).contains(c)) {
        bFree += c;
      }
    }
    acc = broadcastTo(acc, accS);
    b = broadcastTo(b, bS);
    Value a3 = reshape(permute(acc, accS, batch + aFree + contract),
                       {product(batch), product(aFree), product(contract)});
    Value b3 = reshape(permute(b, bS, batch + contract + bFree),
                       {product(batch), product(contract), product(bFree)});
    if (!a3 || !b3) {
      return failure();
    }
    Value m = build1(at, "graph.matmul", {a3, b3});
    accS = batch + aFree + bFree;
    llvm::SmallVector<int64_t> shape;
    for (char c : accS) {
      shape.push_back(size[c]);
    }
    acc = reshape(m, shape);
    if (!acc) {
      return failure();
    }
  }
  if (!acc) {
    return failure();
  }
  if (accS.size() != out.size()) {
    return emitError(at) << "Einsum output '" << out << "' repeats an index";
  }
  Value r = permute(acc, accS, out);
  if (!r) {
    return failure();
  }
  return llvm::SmallVector<Value>{r};
}

FailureOr<OnnxImporter::Results>
OnnxImporter::importEinsumNode(const GraphNode &node,
                               const onnx::NodeProto &def,
                               llvm::ArrayRef<Value> in, Location at) {
  return importEinsum(def, in, at);
}

} // namespace graphc::import
