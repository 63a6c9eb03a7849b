// The direct row kernel's channel chunks (docs/design/conv-codegen.md,
// "Round four"): a filter block past 48 KB (64 input channels x 9 taps x 32
// output channels: 73 KB) is reduced in chunks of 16 input channels (an 18 KB
// filter slice) over a strip of register tiles (here one output row: 14 +
// 14 + 1 columns), each tile's accumulators kept in a [tiles, 14, 32]
// scratch tensor between chunks (the fill's value at the first chunk), and
// the strip stored once every chunk is in, transposed as 16x16 blocks.
// A filter block under 48 KB keeps the unchunked reduction. Numerics:
// run-conv-direct-chunks.mlir.
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK:       arith.constant dense<[0, 1, 2, 31, 32, 33, 62, 63, 64]> : tensor<9xindex>
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<1x64x5x31xf32> into tensor<1x64x155xf32>
// CHECK:       scf.forall (%{{.*}}) in (3)
// CHECK:       %[[SCRATCH:.*]] = tensor.empty() : tensor<3x14x32xf32>
// CHECK:       %[[CHUNKS:.*]] = scf.for %[[C0:.*]] = %c0 to %c64 step %c16 iter_args(%{{.*}} = %[[SCRATCH]])
// CHECK:         scf.for %[[COL:.*]] = %c0 to %c28 step %c14
// CHECK:           %[[SLOT:.*]] = arith.divui %[[COL]], %c14
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[C0]], %c0
// CHECK:           vector.transfer_read %{{.*}}[%[[SLOT]], %c0, %c0]
// CHECK:           arith.select %[[FIRST]]
// CHECK:           %[[END:.*]] = arith.addi %[[C0]], %c16
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[END]] step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c9 step %c1
// CHECK-COUNT-14:      vector.fma
// CHECK:           vector.transfer_write %{{.*}}, %{{.*}}[%[[SLOT]], %c0, %c0] {{.*}} : vector<32xf32>, tensor<3x14x32xf32>
// CHECK:         vector.transfer_write %{{.*}}, %{{.*}}[%c2, %c0, %c0] {{.*}} : vector<32xf32>, tensor<3x14x32xf32>
// CHECK:       scf.for %{{.*}} = %c0 to %c28 step %c14
// CHECK:         vector.transfer_read %[[CHUNKS]]
// CHECK:         vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<32x1x14xf32>, tensor<32x1x29xf32>
// CHECK:       vector.transfer_read %[[CHUNKS]][%c2, %c0, %c0]
// CHECK:       vector.transfer_write {{.*}} : vector<32x1x1xf32>, tensor<32x1x29xf32>
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<1x64x5x31xf32>, %w: tensor<32x64x3x3xf32>) -> tensor<1x32x3x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x3x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x3x29xf32>) -> tensor<1x32x3x29xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x5x31xf32>, tensor<32x64x3x3xf32>)
      outs(%f : tensor<1x32x3x29xf32>) -> tensor<1x32x3x29xf32>
  return %r : tensor<1x32x3x29xf32>
}

// 32 input channels: a 36 KB filter block, no chunks.
// CHECK-LABEL: func.func @small
// CHECK:       scf.forall
// CHECK-NOT:   arith.select
// CHECK-COUNT-14: vector.fma
// CHECK-NOT:   arith.select
// CHECK:       return
func.func @small(%x: tensor<1x32x5x31xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x3x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x3x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x3x29xf32>) -> tensor<1x32x3x29xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x5x31xf32>, tensor<32x32x3x3xf32>)
      outs(%f : tensor<1x32x3x29xf32>) -> tensor<1x32x3x29xf32>
  return %r : tensor<1x32x3x29xf32>
}
