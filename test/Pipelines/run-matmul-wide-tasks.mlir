// Numeric check of the large-matmul task width (wideTaskColumns): a
// 1030x1000x1024 matmul gets 6x64 register tiles, two row tasks of 515
// (A blocks of 515 x 1000, past 1 MiB; a 5-row M edge) and, 2 x 2 tasks
// being enough, tasks of 512 columns, with one K block of 1000 (not a
// multiple of 16 or 64). The second run forces
// 384-column tasks (384 + 384 + 256) and 298-row tasks (a 4-row M edge).
// Against NumPy.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1030,1000,1024 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 parallel-m=298 parallel-n=384" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.forced.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1030,1000,1024 %t.forced.out
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16}),canonicalize,cse)' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @mm
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1030, 1024) step (515, 512)
// CHECK:         vector.contract
// CHECK-SAME:      vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// CHECK:         vector.contract
// CHECK-SAME:      vector<5x1xf32>, vector<1x64xf32> into vector<5x64xf32>
// CHECK-NOT:     into vector<8x32xf32>
// CHECK-LABEL: func.func @main

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Element (i, j) = ((i * p0 + j * p1) mod 11) - 5.
func.func @init(%t: tensor<?x?xf32>, %p0: index, %p1: index)
    -> tensor<?x?xf32> {
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

func.func @mm(%x: tensor<1030x1000xf32>, %y: tensor<1000x1024xf32>) -> tensor<1030x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1030x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1030x1024xf32>) -> tensor<1030x1024xf32>
  %r = linalg.matmul ins(%x, %y : tensor<1030x1000xf32>, tensor<1000x1024xf32>)
                     outs(%f : tensor<1030x1024xf32>) -> tensor<1030x1024xf32>
  return %r : tensor<1030x1024xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c1030 = arith.constant 1030 : index
  %c1000 = arith.constant 1000 : index
  %c1024 = arith.constant 1024 : index
  %ex = tensor.empty(%c1030, %c1000) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%c1000, %c1024) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1030x1000xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<1000x1024xf32>
  %r = call @mm(%xs, %ys) : (tensor<1030x1000xf32>, tensor<1000x1024xf32>) -> tensor<1030x1024xf32>
  %u = tensor.cast %r : tensor<1030x1024xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
