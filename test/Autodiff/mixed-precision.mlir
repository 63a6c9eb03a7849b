// graph-mixed-precision: which ops compute in bf16/f16, where the casts go,
// and that variables, the loss and reductions stay f32; then the whole step
// (graph-autodiff, graph-apply-optimizer) with its gradients back in f32.
// RUN: graph-opt %s --graph-mixed-precision | FileCheck %s
// RUN: graph-opt %s --graph-mixed-precision=precision=f16 | FileCheck %s --check-prefix=F16
// RUN: graph-opt %s --graph-mixed-precision=emulate | FileCheck %s --check-prefix=EMU
// RUN: graph-opt %s --graph-mixed-precision --graph-autodiff --graph-apply-optimizer="optimizer=adam" | FileCheck %s --check-prefix=STEP
// RUN: graph-opt %s --graph-mixed-precision=precision=f16 --graph-autodiff=loss-scale=1024 --graph-apply-optimizer | FileCheck %s --check-prefix=SCALE
// RUN: not graph-opt %s --graph-mixed-precision=precision=f8 2>&1 | FileCheck %s --check-prefix=BADPREC
// RUN: not graph-opt %s --graph-autodiff=loss-scale=0 2>&1 | FileCheck %s --check-prefix=BADSCALE
// RUN: not graph-opt %s --graph-autodiff --graph-mixed-precision 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: not graph-opt %S/../Train/Inputs/mlp.mlir --graph-mixed-precision 2>&1 | FileCheck %s --check-prefix=NOLOSS
// AFTER: graph-mixed-precision: @main already has the gradient result 'grad/w1'; run graph-mixed-precision before graph-autodiff
// NOLOSS: graph-mixed-precision: no function has a result named 'loss' in its graph.output_names; run graph-add-loss first (graphc --train)
// BADPREC: graph-mixed-precision: unknown precision 'f8'; use bf16 or f16
// BADSCALE: graph-autodiff: loss-scale=0.000000e+00 must be a positive finite number

graph.variable @w1 : tensor<4x5xf32> = dense<0.5>
graph.variable @b1 : tensor<5xf32> = dense<0.1>
graph.variable @w2 : tensor<5x3xf32> = dense<0.25>

func.func @main(%x: tensor<6x4xf32> {graph.name = "x"}, %y: tensor<6xi64> {graph.name = "y"}) -> tensor<f32>
    attributes {graph.output_names = ["loss"]} {
  %w1 = graph.read_variable @w1 : tensor<4x5xf32>
  %b1 = graph.read_variable @b1 : tensor<5xf32>
  %w2 = graph.read_variable @w2 : tensor<5x3xf32>
  %xs = graph.mul %x, %x : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %h = graph.matmul %xs, %w1 : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %hb = graph.add %h, %b1 : (tensor<6x5xf32>, tensor<5xf32>) -> tensor<6x5xf32>
  %a = graph.relu %hb : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %e = graph.exp %a : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %r = graph.add %a, %e : (tensor<6x5xf32>, tensor<6x5xf32>) -> tensor<6x5xf32>
  %o = graph.matmul %r, %w2 : (tensor<6x5xf32>, tensor<5x3xf32>) -> tensor<6x3xf32>
  %l, %g = graph.softmax_cross_entropy %o, %y {sparse} : (tensor<6x3xf32>, tensor<6xi64>) -> (tensor<6xf32>, tensor<6x3xf32>)
  %m = graph.reduce %l {axes = array<i64: 0>, kind = #graph<reduce_kind mean>} : (tensor<6xf32>) -> tensor<f32>
  return %m : tensor<f32>
}

// The variables stay f32; each read is cast once, right after it, for the
// matmul (a low-precision op) and the bias add (a weight takes the
// precision of the activation it is added to). The input's square is f32
// compute (its operands are f32 activations), cast for the matmul. exp is
// f32 (its operand cast back), so the add of relu (bf16) and exp (f32)
// promotes to f32 like autocast's; the loss and its mean are f32.
// CHECK: graph.variable @w1 : tensor<4x5xf32>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: -> tensor<f32>
// CHECK: %[[W1:.*]] = graph.read_variable @w1 : tensor<4x5xf32>
// CHECK-NEXT: %[[W1L:.*]] = graph.cast %[[W1]] {{{.*}}to = bf16} : (tensor<4x5xf32>) -> tensor<4x5xbf16>
// CHECK-NEXT: %[[B1:.*]] = graph.read_variable @b1 : tensor<5xf32>
// CHECK-NEXT: %[[B1L:.*]] = graph.cast %[[B1]] {{{.*}}to = bf16}
// CHECK-NEXT: %[[W2:.*]] = graph.read_variable @w2 : tensor<5x3xf32>
// CHECK-NEXT: %[[W2L:.*]] = graph.cast %[[W2]] {{{.*}}to = bf16}
// CHECK-NEXT: %[[XS:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[XSL:.*]] = graph.cast %[[XS]] {{{.*}}to = bf16}
// CHECK-NEXT: %[[H:.*]] = graph.matmul %[[XSL]], %[[W1L]] : (tensor<6x4xbf16>, tensor<4x5xbf16>) -> tensor<6x5xbf16>
// CHECK-NEXT: %[[HB:.*]] = graph.add %[[H]], %[[B1L]] : (tensor<6x5xbf16>, tensor<5xbf16>) -> tensor<6x5xbf16>
// CHECK-NEXT: %[[A:.*]] = graph.relu %[[HB]] : (tensor<6x5xbf16>) -> tensor<6x5xbf16>
// CHECK-NEXT: %[[AW:.*]] = graph.cast %[[A]] {{{.*}}to = f32} : (tensor<6x5xbf16>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[E:.*]] = graph.exp %[[AW]] : (tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[R:.*]] = graph.add %[[AW]], %[[E]] : (tensor<6x5xf32>, tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[RL:.*]] = graph.cast %[[R]] {{{.*}}to = bf16}
// CHECK-NEXT: %[[O:.*]] = graph.matmul %[[RL]], %[[W2L]] : (tensor<6x5xbf16>, tensor<5x3xbf16>) -> tensor<6x3xbf16>
// CHECK-NEXT: %[[OW:.*]] = graph.cast %[[O]] {{{.*}}to = f32} : (tensor<6x3xbf16>) -> tensor<6x3xf32>
// CHECK-NEXT: %{{.*}}, %{{.*}} = graph.softmax_cross_entropy %[[OW]], %{{.*}} {sparse} : (tensor<6x3xf32>, tensor<6xi64>)
// CHECK-NEXT: %[[M:.*]] = graph.reduce %{{.*}} : (tensor<6xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[M]] : tensor<f32>

// F16: graph.matmul %{{.*}}, %{{.*}} : (tensor<6x4xf16>, tensor<4x5xf16>) -> tensor<6x5xf16>
// F16: graph.relu %{{.*}} : (tensor<6x5xf16>) -> tensor<6x5xf16>

// Emulated: f32 types throughout, every low-precision operand and result
// rounded through bf16 (a cast there and back).
// EMU-LABEL: func.func @main(
// EMU: %[[W1:.*]] = graph.read_variable @w1 : tensor<4x5xf32>
// EMU-NEXT: %[[W1N:.*]] = graph.cast %[[W1]] {{{.*}}to = bf16} : (tensor<4x5xf32>) -> tensor<4x5xbf16>
// EMU-NEXT: %[[W1R:.*]] = graph.cast %[[W1N]] {{{.*}}to = f32} : (tensor<4x5xbf16>) -> tensor<4x5xf32>
// EMU: %[[H:.*]] = graph.matmul %{{.*}}, %[[W1R]] : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
// EMU-NEXT: %[[HN:.*]] = graph.cast %[[H]] {{{.*}}to = bf16}
// EMU-NEXT: %[[HR:.*]] = graph.cast %[[HN]] {{{.*}}to = f32}
// EMU-NEXT: %[[HB:.*]] = graph.add %[[HR]], %{{.*}} : (tensor<6x5xf32>, tensor<5xf32>) -> tensor<6x5xf32>
// EMU-NEXT: graph.cast %[[HB]] {{{.*}}to = bf16}
// EMU-NOT: xbf16>) -> tensor<{{.*}}xbf16>
// EMU: graph.softmax_cross_entropy %{{.*}} : (tensor<6x3xf32>, tensor<6xi64>)
// EMU: return %{{.*}} : tensor<f32>

// The whole step: the backward pass runs in bf16 where the forward did
// (the matmuls' gradients), each weight gradient is cast back to f32, and
// Adam's moments, its update and the assignments are f32.
// STEP-DAG: graph.variable @"w1/adam_m" : tensor<4x5xf32>
// STEP-DAG: graph.variable @"w1/adam_v" : tensor<4x5xf32>
// STEP-DAG: graph.variable @"adam/beta1_power" : tensor<f32>
// STEP-LABEL: func.func @main(
// STEP: graph.matmul %{{.*}}, %{{.*}} {{{.*}}transpose_lhs} : (tensor<6x4xbf16>, tensor<6x5xbf16>) -> tensor<4x5xbf16>
// STEP: %[[GW1:.*]] = graph.cast %{{.*}} {{{.*}}to = f32} : (tensor<4x5xbf16>) -> tensor<4x5xf32>
// STEP: graph.adam_update %{{.*}}, %{{.*}}, %{{.*}}, %[[GW1]], {{.*}} -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>)
// STEP: graph.assign_variable @w1, %{{.*}} : tensor<4x5xf32>
// STEP: return %{{.*}} : tensor<f32>

// Loss scaling: the backward pass starts from 1024 (times the mean's 1/6),
// and each f32 gradient is multiplied by 1/1024 before its update.
// SCALE-LABEL: func.func @main(
// SCALE: %[[SEED:.*]] = graph.constant dense<1.024000e+03> : tensor<f32>
// SCALE: %[[GW1:.*]] = graph.cast %{{.*}} {{{.*}}to = f32} : (tensor<4x5xf16>) -> tensor<4x5xf32>
// SCALE: %[[INV:.*]] = graph.constant dense<9.765625E-4> : tensor<f32>
// SCALE-NEXT: %[[UNSCALED:.*]] = graph.mul %[[GW1]], %[[INV]] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
// SCALE: graph.sgd_update %{{.*}}, %[[UNSCALED]], %{{.*}} : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
