//===- Passes.td - conversion passes between graphc dialects -*- tablegen -*-===//

#ifndef GRAPHC_CONVERSION_PASSES_TD
#define GRAPHC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalg : Pass<"graph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower graph ops to linalg, tensor, arith and math on tensors";
  let description = [{
    The first step of CPU (and GPU) code generation: every computational
    graph op becomes upstream structured ops on tensors (named linalg ops
    where they exist: `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nchw_fchw`, `linalg.pooling_nchw_max`, `linalg.transpose`,
    ...; `linalg.generic` with broadcasting indexing maps for elementwise
    math and reductions), `tensor` ops for data movement and `arith`/`math`
    for the scalar bodies.

    Shapes must be ranked: an unranked operand is an error that asks for
    `graph-infer-shapes` or `--input-shape`. Elementwise ops and reductions
    accept dynamic dimensions (a dynamic dimension must match the result's
    size at run time, which a `cf.assert` checks; it is never broadcast); the
    other ops need static shapes. Every computational op is lowered; variables,
    which the runtime owns, stay in place. An op that cannot be lowered as
    given (e.g. dynamic shapes where static ones are needed) makes the pass
    fail with a reason and "failed to legalize operation 'graph.<op>'".
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // GRAPHC_CONVERSION_PASSES_TD
