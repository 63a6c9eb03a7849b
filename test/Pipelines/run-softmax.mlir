// Numeric check of the CPU pipeline on reductions and transcendentals: a
// row-wise softmax (max and sum reductions over the inner dimension, exp,
// division) on a 19x37 tensor, so vectors have a peeled remainder. Compared
// with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py softmax_rows 19,37 %t.out
// With 8 lanes the row maximum and sum are 4 lane vectors and a tail of 5
// (CpuInnerDims.cpp splits both).
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out8
// RUN: %numpy_python %S/Inputs/reference.py softmax_rows 19,37 %t.out8

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

func.func @softmax(%x: tensor<19x37xf32>) -> tensor<19x37xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<19xf32>
  %e2 = tensor.empty() : tensor<19x37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<19xf32>) -> tensor<19xf32>
  %max = linalg.generic {indexing_maps = [#id2, #rows],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<19x37xf32>) outs(%mi : tensor<19xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<19xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #rows, #id2],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<19x37xf32>, tensor<19xf32>) outs(%e2 : tensor<19x37xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<19x37xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<19xf32>) -> tensor<19xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rows],
                         iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<19x37xf32>) outs(%si : tensor<19xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<19xf32>
  %out = linalg.generic {indexing_maps = [#id2, #rows, #id2],
                         iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<19x37xf32>, tensor<19xf32>) outs(%e2 : tensor<19x37xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<19x37xf32>
  return %out : tensor<19x37xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

// x(i, j) = (((7i + 3j) mod 11) - 5) / 4, built in a static-shape generic.
func.func @main() {
  %c11 = arith.constant 11 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %five = arith.constant 5.0 : f32
  %quarter = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<19x37xf32>
  %x = linalg.generic {indexing_maps = [#id2],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<19x37xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %a, %b : index
    %v = arith.remui %s, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %d = arith.subf %vf, %five : f32
    %q = arith.mulf %d, %quarter : f32
    linalg.yield %q : f32
  } -> tensor<19x37xf32>
  %r = call @softmax(%x) : (tensor<19x37xf32>) -> tensor<19x37xf32>
  %u = tensor.cast %r : tensor<19x37xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
