// RUN: graph-opt %s --graph-apply-optimizer="optimizer=sgd lr=0.5" | FileCheck %s --check-prefix=SGD
// RUN: graph-opt %s --graph-apply-optimizer="optimizer=momentum lr=0.5 momentum=0.25" | FileCheck %s --check-prefix=MOM
// RUN: graph-opt %s --graph-apply-optimizer="optimizer=sgd return-weights" | FileCheck %s --check-prefix=WEIGHTS
// RUN: graph-opt %s --graph-apply-optimizer="optimizer=adam lr=0.5 beta1=0.8 beta2=0.99 epsilon=0.001" | FileCheck %s --check-prefix=ADAM

graph.variable @w : tensor<2x2xf32> = dense<1.0>
graph.variable @b : tensor<2xf32> = dense<0.0>

func.func @main(%x: tensor<2xf32>) -> (tensor<f32>, tensor<2x2xf32>, tensor<2xf32>) attributes {graph.output_names = ["loss", "grad/w", "grad/b"]} {
  %gw = graph.constant dense<0.5> : tensor<2x2xf32>
  %l = graph.constant dense<2.0> : tensor<f32>
  return %l, %gw, %x : tensor<f32>, tensor<2x2xf32>, tensor<2xf32>
}

// The grad/ results are consumed; the loss stays.
// SGD-LABEL: func.func @main
// SGD-SAME: -> tensor<f32> attributes {graph.output_names = ["loss"]}
// SGD: %[[GW:.*]] = graph.constant dense<5.000000e-01> : tensor<2x2xf32>
// SGD: %[[W:.*]] = graph.read_variable @w
// SGD: %[[LR:.*]] = graph.constant dense<5.000000e-01> : tensor<f32>
// SGD: %[[N:.*]] = graph.sgd_update %[[W]], %[[GW]], %[[LR]]
// SGD: graph.assign_variable @w, %[[N]]
// SGD: graph.sgd_update
// SGD: graph.assign_variable @b
// SGD: return %{{.*}} : tensor<f32>

// MOM: graph.variable @"w/momentum" : tensor<2x2xf32> = dense<0.000000e+00> {graph.slot_of = "w"}
// MOM: graph.variable @"b/momentum" : tensor<2xf32> = dense<0.000000e+00> {graph.slot_of = "b"}
// MOM-LABEL: func.func @main
// MOM: %[[W:.*]] = graph.read_variable @w
// MOM: %[[A:.*]] = graph.read_variable @"w/momentum"
// MOM: %[[MU:.*]] = graph.constant dense<2.500000e-01>
// MOM: %[[P:.*]], %[[ACC:.*]] = graph.momentum_update %[[W]], %[[A]], %{{.*}}, %{{.*}}, %[[MU]]
// MOM: graph.assign_variable @w, %[[P]]
// MOM: graph.assign_variable @"w/momentum", %[[ACC]]

// ADAM-DAG: graph.variable @"adam/beta1_power" : tensor<f32> = dense<8.000000e-01> {graph.slot_of = ""}
// ADAM-DAG: graph.variable @"adam/beta2_power" : tensor<f32> = dense<9.900000e-01> {graph.slot_of = ""}
// ADAM-DAG: graph.variable @"w/adam_m" : tensor<2x2xf32> = dense<0.000000e+00> {graph.slot_of = "w"}
// ADAM-DAG: graph.variable @"w/adam_v" : tensor<2x2xf32> = dense<0.000000e+00> {graph.slot_of = "w"}
// ADAM-LABEL: func.func @main
// The powers are read before any update.
// ADAM: %[[P1:.*]] = graph.read_variable @"adam/beta1_power"
// ADAM: %[[P2:.*]] = graph.read_variable @"adam/beta2_power"
// eps * sqrt(1 - beta2^t): PyTorch's epsilon in ApplyAdam's formula.
// ADAM: %[[ONE_M:.*]] = graph.sub %{{.*}}, %[[P2]]
// ADAM: %[[SQ:.*]] = graph.sqrt %[[ONE_M]]
// ADAM: %[[EPS:.*]] = graph.mul %{{.*}}, %[[SQ]]
// ADAM: graph.adam_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EPS]], %[[P1]], %[[P2]]
// ADAM: graph.assign_variable @"w/adam_v"
// ADAM: graph.adam_update
// ADAM: %[[N1:.*]] = graph.mul %[[P1]]
// ADAM: graph.assign_variable @"adam/beta1_power", %[[N1]]
// ADAM: %[[N2:.*]] = graph.mul %[[P2]]
// ADAM: graph.assign_variable @"adam/beta2_power", %[[N2]]

// return-weights: the updated weights follow the loss, named after their
// variables.
// WEIGHTS-LABEL: func.func @main
// WEIGHTS-SAME: -> (tensor<f32>, tensor<2x2xf32>, tensor<2xf32>) attributes {graph.output_names = ["loss", "w", "b"]}
// WEIGHTS: %[[W:.*]] = graph.sgd_update
// WEIGHTS: %[[B:.*]] = graph.sgd_update
// WEIGHTS: return %{{.*}}, %[[W]], %[[B]]
