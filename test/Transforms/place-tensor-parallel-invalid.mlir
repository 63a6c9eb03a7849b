// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-place="strategy=tensor-parallel tensor-parallel=2"
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=tensor-parallel tensor-parallel=1" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=tensor-parallel tensor-parallel=2 ps-tasks=2" 2>&1 | FileCheck %s --check-prefix=PS
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=replicas replicas=2 tensor-parallel=2" 2>&1 | FileCheck %s --check-prefix=IGNORED

// ONE: dist-place: strategy=tensor-parallel needs tensor-parallel=2 or more (got 1)
// PS: dist-place: strategy=tensor-parallel takes no ps-tasks (got 2); weight shards live on their compute tasks
// IGNORED: dist-place: tensor-parallel=2 is only used by strategy=tensor-parallel (got strategy=replicas)

// Nothing to split: the only matmul multiplies two activations, and the
// weight of the other has an odd number of rows and columns.

// expected-error @+1 {{dist-place: tensor-parallel=2: nothing to split in @activations: looked for a graph.matmul whose right operand is a weight (a graph.constant, or a graph.variable read once and never assigned, used only by that matmul) with a static output or contraction dimension divisible by 2; run the model on one task or with --replicas}}
func.func @activations(%x: tensor<4x3xf32>, %y: tensor<3x4xf32>) -> (tensor<4x4xf32>, tensor<4x3xf32>) {
  %p = graph.matmul %x, %y : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
  %w = graph.constant dense<1.0> : tensor<3x3xf32>
  %q = graph.matmul %x, %w : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %p, %q : tensor<4x4xf32>, tensor<4x3xf32>
}

// -----

// A weight the step assigns (a training step) stays whole.

graph.variable @w : tensor<4x4xf32>
// expected-error @+1 {{nothing to split in @train}}
func.func @train(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %w = graph.read_variable @w : tensor<4x4xf32>
  %y = graph.matmul %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  graph.assign_variable @w, %y : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
