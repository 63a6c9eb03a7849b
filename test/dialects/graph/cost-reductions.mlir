// RUN: graph-opt %s --graph-print-cost --verify-diagnostics -o /dev/null

// Reductions cost one operation per input element (8 * 16 = 128), not per
// output element; bytes are the f32 input (512) plus the output.
// expected-remark @below {{total flops = 256, bytes = 1184}}
func.func @reductions(%x: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<16xi64>) {
  // expected-remark @below {{flops = 128, bytes = 544}}
  %r = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<8x16xf32>) -> tensor<8xf32>
  // expected-remark @below {{flops = 128, bytes = 640}}
  %i = graph.arg_reduce %x {axis = 0 : i64, kind = #graph<reduce_kind max>} : (tensor<8x16xf32>) -> tensor<16xi64>
  return %r, %i : tensor<8xf32>, tensor<16xi64>
}
