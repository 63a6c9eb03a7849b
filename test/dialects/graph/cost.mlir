// RUN: graph-opt %s --graph-print-cost --split-input-file --verify-diagnostics

// Every figure below is worked out by hand from the op's shapes; bytes are
// 4 per f32 element (8 per i64) over all operands and results.

// Total flops: 125440 + 901120 + 7776 + 2400 + 16384 + 40960 + 400 + 408
//   + 296 + 672 + 146160 + 20 + 127 + 1984 = 1244147.
// Total bytes: 56768 + 79616 + 2320 + 1792 + 81920 + 32768 + 640 + 640 + 640
//   + 720 + 14240 + 124 + 304 + 2944 = 275436.
// expected-remark @+1 {{total flops = 1244147, bytes = 275436}}
func.func @costs(%a: tensor<8x784xf32>, %w: tensor<784x10xf32>,
                 %x: tensor<1x3x32x32xf32>, %k: tensor<16x3x3x3xf32>, %b: tensor<16xf32>,
                 %xg: tensor<1x4x8x8xf32>, %kg: tensor<6x2x3x3xf32>,
                 %xt: tensor<1x4x5x5xf32>, %kt: tensor<4x3x2x2xf32>,
                 %l: tensor<8x10xf32>, %s10: tensor<10xf32>,
                 %xb: tensor<2x4x3x3xf32>, %c: tensor<4xf32>,
                 %sx: tensor<7x4x10xf32>, %sw: tensor<1x80x10xf32>, %sr: tensor<1x80x20xf32>, %sb: tensor<1x160xf32>,
                 %p: tensor<10xf32>, %s: tensor<f32>,
                 %logits: tensor<32x10xf32>, %idx: tensor<32xi64>) {
  // M*N = 80 outputs, K = 784: 2 * 80 * 784 = 125440.
  // Bytes: (6272 + 7840 + 80) * 4 = 56768.
  // expected-remark @+1 {{flops = 125440, bytes = 56768}}
  %0 = graph.matmul %a, %w : (tensor<8x784xf32>, tensor<784x10xf32>) -> tensor<8x10xf32>

  // N*O*prod(out) = 16 * 32 * 32 = 16384 outputs, (C/groups)*prod(K) = 3 * 9
  // = 27 taps: 2 * 16384 * 27 = 884736, plus 16384 bias adds = 901120.
  // Bytes: (3072 + 432 + 16 + 16384) * 4 = 79616.
  // expected-remark @+1 {{flops = 901120, bytes = 79616}}
  %1 = graph.conv %x, %k, %b {pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x32x32xf32>

  // Two groups: 6 * 6 * 6 = 216 outputs, 2 * 9 = 18 taps: 2 * 216 * 18 = 7776.
  // Bytes: (256 + 108 + 216) * 4 = 2320.
  // expected-remark @+1 {{flops = 7776, bytes = 2320}}
  %2 = graph.conv %xg, %kg {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>

  // 100 input elements, each through (O/groups) * prod(K) = 3 * 4 = 12 taps:
  // 2 * 100 * 12 = 2400. Output 2 * (5 - 1) + 2 = 10 per side.
  // Bytes: (100 + 48 + 300) * 4 = 1792.
  // expected-remark @+1 {{flops = 2400, bytes = 1792}}
  %3 = graph.conv_transpose %xt, %kt {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x3x2x2xf32>) -> tensor<1x3x10x10xf32>

  // 16 * 16 * 16 = 4096 outputs, 4 comparisons each: 16384.
  // Bytes: (16384 + 4096) * 4 = 81920.
  // expected-remark @+1 {{flops = 16384, bytes = 81920}}
  %4 = graph.pool %1 {kind = #graph<pool_kind max>, window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>

  // 4096 outputs, 9 adds and 1 division each: 40960.
  // Bytes: (4096 + 4096) * 4 = 32768.
  // expected-remark @+1 {{flops = 40960, bytes = 32768}}
  %5 = graph.pool %4 {kind = #graph<pool_kind avg>, window = array<i64: 3, 3>, pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>

  // 5 * 80 = 400. Bytes: (80 + 80) * 4 = 640.
  // expected-remark @+1 {{flops = 400, bytes = 640}}
  %6 = graph.softmax %l : (tensor<8x10xf32>) -> tensor<8x10xf32>

  // 5 * 80 + 8 logarithms (one per row of 10) = 408.
  // expected-remark @+1 {{flops = 408, bytes = 640}}
  %7 = graph.log_softmax %l : (tensor<8x10xf32>) -> tensor<8x10xf32>

  // 4 * 72 elements + 2 * 4 channels = 296.
  // Bytes: (72 + 4 * 4 + 72) * 4 = 640.
  // expected-remark @+1 {{flops = 296, bytes = 640}}
  %8 = graph.batch_norm %xb, %c, %c, %c, %c : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>

  // With bias: 8 * 80 + 4 * 8 groups = 672.
  // Bytes: (80 + 10 + 10 + 80) * 4 = 720.
  // expected-remark @+1 {{flops = 672, bytes = 720}}
  %9 = graph.layer_norm %l, %s10, %s10 : (tensor<8x10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<8x10xf32>

  // H = 20, input 10: per step, direction and row 8 * 20 * 30 = 4800 (gate
  // products) + 80 (adding them) + 160 (bias) + 180 (cell) = 5220; 7 steps *
  // 1 direction * 4 rows = 28: 146160.
  // Bytes: (280 + 800 + 1600 + 160 + 560 + 80 + 80) * 4 = 14240.
  // expected-remark @+1 {{flops = 146160, bytes = 14240}}
  %10:3 = graph.lstm %sx, %sw, %sr bias(%sb) {hidden_size = 20 : i64} : (tensor<7x4x10xf32>, tensor<1x80x10xf32>, tensor<1x80x20xf32>, tensor<1x160xf32>) -> (tensor<7x1x4x20xf32>, tensor<1x4x20xf32>, tensor<1x4x20xf32>)

  // 2 * 10 = 20. Bytes: (10 + 10 + 1 + 10) * 4 = 124.
  // expected-remark @+1 {{flops = 20, bytes = 124}}
  %11 = graph.sgd_update %p, %p, %s : (tensor<10xf32>, tensor<10xf32>, tensor<f32>) -> tensor<10xf32>

  // 12 * 10 + 7 = 127. Bytes: (4 * 10 + 6 + 3 * 10) * 4 = 304.
  // expected-remark @+1 {{flops = 127, bytes = 304}}
  %12:3 = graph.adam_update %p, %p, %p, %p, %s, %s, %s, %s, %s, %s : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)

  // Sparse: 6 * 320 + 2 * 32 = 1984.
  // Bytes: 1280 (logits) + 256 (i64 labels) + 128 (loss) + 1280 (grad) = 2944.
  // expected-remark @+1 {{flops = 1984, bytes = 2944}}
  %13:2 = graph.softmax_cross_entropy %logits, %idx {sparse} : (tensor<32x10xf32>, tensor<32xi64>) -> (tensor<32xf32>, tensor<32x10xf32>)
  return
}

// -----

// LRN: (size + 5) per element; a dynamic shape leaves it unknown.
// expected-remark @+1 {{total flops = ?, bytes = ?}}
func.func @lrn(%x: tensor<1x4x3x3xf32>, %d: tensor<?x4x3x3xf32>) {
  // 36 elements * (5 + 5) = 360. Bytes: (36 + 36) * 4 = 288.
  // expected-remark @+1 {{flops = 360, bytes = 288}}
  %0 = graph.lrn %x {size = 5 : i64} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  // expected-remark @+1 {{flops = ?, bytes = ?}}
  %1 = graph.lrn %d {size = 2 : i64} : (tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
  return
}

// -----

// A dynamic shape makes a figure unknown, and so the total.
// expected-remark @+1 {{total flops = ?, bytes = ?}}
func.func @dynamic(%x: tensor<?x3x32x32xf32>, %k: tensor<16x3x3x3xf32>, %v: tensor<4xf32>, %s: tensor<f32>) {
  // expected-remark @+1 {{flops = ?, bytes = ?}}
  %0 = graph.conv %x, %k : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<?x16x30x30xf32>
  // Momentum with nesterov: 7 * 4 = 28. Bytes: (3 * 4 + 2 + 2 * 4) * 4 = 88.
  // expected-remark @+1 {{flops = 28, bytes = 88}}
  %1:2 = graph.momentum_update %v, %v, %v, %s, %s {nesterov} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

graph.variable @w : tensor<8x10xf32>

// Reads move bytes but compute nothing; add/sub assignments do one operation
// per element, a plain assignment none.
// expected-remark @+1 {{total flops = 80, bytes = 960}}
func.func @state(%v: tensor<8x10xf32>) {
  // 80 * 4 = 320 bytes.
  // expected-remark @+1 {{flops = 0, bytes = 320}}
  %0 = graph.read_variable @w : tensor<8x10xf32>
  // expected-remark @+1 {{flops = 80, bytes = 320}}
  graph.assign_variable @w, %v mode = add : tensor<8x10xf32>
  // expected-remark @+1 {{flops = 0, bytes = 320}}
  graph.assign_variable @w, %0 : tensor<8x10xf32>
  return
}
