// RUN: graph-opt %s | graph-opt | FileCheck %s
// RUN: graph-opt %s --verify-roundtrip | FileCheck %s

// Device strings: full, partial, legacy, wildcards, canonical order.

// CHECK-LABEL: func @devices
// CHECK-SAME: full = #dist.device<"/job:worker/replica:0/task:1/device:CPU:0">
// CHECK-SAME: gpu = #dist.device<"/device:GPU:0">
// CHECK-SAME: legacy_cpu = #dist.device<"/device:CPU:0">
// CHECK-SAME: legacy_gpu = #dist.device<"/device:GPU:3">
// CHECK-SAME: lower_type = #dist.device<"/device:CPU:1">
// CHECK-SAME: no_index = #dist.device<"/device:TPU:*">
// CHECK-SAME: none = #dist.device<"">
// CHECK-SAME: ps = #dist.device<"/job:ps">
// CHECK-SAME: reordered = #dist.device<"/job:worker/replica:2/task:3/device:GPU:1">
// CHECK-SAME: task = #dist.device<"/task:1">
// CHECK-SAME: wild_index = #dist.device<"/device:CPU:*">
// CHECK-SAME: wildcards = #dist.device<"/job:worker">
// CHECK-SAME: worker_task = #dist.device<"/job:worker/task:0">
// CHECK-SAME: xla = #dist.device<"/job:a_1/device:XLA_CPU:0">
func.func @devices() attributes {
  full = #dist.device<"/job:worker/replica:0/task:1/device:CPU:0">,
  ps = #dist.device<"/job:ps">,
  task = #dist.device<"/task:1">,
  gpu = #dist.device<"/device:GPU:0">,
  legacy_cpu = #dist.device<"/cpu:0">,
  legacy_gpu = #dist.device<"/gpu:3">,
  lower_type = #dist.device<"/device:cpu:1">,
  worker_task = #dist.device<"/job:worker/task:0">,
  wild_index = #dist.device<"/device:CPU:*">,
  no_index = #dist.device<"/device:TPU">,
  wildcards = #dist.device<"/job:worker/replica:*/task:*/device:*">,
  reordered = #dist.device<"/device:GPU:1/task:3/replica:2/job:worker">,
  xla = #dist.device<"/job:a_1/device:XLA_CPU:0">,
  none = #dist.device<"">
} {
  return
}

// Jobs and clusters; a job without a device list has one CPU:0 per task.

// CHECK-LABEL: func @clusters
// CHECK-SAME: c1 = #dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1 x [CPU:0]}>
// CHECK-SAME: c2 = #dist.cluster<{chief = 1 x [CPU:0]}>
// CHECK-SAME: j1 = #dist.job<worker = 4 x [CPU:0, GPU:0, GPU:1]>
// CHECK-SAME: j2 = #dist.job<ps = 2 x [CPU:0]>
func.func @clusters() attributes {
  c1 = #dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1}>,
  c2 = #dist.cluster<{"chief" = 1 x [CPU:0]}>,
  j1 = #dist.job<worker = 4 x [CPU:0, GPU:0, GPU:1]>,
  j2 = #dist.job<ps = 2>
} {
  return
}

// The `dist.device` placement attribute on any op.

// CHECK-LABEL: func @placement
// CHECK: arith.constant {dist.device = #dist.device<"/job:ps/task:0/device:CPU:0">} dense<1.000000e+00> : tensor<2xf32>
func.func @placement() -> tensor<2xf32> {
  %c = arith.constant {dist.device = #dist.device<"/job:ps/task:0/cpu:0">} dense<1.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}
