// Numeric check of a concatenation whose operands' producers write their
// slices of the result in place (graphc-cpu-fuse-elementwise decomposes
// tensor.concat; see docs/design/cpu-codegen.md, "Small models against ONNX
// Runtime"), compared with NumPy (Inputs/reference.py), with OpenMP tasks and
// without: ReLU of a [2, 16, 9, 23] input and of a [2, 24, 9, 23] input plus
// one, concatenated along the channels (each ReLU large enough for tasks).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen=min-parallel-work=0 > %t.mlir
// RUN: graph-opt %s --graphc-cpu-codegen=openmp=0 > %t.serial.mlir
// RUN: for f in %t.mlir %t.serial.mlir; do \
// RUN:   mlir-runner $f -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out && \
// RUN:   %numpy_python %S/Inputs/reference.py concat_relu 2,16,24,9,23 %t.out \
// RUN:   || exit 1; done | FileCheck %s
// CHECK:      concat_relu OK, 16560 values, max error 0.0
// CHECK-NEXT: concat_relu OK, 16560 values, max error 0.0

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Element (i, j, k, l) = ((i * p0 + j * p1 + k * p2 + l * p3) mod 11) - 5.
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

#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @concat(%x: tensor<2x16x9x23xf32>, %y: tensor<2x24x9x23xf32>) -> tensor<2x40x9x23xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<2x16x9x23xf32>
  %a = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x16x9x23xf32>) outs(%e1 : tensor<2x16x9x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x16x9x23xf32>
  %e2 = tensor.empty() : tensor<2x24x9x23xf32>
  %b = linalg.generic {indexing_maps = [#nchw, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x24x9x23xf32>) outs(%e2 : tensor<2x24x9x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %one : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x24x9x23xf32>
  %c = tensor.concat dim(1) %a, %b : (tensor<2x16x9x23xf32>, tensor<2x24x9x23xf32>) -> tensor<2x40x9x23xf32>
  return %c : tensor<2x40x9x23xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @input(%n: index, %c: index, %h: index, %w: index, %p0: index, %p1: index, %p2: index, %p3: index) -> tensor<?x?x?x?xf32> {
  %e = tensor.empty(%n, %c, %h, %w) : tensor<?x?x?x?xf32>
  %x = call @init(%e, %p0, %p1, %p2, %p3)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  return %x : tensor<?x?x?x?xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c23 = arith.constant 23 : index
  %c24 = arith.constant 24 : index
  %x = call @input(%c2, %c16, %c9, %c23, %c7, %c3, %c5, %c2)
      : (index, index, index, index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %y = call @input(%c2, %c24, %c9, %c23, %c5, %c2, %c3, %c7)
      : (index, index, index, index, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x16x9x23xf32>
  %ys = tensor.cast %y : tensor<?x?x?x?xf32> to tensor<2x24x9x23xf32>
  %r = call @concat(%xs, %ys) : (tensor<2x16x9x23xf32>, tensor<2x24x9x23xf32>) -> tensor<2x40x9x23xf32>
  %u = tensor.cast %r : tensor<2x40x9x23xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
