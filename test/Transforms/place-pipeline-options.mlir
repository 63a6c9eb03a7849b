// RUN: not graph-opt %s --dist-place="strategy=given microbatches=4" 2>&1 | FileCheck %s --check-prefix=GIVEN
// RUN: not graph-opt %s --dist-place="strategy=replicas replicas=2 pipeline-stages=2" 2>&1 | FileCheck %s --check-prefix=REPLICAS
// RUN: not graph-opt %s --dist-place="strategy=pipeline pipeline-stages=2 ps-tasks=2" 2>&1 | FileCheck %s --check-prefix=PS
// RUN: not graph-opt %s --dist-place="strategy=pipeline pipeline-stages=0" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not graph-opt %s --dist-place="strategy=pipeline pipeline-stages=2 microbatches=-1" 2>&1 | FileCheck %s --check-prefix=MICRO
// RUN: not graphc %s --microbatches 4 --emit=dist 2>&1 | FileCheck %s --check-prefix=GRAPHC
// RUN: not graphc %s --pipeline-stages 2 --ps-tasks 1 --emit=dist 2>&1 | FileCheck %s --check-prefix=GRAPHC-PS

// Pipeline options the chosen strategy would ignore are errors naming them.

// GIVEN: error: dist-place: strategy=given takes no pipeline-stages or microbatches (got pipeline-stages=1, microbatches=4); use strategy=pipeline
// REPLICAS: error: dist-place: strategy=replicas takes no pipeline-stages or microbatches (got pipeline-stages=2, microbatches=0); use strategy=pipeline
// PS: error: dist-place: strategy=pipeline takes no ps-tasks (got 2); the stages hold their own variables
// STAGES: error: dist-place: pipeline-stages=0 must be at least 1
// MICRO: error: dist-place: microbatches=-1 must be at least 1 (0: one per stage)
// GRAPHC: graphc: error: --microbatches 4 needs --pipeline-stages N with N above 1
// GRAPHC-PS: graphc: error: --ps-tasks 1 does not combine with --pipeline-stages 2: each stage holds the variables it reads
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = graph.relu %x : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = graph.tanh %r : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
