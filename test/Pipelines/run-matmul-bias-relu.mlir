// Numeric check of the CPU pipeline: matmul with odd sizes (partial register
// tiles, masked vectors), a bias add and a ReLU that elementwise fusion merges.
// The result is compared with NumPy, which builds the inputs from the same
// formula (Inputs/reference.py).
// REQUIRES: libomp
// RUN: graph-opt %s --graphc-cpu-codegen="parallel-m=16 parallel-n=32" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.out
// RUN: %numpy_python %S/Inputs/reference.py matmul_bias_relu 37,29,45 %t.out
// RUN: graph-opt %s --graphc-cpu-codegen="openmp=0 mr=4 nr=16 kc=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.serial.out
// RUN: %numpy_python %S/Inputs/reference.py matmul_bias_relu 37,29,45 %t.serial.out

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

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
    %x = arith.muli %i, %p0 : index
    %y = arith.muli %j, %p1 : index
    %s = arith.addi %x, %y : index
    %v = arith.remui %s, %c11 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    %e = arith.subf %vf, %five : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @matmul_bias_relu(%a: tensor<37x29xf32>, %b: tensor<29x45xf32>,
                            %bias: tensor<45xf32>) -> tensor<37x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x45xf32>) -> tensor<37x45xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x45xf32>)
                      outs(%f : tensor<37x45xf32>) -> tensor<37x45xf32>
  %biased = linalg.generic {indexing_maps = [#id2, #row, #id2],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<37x45xf32>, tensor<45xf32>) outs(%e : tensor<37x45xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x45xf32>
  %relu = linalg.generic {indexing_maps = [#id2, #id2],
                          iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<37x45xf32>) outs(%e : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<37x45xf32>
  return %relu : tensor<37x45xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c29 = arith.constant 29 : index
  %c37 = arith.constant 37 : index
  %c45 = arith.constant 45 : index
  %c1 = arith.constant 1 : index
  %ea = tensor.empty(%c37, %c29) : tensor<?x?xf32>
  %a = call @init(%ea, %c7, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %eb = tensor.empty(%c29, %c45) : tensor<?x?xf32>
  %b = call @init(%eb, %c5, %c2) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  // The bias is row 0 of input 2 (P = [3, 7]).
  %ec = tensor.empty(%c1, %c45) : tensor<?x?xf32>
  %c = call @init(%ec, %c3, %c7) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %a : tensor<?x?xf32> to tensor<37x29xf32>
  %bs = tensor.cast %b : tensor<?x?xf32> to tensor<29x45xf32>
  %cs = tensor.extract_slice %c[0, 0] [1, 45] [1, 1] : tensor<?x?xf32> to tensor<45xf32>
  %r = call @matmul_bias_relu(%as, %bs, %cs)
      : (tensor<37x29xf32>, tensor<29x45xf32>, tensor<45xf32>) -> tensor<37x45xf32>
  %u = tensor.cast %r : tensor<37x45xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
