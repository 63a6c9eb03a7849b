// Numeric check of lane partial sums (CpuInnerDims.cpp): batch norm's
// per-channel sum over N, H, W of a fused product, 1 + sum((x - b[c]) * y),
// once with H*W = 63 (three whole vectors of 16 and a tail of 15; with
// vector-width=8, seven vectors and a tail of 7) and once with H*W = 32
// (no tail). Compared with NumPy (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py channel_sums 3,5,7,9 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out8
// RUN: %numpy_python %S/Inputs/reference.py channel_sums 3,5,7,9 %t.out8
// RUN: graph-opt %s --graphc-cpu-codegen="vector-width=16" \
// RUN: | mlir-runner -e main_even -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.even
// RUN: %numpy_python %S/Inputs/reference.py channel_sums 2,4,4,8 %t.even

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#out = affine_map<(d0, d1, d2, d3) -> (d1)>

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

func.func @sums(%x: tensor<3x5x7x9xf32>, %y: tensor<3x5x7x9xf32>,
                %b: tensor<1x5x1x1xf32>) -> tensor<5xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %i = linalg.fill ins(%one : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #chan, #out],
                       iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %y, %b : tensor<3x5x7x9xf32>, tensor<3x5x7x9xf32>, tensor<1x5x1x1xf32>)
      outs(%i : tensor<5xf32>) {
  ^bb0(%a: f32, %g: f32, %m: f32, %acc: f32):
    %c = arith.subf %a, %m : f32
    %p = arith.mulf %c, %g : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %s : tensor<5xf32>
}

func.func @sums_even(%x: tensor<2x4x4x8xf32>, %y: tensor<2x4x4x8xf32>,
                     %b: tensor<1x4x1x1xf32>) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #chan, #out],
                       iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x, %y, %b : tensor<2x4x4x8xf32>, tensor<2x4x4x8xf32>, tensor<1x4x1x1xf32>)
      outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %g: f32, %m: f32, %acc: f32):
    %c = arith.subf %a, %m : f32
    %p = arith.mulf %c, %g : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %ex = tensor.empty(%c3, %c5, %c7, %c9) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %y = call @init(%ex, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c5, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<3x5x7x9xf32>
  %ys = tensor.cast %y : tensor<?x?x?x?xf32> to tensor<3x5x7x9xf32>
  %bs = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x5x1x1xf32>
  %r = call @sums(%xs, %ys, %bs)
      : (tensor<3x5x7x9xf32>, tensor<3x5x7x9xf32>, tensor<1x5x1x1xf32>) -> tensor<5xf32>
  %u = tensor.cast %r : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main_even() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %ex = tensor.empty(%c2, %c4, %c4, %c8) : tensor<?x?x?x?xf32>
  %x = call @init(%ex, %c7, %c3, %c5, %c2)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %y = call @init(%ex, %c5, %c2, %c3, %c7)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %eb = tensor.empty(%c1, %c4, %c1, %c1) : tensor<?x?x?x?xf32>
  %b = call @init(%eb, %c3, %c7, %c2, %c5)
      : (tensor<?x?x?x?xf32>, index, index, index, index) -> tensor<?x?x?x?xf32>
  %xs = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<2x4x4x8xf32>
  %ys = tensor.cast %y : tensor<?x?x?x?xf32> to tensor<2x4x4x8xf32>
  %bs = tensor.cast %b : tensor<?x?x?x?xf32> to tensor<1x4x1x1xf32>
  %r = call @sums_even(%xs, %ys, %bs)
      : (tensor<2x4x4x8xf32>, tensor<2x4x4x8xf32>, tensor<1x4x1x1xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
