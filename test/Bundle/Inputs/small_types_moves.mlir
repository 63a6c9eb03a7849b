// Data movement on small types (test/Bundle/small-types.test): bytes move.
func.func @main(%x: tensor<2x3xf8E4M3FN>, %i: tensor<3xi4>) -> (tensor<3x2xf8E4M3FN>, tensor<4x3xf8E4M3FN>, tensor<2x5xf8E4M3FN>, tensor<6xi4>) {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf8E4M3FN>) -> tensor<3x2xf8E4M3FN>
  %k = graph.concat %x, %x {axis = 0 : i64} : (tensor<2x3xf8E4M3FN>, tensor<2x3xf8E4M3FN>) -> tensor<4x3xf8E4M3FN>
  %z = graph.constant dense<0.5> : tensor<f8E4M3FN>
  %p = graph.pad %x, %z {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : (tensor<2x3xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<2x5xf8E4M3FN>
  %j = graph.concat %i, %i {axis = 0 : i64} : (tensor<3xi4>, tensor<3xi4>) -> tensor<6xi4>
  return %t, %k, %p, %j : tensor<3x2xf8E4M3FN>, tensor<4x3xf8E4M3FN>, tensor<2x5xf8E4M3FN>, tensor<6xi4>
}
