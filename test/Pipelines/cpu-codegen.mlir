// The whole pipeline ends in the LLVM dialect: the matmul micro-kernel as
// vector FMAs on 32-wide rows, parallel tasks as an OpenMP worksharing loop,
// and without OpenMP no omp ops at all.
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" | FileCheck %s
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16 openmp=0" \
// RUN:   | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: llvm.func @matmul
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:             omp.loop_nest
// CHECK-COUNT-8:       llvm.intr.fmuladd({{.*}}) : (vector<32xf32>, vector<32xf32>, vector<32xf32>) -> vector<32xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     vector.
// CHECK-NOT:     memref.
// SERIAL-LABEL:  llvm.func @matmul
// SERIAL-NOT:    omp.
// SERIAL:        llvm.intr.fmuladd
// SERIAL-NOT:    omp.
func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>) -> tensor<128x512xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>)
                     outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}

// Bias and ReLU fuse into one loop nest: one exp-free pass over the output.
// CHECK-LABEL: llvm.func @bias_relu
// CHECK:         llvm.fadd {{.*}} : vector<16xf32>
// CHECK:         llvm.intr.maximum({{.*}}) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%x: tensor<64x64xf32>, %bias: tensor<64xf32>,
                     %out: tensor<64x64xf32> {bufferization.writable = true})
    -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %b = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// math.erf has no LLVM intrinsic: its vector form is unrolled into libm
// calls before the vector ops are lowered (no vector.extract survives),
// while f32 exp is a polynomial in vector arithmetic
// (graphc-cpu-approximate-exp), not llvm.intr.exp (one expf call per lane).
// CHECK-LABEL: llvm.func @erf_exp
// CHECK-NOT:     llvm.intr.exp
// CHECK:         llvm.intr.fma({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT:     llvm.intr.exp
// CHECK:         llvm.call @erff({{.*}}) : (f32) -> f32
// CHECK-NOT:     vector.
// CHECK-NOT:     builtin.unrealized_conversion_cast
// CHECK:         llvm.return
func.func @erf_exp(%x: tensor<3x32xf32>,
                   %out: tensor<3x32xf32> {bufferization.writable = true})
    -> tensor<3x32xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x32xf32>) outs(%out : tensor<3x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %f = math.erf %e : f32
    linalg.yield %f : f32
  } -> tensor<3x32xf32>
  return %r : tensor<3x32xf32>
}
