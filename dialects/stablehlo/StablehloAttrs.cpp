//===- StablehloAttrs.cpp - upstream StableHLO's attribute syntax ---------===//
//
// The dimension-number attributes print exactly as upstream StableHLO does
// (a StableHLO parser must read what graphc writes), and parse that form
// back for graph-opt's round trips.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace graphc::stablehlo;

#define GET_ATTRDEF_CLASSES
#include "stablehlo/StablehloAttrs.cpp.inc"

namespace {

void printDims(AsmPrinter &p, ArrayRef<int64_t> dims) {
  p << '[';
  llvm::interleaveComma(dims, p);
  p << ']';
}

ParseResult parseDims(AsmParser &p, SmallVectorImpl<int64_t> &dims) {
  return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    return p.parseInteger(dims.emplace_back());
  });
}

/// `kw = [..], kw = N, ...` in any order, each at most once; the fields
/// left out keep their (empty) defaults, as upstream's parser does.
ParseResult parseFields(
    AsmParser &p,
    llvm::ArrayRef<std::pair<StringRef, std::function<ParseResult()>>> fields) {
  if (p.parseLess()) {
    return failure();
  }
  llvm::StringSet<> seen;
  if (succeeded(p.parseOptionalGreater())) {
    return success();
  }
  do {
    StringRef key;
    llvm::SMLoc loc = p.getCurrentLocation();
    if (p.parseKeyword(&key) || p.parseEqual()) {
      return failure();
    }
    auto it = llvm::find_if(fields, [&](auto &f) { return f.first == key; });
    if (it == fields.end()) {
      return p.emitError(loc) << "unknown field '" << key << "'";
    }
    if (!seen.insert(key).second) {
      return p.emitError(loc) << "field '" << key << "' given twice";
    }
    if (it->second()) {
      return failure();
    }
  } while (succeeded(p.parseOptionalComma()));
  return p.parseGreater();
}

/// Prints `kw = [..]` for each non-empty list, comma separated.
void printLists(AsmPrinter &p,
                ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> lists,
                bool &first) {
  for (auto [name, dims] : lists) {
    if (dims.empty()) {
      continue;
    }
    p << (first ? "" : ", ") << name << " = ";
    printDims(p, dims);
    first = false;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// #stablehlo.dot
//===----------------------------------------------------------------------===//

void DotDimensionNumbersAttr::print(AsmPrinter &p) const {
  p << '<';
  bool first = true;
  printLists(p,
             {{"lhs_batching_dimensions", getLhsBatchingDimensions()},
              {"rhs_batching_dimensions", getRhsBatchingDimensions()},
              {"lhs_contracting_dimensions", getLhsContractingDimensions()},
              {"rhs_contracting_dimensions", getRhsContractingDimensions()}},
             first);
  p << '>';
}

Attribute DotDimensionNumbersAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (parseFields(
          p,
          {{"lhs_batching_dimensions", [&] { return parseDims(p, lb); }},
           {"rhs_batching_dimensions", [&] { return parseDims(p, rb); }},
           {"lhs_contracting_dimensions", [&] { return parseDims(p, lc); }},
           {"rhs_contracting_dimensions", [&] { return parseDims(p, rc); }}})) {
    return {};
  }
  return get(p.getContext(), lb, rb, lc, rc);
}

//===----------------------------------------------------------------------===//
// #stablehlo.gather
//===----------------------------------------------------------------------===//

void GatherDimensionNumbersAttr::print(AsmPrinter &p) const {
  p << '<';
  bool first = true;
  printLists(p,
             {{"offset_dims", getOffsetDims()},
              {"collapsed_slice_dims", getCollapsedSliceDims()},
              {"start_index_map", getStartIndexMap()}},
             first);
  p << (first ? "" : ", ") << "index_vector_dim = " << getIndexVectorDim()
    << '>';
}

Attribute GatherDimensionNumbersAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> offset, collapsed, startMap;
  int64_t indexVectorDim = 0;
  if (parseFields(
          p, {{"offset_dims", [&] { return parseDims(p, offset); }},
              {"collapsed_slice_dims", [&] { return parseDims(p, collapsed); }},
              {"start_index_map", [&] { return parseDims(p, startMap); }},
              {"index_vector_dim",
               [&] { return p.parseInteger(indexVectorDim); }}})) {
    return {};
  }
  return get(p.getContext(), offset, collapsed, startMap, indexVectorDim);
}

//===----------------------------------------------------------------------===//
// #stablehlo.conv
//===----------------------------------------------------------------------===//

namespace {

/// One `[b, f, 0, 1]` list: `first` and `second` name the two non-spatial
/// dimensions (b/f or o/i... in upstream's order of letters per operand).
void printLayout(AsmPrinter &p, int64_t rank, int64_t firstDim, char first,
                 int64_t secondDim, char second, ArrayRef<int64_t> spatial) {
  p << '[';
  for (int64_t d = 0; d < rank; ++d) {
    if (d) {
      p << ", ";
    }
    if (d == firstDim) {
      p << first;
    } else if (d == secondDim) {
      p << second;
    } else {
      const int64_t *it = llvm::find(spatial, d);
      p << (it == spatial.end() ? -1 : it - spatial.begin());
    }
  }
  p << ']';
}

ParseResult parseLayout(AsmParser &p, char first, char second,
                        int64_t &firstDim, int64_t &secondDim,
                        SmallVectorImpl<int64_t> &spatial) {
  SmallVector<std::pair<int64_t, int64_t>> spatialAt; // (spatial index, dim)
  firstDim = secondDim = -1;
  int64_t d = 0;
  llvm::SMLoc loc = p.getCurrentLocation();
  if (p.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t index;
            OptionalParseResult num = p.parseOptionalInteger(index);
            if (num.has_value()) {
              if (failed(*num)) {
                return failure();
              }
              spatialAt.push_back({index, d++});
              return success();
            }
            StringRef key;
            if (p.parseKeyword(&key)) {
              return failure();
            }
            if (key.size() == 1 && key[0] == first) {
              firstDim = d++;
            } else if (key.size() == 1 && key[0] == second) {
              secondDim = d++;
            } else {
              return p.emitError(p.getCurrentLocation())
                     << "expected '" << first << "', '" << second
                     << "' or a spatial index, got '" << key << "'";
            }
            return success();
          })) {
    return failure();
  }
  if (firstDim < 0 || secondDim < 0) {
    return p.emitError(loc)
           << "a layout needs '" << first << "' and '" << second << "'";
  }
  spatial.assign(spatialAt.size(), -1);
  for (auto [index, dim] : spatialAt) {
    if (index < 0 || index >= static_cast<int64_t>(spatialAt.size()) ||
        spatial[index] != -1) {
      return p.emitError(loc) << "spatial indices must be 0.."
                              << spatialAt.size() - 1 << ", each once";
    }
    spatial[index] = dim;
  }
  return success();
}

} // namespace

void ConvDimensionNumbersAttr::print(AsmPrinter &p) const {
  int64_t rank = getInputSpatialDimensions().size() + 2;
  p << '<';
  printLayout(p, rank, getInputBatchDimension(), 'b',
              getInputFeatureDimension(), 'f', getInputSpatialDimensions());
  p << 'x';
  printLayout(p, rank, getKernelOutputFeatureDimension(), 'o',
              getKernelInputFeatureDimension(), 'i',
              getKernelSpatialDimensions());
  p << "->";
  printLayout(p, rank, getOutputBatchDimension(), 'b',
              getOutputFeatureDimension(), 'f', getOutputSpatialDimensions());
  p << '>';
}

Attribute ConvDimensionNumbersAttr::parse(AsmParser &p, Type) {
  int64_t ib, iff, ko, ki, ob, of;
  SmallVector<int64_t> is, ks, os;
  // `x` directly follows `]`; the lexer reads `x[` as the keyword `x`.
  if (p.parseLess() || parseLayout(p, 'b', 'f', ib, iff, is) ||
      p.parseKeyword("x") || parseLayout(p, 'o', 'i', ko, ki, ks) ||
      p.parseArrow() || parseLayout(p, 'b', 'f', ob, of, os) ||
      p.parseGreater()) {
    return {};
  }
  return get(p.getContext(), ib, iff, is, ki, ko, ks, ob, of, os);
}

void graphc::stablehlo::StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stablehlo/StablehloAttrs.cpp.inc"
      >();
}
