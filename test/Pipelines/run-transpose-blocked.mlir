// Numeric check of blocked transposes (16x16 register tiles, the rows that
// do not fill a tile peeled into 1x16 ones) against NumPy: an elementwise
// add of a transposed operand, out[i, j] = a[j, i] + b[i, j], with 35 rows
// (2 tiles and 3 peeled rows) and 48 columns, with and without threads;
// and a batched transpose of the last two dimensions.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.out
// RUN: %numpy_python %S/Inputs/reference.py transpose_add 35,48 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.omp.out
// RUN: %numpy_python %S/Inputs/reference.py transpose_add 35,48 %t.omp.out
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16 parallel=0}))' \
// RUN: | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @transpose_add
// IR:         vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// IR:         vector.shuffle

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>

// Element (i, j) = ((i * p0 + j * p1) mod 11) - 5.
func.func @init(%t: tensor<?x?xf32>, %p0: index, %p1: index) -> tensor<?x?xf32> {
  %c11 = arith.constant 11 : index
  %five = arith.constant 5.0 : f32
  %r = linalg.generic {indexing_maps = [#id2],
                       iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %a = arith.muli %i, %p0 : index
    %b = arith.muli %j, %p1 : index
    %s = arith.addi %a, %b : index
    %v = arith.remui %s, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @transpose_add(%a: tensor<48x35xf32>, %b: tensor<35x48xf32>) -> tensor<35x48xf32> {
  %e = tensor.empty() : tensor<35x48xf32>
  %r = linalg.generic {indexing_maps = [#tr2, #id2, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<48x35xf32>, tensor<35x48xf32>)
      outs(%e : tensor<35x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<35x48xf32>
  return %r : tensor<35x48xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c35 = arith.constant 35 : index
  %c48 = arith.constant 48 : index
  %ea = tensor.empty(%c48, %c35) : tensor<?x?xf32>
  %a = call @init(%ea, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %eb = tensor.empty(%c35, %c48) : tensor<?x?xf32>
  %b = call @init(%eb, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<48x35xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<35x48xf32>
  %r = call @transpose_add(%as, %bs) : (tensor<48x35xf32>, tensor<35x48xf32>) -> tensor<35x48xf32>
  %u = tensor.cast %r : tensor<35x48xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
