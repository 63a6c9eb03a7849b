// Numeric check of collapsed block copies (CpuInnerDims.cpp): a transposing
// negation [3, 5, 3, 3] -> [5, 3, 3, 3] whose 3x3 blocks move as vectors of
// 9, through the whole CPU pipeline, with 16 and 8 lanes. Compared with
// NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py neg_swap01 3,5,3,3 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out8
// RUN: %numpy_python %S/Inputs/reference.py neg_swap01 3,5,3,3 %t.out8

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>

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

func.func @neg_swap(%x: tensor<3x5x3x3xf32>) -> tensor<5x3x3x3xf32> {
  %e = tensor.empty() : tensor<5x3x3x3xf32>
  %t = linalg.generic {indexing_maps = [#swap, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x5x3x3xf32>) outs(%e : tensor<5x3x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<5x3x3x3xf32>
  return %t : tensor<5x3x3x3xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ex = tensor.empty(%c3, %c5, %c3, %c3) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<3x5x3x3xf32>
  %r = call @neg_swap(%xs) : (tensor<3x5x3x3xf32>) -> tensor<5x3x3x3xf32>
  %u = tensor.cast %r : tensor<5x3x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
