// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=3 microbatches=4})' | FileCheck %s --check-prefix=STAGES
// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=3 microbatches=4})' | FileCheck %s --check-prefix=WRONG
// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=3 microbatches=4},dist-partition)' | FileCheck %s --check-prefix=ORDER
// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=2 microbatches=2 replicas=2})' | FileCheck %s --check-prefix=MESH
// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=2 microbatches=2 replicas=2},dist-partition)' | FileCheck %s --check-prefix=MESHCUT
// RUN: graph-opt %S/Inputs/pipeline-train-mlp.mlir --pass-pipeline='builtin.module(graphc-graph,graphc-train{labels=y},dist-place{strategy=pipeline pipeline-stages=3 microbatches=4},dist-partition,dist-report)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// A training step (graphc --train of a three-layer MLP: matmul, relu,
// matmul, add, tanh, matmul, softmax cross-entropy, mean) in three stages
// of four microbatches of 2 rows. The cut divides the forward ops
// (graph-autodiff numbers them with graph.forward_id, from the loss back:
// 7 is the first matmul, 0 the mean); every op of an op's gradient
// (graph.grad_of = its id) runs on that op's stage; each weight's update
// and assignment on the stage that reads the weight.

// STAGES: dist.pipeline = {microbatches = 4 : i64, replicas = 1 : i64, stages = 3 : i64}
// STAGES-DAG: graph.variable @fc1.weight {{.*}}task:0
// STAGES-DAG: graph.variable @fc2.weight {{.*}}task:1
// STAGES-DAG: graph.variable @fc2.bias {{.*}}task:1
// STAGES-DAG: graph.variable @fc3.weight {{.*}}task:2
// STAGES-LABEL: func.func @main
// STAGES-DAG: graph.matmul {{.*}}task:0">, graph.forward_id = 7 :
// STAGES-DAG: graph.relu {{.*}}task:0">, graph.forward_id = 6 :
// STAGES-DAG: graph.matmul {{.*}}task:1">, graph.forward_id = 5 :
// STAGES-DAG: graph.add {{.*}}task:1">, graph.forward_id = 4 :
// STAGES-DAG: graph.tanh {{.*}}task:2">, graph.forward_id = 3 :
// STAGES-DAG: graph.matmul {{.*}}task:2">, graph.forward_id = 2 :
// STAGES-DAG: graph.reduce {{.*}}task:2">, graph.forward_id = 0 :
// STAGES-DAG: graph.select {{.*}}task:0">, graph.grad_of = 6 :
// STAGES-DAG: graph.matmul {{.*}}task:0">, graph.grad_of = 7 :
// STAGES-DAG: graph.matmul {{.*}}task:1">, graph.grad_of = 5 :
// STAGES-DAG: graph.reduce {{.*}}task:1">, graph.grad_of = 4 :
// STAGES-DAG: graph.mul {{.*}}task:2">, graph.grad_of = 3 :
// STAGES-DAG: graph.matmul {{.*}}task:2">, graph.grad_of = 2 :
// STAGES-DAG: graph.sgd_update {{.*}}task:0">} : (tensor<8x6xf32>
// STAGES-DAG: graph.assign_variable @fc1.weight, {{.*}}task:0">}
// STAGES-DAG: graph.assign_variable @fc2.weight, {{.*}}task:1">}
// STAGES-DAG: graph.assign_variable @fc2.bias, {{.*}}task:1">}
// STAGES-DAG: graph.assign_variable @fc3.weight, {{.*}}task:2">}

// No op of a forward op's gradient runs on another stage than the op.
// WRONG-NOT: task:{{[12]}}">, graph.grad_of = {{[67]}} :
// WRONG-NOT: task:{{[02]}}">, graph.grad_of = {{[45]}} :
// WRONG-NOT: task:{{[01]}}">, graph.grad_of = {{[0-3]}} :
// WRONG-NOT: dist.replica
// WRONG: return

// dist-partition: each task's body is its stage's 1F1B sequence. Stage s
// of 3 runs 2-s forward microbatches (warm-up), then one forward and one
// backward alternately, then the remaining backwards; the activations go
// forward (relu_*, add_*) and only the cut's gradients come back (matmul_*,
// mul_*). Each stage sums its gradient shares right after each backward
// microbatch and updates its weights once, after the fourth. The loss is
// the mean of the four microbatches' means, on the last stage, sent to
// task 0 for the step's output.

// ORDER-LABEL: dist.task @worker0
// ORDER: key "relu_0/worker0->worker1"
// ORDER-NEXT: graph.matmul
// ORDER-NEXT: graph.relu
// ORDER-NEXT: dist.send {{.*}} key "relu_3/worker0->worker1"
// ORDER-NEXT: graph.matmul
// ORDER-NEXT: graph.relu
// ORDER-NEXT: dist.send {{.*}} key "relu_8/worker0->worker1"
// ORDER-NEXT: graph.compare
// ORDER-NEXT: dist.recv {{.*}} key "matmul_7/worker1->worker0"
// ORDER-NEXT: graph.select
// ORDER-NEXT: %[[G0:.*]] = graph.matmul {{.*}}grad_of = 7
// ORDER-NEXT: graph.matmul {{.*}}forward_id = 7
// ORDER-NEXT: graph.relu
// ORDER-NEXT: dist.send {{.*}} key "relu_13/worker0->worker1"
// ORDER-NEXT: graph.compare
// ORDER-NEXT: dist.recv {{.*}} key "matmul_12/worker1->worker0"
// ORDER-NEXT: graph.select
// ORDER-NEXT: %[[G1:.*]] = graph.matmul {{.*}}grad_of = 7
// ORDER-NEXT: %[[S1:.*]] = graph.add %[[G0]], %[[G1]] : (tensor<8x6xf32>, tensor<8x6xf32>)
// ORDER-NEXT: graph.compare
// ORDER-NEXT: dist.recv {{.*}} key "matmul_17/worker1->worker0"
// ORDER-NEXT: graph.select
// ORDER-NEXT: %[[G2:.*]] = graph.matmul {{.*}}grad_of = 7
// ORDER-NEXT: %[[S2:.*]] = graph.add %[[S1]], %[[G2]]
// ORDER-NEXT: graph.compare
// ORDER-NEXT: dist.recv {{.*}} key "matmul_19/worker1->worker0"
// ORDER-NEXT: graph.select
// ORDER-NEXT: %[[G3:.*]] = graph.matmul {{.*}}grad_of = 7
// ORDER-NEXT: %[[S3:.*]] = graph.add %[[S2]], %[[G3]]
// ORDER-NEXT: %[[U:.*]] = graph.sgd_update %{{.*}}, %[[S3]],
// ORDER-NEXT: graph.assign_variable @fc1.weight, %[[U]]
// ORDER-NEXT: %[[L:.*]] = dist.recv {{.*}} key "mul_20/worker2->worker0" : tensor<f32>
// ORDER-NEXT: dist.return %[[L]]

// ORDER-LABEL: dist.task @worker1
// ORDER: dist.recv {{.*}} key "relu_0/worker0->worker1"
// ORDER: dist.send {{.*}} key "add_1/worker1->worker2"
// ORDER-NEXT: dist.recv {{.*}} key "relu_3/worker0->worker1"
// ORDER: dist.send {{.*}} key "add_5/worker1->worker2"
// ORDER-NEXT: dist.recv {{.*}} key "mul_4/worker2->worker1"
// ORDER: dist.send {{.*}} key "matmul_7/worker1->worker0"
// ORDER-NOT: dist.recv
// ORDER: dist.recv {{.*}} key "relu_8/worker0->worker1"
// ORDER: dist.send {{.*}} key "add_10/worker1->worker2"
// ORDER-NEXT: dist.recv {{.*}} key "mul_9/worker2->worker1"
// ORDER: dist.send {{.*}} key "matmul_12/worker1->worker0"
// ORDER-NOT: dist.recv
// ORDER: dist.recv {{.*}} key "relu_13/worker0->worker1"
// ORDER: dist.send {{.*}} key "add_15/worker1->worker2"
// ORDER-NEXT: dist.recv {{.*}} key "mul_14/worker2->worker1"
// ORDER: dist.send {{.*}} key "matmul_17/worker1->worker0"
// ORDER-NOT: dist.recv
// ORDER: dist.recv {{.*}} key "mul_18/worker2->worker1"
// ORDER: dist.send {{.*}} key "matmul_19/worker1->worker0"
// ORDER: graph.assign_variable @fc2.weight
// ORDER: graph.assign_variable @fc2.bias

// ORDER-LABEL: dist.task @worker2
// ORDER: dist.recv {{.*}} key "add_1/worker1->worker2"
// ORDER: %[[L0:.*]] = graph.reduce {{.*}}forward_id = 0
// ORDER: dist.send {{.*}} key "mul_4/worker2->worker1"
// ORDER-NEXT: dist.recv {{.*}} key "add_5/worker1->worker2"
// ORDER: %[[L1:.*]] = graph.reduce {{.*}}forward_id = 0
// ORDER-NEXT: %[[A1:.*]] = graph.add %[[L0]], %[[L1]] : (tensor<f32>, tensor<f32>)
// ORDER: dist.send {{.*}} key "mul_9/worker2->worker1"
// ORDER: dist.recv {{.*}} key "add_10/worker1->worker2"
// ORDER: dist.send {{.*}} key "mul_14/worker2->worker1"
// ORDER: dist.recv {{.*}} key "add_15/worker1->worker2"
// ORDER: %[[L3:.*]] = graph.reduce {{.*}}forward_id = 0
// ORDER-NEXT: %[[A3:.*]] = graph.add %{{.*}}, %[[L3]] : (tensor<f32>, tensor<f32>)
// ORDER-NEXT: %[[Q:.*]] = graph.constant dense<2.500000e-01> : tensor<f32>
// ORDER-NEXT: %[[M:.*]] = graph.mul %[[A3]], %[[Q]]
// ORDER-NEXT: dist.send %[[M]] to #dist.device<"/job:worker/task:0"> key "mul_20/worker2->worker0"
// ORDER: dist.send {{.*}} key "mul_18/worker2->worker1"
// ORDER: graph.assign_variable @fc3.weight

// Two replicas of two stages of two microbatches (tasks r*2 + s): each
// stage task sums its two microbatches' shares, then one group all-reduce
// per value over the stage's tasks in both replicas ({0, 2} and {1, 3}):
// the loss with mean (each replica's mean of its microbatches' means), the
// gradients with sum; each replica updates its copy of the weights.

// MESH: dist.pipeline = {microbatches = 2 : i64, replicas = 2 : i64, stages = 2 : i64}
// MESH-DAG: graph.variable @fc1.weight {{.*}}task:0
// MESH-DAG: graph.variable @fc1.weight_r1 {{.*}}task:2
// MESH-DAG: graph.variable @fc3.weight {{.*}}task:1
// MESH-DAG: graph.variable @fc3.weight_r1 {{.*}}task:3
// MESH-LABEL: func.func @main
// MESH: %[[LOSS:.*]]:2 = dist.group_all_reduce mean %{{.*}}, %{{.*}} group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:3">] {{.*}} : tensor<f32>, tensor<f32>
// MESH: dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:3">] {{.*}} : tensor<6x4xf32>, tensor<6x4xf32>
// MESH: dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:3">] {{.*}} : tensor<6xf32>, tensor<6xf32>
// MESH: dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:2">] {{.*}} : tensor<6x6xf32>, tensor<6x6xf32>
// MESH: %[[G1:.*]]:2 = dist.group_all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:2">] {{.*}} : tensor<8x6xf32>, tensor<8x6xf32>
// MESH-NEXT: %[[U0:.*]] = graph.sgd_update %{{.*}}, %[[G1]]#0, {{.*}}task:0"
// MESH-NEXT: %[[U1:.*]] = graph.sgd_update %{{.*}}, %[[G1]]#1, {{.*}}task:2"
// MESH-NEXT: graph.assign_variable @fc1.weight, %[[U0]]
// MESH-NEXT: graph.assign_variable @fc1.weight_r1, %[[U1]]
// MESH: return %[[LOSS]]#0

// MESHCUT-LABEL: dist.task @worker0
// MESHCUT: dist.all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:2">] {{.*}} : tensor<6x6xf32>
// MESHCUT: dist.all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:2">] {{.*}} : tensor<8x6xf32>
// MESHCUT-LABEL: dist.task @worker1
// MESHCUT: dist.all_reduce mean {{.*}} group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:3">] {{.*}} : tensor<f32>
// MESHCUT: dist.all_reduce sum {{.*}} group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:3">] {{.*}} : tensor<6x4xf32>
// MESHCUT-LABEL: dist.task @worker2
// MESHCUT: dist.all_reduce sum {{.*}} : tensor<6x6xf32>
// MESHCUT-LABEL: dist.task @worker3
// MESHCUT: dist.all_reduce mean {{.*}} : tensor<f32>

// The report reads the training step's stages off the built tasks: three
// stages of the worker job, each computing its forward and backward units
// for four microbatches, with the bubble beside GPipe's for P=3, M=4.
// REPORT: pipeline: 3 stages x 4 microbatches, 1 replica(s)
// REPORT-NEXT: stage 0 (worker0): compute {{[0-9.]+}} us ({{[0-9.]+}} us per microbatch)
// REPORT-NEXT: stage 1 (worker1): compute
// REPORT-NEXT: stage 2 (worker2): compute
// REPORT-NEXT: bubble: {{[0-9.]+}}% of the stages' step idle (GPipe's (P-1)/(M+P-1) for equal stages: 33.3%)
