// RUN: graph-opt %s --graphc-cpu-in-place-step -split-input-file | FileCheck %s

// A gradient bucket (dist-fuse-collectives' concat) that a blocking
// all-reduce reads through a writable to_buffer and reduces into a buffer of
// its own: the bucket is that buffer (so the call runs in place), each member that
// a destination chain makes is made in its slice, and each insert follows
// its member. A member that is an argument is copied in.

// CHECK-LABEL: func.func @bucket(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<8x4xf32>, %[[B:[a-z0-9]+]]: tensor<8x6xf32>, %[[V:[a-z0-9]+]]: tensor<6xf32>
// CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<34xf32>
// CHECK: %[[B0:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[B0]][0] [4] [1]
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S0]] : tensor<4xf32>)
// CHECK: %[[R0:.*]] = linalg.reduce ins(%[[A]] : tensor<8x4xf32>) outs(%[[F0]] : tensor<4xf32>)
// CHECK: %[[B1:.*]] = tensor.insert_slice %[[R0]] into %[[B0]][0] [4] [1]
// CHECK: linalg.transpose
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[B1]][4] [24] [1]
// CHECK: %[[E1:.*]] = tensor.expand_shape %[[S1]] {{\[}}[0, 1]] output_shape [4, 6]
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4x6xf32>)
// CHECK: %[[M1:.*]] = linalg.matmul ins(%{{.*}}, %[[B]] : tensor<4x8xf32>, tensor<8x6xf32>) outs(%[[F1]] : tensor<4x6xf32>)
// CHECK: %[[C1:.*]] = tensor.collapse_shape %[[M1]]
// CHECK: %[[B2:.*]] = tensor.insert_slice %[[C1]] into %[[B1]][4] [24] [1]
// CHECK: %[[B3:.*]] = tensor.insert_slice %[[V]] into %[[B2]][28] [6] [1]
// CHECK-NOT: tensor.concat
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[B3]] :
// CHECK-NEXT: call @all_reduce(%[[IN]], %[[BUF]])
func.func @bucket(%a: tensor<8x4xf32>, %b: tensor<8x6xf32>, %v: tensor<6xf32>) -> tensor<34xf32> {
  %buf = memref.alloc() {alignment = 64 : i64} : memref<34xf32>
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %r0 = linalg.reduce ins(%a : tensor<8x4xf32>) outs(%f0 : tensor<4xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %et = tensor.empty() : tensor<4x8xf32>
  %at = linalg.transpose ins(%a : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x6xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m1 = linalg.matmul ins(%at, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c1 = tensor.collapse_shape %m1 [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %concat = tensor.concat dim(0) %r0, %c1, %v : (tensor<4xf32>, tensor<24xf32>, tensor<6xf32>) -> tensor<34xf32>
  %in = bufferization.to_buffer %concat : tensor<34xf32> to memref<34xf32>
  call @all_reduce(%in, %buf) : (memref<34xf32>, memref<34xf32>) -> ()
  %r = bufferization.to_tensor %buf restrict writable : memref<34xf32> to tensor<34xf32>
  return %r : tensor<34xf32>
}
func.func private @all_reduce(memref<34xf32>, memref<34xf32>)

// -----

// The upstream decomposition's inserts (CpuFuseElementwise) into a bucket
// without a buffer: a tensor.empty of its own. The second member is
// computed before the first is ready, so it is copied in; the fill that CSE
// shared between the last two members is cloned for each.

// CHECK-LABEL: func.func @order(
// CHECK: %[[BUCKET:.*]] = tensor.empty() : tensor<38xf32>
// CHECK-NOT: tensor.empty() : tensor<38xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[BUCKET]][0] [24] [1]
// CHECK: %[[E0:.*]] = tensor.expand_shape %[[S0]]
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<4x6xf32>)
// CHECK: %[[M1:.*]] = linalg.matmul {{.*}} -> tensor<2x3xf32>
// CHECK: %[[C1:.*]] = tensor.collapse_shape %[[M1]]
// CHECK: %[[M0:.*]] = linalg.matmul {{.*}} outs(%[[F0]] : tensor<4x6xf32>)
// CHECK: %[[C0:.*]] = tensor.collapse_shape %[[M0]]
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[C0]] into %[[BUCKET]][0] [24] [1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[C1]] into %[[I0]][24] [6] [1]
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[I1]][30] [4] [1]
// CHECK: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S2]] : tensor<4xf32>)
// CHECK: %[[R2:.*]] = linalg.reduce ins(%{{.*}} : tensor<4x8xf32>) outs(%[[F2]] : tensor<4xf32>)
// CHECK: %[[I2:.*]] = tensor.insert_slice %[[R2]] into %[[I1]][30] [4] [1]
// CHECK: %[[S3:.*]] = tensor.extract_slice %[[I2]][34] [4] [1]
// CHECK: %[[F3:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S3]] : tensor<4xf32>)
// CHECK: %[[R3:.*]] = linalg.reduce ins(%{{.*}} : tensor<4x8xf32>) outs(%[[F3]] : tensor<4xf32>)
// CHECK: %[[I3:.*]] = tensor.insert_slice %[[R3]] into %[[I2]][34] [4] [1]
// CHECK: return %[[I3]]
func.func @order(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<2x8xf32>, %d: tensor<8x3xf32>) -> tensor<38xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%cst : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %e0 = tensor.empty() : tensor<4x6xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m1 = linalg.matmul ins(%c, %d : tensor<2x8xf32>, tensor<8x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r2 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%fr : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  %r3 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%fr : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.maximumf %in, %init : f32
      linalg.yield %s : f32
    }
  %c0 = tensor.collapse_shape %m0 [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %c1 = tensor.collapse_shape %m1 [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %bucket = tensor.empty() : tensor<38xf32>
  %i0 = tensor.insert_slice %c0 into %bucket[0] [24] [1] : tensor<24xf32> into tensor<38xf32>
  %i1 = tensor.insert_slice %c1 into %i0[24] [6] [1] : tensor<6xf32> into tensor<38xf32>
  %i2 = tensor.insert_slice %r2 into %i1[30] [4] [1] : tensor<4xf32> into tensor<38xf32>
  %i3 = tensor.insert_slice %r3 into %i2[34] [4] [1] : tensor<4xf32> into tensor<38xf32>
  return %i3 : tensor<38xf32>
}

// -----

// An SGD update copied into its variable: the update is made in the
// variable's buffer (its to_tensor now writable), reading the old weight
// through its init; the copy is onto itself.

// CHECK-LABEL: func.func @update(
// CHECK-SAME: %[[W:[a-z0-9]+]]: memref<4x6xf32>, %[[G:[a-z0-9]+]]: tensor<4x6xf32>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[W]] restrict writable
// CHECK: %[[U:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<4x6xf32>) outs(%[[T]] : tensor<4x6xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[IN]], %{{.*}} : f32
// CHECK-NEXT: arith.subf %[[OUT]], %[[S]] : f32
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[U]] read_only
// CHECK: memref.copy %[[BUF]], %[[W]]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @update(%w: memref<4x6xf32>, %g: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %lr = arith.constant 0.01 : f32
  %t = bufferization.to_tensor %w restrict : memref<4x6xf32> to tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %u = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%t, %g : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %s = arith.mulf %in_1, %lr : f32
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x6xf32>
  %b = bufferization.to_buffer %u read_only : tensor<4x6xf32> to memref<4x6xf32>
  memref.copy %b, %w : memref<4x6xf32> to memref<4x6xf32>
  return %t : tensor<4x6xf32>
}

// -----

// A variable buffer that something else writes (here a call) is left alone.

// CHECK-LABEL: func.func @other_writer(
// CHECK: bufferization.to_tensor %{{.*}} restrict :
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<4xf32>)
#map1 = affine_map<(d0) -> (d0)>
func.func @other_writer(%w: memref<4xf32>, %g: tensor<4xf32>) {
  %t = bufferization.to_tensor %w restrict : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%t, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  call @touch(%w) : (memref<4xf32>) -> ()
  %b = bufferization.to_buffer %u read_only : tensor<4xf32> to memref<4xf32>
  memref.copy %b, %w : memref<4xf32> to memref<4xf32>
  return
}
func.func private @touch(memref<4xf32>)
