// graphc-cpu-prepack-conv-filters: a constant filter whose every use is a
// convolution the direct kernel takes is stored in the kernel's packed
// layout [F/fb, C, KH, KW, fb] and read back through a transpose and a
// reshape (which the kernel recognises and skips); anything else is kept.
// RUN: graph-opt %s --graphc-cpu-prepack-conv-filters="vector-width=16" --split-input-file | FileCheck %s
// RUN: graph-opt %s --graphc-cpu-prepack-conv-filters="vector-width=16 convs=1x1" --split-input-file | FileCheck %s --check-prefix=ONLY1X1
// RUN: graph-opt %s --graphc-cpu-prepack-conv-filters="vector-width=16 min-bytes=4096" --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: not graph-opt %s --graphc-cpu-prepack-conv-filters="convs=5x5" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: graphc-cpu-prepack-conv-filters: unknown convolution class '5x5'

// The pointwise kernel's blocks of 8: filter element (f, c) = 2f + c goes to
// [f / 8, c, 0, 0, f mod 8].
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[W:.*]] = graph.constant dense<{{\[\[\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01]]], {{\[\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]]]], {{\[\[\[\[}}1.600000e+01, 1.800000e+01, 2.000000e+01, 2.200000e+01, 2.400000e+01, 2.600000e+01, 2.800000e+01, 3.000000e+01]]], {{\[\[\[}}1.700000e+01, 1.900000e+01, 2.100000e+01, 2.300000e+01, 2.500000e+01, 2.700000e+01, 2.900000e+01, 3.100000e+01]]]]]> : tensor<2x2x1x1x8xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[W]] {perm = array<i64: 0, 4, 1, 2, 3>} : (tensor<2x2x1x1x8xf32>) -> tensor<2x8x2x1x1xf32>
// CHECK: %[[F:.*]] = graph.reshape %[[T]] {shape = array<i64: 16, 2, 1, 1>} : (tensor<2x8x2x1x1xf32>) -> tensor<16x2x1x1xf32>
// CHECK: graph.conv %{{.*}}, %[[F]]
// ONLY1X1-LABEL: func.func @pointwise
// ONLY1X1: graph.constant {{.*}} : tensor<2x2x1x1x8xf32>
// SMALL-LABEL: func.func @pointwise
// SMALL: graph.constant {{.*}} : tensor<16x2x1x1xf32>
// SMALL-NOT: graph.transpose
func.func @pointwise(%x: tensor<1x2x4x4xf32>) -> tensor<1x16x4x4xf32> {
  %w = graph.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]], [[[8.0]], [[9.0]]], [[[10.0]], [[11.0]]], [[[12.0]], [[13.0]]], [[[14.0]], [[15.0]]], [[[16.0]], [[17.0]]], [[[18.0]], [[19.0]]], [[[20.0]], [[21.0]]], [[[22.0]], [[23.0]]], [[[24.0]], [[25.0]]], [[[26.0]], [[27.0]]], [[[28.0]], [[29.0]]], [[[30.0]], [[31.0]]]]> : tensor<16x2x1x1xf32>
  %y = graph.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<16x2x1x1xf32>) -> tensor<1x16x4x4xf32>
  return %y : tensor<1x16x4x4xf32>
}

// -----

// The row kernel's blocks of two vectors (32 channels); a splat only changes
// shape; two convolutions (one of them over a dynamic batch) share it, each
// with its own re-layout right before it.
// CHECK-LABEL: func.func @row_kernel
// CHECK: %[[W:.*]] = graph.constant dense<2.000000e-02> : tensor<2x8x3x3x32xf32>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[W]]
// CHECK-NEXT: %[[F:.*]] = graph.reshape %[[T]] {{.*}} -> tensor<64x8x3x3xf32>
// CHECK-NEXT: graph.conv %{{.*}}, %[[F]]{{.*}} : (tensor<1x8x10x10xf32>
// CHECK-NEXT: %[[T2:.*]] = graph.transpose %[[W]]
// CHECK-NEXT: %[[F2:.*]] = graph.reshape %[[T2]] {{.*}} -> tensor<64x8x3x3xf32>
// CHECK-NEXT: graph.conv %{{.*}}, %[[F2]]{{.*}} : (tensor<?x8x10x10xf32>
// SMALL-LABEL: func.func @row_kernel
// SMALL: graph.transpose
// ONLY1X1-LABEL: func.func @row_kernel
// ONLY1X1: graph.constant dense<2.000000e-02> : tensor<64x8x3x3xf32>
// ONLY1X1-NOT: graph.transpose
func.func @row_kernel(%x: tensor<1x8x10x10xf32>, %z: tensor<?x8x10x10xf32>) -> (tensor<1x64x8x8xf32>, tensor<?x64x4x4xf32>) {
  %w = graph.constant dense<0.02> : tensor<64x8x3x3xf32>
  %a = graph.conv %x, %w : (tensor<1x8x10x10xf32>, tensor<64x8x3x3xf32>) -> tensor<1x64x8x8xf32>
  %b = graph.conv %z, %w {strides = array<i64: 2, 2>} : (tensor<?x8x10x10xf32>, tensor<64x8x3x3xf32>) -> tensor<?x64x4x4xf32>
  return %a, %b : tensor<1x64x8x8xf32>, tensor<?x64x4x4xf32>
}

// -----

// Kept: a constant with another use; 12 output channels (no block divides
// them); a grouped convolution; a filter with more taps than output pixels
// (a filter gradient's shape); a convolution that uses the constant as its
// input; the channel blocks of two uses differ (the pointwise 8 and a
// strided 1x1's 32).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: graph.transpose
// CHECK: return
func.func @kept(%x: tensor<1x8x10x10xf32>, %g: tensor<1x16x10x10xf32>, %s: tensor<1x8x3x3xf32>, %p: tensor<1x8x1x1xf32>) -> (tensor<1x32x8x8xf32>, tensor<32x8x3x3xf32>, tensor<1x12x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>) {
  %w = graph.constant dense<0.5> : tensor<32x8x3x3xf32>
  %a = graph.conv %x, %w : (tensor<1x8x10x10xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32>
  %b = graph.add %w, %w : (tensor<32x8x3x3xf32>, tensor<32x8x3x3xf32>) -> tensor<32x8x3x3xf32>
  %n = graph.constant dense<0.25> : tensor<12x8x3x3xf32>
  %c = graph.conv %x, %n : (tensor<1x8x10x10xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x8x8xf32>
  %gw = graph.constant dense<0.125> : tensor<32x8x3x3xf32>
  %d = graph.conv %g, %gw {groups = 2 : i64} : (tensor<1x16x10x10xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32>
  %ww = graph.constant dense<0.75> : tensor<32x8x3x3xf32>
  %e = graph.conv %s, %ww : (tensor<1x8x3x3xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x1x1xf32>
  %in = graph.constant dense<1.5> : tensor<1x8x3x3xf32>
  %f = graph.conv %in, %ww : (tensor<1x8x3x3xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x1x1xf32>
  %pw = graph.constant dense<2.5> : tensor<32x8x1x1xf32>
  %h = graph.conv %p, %pw : (tensor<1x8x1x1xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x1x1xf32>
  %pp = graph.constant dense<3.5> : tensor<1x8x3x3xf32>
  %i = graph.conv %pp, %pw {strides = array<i64: 2, 2>} : (tensor<1x8x3x3xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x2x2xf32>
  return %a, %b, %c, %d, %e, %f, %h : tensor<1x32x8x8xf32>, tensor<32x8x3x3xf32>, tensor<1x12x8x8xf32>, tensor<1x32x8x8xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>, tensor<1x32x1x1xf32>
}
