//===- PretransposeWeights.cpp - transposed matmul weights stored transposed =//

#include "graph/ConstantBytes.h"
#include "graph/GraphOps.h"
#include "graph/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace graphc::graph {
#define GEN_PASS_DEF_GRAPHPRETRANSPOSEWEIGHTS
#include "graph/Passes.h.inc"
} // namespace graphc::graph

using namespace mlir;
using namespace graphc::graph;

namespace {

/// True when every use of `op` is the right-hand side of a transpose_rhs
/// matmul (and not also its left-hand side).
bool onlyTransposedRhs(ConstantOp op) {
  if (op->use_empty()) {
    return false;
  }
  for (OpOperand &use : op->getUses()) {
    auto mm = dyn_cast<MatMulOp>(use.getOwner());
    if (!mm || !mm.getTransposeRhs() ||
        use.getOperandNumber() != mm.getRhsMutable().getOperandNumber() ||
        mm.getLhs() == op.getResult()) {
      return false;
    }
  }
  return true;
}

/// [rows, cols] row-major -> [cols, rows] row-major, `bytes` per element,
/// in cache-sized blocks.
void transposeInto(ArrayRef<char> src, MutableArrayRef<char> dst, int64_t rows,
                   int64_t cols, size_t bytes) {
  constexpr int64_t kBlock = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock) {
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
      int64_t r1 = std::min(rows, r0 + kBlock),
              c1 = std::min(cols, c0 + kBlock);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) {
          std::memcpy(dst.data() + (c * rows + r) * bytes,
                      src.data() + (r * cols + c) * bytes, bytes);
        }
      }
    }
  }
}

struct GraphPretransposeWeightsPass
    : graphc::graph::impl::GraphPretransposeWeightsBase<
          GraphPretransposeWeightsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConstantsByBytes byBytes = groupConstantsByBytes(module);
    for (auto &entry : byBytes.constants) {
      SmallVector<ConstantOp> &group = entry.second;
      auto type = dyn_cast<RankedTensorType>(group.front().getType());
      bool eligible = type && type.getRank() == 2 && type.hasStaticShape() &&
                      byBytes.onlyConstants(entry.first) &&
                      llvm::all_of(group, [&](ConstantOp op) {
                        return op.getType() == type &&
                               op.getValue() == group.front().getValue() &&
                               onlyTransposedRhs(op);
                      });
      if (!eligible) {
        continue;
      }
      int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
      auto transposed =
          RankedTensorType::get({cols, rows}, type.getElementType());
      ElementsAttr value;
      auto dense = dyn_cast<DenseElementsAttr>(group.front().getValue());
      std::optional<ArrayRef<char>> raw =
          getRawElementBytes(group.front().getValue());
      if (dense && dense.isSplat()) {
        value = dense.resizeSplat(transposed);
      } else if (!raw) {
        continue;
      } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(
                     group.front().getValue())) {
        size_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
        AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
            raw->size(), std::max<size_t>(bytes, alignof(std::max_align_t)));
        transposeInto(*raw, blob.getMutableData(), rows, cols, bytes);
        // The blob's only users are this group: replacing it frees the
        // untransposed bytes.
        DenseResourceElementsHandle handle = resource.getRawHandle();
        handle.getResource()->setBlob(std::move(blob));
        value = DenseResourceElementsAttr::get(transposed, handle);
      } else {
        size_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
        std::vector<char> data(raw->size());
        transposeInto(*raw, data, rows, cols, bytes);
        value = DenseElementsAttr::getFromRawBuffer(transposed, data);
      }
      for (ConstantOp op : group) {
        op.setValueAttr(value);
        op.getResult().setType(transposed);
        for (Operation *user : op->getUsers()) {
          cast<MatMulOp>(user).setTransposeRhs(false);
        }
      }
      ++numTransposed;
    }
  }
};

} // namespace
