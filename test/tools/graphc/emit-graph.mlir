// RUN: graphc %s --emit=graph -o - | FileCheck %s
// RUN: not graphc %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not graphc %s.xyz 2>&1 | FileCheck %s --check-prefix=FORMAT

// CHECK-LABEL: func @main
// CHECK-SAME: -> tensor<2x4xf32>
// CHECK: graph.matmul {{.*}} -> tensor<2x4xf32>
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<*xf32> {
  %y = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// MISSING: graphc: {{.*}}does-not-exist.mlir: cannot open: No such file or directory
// FORMAT: graphc: {{.*}}.xyz: cannot open: No such file or directory
