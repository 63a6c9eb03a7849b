// Numeric check of graphc-cpu-direct-conv (docs/design/cpu-codegen.md,
// "Direct convolution") on a convolution that accumulates into an init that
// is not a fill (the kernel reads the tile back and transposes it), batch 2,
// strides [2, 1], dilations [1, 2], 48 output channels (three vectors of 16:
// register tiles of one vector, or of two of 8 with vector-width=8), 28
// output columns (tiles of 14); the filter is an argument, re-laid out at run
// time. Compared with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=all \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,5,15,30,48,3,2,2,1,1,2 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=strided vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.8
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,5,15,30,48,3,2,2,1,1,2 %t.8
// The kernel: tasks over (image, output row, channel block), the filter
// re-laid out to [F/fb, C*KH*KW, fb] (16x16 transposes), loops over channel
// blocks, column tiles, input channels and then the filter taps (one loop;
// each tap's input offset in the flattened image plane from a table),
// broadcast FMAs, and the tile transposed before the store as 16x16 blocks
// (its 14 columns padded to 16). No fill: no channel chunks.
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<48x5x3x2xf32> into tensor<48x30xf32>
// CHECK:       scf.forall (%{{.*}}) in (3)
// CHECK:       scf.for
// CHECK:       vector.transfer_read {{.*}} : tensor<48x30xf32>, vector<16x16xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<30x16xf32>
// CHECK:       vector.transfer_read {{.*}} : tensor<48x30xf32>, vector<16x14xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x14xf32> to vector<14x16xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<14x16xf32>, tensor<30x16xf32>
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x5x15x30xf32> into tensor<2x5x450xf32>
// CHECK:       arith.constant dense<[0, 2, 30, 32, 60, 62]> : tensor<6xindex>
// CHECK:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 7, 3)
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c16{{(_[0-9]+)?}} step %c16{{(_[0-9]+)?}}
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c1{{(_[0-9]+)?}} step %c1
// CHECK:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [16, 1, 28] [1, 1, 1] : tensor<16x1x28xf32> to tensor<16x1x28xf32>
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c28{{(_[0-9]+)?}} step %c14{{(_[0-9]+)?}}
// CHECK:       vector.transfer_read {{.*}} : tensor<16x1x28xf32>, vector<16x1x14xf32>
// CHECK:       vector.shape_cast %{{.*}} : vector<16x1x14xf32> to vector<16x14xf32>
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x14xf32> to vector<14x16xf32>
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c5{{(_[0-9]+)?}} step %c1{{(_[0-9]+)?}}
// CHECK:       scf.for %[[T:.*]] = %c0{{.*}} to %c6{{(_[0-9]+)?}} step %c1{{(_[0-9]+)?}}
// CHECK-NOT:   arith.divui
// CHECK:       tensor.extract %{{.*}}[%[[T]]] : tensor<6xindex>
// CHECK:       vector.transfer_read {{.*}} : tensor<3x30x16xf32>, vector<16xf32>
// CHECK:       tensor.extract {{.*}} : tensor<2x5x450xf32>
// CHECK:       vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK:       vector.fma
// CHECK:       vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK:       vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [16, 14], strides = [1, 1]} : vector<16x16xf32> to vector<16x14xf32>
// CHECK:       vector.insert_strided_slice
// CHECK:       vector.shape_cast %{{.*}} : vector<16x14xf32> to vector<16x1x14xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<16x1x14xf32>, tensor<16x1x28xf32>
// CHECK:       tensor.insert_slice
// CHECK:       tensor.parallel_insert_slice
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @main

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

func.func @conv(%x: tensor<2x5x15x30xf32>, %w: tensor<48x5x3x2xf32>, %f: tensor<2x48x7x28xf32>) -> tensor<2x48x7x28xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>,
                                 strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x15x30xf32>, tensor<48x5x3x2xf32>)
      outs(%f : tensor<2x48x7x28xf32>) -> tensor<2x48x7x28xf32>
  return %r : tensor<2x48x7x28xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %x0 = arith.constant 2 : index
  %x1 = arith.constant 5 : index
  %x2 = arith.constant 15 : index
  %x3 = arith.constant 30 : index
  %w0 = arith.constant 48 : index
  %w1 = arith.constant 5 : index
  %w2 = arith.constant 3 : index
  %w3 = arith.constant 2 : index
  %ex = tensor.empty(%x0, %x1, %x2, %x3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%w0, %w1, %w2, %w3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x5x15x30xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<48x5x3x2xf32>
  %o0 = arith.constant 2 : index
  %o1 = arith.constant 48 : index
  %c28 = arith.constant 28 : index
  %eo = tensor.empty(%o0, %o1, %c7, %c28) : tensor<?x?x?x?xf32>
  %acc = call @init(%eo, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %accs = tensor.cast %acc : tensor<?x?x?x?xf32> to tensor<2x48x7x28xf32>
  %r = call @conv(%xs, %ws, %accs)
      : (tensor<2x5x15x30xf32>, tensor<48x5x3x2xf32>, tensor<2x48x7x28xf32>) -> tensor<2x48x7x28xf32>
  %u = tensor.cast %r : tensor<2x48x7x28xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
