// RUN: graph-opt %s --graph-to-stablehlo -split-input-file | FileCheck %s
// RUN: graph-opt %s --graph-to-stablehlo -split-input-file | graph-opt -split-input-file --verify-roundtrip > /dev/null

// Op by op: each graph op of a module without dist.task becomes the
// StableHLO of its semantics inside task module @main's @main.

// CHECK-LABEL: module @main attributes
// CHECK-SAME: graphrt.inputs = [{dtype = "f32", name = "a", shape = array<i64: 2, 3>}
// CHECK: func.func @main(%[[A:arg[0-9]+]]: tensor<2x3xf32> {graphc.name = "a"}, %[[B:arg[0-9]+]]: tensor<3xf32> {graphc.name = "b"}) -> (tensor<2x3xf32> {graphc.name = "y"})
// numpy broadcasting is explicit: b's one dimension is the last of a.
// CHECK: %[[BB:.*]] = "stablehlo.broadcast_in_dim"(%[[B]]) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[S:.*]] = "stablehlo.add"(%[[A]], %[[BB]])
// relu is max(x, 0).
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: %[[ZB:.*]] = "stablehlo.broadcast_in_dim"(%[[Z]]) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
// CHECK: %[[R:.*]] = "stablehlo.maximum"(%[[S]], %[[ZB]])
// CHECK: %[[E:.*]] = "stablehlo.logistic"(%[[R]])
// CHECK: return %[[E]]
// CHECK-NOT: graph.
func.func @main(%a: tensor<2x3xf32> {graph.name = "a"}, %b: tensor<3xf32> {graph.name = "b"}) -> (tensor<2x3xf32> {graph.name = "y"}) {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.sigmoid %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<8x784xf32>
// CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
func.func @main(%a: tensor<8x784xf32>, %b: tensor<784x10xf32>) -> tensor<8x10xf32> {
  %0 = graph.matmul %a, %b : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// Batch dimensions broadcast first (1 -> 2), rhs is transposed by
// contracting its last dimension.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x4x16x64xf32>
// CHECK: %[[K:.*]] = "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1, 2, 3>} : (tensor<1x16x64xf32>) -> tensor<2x4x16x64xf32>
// CHECK: "stablehlo.dot_general"(%{{.*}}, %[[K]]) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>) -> tensor<2x4x16x16xf32>
func.func @main(%q: tensor<2x4x16x64xf32>, %k: tensor<1x16x64xf32>) -> tensor<2x4x16x16xf32> {
  %0 = graph.matmul %q, %k {transpose_rhs} : (tensor<2x4x16x64xf32>, tensor<1x16x64xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// -----

// A matrix-vector product: the vector is a column, dropped after.
// CHECK-LABEL: func.func @main(%arg0: tensor<3x4xf32>
// CHECK: "stablehlo.reshape"(%{{.*}}) : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK: "stablehlo.dot_general"{{.*}} -> tensor<3x1xf32>
// CHECK: "stablehlo.reshape"(%{{.*}}) : (tensor<3x1xf32>) -> tensor<3xf32>
func.func @main(%a: tensor<3x4xf32>, %v: tensor<4xf32>) -> tensor<3xf32> {
  %0 = graph.matmul %a, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Strides, padding and bias; the bias is broadcast along the channels.
// CHECK-LABEL: func.func @main(%arg0: tensor<1x3x224x224xf32>
// CHECK: %[[C:.*]] = "stablehlo.convolution"(%{{.*}}, %{{.*}}) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x110x110xf32>
// CHECK: %[[BB:.*]] = "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<64xf32>) -> tensor<1x64x110x110xf32>
// CHECK: "stablehlo.add"(%[[C]], %[[BB]])
func.func @main(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> tensor<1x64x110x110xf32> {
  %0 = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x110x110xf32>
  return %0 : tensor<1x64x110x110xf32>
}

// -----

// Grouped 1-d convolution.
// CHECK-LABEL: func.func @main(%arg0: tensor<1x4x6xf32>
// CHECK: #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 2 : i64
func.func @main(%x: tensor<1x4x6xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x4xf32> {
  %0 = graph.conv %x, %w {groups = 2 : i64} : (tensor<1x4x6xf32>, tensor<4x2x3xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

// Max pooling pads with -inf (the max's identity).
// CHECK-LABEL: func.func @main(%arg0: tensor<1x64x112x112xf32>
// CHECK: %[[NINF:.*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>}
// CHECK: "stablehlo.reduce_window"(%{{.*}}, %[[NINF]]) ({
// CHECK: "stablehlo.maximum"
// CHECK: }) {padding = dense<{{\[\[}}0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<1x64x112x112xf32>, tensor<f32>) -> tensor<1x64x56x56xf32>
func.func @main(%x: tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind max>, window = array<i64: 3, 3>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// Average pooling with padding excluded divides each window's sum by the
// count of real elements (a sum of ones over the same windows).
// CHECK-LABEL: func.func @main(%arg0: tensor<1x2x7x7xf32>
// CHECK: %[[SUM:.*]] = "stablehlo.reduce_window"
// CHECK: "stablehlo.add"
// CHECK: %[[CNT:.*]] = "stablehlo.reduce_window"
// CHECK: "stablehlo.divide"(%[[SUM]], %[[CNT]])
func.func @main(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  %0 = graph.pool %x {kind = #graph<pool_kind avg>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>, pad_low = array<i64: 1, 1>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Mean over axes 0 and -1, kept: a reduce, a division, a reshape.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x3x4xf32>
// CHECK: %[[R:.*]] = "stablehlo.reduce"(%{{.*}}, %{{.*}}) ({
// CHECK: }) {dimensions = array<i64: 0, 2>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: %[[EIGHT:.*]] = "stablehlo.constant"() {value = dense<8.000000e+00> : tensor<f32>}
// CHECK: %[[D:.*]] = "stablehlo.divide"(%[[R]],
// CHECK: "stablehlo.reshape"(%[[D]]) : (tensor<3xf32>) -> tensor<1x3x1xf32>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = graph.reduce %x {axes = array<i64: 0, -1>, keepdims, kind = #graph<reduce_kind mean>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

// Integer max starts from the type's minimum.
// CHECK-LABEL: func.func @main(%arg0: tensor<4x5xi32>
// CHECK: "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>}
// CHECK: "stablehlo.reduce"
// CHECK: "stablehlo.maximum"
func.func @main(%x: tensor<4x5xi32>) -> tensor<4xi32> {
  %0 = graph.reduce %x {axes = array<i64: 1>, kind = #graph<reduce_kind max>} : (tensor<4x5xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// softmax: the row max subtracted, exp, divided by the row sum.
// CHECK-LABEL: func.func @main(%arg0: tensor<8x10xf32>
// CHECK: %[[M:.*]] = "stablehlo.reduce"
// CHECK: "stablehlo.maximum"
// CHECK: %[[MB:.*]] = "stablehlo.broadcast_in_dim"(%[[M]]) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x10xf32>
// CHECK: %[[SH:.*]] = "stablehlo.subtract"(%{{.*}}, %[[MB]])
// CHECK: %[[E:.*]] = "stablehlo.exponential"(%[[SH]])
// CHECK: %[[S:.*]] = "stablehlo.reduce"(%[[E]]
// CHECK: %[[SB:.*]] = "stablehlo.broadcast_in_dim"(%[[S]])
// CHECK: "stablehlo.divide"(%[[E]], %[[SB]])
func.func @main(%x: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %0 = graph.softmax %x : (tensor<8x10xf32>) -> tensor<8x10xf32>
  return %0 : tensor<8x10xf32>
}

// -----

// Inference batch norm folds to x * factor + shift per channel.
// CHECK-LABEL: func.func @main(%arg0: tensor<8x16x4x4xf32>
// CHECK: "stablehlo.rsqrt"
// CHECK: %[[F:.*]] = "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16x4x4xf32>
// CHECK: "stablehlo.multiply"(%{{.*}}, %[[F]])
// CHECK: "stablehlo.add"
func.func @main(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<8x16x4x4xf32> {
  %0 = graph.batch_norm %x, %s, %b, %m, %v : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<8x16x4x4xf32>
  return %0 : tensor<8x16x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @main(%arg0: tensor<4x8x16xf32>
// CHECK: "stablehlo.reduce"
// CHECK: }) {dimensions = array<i64: 2>} : (tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK: "stablehlo.rsqrt"
func.func @main(%x: tensor<4x8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x8x16xf32> {
  %0 = graph.layer_norm %x, %g, %b {axis = 2 : i64} : (tensor<4x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// Data movement.
// CHECK-LABEL: func.func @main(%arg0: tensor<2x3xf32>
// CHECK: "stablehlo.transpose"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: "stablehlo.reshape"(%{{.*}}) : (tensor<3x2xf32>) -> tensor<6xf32>
// CHECK: "stablehlo.concatenate"(%{{.*}}, %{{.*}}) {dimension = 0 : i64} : (tensor<6xf32>, tensor<6xf32>) -> tensor<12xf32>
// CHECK: "stablehlo.slice"(%{{.*}}) {limit_indices = array<i64: 11>, start_indices = array<i64: 1>, strides = array<i64: 2>} : (tensor<12xf32>) -> tensor<5xf32>
// CHECK: "stablehlo.pad"(%{{.*}}, %{{.*}}) {edge_padding_high = array<i64: 2>, edge_padding_low = array<i64: 1>, interior_padding = array<i64: 0>} : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
func.func @main(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.reshape %0 {shape = array<i64: 6>} : (tensor<3x2xf32>) -> tensor<6xf32>
  %2 = graph.concat %1, %1 {axis = 0 : i64} : (tensor<6xf32>, tensor<6xf32>) -> tensor<12xf32>
  %3 = graph.slice %2 {starts = array<i64: 1>, limits = array<i64: 11>, strides = array<i64: 2>} : (tensor<12xf32>) -> tensor<5xf32>
  %4 = graph.pad %3, %v {low = array<i64: 1>, high = array<i64: 2>} : (tensor<5xf32>, tensor<f32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// -----

// Gather along axis 0: negative indices wrap, one row per index.
// CHECK-LABEL: func.func @main(%arg0: tensor<1000x64xf32>
// CHECK: %[[NEG:.*]] = "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}
// CHECK: %[[IDX:.*]] = "stablehlo.select"(%[[NEG]]
// CHECK: "stablehlo.gather"(%{{.*}}, %[[IDX]]) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
func.func @main(%t: tensor<1000x64xf32>, %i: tensor<8x16xi64>) -> tensor<8x16x64xf32> {
  %0 = graph.gather %t, %i {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<8x16xi64>) -> tensor<8x16x64xf32>
  return %0 : tensor<8x16x64xf32>
}

// -----

// compare, select with a scalar branch, cast.
// CHECK-LABEL: func.func @main(%arg0: tensor<4xf32>
// CHECK: %[[C:.*]] = "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[Z:.*]] = "stablehlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
// CHECK: %[[S:.*]] = "stablehlo.select"(%[[C]], %{{.*}}, %[[Z]])
// CHECK: "stablehlo.convert"(%[[S]]) : (tensor<4xf32>) -> tensor<4xf16>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf16> {
  %c = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = graph.select %c, %a, %z : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = graph.cast %0 {to = f16} : (tensor<4xf32>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// Variables: read as arguments after the inputs, assigned values returned
// after the outputs.
// CHECK: module @main
// CHECK-SAME: graphrt.variables = [{dtype = "f32", name = "w", shape = array<i64: 4>, value = dense<1.000000e+00> : tensor<4xf32>}]
// CHECK: func.func @main(%[[G:arg[0-9]+]]: tensor<4xf32> {graphc.name = "g"}, %[[W:arg[0-9]+]]: tensor<4xf32> {graphc.name = "w"}) -> (tensor<4xf32> {graphc.name = "loss"}, tensor<4xf32> {graphc.name = "w", graphc.updates = "w"})
// CHECK: %[[NEW:.*]] = "stablehlo.subtract"(%[[W]], %[[G]])
// CHECK: return %[[W]], %[[NEW]]
// CHECK-NOT: graph.variable
graph.variable @w : tensor<4xf32> = dense<1.0>
func.func @main(%g: tensor<4xf32> {graph.name = "g"}) -> (tensor<4xf32> {graph.name = "loss"}) {
  %w = graph.read_variable @w : tensor<4xf32>
  graph.assign_variable @w, %g mode = sub : tensor<4xf32>
  return %w : tensor<4xf32>
}
