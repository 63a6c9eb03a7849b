// RUN: graph-opt %s -split-input-file -verify-diagnostics --dist-place

// Options a strategy cannot honour, and placements the given strategy
// refuses, each with what to do instead.

// RUN: not graph-opt %s -split-input-file --dist-place=strategy=fastest 2>&1 | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: error: dist-place: unknown strategy 'fastest'; known: auto, given, pipeline, ps, replicas, tensor-parallel
// RUN: not graph-opt %s -split-input-file --dist-place=default-device=/device:CPU:0 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: error: dist-place: default-device '/device:CPU:0' must name a job and a task of replica 0, such as /job:worker/task:0
// RUN: not graph-opt %s -split-input-file --dist-place=default-device=/job:w/bad:1 2>&1 | FileCheck %s --check-prefix=BADDEV
// BADDEV: error: dist-place: bad default-device '/job:w/bad:1': unknown field 'bad:1'
// RUN: not graph-opt %s -split-input-file --dist-place=replicas=2 2>&1 | FileCheck %s --check-prefix=GIVENREP
// GIVENREP: error: dist-place: strategy=given takes no replicas or ps-tasks (got replicas=2, ps-tasks=1); use strategy=replicas or strategy=ps
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=replicas ps-tasks=2" 2>&1 | FileCheck %s --check-prefix=REPPS
// REPPS: error: dist-place: strategy=replicas takes no ps-tasks (got 2); use strategy=ps with replicas=N
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=ps ps-tasks=0" 2>&1 | FileCheck %s --check-prefix=PSZERO
// PSZERO: error: dist-place: ps-tasks=0 must be at least 1
// RUN: not graph-opt %s -split-input-file --dist-place="strategy=ps default-device=/job:ps/task:0" 2>&1 | FileCheck %s --check-prefix=PSJOB
// PSJOB: error: dist-place: strategy=ps computes on the default device's job, which must not be 'ps' (default-device /job:ps/task:0)
// RUN: not graph-opt %s -split-input-file --dist-place=entry=nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: dist-place: no function with a body named 'nope'

func.func @colocated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %x {dist.device = #dist.device<"/job:worker/task:1">} : (tensor<4xf32>) -> tensor<4xf32> loc("m.pb:a")
  // expected-error@unknown {{dist-place: 'graph.neg' at loc("m.pb:b") is placed on '/job:worker/task:0' but is colocated with 'graph.relu' at loc("m.pb:a") on '/job:worker/task:1'; give the colocation group one task}}
  %b = graph.neg %a {dist.device = #dist.device<"/job:worker/task:0">, graph.colocate = ["a"]} : (tensor<4xf32>) -> tensor<4xf32> loc("m.pb:b")
  return %b : tensor<4xf32>
}

// -----

func.func @replica(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error-re @+1 {{dist-place: device '/job:worker/replica:1/task:0' of 'graph.relu' at loc({{.*}}) names replica 1; graphc's clusters have tasks of replica 0 only (use /job:NAME/task:N)}}
  %a = graph.relu %x {dist.device = #dist.device<"/job:worker/replica:1/task:0">} : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{dist-place: device '/job:ps/replica:2' of argument #0 of @arg_replica names replica 2}}
func.func @arg_replica(%x: tensor<4xf32> {dist.device = #dist.device<"/job:ps/replica:2">}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{dist-place: several functions and none is @main; name the function with entry=NAME}}
module {
  func.func @f() {
    return
  }
  func.func @g() {
    return
  }
}

// -----

// expected-error @+1 {{dist-place: @twice is already the step of 2 replicas (dist.replicas); run dist-place once}}
func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> attributes {dist.replicas = 2 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{dist-place: @blocks has 2 blocks; only a single-block function can be distributed (structured control flow is fine)}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^next
^next:
  return %x : tensor<4xf32>
}
