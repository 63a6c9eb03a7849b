// RUN: graph-opt %s --dist-print-dot="output=%t.dot" -o /dev/null
// RUN: FileCheck %s < %t.dot
// RUN: graph-opt %s --dist-print-dot="output=%t.small.dot max-ops=1" -o /dev/null
// RUN: FileCheck %s --check-prefix=CONDENSED < %t.small.dot

// CHECK-LABEL: digraph job {
// CHECK: subgraph cluster_0 {
// CHECK-NEXT: label="worker0\n/job:worker/task:0";
// CHECK: t0_arg0 [shape=ellipse, label="x\ntensor<4x64xf32>\n1024 bytes"];
// CHECK-NEXT: t0_op0 [label="graph.read_variable"];
// CHECK-NEXT: t0_op1 [label="graph.matmul"];
// CHECK-NEXT: t0_arg0 -> t0_op1;
// CHECK-NEXT: t0_op0 -> t0_op1;
// CHECK-NEXT: t0_op2 [shape=cds, label="send h"];
// CHECK-NEXT: t0_op1 -> t0_op2;
// CHECK-NEXT: t0_op3 [shape=octagon, label="all_reduce grad"];
// CHECK-NEXT: t0_op0 -> t0_op3;
// CHECK: subgraph cluster_1 {
// CHECK-NEXT: label="worker1\n/job:worker/task:1";
// CHECK: t1_op1 [shape=cds, label="recv h"];
// CHECK-NEXT: t1_op2 [label="graph.relu"];
// CHECK-NEXT: t1_op1 -> t1_op2;
// CHECK: t1_op3 [shape=octagon, label="all_reduce grad"];
// The cut edge and the collective, outside the clusters.
// CHECK: t0_op2 -> t1_op1 [color=red, penwidth=2, label="h\ntensor<4x16xf32>\n256 bytes"];
// CHECK-NEXT: coll0 [shape=hexagon, style=filled, fillcolor=lightyellow, label="all_reduce grad\n[/job:worker/task:0, /job:worker/task:1]\ntensor<64x16xf32>\n4096 bytes"];
// CHECK-NEXT: t0_op3 -> coll0 [dir=both, style=dashed, color=blue];
// CHECK-NEXT: t1_op3 -> coll0 [dir=both, style=dashed, color=blue];
// CHECK-NEXT: }

// Condensed: each run of compute ops is one box, chained with the
// communication ops in program order.
// CONDENSED: subgraph cluster_0 {
// CONDENSED-NOT: graph.matmul
// CONDENSED: t0_run0 [label="2 ops\n8192 flops"];
// CONDENSED-NEXT: t0_op1 [shape=cds, label="send h"];
// CONDENSED-NEXT: t0_run0 -> t0_op1;
// CONDENSED-NEXT: t0_op2 [shape=octagon, label="all_reduce grad"];
// CONDENSED-NEXT: t0_op1 -> t0_op2;
// CONDENSED: subgraph cluster_1 {
// CONDENSED: t1_run0 [label="1 op\n0 flops"];
// CONDENSED-NEXT: t1_op1 [shape=cds, label="recv h"];
// CONDENSED-NEXT: t1_run0 -> t1_op1;
// CONDENSED-NEXT: t1_run2 [label="1 op\n64 flops"];
// CONDENSED-NEXT: t1_op1 -> t1_run2;
// CONDENSED: t0_op1 -> t1_op1 [color=red, penwidth=2, label="h\ntensor<4x16xf32>\n256 bytes"];

module attributes {dist.cluster = #dist.cluster<{worker = 2}>} {
  graph.variable @w : tensor<64x16xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:0">}
  graph.variable @w_r1 : tensor<64x16xf32> = dense<1.0>
      {dist.device = #dist.device<"/job:worker/task:1">}

  dist.task @worker0 on #dist.device<"/job:worker/task:0">
      (%x: tensor<4x64xf32> {graph.name = "x"}) {
    %w = graph.read_variable @w : tensor<64x16xf32>
    %h = graph.matmul %x, %w : (tensor<4x64xf32>, tensor<64x16xf32>) -> tensor<4x16xf32>
    dist.send %h to #dist.device<"/job:worker/task:1"> key "h" : tensor<4x16xf32>
    %g = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<64x16xf32> -> tensor<64x16xf32>
    dist.return
  }

  dist.task @worker1 on #dist.device<"/job:worker/task:1">
      () -> (tensor<4x16xf32> {graph.name = "y"}) {
    %w = graph.read_variable @w_r1 : tensor<64x16xf32>
    %h = dist.recv from #dist.device<"/job:worker/task:0"> key "h" : tensor<4x16xf32>
    %y = graph.relu %h : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %g = dist.all_reduce sum %w group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] key "grad" : tensor<64x16xf32> -> tensor<64x16xf32>
    dist.return %y : tensor<4x16xf32>
  }
}
