// RUN: graph-opt %s -split-input-file --dist-place | FileCheck %s --check-prefix=GIVEN
// RUN: graph-opt %s -split-input-file --dist-place="default-device=/job:chief/task:0/device:GPU:1" | FileCheck %s --check-prefix=CHIEF

// No placement at all: everything on the default task, a one-task cluster.

// GIVEN: module attributes {dist.cluster = #dist.cluster<{worker = 1 x [CPU:0]}>}
// GIVEN-LABEL: func.func @unplaced
// GIVEN-SAME: (%{{.*}}: tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:0">, graph.name = "x"})
// GIVEN-SAME: -> (tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:0">})
// GIVEN: graph.relu {{.*}} {dist.device = #dist.device<"/job:worker/task:0">}
// GIVEN: graph.add {{.*}} {dist.device = #dist.device<"/job:worker/task:0">}
// CHIEF: module attributes {dist.cluster = #dist.cluster<{chief = 1 x [CPU:0]}>}
// CHIEF-LABEL: func.func @unplaced
// CHIEF: graph.relu {{.*}} {dist.device = #dist.device<"/job:chief/task:0">}
func.func @unplaced(%x: tensor<4x8xf32> {graph.name = "x"}) -> tensor<4x8xf32> {
  %r = graph.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = graph.add %r, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// The model's placements, as the TF importer writes them: partial specs are
// filled from the default device, devices drop to their task, an op without
// a device follows its first operand, colocation wins over that, and a
// result placed by the model (a _Send) keeps its task.

// GIVEN: module attributes {dist.cluster = #dist.cluster<{worker = 2 x [CPU:0], ps = 1 x [CPU:0]}>}
// GIVEN: graph.variable @w : tensor<8x8xf32> {dist.device = #dist.device<"/job:ps/task:0">}
// GIVEN: graph.variable @b : tensor<8xf32> {dist.device = #dist.device<"/job:worker/task:1">}
// GIVEN-LABEL: func.func @given
// GIVEN-SAME: %{{.*}}: tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.name = "x:0"}
// GIVEN-SAME: %{{.*}}: tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:0">}
// GIVEN-SAME: -> (tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:0">},
// GIVEN-SAME: tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:1">, graph.name = "_send_y"})
// GIVEN: graph.read_variable @w {dist.device = #dist.device<"/job:ps/task:0">}
// GIVEN: graph.read_variable @b {dist.device = #dist.device<"/job:worker/task:1">}
// GIVEN: graph.matmul {{.*}}dist.device = #dist.device<"/job:worker/task:1">
// GIVEN: graph.add {{.*}}dist.device = #dist.device<"/job:worker/task:1">
// GIVEN: graph.relu {{.*}}dist.device = #dist.device<"/job:worker/task:0">
// GIVEN: graph.neg {{.*}}dist.device = #dist.device<"/job:worker/task:0">
// GIVEN: graph.exp {{.*}}dist.device = #dist.device<"/job:worker/task:1">
module {
  graph.variable @w : tensor<8x8xf32> {dist.device = #dist.device<"/job:ps/device:CPU:0">}
  graph.variable @b : tensor<8xf32>
  func.func @given(%x: tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/replica:0/task:1/device:CPU:0">, graph.name = "x:0"},
                   %z: tensor<4x8xf32>)
      -> (tensor<4x8xf32>, tensor<4x8xf32> {dist.device = #dist.device<"/job:worker/task:1/cpu:0">, graph.name = "_send_y"}) {
    %w = graph.read_variable @w : tensor<8x8xf32> loc("m.pb:w/read")
    %b = graph.read_variable @b {dist.device = #dist.device<"/job:worker/task:1">} : tensor<8xf32> loc("m.pb:b/read")
    %m = graph.matmul %x, %w {dist.device = #dist.device<"/task:1/device:GPU:0">} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("m.pb:mm")
    // No device: follows its first operand to task 1.
    %a = graph.add %m, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> loc("m.pb:add")
    // A device with neither job nor task: the default task.
    %r = graph.relu %z {dist.device = #dist.device<"/device:CPU:0">} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("m.pb:relu")
    %n = graph.neg %r : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("m.pb:neg")
    // Colocated with "mm" (task 1), although its operand is on task 0.
    %e = graph.exp %n {graph.colocate = ["mm"]} : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("m.pb:exp")
    return %n, %a : tensor<4x8xf32>, tensor<4x8xf32>
  }
}
