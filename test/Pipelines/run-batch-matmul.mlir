// Numeric check of the matmul strategy on linalg.batch_matmul (a batch loop
// in front of M, N, K) with edge tiles in M and N, against NumPy.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="parallel-m=8 parallel-n=32 min-parallel-work=0" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py batch_matmul 3,13,9,40 %t.out

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

func.func @bmm(%x: tensor<3x13x9xf32>, %y: tensor<3x9x40xf32>) -> tensor<3x13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x13x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  %r = linalg.batch_matmul ins(%x, %y : tensor<3x13x9xf32>, tensor<3x9x40xf32>)
                           outs(%f : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  return %r : tensor<3x13x40xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c13 = arith.constant 13 : index
  %c40 = arith.constant 40 : index
  %ex = tensor.empty(%c3, %c13, %c9) : tensor<?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5) : (tensor<?x?x?xf32>, index, index, index) -> tensor<?x?x?xf32>
  %ey = tensor.empty(%c3, %c9, %c40) : tensor<?x?x?xf32>
  %y = call @init(%ey, %c5, %c2, %c3) : (tensor<?x?x?xf32>, index, index, index) -> tensor<?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?xf32> to tensor<3x13x9xf32>
  %ys = tensor.cast %y : tensor<?x?x?xf32> to tensor<3x9x40xf32>
  %r = call @bmm(%xs, %ys) : (tensor<3x13x9xf32>, tensor<3x9x40xf32>) -> tensor<3x13x40xf32>
  %u = tensor.cast %r : tensor<3x13x40xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
