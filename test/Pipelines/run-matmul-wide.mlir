// Numeric check of the large-matmul register tile (chooseGemmTile): with 16
// lanes a 134x1200x320 matmul (M >= 128, K >= 512, N a multiple of 64) gets
// 6x64 register tiles and balanced K blocks by default (640 + 560), so M
// leaves a 2-row edge and the last K block is shorter. The second run
// forces the tile and tasks of 160 columns (2 x 64 + a 32-column edge) with
// K blocks of 100.
// Against NumPy.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 134,1200,320 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 mr=6 nr=64 kc=100 parallel-n=200" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.forced.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 134,1200,320 %t.forced.out
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16}),canonicalize,cse)' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @mm
// CHECK:       scf.for %{{.*}} = %c0 to %c1200 step %c640
// CHECK:         vector.contract
// CHECK-SAME:      vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// CHECK:         vector.contract
// CHECK-SAME:      vector<2x1xf32>, vector<1x64xf32> into vector<2x64xf32>
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

func.func @mm(%x: tensor<134x1200xf32>, %y: tensor<1200x320xf32>) -> tensor<134x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<134x320xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<134x320xf32>) -> tensor<134x320xf32>
  %r = linalg.matmul ins(%x, %y : tensor<134x1200xf32>, tensor<1200x320xf32>)
                     outs(%f : tensor<134x320xf32>) -> tensor<134x320xf32>
  return %r : tensor<134x320xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c134 = arith.constant 134 : index
  %c1200 = arith.constant 1200 : index
  %c320 = arith.constant 320 : index
  %ex = tensor.empty(%c134, %c1200) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%c1200, %c320) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<134x1200xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<1200x320xf32>
  %r = call @mm(%xs, %ys) : (tensor<134x1200xf32>, tensor<1200x320xf32>) -> tensor<134x320xf32>
  %u = tensor.cast %r : tensor<134x320xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
