// Numeric check of the packed-B matmul strategy (packBlockB): 70 rows and
// 304 columns of B make tasks of 152 columns whose 128 whole register-tile
// columns are packed as one [4][kc][32] block (16 and 8 edge columns go one
// panel at a time or unpacked), K = 300 is one K block of 256 and one of 44
// (a dynamic panel height), and a batch loop stands in front; against NumPy.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 mr=8 nr=32 parallel-m=64 parallel-n=128" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py batch_matmul 2,70,300,304 %t.out
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 mr=8 nr=32 parallel-m=64 parallel-n=128}),canonicalize,cse)' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @bmm
// CHECK:       tensor.empty({{.*}}) : tensor<4x1x?x32xf32>
// CHECK:       vector.transfer_write {{.*}} : vector<1x1x32xf32>, tensor<4x1x?x32xf32>
// CHECK:       vector.contract
// CHECK-LABEL: func.func @main

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Element (i, j, k) = ((i * p0 + j * p1 + k * p2) mod 11) - 5.
func.func @init(%t: tensor<?x?x?xf32>, %p0: index, %p1: index, %p2: index)
    -> tensor<?x?x?xf32> {
  %c11 = arith.constant 11 : index
  %five = arith.constant 5.0 : f32
  %r = linalg.generic {indexing_maps = [#id3],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %a = arith.muli %i, %p0 : index
    %b = arith.muli %j, %p1 : index
    %c = arith.muli %k, %p2 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %v = arith.remui %s1, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @bmm(%x: tensor<2x70x300xf32>, %y: tensor<2x300x304xf32>) -> tensor<2x70x304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x70x304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x70x304xf32>) -> tensor<2x70x304xf32>
  %r = linalg.batch_matmul ins(%x, %y : tensor<2x70x300xf32>, tensor<2x300x304xf32>)
                           outs(%f : tensor<2x70x304xf32>) -> tensor<2x70x304xf32>
  return %r : tensor<2x70x304xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c70 = arith.constant 70 : index
  %c300 = arith.constant 300 : index
  %c304 = arith.constant 304 : index
  %ex = tensor.empty(%c2, %c70, %c300) : tensor<?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5) : (tensor<?x?x?xf32>, index, index, index) -> tensor<?x?x?xf32>
  %ey = tensor.empty(%c2, %c300, %c304) : tensor<?x?x?xf32>
  %y = call @init(%ey, %c5, %c2, %c3) : (tensor<?x?x?xf32>, index, index, index) -> tensor<?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?xf32> to tensor<2x70x300xf32>
  %ys = tensor.cast %y : tensor<?x?x?xf32> to tensor<2x300x304xf32>
  %r = call @bmm(%xs, %ys) : (tensor<2x70x300xf32>, tensor<2x300x304xf32>) -> tensor<2x70x304xf32>
  %u = tensor.cast %r : tensor<2x70x304xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
