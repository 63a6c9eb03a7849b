// gather_nd (k = 2, k = 1, batch_dims = 1), scatter_elements and scatter_nd
// with every reduction and repeated indices, and integer max pooling.
// Expected values: reference.py (NumPy).
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py indexing %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py indexing %t.cpu | FileCheck %s
// CHECK: indexing: 12 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @compute(%x: tensor<3x4xf32>, %t: tensor<2x3x4xf32>, %m: tensor<1x1x4x4xi32>, %n: tensor<3x4xi32>)
    -> (tensor<3xf32>, tensor<2x4xf32>, tensor<2x2x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<1x1x4x4xi32>) {
  %i0 = graph.constant dense<[[1, 2], [-1, 0], [0, 3]]> : tensor<3x2xi64>
  %g0 = graph.gather_nd %x, %i0 : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  %i1 = graph.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %g1 = graph.gather_nd %x, %i1 : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  %i2 = graph.constant dense<[[[2], [0]], [[1], [1]]]> : tensor<2x2x1xi64>
  %g2 = graph.gather_nd %t, %i2 {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2x1xi64>) -> tensor<2x2x4xf32>

  %ie = graph.constant dense<[[0, 3], [1, 1], [-1, 2]]> : tensor<3x2xi64>
  %ue = graph.constant dense<[[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]]> : tensor<3x2xf32>
  %s0 = graph.scatter_elements %x, %ie, %ue {axis = 1 : i64, reduction = #graph<scatter_reduction add>}
      : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %ia = graph.constant dense<[[2, 0, 1, 0]]> : tensor<1x4xi32>
  %ua = graph.constant dense<[[7.0, 8.0, 9.0, 10.0]]> : tensor<1x4xf32>
  %s1 = graph.scatter_elements %x, %ia, %ua {axis = 0 : i64}
      : (tensor<3x4xf32>, tensor<1x4xi32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %un = graph.constant dense<[[5, -5], [0, 9], [3, 3]]> : tensor<3x2xi32>
  %s2 = graph.scatter_elements %n, %ie, %un {axis = -1 : i64, reduction = #graph<scatter_reduction max>}
      : (tensor<3x4xi32>, tensor<3x2xi64>, tensor<3x2xi32>) -> tensor<3x4xi32>

  %in = graph.constant dense<[[1], [2], [1]]> : tensor<3x1xi64>
  %uw = graph.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, -3.0, -4.0]]> : tensor<3x4xf32>
  %n0 = graph.scatter_nd %x, %in, %uw {reduction = #graph<scatter_reduction add>}
      : (tensor<3x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %n1 = graph.scatter_nd %x, %in, %uw {reduction = #graph<scatter_reduction mul>}
      : (tensor<3x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %ip = graph.constant dense<[[0, 1], [2, -1], [0, 1]]> : tensor<3x2xi64>
  %up = graph.constant dense<[4.5, -7.5, 1.0]> : tensor<3xf32>
  %n2 = graph.scatter_nd %x, %ip, %up
      : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<3x4xf32>
  %uq = graph.constant dense<[-8, 8, -2]> : tensor<3xi32>
  %n3 = graph.scatter_nd %n, %ip, %uq {reduction = #graph<scatter_reduction min>}
      : (tensor<3x4xi32>, tensor<3x2xi64>, tensor<3xi32>) -> tensor<3x4xi32>
  %n4 = graph.scatter_nd %x, %in, %uw {reduction = #graph<scatter_reduction max>}
      : (tensor<3x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>

  %p = graph.pool %m {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 0, 0>}
      : (tensor<1x1x4x4xi32>) -> tensor<1x1x4x4xi32>
  return %g0, %g1, %g2, %s0, %s1, %s2, %n0, %n1, %n2, %n3, %n4, %p
      : tensor<3xf32>, tensor<2x4xf32>, tensor<2x2x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<1x1x4x4xi32>
}

func.func @main() {
  %x = arith.constant dense<[[0.5, -1.0, 2.0, 3.0], [1.5, 0.25, -0.75, 4.0], [-2.0, 6.0, 1.0, -3.5]]> : tensor<3x4xf32>
  %t = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
                             [[-1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0], [-9.0, -10.0, -11.0, -12.0]]]> : tensor<2x3x4xf32>
  %m = arith.constant dense<[[[[3, -7, 12, 0], [-4, -9, 5, 1], [8, 2, -6, -1], [-3, 11, 4, -20]]]]> : tensor<1x1x4x4xi32>
  %n = arith.constant dense<[[1, 2, 3, 4], [-1, -2, -3, -4], [0, 10, 0, -10]]> : tensor<3x4xi32>
  %r:12 = call @compute(%x, %t, %m, %n) : (tensor<3x4xf32>, tensor<2x3x4xf32>, tensor<1x1x4x4xi32>, tensor<3x4xi32>)
      -> (tensor<3xf32>, tensor<2x4xf32>, tensor<2x2x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>,
          tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<1x1x4x4xi32>)
  %u0 = tensor.cast %r#0 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<2x2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r#4 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r#5 : tensor<3x4xi32> to tensor<*xi32>
  call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
  %u6 = tensor.cast %r#6 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %r#7 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  %u8 = tensor.cast %r#8 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u8) : (tensor<*xf32>) -> ()
  %u9 = tensor.cast %r#9 : tensor<3x4xi32> to tensor<*xi32>
  call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
  %u10 = tensor.cast %r#10 : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u10) : (tensor<*xf32>) -> ()
  %u11 = tensor.cast %r#11 : tensor<1x1x4x4xi32> to tensor<*xi32>
  call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
  return
}
