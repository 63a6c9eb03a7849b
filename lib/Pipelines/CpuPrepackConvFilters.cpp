//===- CpuPrepackConvFilters.cpp - conv filters stored packed -------------===//
//
// graphc-cpu-prepack-conv-filters: a constant convolution filter that the
// direct kernel (CpuDirectConv.cpp) will read is stored in the kernel's
// packed layout at compile time, so that the weight variable graph-hoist-
// weights makes of it holds the packed bytes and no step re-lays it out.
// See "Filters packed at compile time" in docs/design/conv-codegen.md.
//
//===----------------------------------------------------------------------===//

#include "CpuDirectConv.h"
#include "CpuPasses.h"

#include "graph/ConstantBytes.h"
#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"
#include "graphc/Pipelines/CpuCodegen.h"
#include "graphc/Target/CPU/CpuTarget.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

namespace graphc {
#define GEN_PASS_DEF_CPUPREPACKCONVFILTERS
#include "CpuPasses.h.inc"
} // namespace graphc

using namespace mlir;

namespace {

bool staticPastBatch(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.getRank() == 4 && t.getElementType().isF32() &&
         llvm::none_of(t.getShape().drop_front(), ShapedType::isDynamic);
}

/// The channel block the direct kernel will read `conv`'s filter in, or 0
/// when it will not take the convolution (the conditions of
/// graphc-cpu-direct-conv's pointwise and row kernels, on the graph op).
int64_t filterBlock(graphc::graph::ConvOp conv, StringRef classes,
                    int64_t lanes, int64_t fVectors) {
  auto ft = dyn_cast<RankedTensorType>(conv.getFilter().getType());
  if (!ft || ft.getRank() != 4 || !ft.hasStaticShape() ||
      !ft.getElementType().isF32() || conv.getGroups() != 1 ||
      !staticPastBatch(conv.getInput().getType()) ||
      !staticPastBatch(conv.getType())) {
    return 0;
  }
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  auto ot = cast<RankedTensorType>(conv.getType());
  int64_t f = ft.getDimSize(0), kh = ft.getDimSize(2), kw = ft.getDimSize(3);
  ArrayRef<int64_t> strides = conv.getStrides().value_or(ArrayRef<int64_t>{});
  bool strided = llvm::any_of(strides, [](int64_t s) { return s != 1; });
  // A filter gradient's shape (more taps than output pixels) takes another
  // form of the kernel, which packs differently.
  bool wgrad = kh * kw > ot.getDimSize(2) * ot.getDimSize(3);
  if (wgrad || f == 0 || ot.getDimSize(2) == 0 || ot.getDimSize(3) == 0 ||
      !graphc::directConvAdmits(classes, kh, kw, strided, false)) {
    return 0;
  }
  // The pointwise kernel: 1x1, stride 1, no padding, blocks of 8.
  if (kh == 1 && kw == 1 && !strided && it.getDimSize(2) == ot.getDimSize(2) &&
      it.getDimSize(3) == ot.getDimSize(3)) {
    return f % 8 == 0 ? 8 : 0;
  }
  return graphc::directConvFilterBlock(f, lanes, fVectors);
}

/// [F, K] row-major (K = C*KH*KW) -> [F/fb, K, fb]: per block of fb output
/// channels, the [fb, K] matrix transposed.
void packInto(ArrayRef<char> src, MutableArrayRef<char> dst, int64_t f,
              int64_t k, int64_t fb) {
  constexpr size_t kBytes = sizeof(float);
  for (int64_t b = 0; b < f / fb; ++b) {
    for (int64_t j = 0; j < fb; ++j) {
      const char *row = src.data() + (b * fb + j) * k * kBytes;
      for (int64_t i = 0; i < k; ++i) {
        std::memcpy(dst.data() + ((b * k + i) * fb + j) * kBytes,
                    row + i * kBytes, kBytes);
      }
    }
  }
}

/// The variable graph-hoist-weights makes of a packed constant is named
/// after the constant's location; "<name>.packed" says that its bytes are
/// not the model's [F, C, KH, KW] layout (graph-run --save and checkpoints
/// write variables under those names).
void markPacked(graphc::graph::ConstantOp op) {
  Location loc = op.getLoc();
  StringAttr name;
  if (auto named = dyn_cast<NameLoc>(loc)) {
    name = named.getName();
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      if (auto named = dyn_cast<NameLoc>(inner)) {
        name = named.getName();
      }
    }
  }
  if (name) {
    op->setLoc(NameLoc::get(
        StringAttr::get(op->getContext(), name.getValue() + ".packed"), loc));
  }
}

struct CpuPrepackConvFilters
    : public graphc::impl::CpuPrepackConvFiltersBase<CpuPrepackConvFilters> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t lanes = vectorWidth > 0
                        ? int64_t(vectorWidth)
                        : int64_t(graphc::detectHostCpu().vectorBits / 32);
    if (lanes < 1 || fVectors < 1) {
      module.emitError("graphc-cpu-prepack-conv-filters: vector-width and "
                       "f-vectors must be positive");
      return signalPassFailure();
    }
    if (std::string error = graphc::checkDirectConvClasses(convs_);
        !error.empty()) {
      module.emitError() << "graphc-cpu-prepack-conv-filters: " << error;
      return signalPassFailure();
    }
    graphc::graph::ConstantsByBytes byBytes =
        graphc::graph::groupConstantsByBytes(module);
    for (auto &entry : byBytes.constants) {
      SmallVector<graphc::graph::ConstantOp> &group = entry.second;
      auto type = dyn_cast<RankedTensorType>(group.front().getType());
      if (!type || type.getRank() != 4 || !type.hasStaticShape() ||
          !type.getElementType().isF32() ||
          !byBytes.onlyConstants(entry.first) ||
          type.getNumElements() * int64_t(sizeof(float)) < minBytes) {
        continue;
      }
      // Every use of every constant of the group: the filter of a
      // convolution the kernel takes, all with one channel block.
      int64_t fb = -1;
      bool eligible = true;
      for (graphc::graph::ConstantOp op : group) {
        eligible &= op.getType() == type &&
                    op.getValue() == group.front().getValue() &&
                    !op->use_empty();
        for (OpOperand &use : op->getUses()) {
          auto conv = dyn_cast<graphc::graph::ConvOp>(use.getOwner());
          int64_t b = conv && use.get() == conv.getFilter() &&
                              conv.getInput() != use.get() &&
                              conv.getBias() != use.get()
                          ? filterBlock(conv, convs_, lanes, fVectors)
                          : 0;
          eligible &= b > 0 && (fb < 0 || b == fb);
          fb = b;
        }
      }
      int64_t f = type.getDimSize(0), c = type.getDimSize(1),
              kh = type.getDimSize(2), kw = type.getDimSize(3);
      if (!eligible || fb <= 0 || f % fb != 0) {
        continue;
      }
      auto packedType =
          RankedTensorType::get({f / fb, c, kh, kw, fb}, type.getElementType());
      ElementsAttr value;
      Attribute old = group.front().getValue();
      auto dense = dyn_cast<DenseElementsAttr>(old);
      std::optional<ArrayRef<char>> raw =
          graphc::graph::getRawElementBytes(old);
      int64_t k = c * kh * kw;
      if (dense && dense.isSplat()) {
        value = dense.resizeSplat(packedType);
      } else if (!raw || int64_t(raw->size()) !=
                             type.getNumElements() * int64_t(sizeof(float))) {
        continue;
      } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(old)) {
        AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
            raw->size(), alignof(std::max_align_t));
        packInto(*raw, blob.getMutableData(), f, k, fb);
        // The blob's only users are this group: replacing it frees the
        // unpacked bytes.
        DenseResourceElementsHandle handle = resource.getRawHandle();
        handle.getResource()->setBlob(std::move(blob));
        value = DenseResourceElementsAttr::get(packedType, handle);
      } else {
        std::vector<char> data(raw->size());
        packInto(*raw, data, f, k, fb);
        value = DenseElementsAttr::getFromRawBuffer(packedType, data);
      }
      for (graphc::graph::ConstantOp op : group) {
        op.setValueAttr(value);
        op.getResult().setType(packedType);
        markPacked(op);
        // The re-layout sits right before each convolution, not at the
        // constant: once the constant is a variable that placement may put
        // on another task, its receive and the work before the
        // convolution then overlap, as they did before packing.
        SmallVector<OpOperand *> uses = llvm::map_to_vector(
            op->getUses(), [](OpOperand &use) { return &use; });
        for (OpOperand *use : uses) {
          OpBuilder b(use->getOwner());
          auto transposed = graphc::graph::TransposeOp::create(
              b, op.getLoc(),
              RankedTensorType::get({f / fb, fb, c, kh, kw},
                                    type.getElementType()),
              op.getResult(), b.getDenseI64ArrayAttr({0, 4, 1, 2, 3}));
          auto filter = graphc::graph::ReshapeOp::create(
              b, op.getLoc(), type, transposed.getResult(),
              b.getDenseI64ArrayAttr(type.getShape()));
          use->set(filter.getResult());
        }
      }
      ++numPrepacked;
    }
  }
};

} // namespace
