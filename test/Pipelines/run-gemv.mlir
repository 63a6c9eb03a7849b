// Numeric check of the GEMV strategy (one row of A, row-major B) at column
// counts with no task width on a vector boundary (1000, 1001: one column
// task) and at narrow ones (24, 8): with OpenMP, splitGemvDepth splits K
// into tasks of whole rows of B whose partial rows are summed at the end,
// into an init of zeros or into an accumulator (input 2, "acc"). K = 514 does
// not split into whole steps of 4 rows per task and keeps one task. A
// linalg.generic contraction with A given as [K, 1] ("ta") splits as a
// generic with its own body. Without
// OpenMP (openmp=0) the same GEMVs run as one serial task. Against NumPy.
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_n1000 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.n1000.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 512,1000 %t.n1000.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_n1000 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.n1000.serial.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 512,1000 %t.n1000.serial.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_n1001 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.n1001.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,512,1001 %t.n1001.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_n1001 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.n1001.serial.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,512,1001 %t.n1001.serial.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_n24 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.n24.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 16384,24 %t.n24.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_n24 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.n24.serial.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 16384,24 %t.n24.serial.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_n8 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.n8.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,32768,8 %t.n8.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_n8 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.n8.serial.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,32768,8 %t.n8.serial.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_k514 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.k514.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 514,1000 %t.k514.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_k514 -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.k514.serial.out
// RUN: %numpy_python %S/Inputs/reference.py gemv_acc 514,1000 %t.k514.serial.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_ta -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.ta.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,512,1000 %t.ta.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN: | mlir-runner -e main_ta -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.ta.serial.out
// RUN: %numpy_python %S/Inputs/reference.py matmul 1,512,1000 %t.ta.serial.out
// The split itself (scf.forall over K blocks) is pinned in
// tile-and-vectorize.mlir; here only that it happens for the OpenMP runs.
// RUN: graph-opt %s --pass-pipeline='builtin.module(func.func(graphc-cpu-tile-and-vectorize{vector-width=16}),canonicalize,cse)' \
// RUN: | FileCheck %s
// CHECK-LABEL: func.func @gemv_n1000
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [{{[0-9]+}}, {{[0-9]+}}, 1000]
// CHECK:       scf.forall
// CHECK-LABEL: func.func @gemv_n1001
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [{{[0-9]+}}, {{[0-9]+}}, 1001]
// CHECK:       scf.forall
// CHECK-LABEL: func.func @gemv_n24
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [{{[0-9]+}}, {{[0-9]+}}, 24]
// CHECK:       scf.forall
// CHECK-LABEL: func.func @gemv_n8
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [{{[0-9]+}}, {{[0-9]+}}, 8]
// CHECK:       scf.forall
// CHECK-LABEL: func.func @gemv_k514
// CHECK-NOT:   scf.forall
// CHECK-NOT:   tensor.expand_shape
// CHECK-LABEL: func.func @gemv_ta
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 256, 1000]
// CHECK:       scf.forall (%{{.*}}) in (2)
// CHECK-LABEL: func.func @main_n1000

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

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gemv_n1000(%x: tensor<1x512xf32>, %y: tensor<512x1000xf32>, %acc: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<1x512xf32>, tensor<512x1000xf32>)
                     outs(%acc : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

func.func @gemv_n1001(%x: tensor<1x512xf32>, %y: tensor<512x1001xf32>) -> tensor<1x1001xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1001xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1001xf32>) -> tensor<1x1001xf32>
  %r = linalg.matmul ins(%x, %y : tensor<1x512xf32>, tensor<512x1001xf32>)
                     outs(%f : tensor<1x1001xf32>) -> tensor<1x1001xf32>
  return %r : tensor<1x1001xf32>
}

func.func @gemv_n24(%x: tensor<1x16384xf32>, %y: tensor<16384x24xf32>, %acc: tensor<1x24xf32>) -> tensor<1x24xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<1x16384xf32>, tensor<16384x24xf32>)
                     outs(%acc : tensor<1x24xf32>) -> tensor<1x24xf32>
  return %r : tensor<1x24xf32>
}

func.func @gemv_n8(%x: tensor<1x32768xf32>, %y: tensor<32768x8xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = linalg.matmul ins(%x, %y : tensor<1x32768xf32>, tensor<32768x8xf32>)
                     outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

func.func @gemv_k514(%x: tensor<1x514xf32>, %y: tensor<514x1000xf32>, %acc: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<1x514xf32>, tensor<514x1000xf32>)
                     outs(%acc : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

#ka = affine_map<(m, n, k) -> (k, m)>
#kb = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @gemv_ta(%x: tensor<512x1xf32>, %y: tensor<512x1000xf32>) -> tensor<1x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %r = linalg.generic {indexing_maps = [#ka, #kb, #mn],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<512x1xf32>, tensor<512x1000xf32>) outs(%f : tensor<1x1000xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

// A as [K, 1]: element (k, 0) = 3 k, NumPy's make(0, (1, K)).
func.func @main_ta() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 512 : index
  %cn = arith.constant 1000 : index
  %ex = tensor.empty(%ck, %c1) : tensor<?x?xf32>
  %x = call @init(%ex, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<512x1xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<512x1000xf32>
  %r = call @gemv_ta(%xs, %ys) : (tensor<512x1xf32>, tensor<512x1000xf32>) -> tensor<1x1000xf32>
  %u = tensor.cast %r : tensor<1x1000xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_n1000() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 512 : index
  %cn = arith.constant 1000 : index
  %ex = tensor.empty(%c1, %ck) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1x512xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<512x1000xf32>
  %ea = tensor.empty(%c1, %cn) : tensor<?x?xf32>
  %a = call @init(%ea, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<1x1000xf32>
  %r = call @gemv_n1000(%xs, %ys, %as) : (tensor<1x512xf32>, tensor<512x1000xf32>, tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %u = tensor.cast %r : tensor<1x1000xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_n1001() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 512 : index
  %cn = arith.constant 1001 : index
  %ex = tensor.empty(%c1, %ck) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1x512xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<512x1001xf32>
  %r = call @gemv_n1001(%xs, %ys) : (tensor<1x512xf32>, tensor<512x1001xf32>) -> tensor<1x1001xf32>
  %u = tensor.cast %r : tensor<1x1001xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_n24() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 16384 : index
  %cn = arith.constant 24 : index
  %ex = tensor.empty(%c1, %ck) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1x16384xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<16384x24xf32>
  %ea = tensor.empty(%c1, %cn) : tensor<?x?xf32>
  %a = call @init(%ea, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<1x24xf32>
  %r = call @gemv_n24(%xs, %ys, %as) : (tensor<1x16384xf32>, tensor<16384x24xf32>, tensor<1x24xf32>) -> tensor<1x24xf32>
  %u = tensor.cast %r : tensor<1x24xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_n8() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 32768 : index
  %cn = arith.constant 8 : index
  %ex = tensor.empty(%c1, %ck) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1x32768xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<32768x8xf32>
  %r = call @gemv_n8(%xs, %ys) : (tensor<1x32768xf32>, tensor<32768x8xf32>) -> tensor<1x8xf32>
  %u = tensor.cast %r : tensor<1x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_k514() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %ck = arith.constant 514 : index
  %cn = arith.constant 1000 : index
  %ex = tensor.empty(%c1, %ck) : tensor<?x?xf32>
  %x = call @init(%ex, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %ey = tensor.empty(%ck, %cn) : tensor<?x?xf32>
  %y = call @init(%ey, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<1x514xf32>
  %ys = tensor.cast %y : tensor<?x?xf32> to tensor<514x1000xf32>
  %ea = tensor.empty(%c1, %cn) : tensor<?x?xf32>
  %a = call @init(%ea, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<1x1000xf32>
  %r = call @gemv_k514(%xs, %ys, %as) : (tensor<1x514xf32>, tensor<514x1000xf32>, tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %u = tensor.cast %r : tensor<1x1000xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
