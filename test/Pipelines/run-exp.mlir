// The CPU pipeline's f32 exp (graphc-cpu-approximate-exp: upstream's
// polynomial in vector arithmetic instead of one libm expf call per lane;
// docs/design/cpu-codegen.md, "Transformer encoder"):
// * @exp_bits over -104 .. 88.3 in steps of 3/32 (2053 values, vectors and
//   a scalar tail), its result bits checked against NumPy's exp within 1 ulp
//   (Inputs/exp_ulp.py), with OpenMP tasks and without;
// * @exp of -inf, +inf, NaN, 0, 89 and -88.8: 0, inf, NaN, 1, inf and 0
//   (a denormal result is flushed).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen > %t.mlir
// RUN: graph-opt %s --graphc-cpu-codegen=openmp=0 > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out && \
// RUN:   %numpy_python %S/Inputs/exp_ulp.py 2053 -104 0.09375 %t.out && \
// RUN:   mlir-runner $f -e main_special -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp \
// RUN:   || exit 1; done | FileCheck %s --check-prefix=NUM
// NUM:      exp_ulp.py: 1875 normal results within 1.0 ulp
// NUM:      [0, inf, {{-?}}nan, 1, inf, 0]
// NUM:      exp_ulp.py: 1875 normal results within 1.0 ulp
// NUM:      [0, inf, {{-?}}nan, 1, inf, 0]
// No libm call or LLVM exp intrinsic is left:
// RUN: graph-opt %s --graphc-cpu-codegen | FileCheck %s
// CHECK-NOT: llvm.intr.exp
// CHECK-NOT: expf

func.func @exp_bits(%x: tensor<?xf32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: f32, %o: i32):
    %v = math.exp %a : f32
    %b = arith.bitcast %v : f32 to i32
    linalg.yield %b : i32
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}

func.func @exp(%x: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %n = arith.constant 2053 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %lo = arith.constant -104.0 : f32
  %step = arith.constant 0.09375 : f32
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.mulf %f, %step : f32
    %v = arith.addf %lo, %s : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  %r = call @exp_bits(%x) : (tensor<?xf32>) -> tensor<?xi32>
  %u = tensor.cast %r : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main_special() {
  %x = arith.constant dense<[0xFF800000, 0x7F800000, 0x7FC00000, 0.0, 89.0, -88.8]> : tensor<6xf32>
  %r = call @exp(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %u = tensor.cast %r : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
