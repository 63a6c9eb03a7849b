// Numeric check of graphc-cpu-direct-conv on a convolution whose batch is
// dynamic (a bundle compiled once for any batch size, as graphc compiles an
// ONNX model with a symbolic batch): the batch bounds the task loop, the
// other sizes are static. Initialised by a fill of a dynamic tensor.empty;
// run at batch 3 and compared with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=direct-conv=all \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 3,4,9,16,32,3,3 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="direct-conv=3x3 vector-width=8 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.8
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 3,4,9,16,32,3,3 %t.8
// The task loop's first bound is the batch read from the output.
// RUN: graph-opt %s --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK:       %[[N:.*]] = tensor.dim %{{.*}}, %c0{{(_[0-9]+)?}} : tensor<?x32x7x14xf32>
// CHECK:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (%[[N]], {{[0-9]+}}, {{[0-9]+}})
// CHECK:       vector.fma
// CHECK:       tensor.parallel_insert_slice {{.*}} into tensor<?x32x7x14xf32>
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @main
// The same convolution at 1x1 (made by sed from this file) takes the
// pointwise kernel with the dynamic batch: 144 pixels, tasks over the
// batch, 3 chunks of 48 pixels and 4 blocks of 8 channels.
// RUN: sed -e 's/x3x3xf32/x1x1xf32/g;s/7x14/9x16/g;s/%c4, %c3, %c3)/%c4, %one, %one)/;s/^  %c2 = arith.constant 2 : index$/&\n  %one = arith.constant 1 : index/' %s > %t.pw.mlir
// RUN: graph-opt %t.pw.mlir --graphc-cpu-codegen=direct-conv=1x1 \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.pw.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw 3,4,9,16,32,1,1 %t.pw.out
// RUN: graph-opt %t.pw.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=PW
// PW-LABEL: func.func @conv
// PW:       tensor.collapse_shape {{.*}} : tensor<?x4x9x16xf32> into tensor<?x4x144xf32>
// PW:       %[[N:.*]] = tensor.dim %{{.*}}, %c0{{(_[0-9]+)?}} : tensor<?x32x9x16xf32>
// PW:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (%[[N]], 3, 4)
// PW:       vector.fma {{.*}} : vector<16xf32>
// PW:       tensor.expand_shape {{.*}} : tensor<?x32x144xf32> into tensor<?x32x9x16xf32>
// PW-NOT:   linalg.conv_2d_nchw_fchw
// The 1x1 convolution with stride 2 (also by sed): the subsample's task
// loop and its fresh input take the batch from the input; 9x16 -> 5x8.
// RUN: sed -e 's/x3x3xf32/x1x1xf32/g;s/7x14/5x8/g;s/strides = dense<1>/strides = dense<2>/;s/%c4, %c3, %c3)/%c4, %one, %one)/;s/^  %c2 = arith.constant 2 : index$/&\n  %one = arith.constant 1 : index/' %s > %t.s2.mlir
// RUN: graph-opt %t.s2.mlir --graphc-cpu-codegen=direct-conv=strided \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.s2.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 3,4,9,16,32,1,1,2,2,1,1 %t.s2.out
// RUN: graph-opt %t.s2.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=S2
// S2-LABEL: func.func @conv
// S2:       tensor.empty(%{{.*}}) : tensor<?x4x5x8xf32>
// S2:       %[[N:.*]] = tensor.dim %{{.*}}, %c0{{(_[0-9]+)?}} : tensor<?x4x9x16xf32>
// S2:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (%[[N]], 1, 4)
// S2:       vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// S2:       tensor.collapse_shape {{.*}} : tensor<?x4x5x8xf32> into tensor<?x4x40xf32>
// S2:       vector.fma
// S2-NOT:   linalg.conv_2d_nchw_fchw

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

func.func @conv(%x: tensor<?x4x9x16xf32>, %w: tensor<32x4x3x3xf32>) -> tensor<?x32x7x14xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x9x16xf32>
  %e = tensor.empty(%n) : tensor<?x32x7x14xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32x7x14xf32>) -> tensor<?x32x7x14xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                 strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x4x9x16xf32>, tensor<32x4x3x3xf32>)
      outs(%f : tensor<?x32x7x14xf32>) -> tensor<?x32x7x14xf32>
  return %r : tensor<?x32x7x14xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %ex = tensor.empty(%c3, %c4, %c9, %c16) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %ew = tensor.empty(%c32, %c4, %c3, %c3) : tensor<?x?x?x?xf32>
  %w = call @init(%ew, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<?x4x9x16xf32>
  %ws = tensor.cast %w : tensor<?x?x?x?xf32> to tensor<32x4x3x3xf32>
  %r = call @conv(%xs, %ws)
      : (tensor<?x4x9x16xf32>, tensor<32x4x3x3xf32>) -> tensor<?x32x7x14xf32>
  %u = tensor.cast %r : tensor<?x32x7x14xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
