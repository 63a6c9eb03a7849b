// RUN: graph-opt %s --graph-to-linalg --split-input-file | FileCheck %s

// grid_sample: one parallel generic over the result reading the point's
// components through constant-index maps (x, the width, is component 0);
// bilinear with zeros padding reads 4 neighbours, each masked to 0 outside.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 0)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, 1)>
// CHECK-LABEL: func.func @grid_sample_linear
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[Y]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %arg1 : tensor<1x5x6x2xf32>, tensor<1x5x6x2xf32>)
// CHECK: ^bb0(%[[GX:.*]]: f32, %[[GY:.*]]: f32, %{{.*}}: f32):
// Unnormalised without align_corners: ((y + 1) * 3 - 1) / 2 for H = 3.
// CHECK: %[[Y1:.*]] = arith.addf %[[GY]], %{{.*}} : f32
// CHECK: arith.mulf %[[Y1]], %{{.*}} : f32
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
func.func @grid_sample_linear(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32> {
  %0 = graph.grid_sample %x, %g : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}

// -----

// Nearest rounds half to even and reads one element; border padding clamps.
// CHECK-LABEL: func.func @grid_sample_nearest
// CHECK: math.roundeven
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK-NOT: arith.select {{.*}} : f32{{$}}
// CHECK: linalg.yield
func.func @grid_sample_nearest(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32> {
  %0 = graph.grid_sample %x, %g {mode = #graph<sample_mode nearest>, padding = #graph<sample_padding border>, align_corners} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x2x5x6xf32>
  return %0 : tensor<1x2x5x6xf32>
}

// -----

// Bicubic over 2 spatial dimensions reads 4 x 4 neighbours.
// CHECK-LABEL: func.func @grid_sample_cubic
// CHECK-COUNT-16: tensor.extract %arg0
// CHECK-NOT: tensor.extract
func.func @grid_sample_cubic(%x: tensor<1x1x3x4xf64>, %g: tensor<1x2x2x2xf64>) -> tensor<1x1x2x2xf64> {
  %0 = graph.grid_sample %x, %g {mode = #graph<sample_mode cubic>, padding = #graph<sample_padding reflection>} : (tensor<1x1x3x4xf64>, tensor<1x2x2x2xf64>) -> tensor<1x1x2x2xf64>
  return %0 : tensor<1x1x2x2xf64>
}

// -----

// col2im: the image is parallel, the block (1 x 2 from an empty tensor of
// its shape) is reduced; each element adds the block element landing on it.
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @col2im
// CHECK: %[[B:.*]] = tensor.empty() : tensor<1x2xf32>
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[BLOCK]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[B]] : tensor<1x2xf32>) outs(%[[INIT]] : tensor<1x3x3x3xf32>)
// CHECK: ^bb0(%{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: %[[V:.*]] = tensor.extract %arg0
// CHECK: %[[M:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK: arith.addf %[[ACC]], %[[M]] : f32
func.func @col2im(%x: tensor<1x6x6xf32>) -> tensor<1x3x3x3xf32> {
  %0 = graph.col2im %x {image_shape = array<i64: 3, 3>, block_shape = array<i64: 1, 2>, dilations = array<i64: 2, 1>} : (tensor<1x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// Unsigned shifts are logical on the signless bits; an amount of at least
// the width gives 0.
// CHECK-LABEL: func.func @shifts
// CHECK-SAME: (%{{.*}}: tensor<4xi16>, %{{.*}}: tensor<i16>)
// CHECK: %[[W:.*]] = arith.constant 16 : i16
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[N:.*]], %[[W]] : i16
// CHECK: %[[S:.*]] = arith.shli %{{.*}}, %[[N]] : i16
// CHECK: arith.select %[[OK]], %[[S]], %{{.*}} : i16
// CHECK: arith.shrui
func.func @shifts(%a: tensor<4xui16>, %n: tensor<ui16>) -> (tensor<4xui16>, tensor<4xui16>) {
  %0 = graph.shift_left %a, %n : (tensor<4xui16>, tensor<ui16>) -> tensor<4xui16>
  %1 = graph.shift_right %a, %n : (tensor<4xui16>, tensor<ui16>) -> tensor<4xui16>
  return %0, %1 : tensor<4xui16>, tensor<4xui16>
}

// -----

// CHECK-LABEL: func.func @bitcasts
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: %[[Z:.*]] = arith.constant 0 : i8
// CHECK: arith.cmpi ne, %{{.*}}, %[[Z]] : i8
func.func @bitcasts(%f: tensor<4xf32>, %b: tensor<4xi1>, %u: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xui8>, tensor<4xi1>) {
  %0 = graph.bitcast %f {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %1 = graph.bitcast %b {to = ui8} : (tensor<4xi1>) -> tensor<4xui8>
  %2 = graph.bitcast %u {to = i1} : (tensor<4xui8>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xui8>, tensor<4xi1>
}

// -----

// col2im of unsigned integers sums modulo 2^N on the signless bits.
// CHECK-LABEL: func.func @col2im_unsigned
// CHECK-SAME: (%{{.*}}: tensor<1x2x4xi8>) -> tensor<1x1x5xi8>
// CHECK: %[[V:.*]] = tensor.extract %arg0
// CHECK: %[[M:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : i8
// CHECK: arith.addi %{{.*}}, %[[M]] : i8
func.func @col2im_unsigned(%x: tensor<1x2x4xui8>) -> tensor<1x1x5xui8> {
  %0 = graph.col2im %x {image_shape = array<i64: 5>, block_shape = array<i64: 2>} : (tensor<1x2x4xui8>) -> tensor<1x1x5xui8>
  return %0 : tensor<1x1x5xui8>
}
