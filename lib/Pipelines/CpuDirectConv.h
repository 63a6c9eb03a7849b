//===- CpuDirectConv.h - the direct convolution kernel's entry points -----===//
//
// Shared by graphc-cpu-direct-conv (CpuDirectConv.cpp) and its
// filter-gradient form (CpuFilterGradConv.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_LIB_PIPELINES_CPUDIRECTCONV_H
#define GRAPHC_LIB_PIPELINES_CPUDIRECTCONV_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace graphc {

/// Rewrites `conv` (input already padded, f32, static shapes) into the
/// direct kernel of CpuDirectConv.cpp; failure leaves it alone.
mlir::LogicalResult rewriteDirectConv(mlir::RewriterBase &rewriter,
                                      mlir::linalg::Conv2DNchwFchwOp conv,
                                      int64_t lanes, int64_t owBlock,
                                      int64_t fVectors);

/// Whether `conv` has a filter gradient's shape (static, more filter taps
/// than output pixels): the "wgrad" class of graphc-cpu-direct-conv.
bool isFilterGradientConv(mlir::linalg::Conv2DNchwFchwOp conv);

/// The direct kernel for a filter-gradient convolution with its images
/// merged into the output columns (CpuFilterGradConv.cpp); failure leaves
/// `conv` alone.
mlir::LogicalResult filterGradDirectConv(mlir::RewriterBase &rewriter,
                                         mlir::linalg::Conv2DNchwFchwOp conv,
                                         int64_t lanes, int64_t owBlock,
                                         int64_t fVectors);

/// When `conv` (a stride-1 data gradient) reads the spatially flipped
/// forward filter that ConvTransposeLowering gathers, re-lays out the
/// forward filter straight into the kernel's [F/fb, C, KH, KW, fb] layout
/// (the form graphc-cpu-prepack-conv-filters leaves, which the kernel reads
/// through) and returns the transpose that now stands for the flipped
/// filter, dead once the kernel has taken `conv`; null (nothing changed)
/// otherwise (CpuFilterGradConv.cpp).
mlir::linalg::TransposeOp
prepackFlippedFilter(mlir::RewriterBase &rewriter,
                     mlir::linalg::Conv2DNchwFchwOp conv, int64_t lanes,
                     int64_t fVectors);

/// The direct kernel's block of output channels for F of them: `fVectors`
/// vectors of `lanes`, else one vector, else (16 lanes) half of one; 0
/// when none divides F (the kernel then declines the convolution).
int64_t directConvFilterBlock(int64_t f, int64_t lanes, int64_t fVectors);

/// Whether graphc-cpu-direct-conv's `classes` (its `convs` option) admit a
/// convolution with a KH x KW filter, any stride above 1 (`strided`), or a
/// filter gradient's shape.
bool directConvAdmits(llvm::StringRef classes, int64_t kh, int64_t kw,
                      bool strided, bool filterGradient);

} // namespace graphc

#endif // GRAPHC_LIB_PIPELINES_CPUDIRECTCONV_H
