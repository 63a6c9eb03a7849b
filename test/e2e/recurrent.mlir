// graph.lstm and graph.gru: forward with every optional operand, bidirectional
// with sequence_lens, reverse with clip and other activations (LSTM also
// input_forget, GRU also linear_before_reset). Expected values: reference.py
// (ONNX's formulas in NumPy, checked there against torch.nn.LSTM/GRU).
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py recurrent %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py recurrent %t.cpu | FileCheck %s
// CHECK: recurrent: 15 results match NumPy

func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%x: tensor<3x2x4xf32>, %lw: tensor<2x12x4xf32>, %lr: tensor<2x12x3xf32>, %lb: tensor<2x24xf32>, %lw1: tensor<1x12x4xf32>, %lr1: tensor<1x12x3xf32>, %lb1: tensor<1x24xf32>, %lp1: tensor<1x9xf32>, %lh1: tensor<1x2x3xf32>, %lc1: tensor<1x2x3xf32>, %gw: tensor<2x9x4xf32>, %gr: tensor<2x9x3xf32>, %gb: tensor<2x18xf32>, %gh: tensor<2x2x3xf32>, %gw1: tensor<1x9x4xf32>, %gr1: tensor<1x9x3xf32>, %gb1: tensor<1x18xf32>, %gh1: tensor<1x2x3xf32>)
    -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>) {
  %sl = graph.constant dense<[3, 2]> : tensor<2xi32>
  %sl2 = graph.constant dense<[1, 3]> : tensor<2xi32>
  %o0:3 = graph.lstm %x, %lw1, %lr1 bias(%lb1) initial_h(%lh1) initial_c(%lc1) peepholes(%lp1) {hidden_size = 3 : i64}
      : (tensor<3x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x9xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  %o1:3 = graph.lstm %x, %lw, %lr bias(%lb) sequence_lens(%sl) {hidden_size = 3 : i64, direction = #graph<rnn_direction bidirectional>}
      : (tensor<3x2x4xf32>, tensor<2x12x4xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<2xi32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>)
  %o2:3 = graph.lstm %x, %lw1, %lr1 bias(%lb1) {hidden_size = 3 : i64, direction = #graph<rnn_direction reverse>, clip = 5.000000e-01 : f32, input_forget, activations = ["Sigmoid", "Relu", "Softsign"]}
      : (tensor<3x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  %o3:2 = graph.gru %x, %gw1, %gr1 bias(%gb1) initial_h(%gh1) {hidden_size = 3 : i64}
      : (tensor<3x2x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<1x2x3xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  %o4:2 = graph.gru %x, %gw, %gr bias(%gb) sequence_lens(%sl2) initial_h(%gh) {hidden_size = 3 : i64, direction = #graph<rnn_direction bidirectional>, linear_before_reset}
      : (tensor<3x2x4xf32>, tensor<2x9x4xf32>, tensor<2x9x3xf32>, tensor<2x18xf32>, tensor<2xi32>, tensor<2x2x3xf32>) -> (tensor<3x2x2x3xf32>, tensor<2x2x3xf32>)
  %o5:2 = graph.gru %x, %gw1, %gr1 {hidden_size = 3 : i64, direction = #graph<rnn_direction reverse>, clip = 1.000000e+00 : f32, activations = ["Softsign", "Softplus"]}
      : (tensor<3x2x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  return %o0#0, %o0#1, %o0#2, %o1#0, %o1#1, %o1#2, %o2#0, %o2#1, %o2#2, %o3#0, %o3#1, %o4#0, %o4#1, %o5#0, %o5#1
      : tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[[1.92, -1.97, -1.93, 1.63],  [1.91, -1.01, -1.99, -1.27]], [[-0.35, 1.50, -1.83, -0.77],  [-1.33, 1.15, -1.81, -0.26]], [[1.59, -1.75, 1.79, 0.93],  [1.52, -1.09, 0.48, 0.51]]]> : tensor<3x2x4xf32>
  %lw = arith.constant dense<[[[-0.76, 1.51, -0.43, -1.14],  [1.47, -1.24, -0.90, -0.67],  [-1.74, 1.41, 0.05, -0.16],  [0.45, 1.61, -1.23, 0.85],  [1.84, 0.42, 1.18, 1.89],  [-0.99, 0.58, 1.28, -0.35],  [-0.51, 0.34, 0.85, -0.15],  [1.46, -1.78, 1.48, 0.44],  [0.79, -1.30, 0.45, 1.99],  [-1.52, 1.30, 1.19, -0.76],  [1.86, -0.57, -0.54, -0.73],  [-1.32, -1.93, -1.12, -0.07]], [[1.06, -0.42, 0.35, 0.23],  [1.59, 0.19, 1.55, 0.15],  [-1.72, 1.88, -1.63, -1.89],  [1.13, -0.24, -0.24, 0.17],  [-0.49, 1.67, 0.68, 0.90],  [-1.94, -1.09, 0.78, 0.62],  [1.52, 0.54, -1.78, -0.02],  [0.78, 1.87, -0.78, -0.12],  [-1.12, -0.74, 1.06, -1.07],  [1.28, 0.61, 1.21, 1.05],  [-1.37, 1.98, 0.28, 1.56],  [0.32, 1.18, -0.67, 0.58]]]> : tensor<2x12x4xf32>
  %lr = arith.constant dense<[[[-1.60, -0.24, -0.12],  [1.76, -0.06, -0.38],  [0.66, -0.65, 1.46],  [1.50, 0.94, -0.96],  [1.21, -1.41, 1.37],  [0.82, 1.21, 0.83],  [1.90, -0.02, 0.51],  [-0.03, -1.57, 0.29],  [1.62, 1.40, 1.81],  [1.37, 1.15, -1.57],  [-1.69, -1.46, 1.13],  [-1.82, -1.02, 0.22]], [[0.51, -1.11, 0.43],  [1.03, 1.09, 1.23],  [-1.82, -1.58, 0.33],  [1.16, 0.35, 0.53],  [-0.10, 1.37, -0.35],  [-0.89, 1.63, 1.69],  [1.21, -1.47, -0.21],  [-0.26, 1.14, -1.17],  [-1.34, 1.14, -1.66],  [-1.26, -0.24, 1.76],  [-0.65, -1.16, -0.56],  [0.59, -1.35, 1.72]]]> : tensor<2x12x3xf32>
  %lb = arith.constant dense<[[-1.62, 1.66, 1.10, -0.25, 1.07, 1.32, -0.34, -0.76, 0.25, -0.81, -1.83, 0.80, 1.12, -0.47, -0.76, 0.94, 0.19, 1.72, 0.93, 1.94, -0.33, -1.32, -1.95, -1.14], [0.55, -1.52, 1.81, 1.30, 1.91, -0.54, 1.75, -1.77, 2.00, -0.28, 0.21, -1.30, -0.01, 0.80, 1.29, -1.36, 0.43, -1.94, -1.16, -1.54, -1.78, 1.70, -1.85, -1.60]]> : tensor<2x24xf32>
  %lw1 = arith.constant dense<[[[0.56, 0.84, -0.92, -1.69],  [1.51, 0.48, 0.95, -0.19],  [-1.79, -0.42, -1.15, 0.55],  [1.15, 1.35, -0.97, 1.09],  [-0.33, 0.22, 0.32, 1.10],  [1.06, -1.43, -1.08, -0.38],  [-1.08, 0.60, 1.51, -0.80],  [0.62, -1.74, -1.06, 0.01],  [0.51, -0.62, 0.73, -0.14],  [0.39, -0.26, 2.00, 1.73],  [1.08, 1.73, 0.37, 0.91],  [-0.79, -0.93, 1.78, 1.29]]]> : tensor<1x12x4xf32>
  %lr1 = arith.constant dense<[[[-1.24, 1.22, -0.99],  [0.44, 0.82, -0.47],  [-0.51, 0.28, 0.81],  [0.72, -1.30, 1.94],  [-1.72, -1.26, -0.50],  [0.45, 0.27, 1.75],  [-0.60, 1.37, -0.03],  [1.87, -1.29, 1.64],  [1.11, -0.96, -1.88],  [0.32, -1.38, -0.17],  [-0.85, 1.56, -0.44],  [0.62, -0.10, 1.92]]]> : tensor<1x12x3xf32>
  %lb1 = arith.constant dense<[[0.28, -1.08, 0.35, 0.79, 1.76, 1.20, -0.50, 2.00, 0.16, -1.65, -0.32, -1.02, 0.96, -0.12, -1.24, 1.32, -1.99, 0.95, 1.77, 1.66, -1.46, -0.50, 0.86, 0.20]]> : tensor<1x24xf32>
  %lp1 = arith.constant dense<[[0.66, 0.90, 1.78, 0.96, -1.28, 1.06, -1.25, -1.70, 1.31]]> : tensor<1x9xf32>
  %lh1 = arith.constant dense<[[[0.52, -1.06, -0.28],  [1.16, 1.67, 1.51]]]> : tensor<1x2x3xf32>
  %lc1 = arith.constant dense<[[[0.98, -1.62, 0.09],  [0.53, -0.78, -1.64]]]> : tensor<1x2x3xf32>
  %gw = arith.constant dense<[[[-1.87, 1.92, 0.69, 0.32],  [-1.64, 0.23, 1.21, -1.71],  [-1.13, -1.51, 0.19, 0.12],  [-1.16, 0.72, 1.09, 1.10],  [1.80, -1.37, -1.00, 1.10],  [-1.33, 1.00, 0.97, 1.19],  [0.36, -0.04, 1.63, -1.30],  [0.18, 1.49, 1.71, -1.48],  [-1.04, 0.86, 1.54, 0.07]], [[-0.56, 0.20, 0.58, 0.14],  [-0.07, 1.34, -0.83, 0.73],  [0.72, 0.85, -0.57, 0.32],  [-0.04, 0.89, 1.68, 0.77],  [-0.03, 0.27, -1.45, -1.99],  [0.79, 0.90, 0.18, -0.68],  [0.05, -1.07, 0.42, -0.87],  [1.25, 0.06, -0.60, -1.15],  [0.05, 0.39, -0.86, -1.50]]]> : tensor<2x9x4xf32>
  %gr = arith.constant dense<[[[-0.07, 1.62, 1.25],  [1.43, 1.59, -0.44],  [-0.40, 0.96, -1.88],  [1.73, 0.85, 0.42],  [-0.51, 0.53, -0.35],  [1.21, 1.46, -1.12],  [1.04, -1.22, -0.51],  [1.84, -0.88, 1.43],  [-1.85, 0.97, 0.31]], [[-1.00, -1.94, 0.10],  [0.89, 1.93, -1.04],  [-0.84, -1.61, 0.52],  [-1.76, 1.07, 1.69],  [-1.90, -1.23, 0.82],  [0.30, -1.97, 0.36],  [-0.03, -0.67, -1.51],  [-1.42, -1.10, 1.07],  [1.97, -0.62, -0.12]]]> : tensor<2x9x3xf32>
  %gb = arith.constant dense<[[-0.21, -0.87, -0.60, 1.97, 0.55, -0.12, -1.29, -0.77, -0.97, -0.22, 0.75, -1.23, -1.48, -1.06, 1.09, -1.74, 1.17, 1.92], [-0.38, -1.59, 1.21, 1.83, 1.24, -1.19, -0.52, 1.35, -0.42, 0.79, 0.32, -1.55, 1.56, -0.32, -1.47, -1.85, 0.58, 1.14]]> : tensor<2x18xf32>
  %gh = arith.constant dense<[[[1.11, -1.43, -0.75],  [1.43, -0.55, -1.19]], [[1.96, -1.59, -1.16],  [-0.05, 1.07, 0.06]]]> : tensor<2x2x3xf32>
  %gw1 = arith.constant dense<[[[0.23, -1.06, 1.33, 0.44],  [1.94, -0.86, 0.99, -1.53],  [0.18, -0.76, 0.99, -0.99],  [-1.83, 0.15, 0.38, 0.03],  [-0.83, 0.33, 0.71, -1.09],  [-1.01, -0.35, 0.31, 0.71],  [1.83, -0.46, -1.39, 1.88],  [-0.79, -0.96, 1.36, 1.41],  [0.70, 1.75, 0.38, -0.79]]]> : tensor<1x9x4xf32>
  %gr1 = arith.constant dense<[[[0.99, -1.64, -1.94],  [-0.96, 1.05, 1.20],  [-1.82, 0.31, -1.31],  [0.16, 1.79, -1.98],  [-0.04, -1.17, -0.30],  [1.01, -1.10, -0.10],  [-1.66, -0.65, 1.04],  [-1.40, 1.76, -0.64],  [1.34, -0.16, 1.35]]]> : tensor<1x9x3xf32>
  %gb1 = arith.constant dense<[[1.71, 0.33, -0.76, -1.03, -0.62, 0.15, 1.30, 1.90, -0.92, 1.03, -1.50, 1.48, -1.36, 0.25, 0.47, 0.24, 0.93, 1.08]]> : tensor<1x18xf32>
  %gh1 = arith.constant dense<[[[-1.02, 0.81, 1.99],  [0.87, 1.39, 1.95]]]> : tensor<1x2x3xf32>
  %r:15 = call @compute(%x, %lw, %lr, %lb, %lw1, %lr1, %lb1, %lp1, %lh1, %lc1, %gw, %gr, %gb, %gh, %gw1, %gr1, %gb1, %gh1)
      : (tensor<3x2x4xf32>, tensor<2x12x4xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<1x9xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<2x9x4xf32>, tensor<2x9x3xf32>, tensor<2x18xf32>, tensor<2x2x3xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<1x2x3xf32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>, tensor<3x2x2x3xf32>, tensor<2x2x3xf32>, tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  %u0 = tensor.cast %r#0 : tensor<3x1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r#3 : tensor<3x2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r#4 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r#5 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %r#6 : tensor<3x1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %r#7 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  %u8 = tensor.cast %r#8 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u8) : (tensor<*xf32>) -> ()
  %u9 = tensor.cast %r#9 : tensor<3x1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u9) : (tensor<*xf32>) -> ()
  %u10 = tensor.cast %r#10 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u10) : (tensor<*xf32>) -> ()
  %u11 = tensor.cast %r#11 : tensor<3x2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u11) : (tensor<*xf32>) -> ()
  %u12 = tensor.cast %r#12 : tensor<2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u12) : (tensor<*xf32>) -> ()
  %u13 = tensor.cast %r#13 : tensor<3x1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u13) : (tensor<*xf32>) -> ()
  %u14 = tensor.cast %r#14 : tensor<1x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u14) : (tensor<*xf32>) -> ()
  return
}
