// graphc --mlir-timing: one report for every stage of a compile, the
// passes of each pipeline and the bundle writer's LLVM work (O3, code
// generation, lld) as its own line, and the weights files as theirs (written
// once the task modules exist, before the task code generation pipeline;
// docs/design/cpu-codegen.md, "Peak memory").
// REQUIRES: compiler
// RUN: rm -rf %t.gjob
// RUN: graphc %s -o %t.gjob --mlir-timing --mlir-timing-display=tree 2>&1 | FileCheck %s
// RUN: graphc %s -o %t.gjob 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// CHECK: Execution time report
// CHECK: GraphInferShapes
// CHECK: DistPlace
// CHECK: CpuTileAndVectorize
// CHECK: Job bundle (weights files)
// CHECK: Job bundle (LLVM, link)
// CHECK: Total
// QUIET-NOT: Execution time report
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %y = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
