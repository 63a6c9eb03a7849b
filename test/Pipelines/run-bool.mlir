// Numeric check of the CPU pipeline on i1 tensors. Memory holds one byte per
// i1 element, so the vectoriser must not pack i1 vectors into bits: ops that
// read or write i1 stay scalar. not, or, xor, compare on i1 and arg_reduce
// over an i1 tensor, each on 2x3 inputs, every result cast to i32 or i64.
// Expected values worked out by hand.
// REQUIRES: libomp
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp \
// RUN: | FileCheck %s

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @compute(%p: tensor<2x3xi1>, %q: tensor<3xi1>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2xi64>) {
  %notb = graph.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %noti = graph.cast %notb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %orb = graph.or %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %ori = graph.cast %orb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %xorb = graph.xor %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %xori = graph.cast %xorb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %ltb = graph.compare %p, %q {direction = #graph<compare_direction lt>} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %lti = graph.cast %ltb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %amax = graph.arg_reduce %p {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xi1>) -> tensor<2xi64>
  return %noti, %ori, %xori, %lti, %amax : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2xi64>
}

func.func @main() {
  %p = arith.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  %q = arith.constant dense<[true, false, false]> : tensor<3xi1>
  %n, %o, %x, %l, %a = call @compute(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2xi64>)
  %un = tensor.cast %n : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%un) : (tensor<*xi32>) -> ()
  %uo = tensor.cast %o : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%uo) : (tensor<*xi32>) -> ()
  %ux = tensor.cast %x : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%ux) : (tensor<*xi32>) -> ()
  %ul = tensor.cast %l : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%ul) : (tensor<*xi32>) -> ()
  %ua = tensor.cast %a : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%ua) : (tensor<*xi64>) -> ()
  return
}

// p = [[1, 0, 1], [0, 0, 1]], q = [1, 0, 0] (broadcast over rows).
// not p
// CHECK:      data =
// CHECK-NEXT: {{\[}}[0, 1, 0],
// CHECK-NEXT: [1, 1, 0]]
// p or q
// CHECK:      data =
// CHECK-NEXT: {{\[}}[1, 0, 1],
// CHECK-NEXT: [1, 0, 1]]
// p xor q
// CHECK:      data =
// CHECK-NEXT: {{\[}}[0, 0, 1],
// CHECK-NEXT: [1, 0, 1]]
// p < q (false < true only)
// CHECK:      data =
// CHECK-NEXT: {{\[}}[0, 0, 0],
// CHECK-NEXT: [1, 0, 0]]
// argmax over each row, first index of the maximum
// CHECK:      data =
// CHECK-NEXT: [0,  2]
