// Numeric check of the CPU pipeline on grouped and depthwise graph.conv
// (docs/design/cpu-codegen.md, "Grouped and depthwise convolutions"),
// compared with NumPy (Inputs/reference.py), with OpenMP tasks and without:
// * @dw: depthwise, 2 output channels per group, stride 2, dilation 2,
//   asymmetric padding, batch 8; 22 output columns are one vector of 16 and
//   pieces of 4 and 2 on AVX-512 (8, 8, 4, 2 with AVX2), 6 rows one block
//   of 4 and one of 2.
// * @dw_s1: depthwise at stride 1, batch 1, 23 columns (16 + 4 + 2 + 1).
// * @dw_acc: depthwise accumulating into an init that is not a fill (its
//   elements are read, not a broadcast of the fill value).
// * @grouped: 3 groups of 4 input and 2 output channels, stride 2, dilation
//   2, padding, batch 8: the small-group kernel.
// * @pw_grouped, @pw_grouped1: grouped 1x1 convolutions (ShuffleNet's), 3
//   groups of 4 -> 3 channels at batch 2 and 4 groups of 2 -> 2 at batch 1:
//   one batch matmul over the groups per image.
// * @pw_grouped8: the same at batch 8, one task per image.
// * @dw_shuffled: ShuffleNet's channel shuffle (reshape, transpose,
//   reshape) between the images and a padded depthwise convolution, batch
//   2: each task pads its plane of the shuffled tensor.
// REQUIRES: libomp
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=min-parallel-work=0 > %t.mlir
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main_dw -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.dw && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 8,6,13,45,12,3,3,2,2,2,2,2,1,1,2,6 %t.dw && \
// RUN:   mlir-runner $f -e main_dw_s1 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.dw1 && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 1,5,9,23,5,3,3,1,1,1,1,1,1,1,1,5 %t.dw1 && \
// RUN:   mlir-runner $f -e main_grouped -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.g && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 8,12,13,11,6,3,3,2,2,2,2,2,1,1,2,3 %t.g \
// RUN:   && mlir-runner $f -e main_dw_acc -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.acc && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped_acc 2,4,9,19,4,3,3,1,1,1,1,0,0,0,0,4 %t.acc \
// RUN:   && mlir-runner $f -e main_pw_grouped -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 2,12,5,7,9,1,1,1,1,1,1,0,0,0,0,3 %t.pw && \
// RUN:   mlir-runner $f -e main_pw_grouped1 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw1 && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 1,8,6,6,8,1,1,1,1,1,1,0,0,0,0,4 %t.pw1 && \
// RUN:   mlir-runner $f -e main_dw_shuffled -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.sh && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_shuffled_dw 2,6,9,11,2 %t.sh && \
// RUN:   mlir-runner $f -e main_pw_grouped8 -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw8 && \
// RUN:   %numpy_python %S/Inputs/reference.py conv_grouped 8,12,5,7,9,1,1,1,1,1,1,0,0,0,0,3 %t.pw8 \
// RUN:   || exit 1; done | FileCheck %s --check-prefix=NUM
// NUM:      conv_grouped OK, 12672 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 1035 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 1440 values, max error 0.0
// NUM-NEXT: conv_grouped_acc OK, 952 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 630 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 288 values, max error 0.0
// NUM-NEXT: conv_shuffled_dw OK, 1188 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 2520 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 12672 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 1035 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 1440 values, max error 0.0
// NUM-NEXT: conv_grouped_acc OK, 952 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 630 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 288 values, max error 0.0
// NUM-NEXT: conv_shuffled_dw OK, 1188 values, max error 0.0
// NUM-NEXT: conv_grouped OK, 2520 values, max error 0.0
// The lowering (8 lanes, so it does not depend on the host):
// RUN: graph-opt %s --graph-to-linalg \
// RUN: | graph-opt --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))' \
// RUN: | FileCheck %s
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-fuse-elementwise \
// RUN: | graph-opt --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=8}))' \
// RUN: | FileCheck %s --check-prefix=SHUF

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Element (i, j, k, l) = ((i * p0 + j * p1 + k * p2 + l * p3) mod 11) - 5.
func.func @init(%t: tensor<?x?x?x?xf32>, %p0: index, %p1: index, %p2: index,
                %p3: index) -> tensor<?x?x?x?xf32> {
  %c11 = arith.constant 11 : index
  %five = arith.constant 5.0 : f32
  %r = linalg.generic {indexing_maps = [#id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %a = arith.muli %i, %p0 : index
    %b = arith.muli %j, %p1 : index
    %c = arith.muli %k, %p2 : index
    %d = arith.muli %l, %p3 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %d : index
    %v = arith.remui %s2, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

// One task per (image, group, multiplier); strided columns are loaded as
// twice as many contiguous ones and compacted; 4 rows x 9 taps of FMAs.
// CHECK-LABEL: func.func @dw(
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       scf.forall ({{.*}}) in (8, 6, 2) shared_outs({{.*}}) -> (tensor<8x12x6x22xf32>)
// CHECK:       scf.for
// CHECK:       vector.transfer_read {{.*}} : tensor<16x48xf32>, vector<16xf32>
// CHECK-NEXT:  vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT:  vector.fma {{.*}} : vector<8xf32>
// CHECK-COUNT-35: vector.fma {{.*}} : vector<8xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<8xf32>, tensor<6x22xf32>
// CHECK:       vector.fma {{.*}} : vector<4xf32>
// CHECK:       vector.fma {{.*}} : vector<2xf32>
// CHECK:       tensor.parallel_insert_slice
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
func.func @dw(%x: tensor<8x6x13x45xf32>, %w: tensor<12x1x3x3xf32>) -> tensor<8x12x6x22xf32> {
  %r = graph.conv %x, %w {groups = 6 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, pad_low = array<i64: 2, 1>, pad_high = array<i64: 1, 2>}
      : (tensor<8x6x13x45xf32>, tensor<12x1x3x3xf32>) -> tensor<8x12x6x22xf32>
  return %r : tensor<8x12x6x22xf32>
}

// Stride 1: plain loads, no shuffle.
// CHECK-LABEL: func.func @dw_s1(
// CHECK:       scf.forall ({{.*}}) in (5) shared_outs
// CHECK-NOT:   vector.shuffle
// CHECK:       vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT:   vector.shuffle
// CHECK:       vector.fma {{.*}} : vector<4xf32>
// CHECK-NOT:   vector.shuffle
// CHECK:       vector.fma {{.*}} : vector<2xf32>
// CHECK-NOT:   vector.shuffle
// CHECK:       vector.fma {{.*}} : vector<1xf32>
// CHECK-NOT:   vector.shuffle
// CHECK:       tensor.parallel_insert_slice
func.func @dw_s1(%x: tensor<1x5x9x23xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<1x5x9x23xf32> {
  %r = graph.conv %x, %w {groups = 5 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
      : (tensor<1x5x9x23xf32>, tensor<5x1x3x3xf32>) -> tensor<1x5x9x23xf32>
  return %r : tensor<1x5x9x23xf32>
}

// Two output channels per group: the small-group kernel, one task per
// (image, group) that pads the group's 4 input planes; per input channel
// and tap, 6 rows x 2 channels of FMAs on strided input rows (a load and a
// shuffle), the 5 columns as pieces of 4 and 1.
// CHECK-LABEL: func.func @grouped(
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       scf.forall ({{.*}}) in (8, 3) shared_outs({{.*}}) -> (tensor<8x6x6x5xf32>)
// CHECK:       tensor.empty() : tensor<4x16x14xf32>
// CHECK:       scf.for {{.*}} = %c0 to %c4 step %c1 iter_args(
// CHECK:       vector.shuffle {{.*}} [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:  vector.fma {{.*}} : vector<4xf32>
// CHECK-NEXT:  vector.fma {{.*}} : vector<4xf32>
// CHECK:       vector.fma {{.*}} : vector<1xf32>
// CHECK:       tensor.parallel_insert_slice {{.*}} : tensor<2x6x5xf32> into tensor<8x6x6x5xf32>
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
func.func @grouped(%x: tensor<8x12x13x11xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<8x6x6x5xf32> {
  %r = graph.conv %x, %w {groups = 3 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, pad_low = array<i64: 2, 1>, pad_high = array<i64: 1, 2>}
      : (tensor<8x12x13x11xf32>, tensor<6x4x3x3xf32>) -> tensor<8x6x6x5xf32>
  return %r : tensor<8x6x6x5xf32>
}

// CHECK-LABEL: func.func @dw_acc(
// CHECK:       scf.forall
// CHECK:       vector.transfer_read %{{.*}} : tensor<7x17xf32>, vector<8xf32>
// CHECK:       vector.fma
// CHECK-LABEL: func.func @main_dw(
func.func @dw_acc(%x: tensor<2x4x9x19xf32>, %w: tensor<4x1x3x3xf32>, %acc: tensor<2x4x7x17xf32>) -> tensor<2x4x7x17xf32> {
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 4, 1, 9, 19] : tensor<2x4x9x19xf32> into tensor<2x4x1x9x19xf32>
  %we = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [4, 1, 1, 3, 3] : tensor<4x1x3x3xf32> into tensor<4x1x1x3x3xf32>
  %ae = tensor.expand_shape %acc [[0], [1, 2], [3], [4]] output_shape [2, 4, 1, 7, 17] : tensor<2x4x7x17xf32> into tensor<2x4x1x7x17xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xe, %we : tensor<2x4x1x9x19xf32>, tensor<4x1x1x3x3xf32>) outs(%ae : tensor<2x4x1x7x17xf32>) -> tensor<2x4x1x7x17xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : tensor<2x4x1x7x17xf32> into tensor<2x4x7x17xf32>
  return %c : tensor<2x4x7x17xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main_dw_acc() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c17 = arith.constant 17 : index
  %c19 = arith.constant 19 : index
  %c1 = arith.constant 1 : index
  %ex = tensor.empty(%c2, %c4, %c9, %c19) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c4, %c1, %c3, %c3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ea = tensor.empty(%c2, %c4, %c7, %c17) : tensor<?x?x?x?xf32>
  %a = call @init(%ea, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x4x9x19xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<4x1x3x3xf32>
  %as = tensor.cast %a : tensor<?x?x?x?xf32> to tensor<2x4x7x17xf32>
  %r = call @dw_acc(%xs, %ws, %as)
      : (tensor<2x4x9x19xf32>, tensor<4x1x3x3xf32>, tensor<2x4x7x17xf32>) -> tensor<2x4x7x17xf32>
  %u = tensor.cast %r : tensor<2x4x7x17xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_dw() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 8 : index
  %x1 = arith.constant 6 : index
  %x2 = arith.constant 13 : index
  %x3 = arith.constant 45 : index
  %w0 = arith.constant 12 : index
  %w1 = arith.constant 1 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 3 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x6x13x45xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<12x1x3x3xf32>
  %r = call @dw(%xs, %ws)
      : (tensor<8x6x13x45xf32>, tensor<12x1x3x3xf32>) -> tensor<8x12x6x22xf32>
  %u = tensor.cast %r : tensor<8x12x6x22xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_dw_s1() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 1 : index
  %x1 = arith.constant 5 : index
  %x2 = arith.constant 9 : index
  %x3 = arith.constant 23 : index
  %w0 = arith.constant 5 : index
  %w1 = arith.constant 1 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 3 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<1x5x9x23xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<5x1x3x3xf32>
  %r = call @dw_s1(%xs, %ws)
      : (tensor<1x5x9x23xf32>, tensor<5x1x3x3xf32>) -> tensor<1x5x9x23xf32>
  %u = tensor.cast %r : tensor<1x5x9x23xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_grouped() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 8 : index
  %x1 = arith.constant 12 : index
  %x2 = arith.constant 13 : index
  %x3 = arith.constant 11 : index
  %w0 = arith.constant 6 : index
  %w1 = arith.constant 4 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 3 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x12x13x11xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<6x4x3x3xf32>
  %r = call @grouped(%xs, %ws)
      : (tensor<8x12x13x11xf32>, tensor<6x4x3x3xf32>) -> tensor<8x6x6x5xf32>
  %u = tensor.cast %r : tensor<8x6x6x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Grouped 1x1: an scf.for over the 2 images; per image one batch matmul
// over the 3 groups, written into the image's slice of the result (no
// per-group loop, no copy). The loop carries the result as [N, C, H, W],
// the function's result type, so that bufferization writes the result
// buffer itself (no [N, G, C/G, H, W] temporary copied into it).
// CHECK-LABEL: func.func @pw_grouped(
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x9x5x7xf32>
// CHECK:       scf.for {{.*}} = %c0 to %c2 step %c1 iter_args({{.*}} = %[[E]]) -> (tensor<2x9x5x7xf32>)
// CHECK:       tensor.collapse_shape {{.*}} : tensor<3x4x5x7xf32> into tensor<3x4x35xf32>
// CHECK:       scf.forall ({{.*}}) in (3) shared_outs({{.*}}) -> (tensor<3x3x35xf32>)
// CHECK:       vector.contract
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK-LABEL: func.func @pw_grouped1(
func.func @pw_grouped(%x: tensor<2x12x5x7xf32>, %w: tensor<9x4x1x1xf32>) -> tensor<2x9x5x7xf32> {
  %r = graph.conv %x, %w {groups = 3 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad_low = array<i64: 0, 0>, pad_high = array<i64: 0, 0>}
      : (tensor<2x12x5x7xf32>, tensor<9x4x1x1xf32>) -> tensor<2x9x5x7xf32>
  return %r : tensor<2x9x5x7xf32>
}

// Batch 1: the groups are the batch matmul's batch, no loop.
// CHECK-NOT:   scf.for
// CHECK:       scf.forall ({{.*}}) in (4) shared_outs({{.*}}) -> (tensor<4x2x36xf32>)
// CHECK:       vector.contract
// CHECK-LABEL: func.func @dw_shuffled(
func.func @pw_grouped1(%x: tensor<1x8x6x6xf32>, %w: tensor<8x2x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %r = graph.conv %x, %w {groups = 4 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad_low = array<i64: 0, 0>, pad_high = array<i64: 0, 0>}
      : (tensor<1x8x6x6xf32>, tensor<8x2x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %r : tensor<1x8x6x6xf32>
}

// The pad moves into the tasks (one 9x11 plane each): no padded copy of
// the batch. Each task writes zeros to its plane's border only (the top
// and bottom rows, the left and right columns between them) and copies the
// source into the interior: no tensor.pad, whose fill covered the whole
// plane. The tasks write the [N, C, H, W] result. After elementwise fusion
// (SHUF, the CPU pipeline's order), the shuffle's reshapes stand between
// the pad and the convolution.
// CHECK-NOT:   tensor.pad
// CHECK:       scf.forall ({{.*}}) in (2, 6) shared_outs({{.*}}) -> (tensor<2x6x9x11xf32>)
// CHECK-NOT:   tensor.pad
// CHECK:       tensor.empty() : tensor<11x13xf32>
// CHECK:       tensor.insert_slice {{.*}}[0, 0] [1, 13] [1, 1] : tensor<1x13xf32> into tensor<11x13xf32>
// CHECK:       tensor.insert_slice {{.*}}[10, 0] [1, 13] [1, 1] : tensor<1x13xf32> into tensor<11x13xf32>
// CHECK:       tensor.insert_slice {{.*}}[1, 0] [9, 1] [1, 1] : tensor<9x1xf32> into tensor<11x13xf32>
// CHECK:       tensor.insert_slice {{.*}}[1, 12] [9, 1] [1, 1] : tensor<9x1xf32> into tensor<11x13xf32>
// CHECK-NEXT:  tensor.insert_slice {{.*}}[1, 1] [9, 11] [1, 1] : tensor<9x11xf32> into tensor<11x13xf32>
// CHECK-NOT:   tensor.pad
// CHECK:       vector.fma
// SHUF-LABEL:  func.func @dw_shuffled(
// SHUF-NOT:    tensor.pad
// SHUF:        tensor.expand_shape {{.*}} into tensor<2x3x2x1x9x11xf32>
// SHUF-NEXT:   tensor.collapse_shape {{.*}} into tensor<2x6x1x9x11xf32>
// SHUF-NOT:    tensor.pad
// SHUF:        scf.forall ({{.*}}) in (2, 6)
// SHUF:        tensor.empty() : tensor<11x13xf32>
// SHUF:        tensor.insert_slice {{.*}}[1, 1] [9, 11] [1, 1] : tensor<9x11xf32> into tensor<11x13xf32>
// SHUF-NOT:    tensor.pad
// SHUF:        vector.fma
// SHUF-LABEL:  func.func @main_pw_grouped(
// CHECK-LABEL: func.func @main_pw_grouped(
func.func @dw_shuffled(%x: tensor<2x6x9x11xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<2x6x9x11xf32> {
  %a = graph.reshape %x {shape = array<i64: 2, 2, 3, 9, 11>} : (tensor<2x6x9x11xf32>) -> tensor<2x2x3x9x11xf32>
  %b = graph.transpose %a {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<2x2x3x9x11xf32>) -> tensor<2x3x2x9x11xf32>
  %c = graph.reshape %b {shape = array<i64: 2, 6, 9, 11>} : (tensor<2x3x2x9x11xf32>) -> tensor<2x6x9x11xf32>
  %r = graph.conv %c, %w {groups = 6 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}
      : (tensor<2x6x9x11xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x9x11xf32>
  return %r : tensor<2x6x9x11xf32>
}

// Runs @name on inputs made by @init at the given shapes and prints it.
func.func @main_pw_grouped() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %ex = tensor.empty(%c2, %c12, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c9, %c4, %c1, %c1) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x12x5x7xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<9x4x1x1xf32>
  %r = call @pw_grouped(%xs, %ws)
      : (tensor<2x12x5x7xf32>, tensor<9x4x1x1xf32>) -> tensor<2x9x5x7xf32>
  %u = tensor.cast %r : tensor<2x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_pw_grouped1() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %ex = tensor.empty(%c1, %c8, %c6, %c6) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c8, %c2, %c1, %c1) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<1x8x6x6xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<8x2x1x1xf32>
  %r = call @pw_grouped1(%xs, %ws)
      : (tensor<1x8x6x6xf32>, tensor<8x2x1x1xf32>) -> tensor<1x8x6x6xf32>
  %u = tensor.cast %r : tensor<1x8x6x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_dw_shuffled() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %ex = tensor.empty(%c2, %c6, %c9, %c11) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c6, %c1, %c3, %c3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x6x9x11xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<6x1x3x3xf32>
  %r = call @dw_shuffled(%xs, %ws)
      : (tensor<2x6x9x11xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x9x11xf32>
  %u = tensor.cast %r : tensor<2x6x9x11xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Grouped 1x1 at batch 8 (kMinGemmTasks images): one task per image, each
// image's batch matmul over the 3 groups inside it, written into the
// image's slice of the [N, C, H, W] result: one fork for the convolution,
// not one per image.
// CHECK-LABEL: func.func @pw_grouped8(
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<8x9x5x7xf32>
// CHECK:       scf.forall (%[[I:.*]]) in (8) shared_outs(%[[O:.*]] = %[[E]]) -> (tensor<8x9x5x7xf32>)
// CHECK:       tensor.extract_slice %[[O]][%[[I]], 0, 0, 0] [1, 9, 5, 7] [1, 1, 1, 1] : tensor<8x9x5x7xf32> to tensor<9x5x7xf32>
// CHECK:       vector.contract
// CHECK:       tensor.parallel_insert_slice {{.*}} into %[[O]][%[[I]], 0, 0, 0] [1, 9, 5, 7] [1, 1, 1, 1] : tensor<9x5x7xf32> into tensor<8x9x5x7xf32>
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
func.func @pw_grouped8(%x: tensor<8x12x5x7xf32>, %w: tensor<9x4x1x1xf32>) -> tensor<8x9x5x7xf32> {
  %r = graph.conv %x, %w {groups = 3 : i64, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pad_low = array<i64: 0, 0>, pad_high = array<i64: 0, 0>}
      : (tensor<8x12x5x7xf32>, tensor<9x4x1x1xf32>) -> tensor<8x9x5x7xf32>
  return %r : tensor<8x9x5x7xf32>
}

func.func @main_pw_grouped8() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %ex = tensor.empty(%c8, %c12, %c5, %c7) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c9, %c4, %c1, %c1) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<8x12x5x7xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<9x4x1x1xf32>
  %r = call @pw_grouped8(%xs, %ws)
      : (tensor<8x12x5x7xf32>, tensor<9x4x1x1xf32>) -> tensor<8x9x5x7xf32>
  %u = tensor.cast %r : tensor<8x9x5x7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
