// A graphc job trained on --data with two data-parallel replicas: the
// replica's copies of the variables are marked replica_of by dist-partition,
// the optimizer slot keeps graph.slot_of, both reach the manifest; a
// checkpoint holds every copy, and --save writes the model's one weight, w,
// under its own name (the slot and the replicas' copies left out). The saved
// file is parsed by hand with NumPy.
// REQUIRES: runtime
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(30, dtype=np.float32).reshape(10, 3))"
// RUN: graphc %s --replicas 2 -o %t/r.gjob
// RUN: %python %S/Inputs/manifest_summary.py %t/r.gjob | FileCheck %s --check-prefix=MANIFEST
// MANIFEST:      variable w f32 [3] file worker0.w0.bin{{$}}
// MANIFEST-NEXT: variable w_mom f32 [3] file worker0.w1.bin slot_of 'w'
// MANIFEST:      variable w_r1 f32 [3] file worker0.w0.bin replica_of w{{$}}
// MANIFEST-NEXT: variable w_mom_r1 f32 [3] file worker0.w1.bin replica_of w_mom slot_of 'w'

// 3 steps in file order (the third takes examples 0-3 again): the output is
// that batch plus w as the step read it, [1, 2, 3] + 2.
// RUN: graph-run --quiet %t/r.gjob --data x=%t/x.npy --no-shuffle --steps 3 \
// RUN:   --checkpoint-dir %t/ck --save %t/w.safetensors --output-dir %t/out
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); np.testing.assert_array_equal(np.load('%t/out/y.npy'), x[0:4] + np.float32([3, 4, 5])); print('y ok')" | FileCheck %s --check-prefix=Y
// Y: y ok
// RUN: %python %S/../runtime/Inputs/graphrt_test.py dump-safetensors %t/ck/ckpt-3.safetensors | FileCheck %s --check-prefix=CKPT
// CKPT: worker0/w F32 [3] [4.0, 5.0, 6.0]
// CKPT-NEXT: worker0/w_mom F32 [3]
// CKPT-NEXT: worker1/w_mom_r1 F32 [3]
// CKPT-NEXT: worker1/w_r1 F32 [3] [4.0, 5.0, 6.0]
// RUN: %python %S/../runtime/Inputs/graphrt_test.py dump-safetensors %t/w.safetensors | FileCheck %s --check-prefix=SAVE
// SAVE: w F32 [3] [4.0, 5.0, 6.0]
// SAVE-NOT: w

graph.variable @w : tensor<3xf32> = dense<[1.0, 2.0, 3.0]>
graph.variable @w_mom : tensor<3xf32> = dense<0.0> {graph.slot_of = "w"}
func.func @main(%x: tensor<4x3xf32> {graph.name = "x"})
    -> (tensor<4x3xf32> {graph.name = "y"}) {
  %w = graph.read_variable @w : tensor<3xf32>
  %y = graph.add %x, %w : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %one = graph.constant dense<1.0> : tensor<3xf32>
  graph.assign_variable @w, %one mode = add : tensor<3xf32>
  %m = graph.read_variable @w_mom : tensor<3xf32>
  %h = graph.constant dense<0.5> : tensor<3xf32>
  %mh = graph.mul %m, %h : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %m2 = graph.add %mh, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  graph.assign_variable @w_mom, %m2 : tensor<3xf32>
  return %y : tensor<4x3xf32>
}
