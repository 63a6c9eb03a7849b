// RUN: graph-opt %s --graphc-cpu-hoist-subsets | FileCheck %s
// The same IR as upstream's pass, whose solver graphc-cpu-hoist-subsets
// skips where the indices are constants or one value plus constants:
// RUN: graph-opt %s --graphc-cpu-hoist-subsets -o %t.ours
// RUN: graph-opt %s --loop-invariant-subset-hoisting -o %t.upstream
// RUN: diff %t.ours %t.upstream

// An accumulator tile: two rows read and written at constant indices in
// the K loop. Both pairs move out; the rows ride in iter_args.
// CHECK-LABEL: func.func @constant_rows
// CHECK:         %[[R0:.*]] = vector.transfer_read %{{.*}}[%c0, %c0]
// CHECK:         %[[R1:.*]] = vector.transfer_read %{{.*}}[%c1, %c0]
// CHECK:         %[[L:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[A0:.*]] = %[[R0]], %[[A1:.*]] = %[[R1]])
// CHECK-NOT:       vector.transfer_read
// CHECK-NOT:       vector.transfer_write
// CHECK:           scf.yield
// CHECK:         vector.transfer_write %[[L]]#2, %{{.*}}[%c1, %c0]
// CHECK:         vector.transfer_write %[[L]]#1, %{{.*}}[%c0, %c0]
func.func @constant_rows(%t: tensor<2x16xf32>, %b: vector<16xf32>,
                         %n: index) -> tensor<2x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t)
      -> (tensor<2x16xf32>) {
    %v0 = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true]}
        : tensor<2x16xf32>, vector<16xf32>
    %v1 = vector.transfer_read %acc[%c1, %c0], %pad {in_bounds = [true]}
        : tensor<2x16xf32>, vector<16xf32>
    %s0 = arith.addf %v0, %b : vector<16xf32>
    %s1 = arith.addf %v1, %b : vector<16xf32>
    %w0 = vector.transfer_write %s0, %acc[%c0, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<2x16xf32>
    %w1 = vector.transfer_write %s1, %w0[%c1, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<2x16xf32>
    scf.yield %w1 : tensor<2x16xf32>
  }
  return %r : tensor<2x16xf32>
}

// Rows at an outer loop's index plus constants (the unrolled rows of a
// direct convolution's output plane): disjoint, so they move out of the
// inner loop.
// CHECK-LABEL: func.func @offset_rows
// CHECK:         scf.for %[[I:arg[0-9]+]] =
// CHECK:           %[[I1:.*]] = arith.addi %[[I]], %c1
// CHECK:           vector.transfer_read %{{.*}}[%[[I]], %c0]
// CHECK:           vector.transfer_read %{{.*}}[%[[I1]], %c0]
// CHECK:           scf.for {{.*}} -> (tensor<8x16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK-NOT:         vector.transfer
// CHECK:             scf.yield
// CHECK:           vector.transfer_write %{{.*}}[%[[I1]], %c0]
// CHECK:           vector.transfer_write %{{.*}}[%[[I]], %c0]
func.func @offset_rows(%t: tensor<8x16xf32>, %b: vector<16xf32>,
                       %n: index) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%outer = %t)
      -> (tensor<8x16xf32>) {
    %i1 = arith.addi %i, %c1 : index
    %inner = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %outer)
        -> (tensor<8x16xf32>) {
      %v0 = vector.transfer_read %acc[%i, %c0], %pad {in_bounds = [true]}
          : tensor<8x16xf32>, vector<16xf32>
      %v1 = vector.transfer_read %acc[%i1, %c0], %pad {in_bounds = [true]}
          : tensor<8x16xf32>, vector<16xf32>
      %s0 = arith.addf %v0, %b : vector<16xf32>
      %s1 = arith.addf %v1, %b : vector<16xf32>
      %w0 = vector.transfer_write %s0, %acc[%i, %c0] {in_bounds = [true]}
          : vector<16xf32>, tensor<8x16xf32>
      %w1 = vector.transfer_write %s1, %w0[%i1, %c0] {in_bounds = [true]}
          : vector<16xf32>, tensor<8x16xf32>
      scf.yield %w1 : tensor<8x16xf32>
    }
    scf.yield %inner : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// Overlapping subsets (columns 0-15 and 8-23 of one row) stay in the loop.
// CHECK-LABEL: func.func @overlapping
// CHECK:         scf.for
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_write
// CHECK:           vector.transfer_write
// CHECK:           scf.yield
func.func @overlapping(%t: tensor<1x32xf32>, %b: vector<16xf32>,
                       %n: index) -> tensor<1x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t)
      -> (tensor<1x32xf32>) {
    %v0 = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true]}
        : tensor<1x32xf32>, vector<16xf32>
    %v1 = vector.transfer_read %acc[%c0, %c8], %pad {in_bounds = [true]}
        : tensor<1x32xf32>, vector<16xf32>
    %s0 = arith.addf %v0, %b : vector<16xf32>
    %s1 = arith.addf %v1, %b : vector<16xf32>
    %w0 = vector.transfer_write %s0, %acc[%c0, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<1x32xf32>
    %w1 = vector.transfer_write %s1, %w0[%c0, %c8] {in_bounds = [true]}
        : vector<16xf32>, tensor<1x32xf32>
    scf.yield %w1 : tensor<1x32xf32>
  }
  return %r : tensor<1x32xf32>
}

// Rows at two unrelated indices: the solver is asked (it cannot prove them
// apart), and nothing moves. A row at the loop's own index cannot move.
// CHECK-LABEL: func.func @unknown_rows
// CHECK:         scf.for
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_write
// CHECK:           vector.transfer_write
// CHECK:           scf.yield
// CHECK-LABEL: func.func @variant_row
// CHECK:         scf.for
// CHECK:           vector.transfer_read
// CHECK:           vector.transfer_write
// CHECK:           scf.yield
func.func @unknown_rows(%t: tensor<8x16xf32>, %b: vector<16xf32>,
                        %i: index, %j: index, %n: index) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t)
      -> (tensor<8x16xf32>) {
    %v0 = vector.transfer_read %acc[%i, %c0], %pad {in_bounds = [true]}
        : tensor<8x16xf32>, vector<16xf32>
    %v1 = vector.transfer_read %acc[%j, %c0], %pad {in_bounds = [true]}
        : tensor<8x16xf32>, vector<16xf32>
    %s0 = arith.addf %v0, %b : vector<16xf32>
    %s1 = arith.addf %v1, %b : vector<16xf32>
    %w0 = vector.transfer_write %s0, %acc[%i, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<8x16xf32>
    %w1 = vector.transfer_write %s1, %w0[%j, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<8x16xf32>
    scf.yield %w1 : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

func.func @variant_row(%t: tensor<8x16xf32>, %b: vector<16xf32>)
    -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %t)
      -> (tensor<8x16xf32>) {
    %v = vector.transfer_read %acc[%k, %c0], %pad {in_bounds = [true]}
        : tensor<8x16xf32>, vector<16xf32>
    %s = arith.addf %v, %b : vector<16xf32>
    %w = vector.transfer_write %s, %acc[%k, %c0] {in_bounds = [true]}
        : vector<16xf32>, tensor<8x16xf32>
    scf.yield %w : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// Tensor slices: the pair is decided by the ops' interface, as upstream.
// CHECK-LABEL: func.func @slices
// CHECK:         tensor.extract_slice
// CHECK:         scf.for {{.*}} -> (tensor<8x16xf32>, tensor<2x16xf32>)
// CHECK:         tensor.insert_slice
func.func @slices(%t: tensor<8x16xf32>, %n: index) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t)
      -> (tensor<8x16xf32>) {
    %s = tensor.extract_slice %acc[2, 0] [2, 16] [1, 1]
        : tensor<8x16xf32> to tensor<2x16xf32>
    %f = linalg.fill ins(%one : f32) outs(%s : tensor<2x16xf32>)
        -> tensor<2x16xf32>
    %w = tensor.insert_slice %f into %acc[2, 0] [2, 16] [1, 1]
        : tensor<2x16xf32> into tensor<8x16xf32>
    scf.yield %w : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
