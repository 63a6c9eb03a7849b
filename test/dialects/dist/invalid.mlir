// RUN: graph-opt %s -split-input-file -verify-diagnostics

// One case per verifier check of the dist dialect: device strings, jobs and
// clusters, dialect attributes, dist.task, send/recv, collectives, and the
// module-wide matching of sends, recvs and collectives.

// expected-error @+1 {{expected '/' at the start in device string 'job:worker'}}
func.func @f() attributes {d = #dist.device<"job:worker">}

// -----

// expected-error @+1 {{empty field in device string '/job:worker//task:0'}}
func.func @f() attributes {d = #dist.device<"/job:worker//task:0">}

// -----

// expected-error @+1 {{unknown field 'host:a', expected job, replica, task, device, cpu or gpu in device string '/host:a'}}
func.func @f() attributes {d = #dist.device<"/host:a">}

// -----

// expected-error @+1 {{field 'job' has no value in device string '/job'}}
func.func @f() attributes {d = #dist.device<"/job">}

// -----

// expected-error @+1 {{duplicate task field 'task:1' in device string '/task:0/task:1'}}
func.func @f() attributes {d = #dist.device<"/task:0/task:1">}

// -----

// expected-error @+1 {{duplicate job field 'job:b'}}
func.func @f() attributes {d = #dist.device<"/job:a/job:b">}

// -----

// expected-error @+1 {{duplicate replica field 'replica:0'}}
func.func @f() attributes {d = #dist.device<"/replica:0/replica:0">}

// -----

// expected-error @+1 {{duplicate device field 'device:GPU:0' in device string '/cpu:0/device:GPU:0'}}
func.func @f() attributes {d = #dist.device<"/cpu:0/device:GPU:0">}

// -----

// expected-error @+1 {{bad task index 'x', expected a non-negative integer or '*' in device string '/task:x'}}
func.func @f() attributes {d = #dist.device<"/task:x">}

// -----

// expected-error @+1 {{bad task index '-1', expected a non-negative integer or '*'}}
func.func @f() attributes {d = #dist.device<"/task:-1">}

// -----

// expected-error @+1 {{bad replica index '0x1', expected a non-negative integer or '*'}}
func.func @f() attributes {d = #dist.device<"/replica:0x1">}

// -----

// expected-error @+1 {{bad task index '99999999999999999999'}}
func.func @f() attributes {d = #dist.device<"/task:99999999999999999999">}

// -----

// expected-error @+1 {{bad device index 'a', expected a non-negative integer or '*'}}
func.func @f() attributes {d = #dist.device<"/device:GPU:a">}

// -----

// expected-error @+1 {{bad device index '', expected a non-negative integer or '*'}}
func.func @f() attributes {d = #dist.device<"/gpu:">}

// -----

// expected-error @+1 {{bad job name '1worker', expected a letter followed by letters, digits or '_' in device string '/job:1worker'}}
func.func @f() attributes {d = #dist.device<"/job:1worker">}

// -----

// expected-error @+1 {{bad job name ''}}
func.func @f() attributes {d = #dist.device<"/job:">}

// -----

// expected-error @+1 {{bad device type '1GPU', expected a letter followed by letters, digits or '_'}}
func.func @f() attributes {d = #dist.device<"/device:1GPU:0">}

// -----

// expected-error @+1 {{device index '0' without a device type in device string '/device:*:0'}}
func.func @f() attributes {d = #dist.device<"/device:*:0">}

// -----

// expected-error @+1 {{job 'w' has 0 tasks, expected at least one}}
func.func @f() attributes {c = #dist.cluster<{w = 0}>}

// -----

// expected-error @+1 {{job 'w' has -2 tasks, expected at least one}}
func.func @f() attributes {j = #dist.job<w = -2>}

// -----

// expected-error @+1 {{job 'w' appears twice}}
func.func @f() attributes {c = #dist.cluster<{w = 1, ps = 1, w = 2}>}

// -----

// expected-error @+1 {{cluster has no jobs}}
func.func @f() attributes {c = #dist.cluster<{}>}

// -----

// expected-error @+1 {{job 'w' lists device GPU:0 twice}}
func.func @f() attributes {c = #dist.cluster<{w = 1 x [GPU:0, CPU:0, GPU:0]}>}

// -----

// expected-error @+1 {{job 'w' has no devices}}
func.func @f() attributes {c = #dist.cluster<{w = 1 x []}>}

// -----

// expected-error @+1 {{bad device type 'cpu', expected upper case}}
func.func @f() attributes {c = #dist.cluster<{w = 1 x [cpu:0]}>}

// -----

// expected-error @+1 {{device index -1 is negative}}
func.func @f() attributes {c = #dist.cluster<{w = 1 x [CPU:-1]}>}

// -----

// expected-error @+1 {{bad job name '1w'}}
func.func @f() attributes {c = #dist.cluster<{"1w" = 1}>}

// -----

// expected-error @+1 {{'dist.cluster' may only be set on a builtin.module}}
func.func @f() attributes {dist.cluster = #dist.cluster<{w = 1}>}

// -----

// expected-error @+1 {{'dist.cluster' must be a #dist.cluster}}
module attributes {dist.cluster = #dist.device<"/job:w">} {}

// -----

// expected-error @+1 {{'dist.device' must be a #dist.device}}
func.func @f() attributes {dist.device = "/job:w"}

// -----

// expected-error @+1 {{unknown dist attribute 'dist.placement'}}
func.func @f() attributes {dist.placement = #dist.device<"/job:w">}

// -----

module {
  // expected-error @+1 {{'dist.task' op requires the enclosing module to carry a 'dist.cluster' attribute}}
  dist.task @t on #dist.device<"/job:w/task:0"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{'dist.task' op device '/job:w' does not name a task (needs job and task, and no device)}}
  dist.task @t on #dist.device<"/job:w"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{'dist.task' op device '/job:w/task:0/device:CPU:0' does not name a task}}
  dist.task @t on #dist.device<"/job:w/task:0/device:CPU:0"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{'dist.task' op device '/job:w/task:3' is not a task of the cluster}}
  dist.task @t on #dist.device<"/job:w/task:3"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{'dist.task' op device '/job:w/replica:1/task:0' is not a task of the cluster}}
  dist.task @t on #dist.device<"/job:w/replica:1/task:0"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{'dist.task' op must have a body}}
  dist.task @t on #dist.device<"/job:w/task:0"> () {
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  func.func @f() {
    // expected-error @+1 {{'dist.task' op expects parent op 'builtin.module'}}
    dist.task @t on #dist.device<"/job:w/task:0"> () {
      dist.return
    }
    return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{'dist.return' op returns 0 values but task @t has 1 results}}
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) -> tensor<3xf32> {
    // expected-error @+1 {{'dist.return' op result #0 has type 'tensor<2xf32>' but task @t returns 'tensor<3xf32>'}}
    dist.return %x : tensor<2xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-note @+1 {{see existing symbol definition here}}
  dist.task @t on #dist.device<"/job:w/task:0"> () {
    dist.return
  }
  // expected-error @+1 {{redefinition of symbol named 't'}}
  dist.task @t on #dist.device<"/job:w/task:1"> () {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  // expected-error @+1 {{expected SSA identifier}}
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>, ...) {
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) {
    // expected-error @+1 {{'dist.send' op rendezvous key must not be empty}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "" : tensor<2xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  func.func @f(%x: tensor<2xf32>) {
    // expected-error @+1 {{'dist.send' op must be inside a dist.task}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<2xf32>
    return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) {
    // expected-error @+1 {{'dist.send' op peer '/task:1' does not name a task (needs job and task, and no device)}}
    dist.send %x to #dist.device<"/task:1"> key "k" : tensor<2xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> () {
    // expected-error @+1 {{'dist.recv' op peer '/job:ps/task:0' is not a task of the cluster}}
    %x = dist.recv from #dist.device<"/job:ps/task:0"> key "k" : tensor<2xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<2xf32>) {
    // expected-error @+1 {{'dist.send' op cannot send to its own task '/job:w/task:0'}}
    dist.send %x to #dist.device<"/job:w/replica:0/task:0"> key "k" : tensor<2xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> () {
    // expected-error @+1 {{'dist.recv' op cannot receive from its own task '/job:w/task:0'}}
    %x = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<2xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op collective key must not be empty}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op group must not be empty}}
    %r = dist.all_reduce sum %x group [] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_gather' op group member '/job:w/task:1/device:GPU:0' does not name a task (needs job and task, and no device)}}
    %r = dist.all_gather %x axis 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1/device:GPU:0">] key "k" : tensor<4x6xf32> -> tensor<8x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op group member '/job:w/task:7' is not a task of the cluster}}
    %r = dist.all_reduce max %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:7">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op group member '/job:w/task:0' appears twice}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">, #dist.device<"/job:w/replica:0/task:0">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'dist.all_reduce' op must be inside a dist.task}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4xf32> -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.broadcast' op enclosing task '/job:w/task:0' is not a member of the group}}
    %r = dist.broadcast %x root #dist.device<"/job:w/task:1"> group [#dist.device<"/job:w/task:1">, #dist.device<"/job:w/task:2">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op result element type 'f16' does not match input element type 'f32'}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf16>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op result rank 1 does not match input rank 2}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<24xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<*xf32>) {
    // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<*xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op result dimension 1 is 7, expected 6}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x7xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_gather' op gather axis 2 is out of range for a rank-2 tensor}}
    %r = dist.all_gather %x axis 2 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_gather' op gather axis -1 is out of range for a rank-2 tensor}}
    %r = dist.all_gather %x axis -1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_gather' op result dimension 1 is 6, expected 12}}
    %r = dist.all_gather %x axis 1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.reduce_scatter' op scatter axis 5 is out of range for a rank-2 tensor}}
    %r = dist.reduce_scatter sum %x axis 5 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.reduce_scatter' op scatter dimension 0 of size 4 is not divisible by the group size 3}}
    %r = dist.reduce_scatter sum %x axis 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">, #dist.device<"/job:w/task:2">] key "k" : tensor<4x6xf32> -> tensor<1x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.reduce_scatter' op result dimension 1 is 6, expected 3}}
    %r = dist.reduce_scatter min %x axis 1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.broadcast' op root '/job:w/task:2' is not a member of the group}}
    %r = dist.broadcast %x root #dist.device<"/job:w/task:2"> group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.broadcast' op result dimension 1 is 3, expected 6}}
    %r = dist.broadcast %x root #dist.device<"/job:w/task:0"> group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x3xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_to_all' op split axis 2 is out of range for a rank-2 tensor}}
    %r = dist.all_to_all %x split 2 concat 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_to_all' op concat axis -1 is out of range for a rank-2 tensor}}
    %r = dist.all_to_all %x split 0 concat -1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<4x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<5x6xf32>) {
    // expected-error @+1 {{'dist.all_to_all' op split dimension 0 of size 5 is not divisible by the group size 2}}
    %r = dist.all_to_all %x split 0 concat 1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<5x6xf32> -> tensor<2x12xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @t on #dist.device<"/job:w/task:0"> (%x: tensor<4x6xf32>) {
    // expected-error @+1 {{'dist.all_to_all' op result dimension 1 is 6, expected 12}}
    %r = dist.all_to_all %x split 0 concat 1 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4x6xf32> -> tensor<2x6xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {

    dist.return
  }
  // expected-note @+1 {{other task program here}}
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {

    dist.return
  }
  // expected-error @+1 {{'dist.task' op runs on task '/job:w/task:1' like @b}}
  dist.task @c on #dist.device<"/job:w/replica:0/task:1"> (%x: tensor<4xf32>) {

    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first use here}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    // expected-error @+1 {{'dist.send' op rendezvous key "k" is already used by another dist.send}}
    dist.send %x to #dist.device<"/job:w/task:2"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first use here}}
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @c on #dist.device<"/job:w/task:2"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.recv' op rendezvous key "k" is already used by another dist.recv}}
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.send' op has no matching dist.recv with key "k"}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "other" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {

    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.recv' op has no matching dist.send with key "k"}}
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.send' op sends to '/job:w/task:1' but the dist.recv with key "k" is in task '/job:w/task:2'}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @c on #dist.device<"/job:w/task:2"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{dist.recv here}}
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{dist.send here}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.recv' op receives from '/job:w/task:2' but the dist.send with key "k" is in task '/job:w/task:0'}}
    %y = dist.recv from #dist.device<"/job:w/task:2"> key "k" : tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{dist.send here}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.recv' op receives 'tensor<4xf16>' but the dist.send with key "k" sends 'tensor<4xf32>'}}
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf16>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.send' op key "k" is also used by a collective}}
    dist.send %x to #dist.device<"/job:w/task:1"> key "k" : tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    %y = dist.recv from #dist.device<"/job:w/task:0"> key "k" : tensor<4xf32>
    // expected-note @+1 {{collective here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "k" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first use here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    // expected-error @+1 {{'dist.all_reduce' op collective key "g" is used twice in task '/job:w/task:0'}}
    %s = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first instance here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.all_gather' op is not the same kind of collective as the dist.all_reduce with key "g" in task '/job:w/task:0'}}
    %r = dist.all_gather %x axis 0 group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<8xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first instance here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op has a different group than the dist.all_reduce with key "g" in task '/job:w/task:0'}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:1">, #dist.device<"/job:w/task:0">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first instance here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<8xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op has different types than the dist.all_reduce with key "g" in task '/job:w/task:0'}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<8xf32> -> tensor<8xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-note @+1 {{first instance here}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op has different attributes than the dist.all_reduce with key "g" in task '/job:w/task:0'}}
    %r = dist.all_reduce max %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op group member '/job:w/task:1' runs no dist.all_reduce with key "g"}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
  dist.task @b on #dist.device<"/job:w/task:1"> (%x: tensor<4xf32>) {

    dist.return
  }
}

// -----

module attributes {dist.cluster = #dist.cluster<{w = 3}>} {
  dist.task @a on #dist.device<"/job:w/task:0"> (%x: tensor<4xf32>) {
    // expected-error @+1 {{'dist.all_reduce' op group member '/job:w/task:1' runs no dist.all_reduce with key "g"}}
    %r = dist.all_reduce sum %x group [#dist.device<"/job:w/task:0">, #dist.device<"/job:w/task:1">] key "g" : tensor<4xf32> -> tensor<4xf32>
    dist.return
  }
}

// -----

// expected-error @+1 {{'dist.replicas' must be a positive integer, got 0 : i64}}
func.func @f() attributes {dist.replicas = 0 : i64} {
  return
}

// -----

// expected-error @+1 {{'dist.replicas' may only be set on a function}}
module attributes {dist.replicas = 2 : i64} {
}

// -----

// expected-error @+1 {{'dist.pipeline' must be a dictionary with positive integers stages, microbatches and replicas, got {microbatches = 2 : i64, stages = 2 : i64}}}
module attributes {dist.pipeline = {microbatches = 2 : i64, stages = 2 : i64}} {
}

// -----

// expected-error @+1 {{'dist.pipeline' may only be set on a builtin.module}}
func.func @f() attributes {dist.pipeline = {microbatches = 2 : i64, replicas = 1 : i64, stages = 2 : i64}} {
  return
}

// -----

func.func @f(%x: tensor<8x4xf32>) -> tensor<2x4xf32> attributes {dist.replicas = 2 : i64} {
  // expected-error @+1 {{'dist.replica_split' op axis 0 is 8 in the whole value and 2 in a replica's slice, expected a ratio of 2 (dist.replicas)}}
  %s = dist.replica_split %x axis 0 : tensor<8x4xf32> -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

func.func @f(%x: tensor<8x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'dist.replica_split' op axis 0 is 8 in the whole value and 3 in a replica's slice, expected a whole ratio}}
  %s = dist.replica_split %x axis 0 : tensor<8x4xf32> -> tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}

// -----

func.func @f(%x: tensor<8x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dist.replica_split' op dimension 1 is 4 in the whole value but 3 in a replica's slice}}
  %s = dist.replica_split %x axis 0 : tensor<8x4xf32> -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'dist.replica_split' op axis 2 is out of range for a rank-2 tensor}}
  %s = dist.replica_split %x axis 2 : tensor<8x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

func.func @f(%x: tensor<4x4xf32>) -> tensor<8x4xf16> {
  // expected-error @+1 {{'dist.replica_concat' op element types 'f16' and 'f32' differ}}
  %c = dist.replica_concat %x axis 0 : tensor<4x4xf32> -> tensor<8x4xf16>
  return %c : tensor<8x4xf16>
}

// -----

func.func @f(%x: tensor<4x4xf32>) -> tensor<12x4xf32> attributes {dist.replicas = 2 : i64} {
  // expected-error @+1 {{'dist.replica_concat' op axis 0 is 12 in the whole value and 4 in a replica's slice, expected a ratio of 2 (dist.replicas)}}
  %c = dist.replica_concat %x axis 0 : tensor<4x4xf32> -> tensor<12x4xf32>
  return %c : tensor<12x4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction' [sum, mean, max, min, prod]}}
  %r = dist.replica_all_reduce avg %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'dist.replica_all_reduce' op failed to verify that all of {input, result} have same type}}
  %r = "dist.replica_all_reduce"(%x) {reduction = 0 : i32} : (tensor<4xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.group_all_reduce' op has 2 inputs and 2 results for a group of 3 tasks; give one of each per member}}
  %s:2 = dist.group_all_reduce sum %a, %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:2">] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>, tensor<4xf32>
  return %s#0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.group_all_reduce' op every input and result must have type 'tensor<4xf32>', not 'tensor<8xf32>'}}
  %s:2 = dist.group_all_reduce sum %a, %b group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">] : tensor<4xf32>, tensor<8xf32> -> tensor<4xf32>, tensor<4xf32>
  return %s#0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dist.group_all_reduce' op group member '/job:worker/task:1' appears twice}}
  %s:2 = dist.group_all_reduce sum %a, %b group [#dist.device<"/job:worker/task:1">, #dist.device<"/job:worker/task:1">] : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>, tensor<4xf32>
  return %s#0 : tensor<4xf32>
}
