// Integer and boolean paths: floor_div/mod/rem, max/min, abs/neg/sign,
// compare/select, and/or/xor/not, cast between i1/i32/i64/f32, integer
// reduce and arg_reduce. Expected values: reference.py (NumPy).
//
// RUN: graph-opt %s --graph-to-linalg --one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-math-to-llvm --convert-math-to-libm --convert-to-llvm --reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t
// RUN: %python %S/reference.py integer %t | FileCheck %s
// The same through graphc-cpu-codegen (serial), the pipeline graphc uses:
// RUN: graph-opt %s --graph-to-linalg --graphc-cpu-codegen=openmp=0 \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.cpu
// RUN: %python %S/reference.py integer %t.cpu | FileCheck %s
// CHECK: integer: 34 results match NumPy

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @compute(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %c: tensor<2x3xi64>, %d: tensor<2x1xi64>, %p: tensor<2x3xi1>, %q: tensor<3xi1>, %f: tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2xi32>, tensor<3xi64>, tensor<i32>, tensor<1x3xi32>, tensor<2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2xi64>) {
  %fd = graph.floor_div %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %md = graph.mod %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %rm = graph.rem %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %mx = graph.max %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %mn = graph.min %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %abs = graph.abs %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %neg = graph.neg %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %sign = graph.sign %a : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %lt = graph.compare %a, %b {direction = #graph<compare_direction lt>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %sel = graph.select %lt, %a, %b : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %ge = graph.compare %a, %b {direction = #graph<compare_direction ge>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %gei = graph.cast %ge {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %andb = graph.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %andi = graph.cast %andb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %orb = graph.or %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %ori = graph.cast %orb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %xorb = graph.xor %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %xori = graph.cast %xorb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %notb = graph.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %noti = graph.cast %notb {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %blt = graph.compare %p, %q {direction = #graph<compare_direction lt>} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %blti = graph.cast %blt {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %cne = graph.compare %c, %d {direction = #graph<compare_direction ne>} : (tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi1>
  %cnei = graph.cast %cne {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %a64 = graph.cast %a {to = i64} : (tensor<2x3xi32>) -> tensor<2x3xi64>
  %c32 = graph.cast %c {to = i32} : (tensor<2x3xi64>) -> tensor<2x3xi32>
  %f32i = graph.cast %f {to = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %af = graph.cast %a {to = f32} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %ab = graph.cast %a {to = i1} : (tensor<2x3xi32>) -> tensor<2x3xi1>
  %abi = graph.cast %ab {to = i32} : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %fb = graph.cast %f {to = i1} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %fbi = graph.cast %fb {to = i64} : (tensor<2x3xi1>) -> tensor<2x3xi64>
  %fd64 = graph.floor_div %c, %d : (tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  %md64 = graph.mod %c, %d : (tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  %rm64 = graph.rem %c, %d : (tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  %mx64 = graph.max %c, %d : (tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  %rsum = graph.reduce %a {axes = array<i64: 1>, kind = #graph<reduce_kind sum>} : (tensor<2x3xi32>) -> tensor<2xi32>
  %rmax = graph.reduce %c {axes = array<i64: 0>, kind = #graph<reduce_kind max>} : (tensor<2x3xi64>) -> tensor<3xi64>
  %rmin = graph.reduce %a {axes = array<i64: 0, 1>, kind = #graph<reduce_kind min>} : (tensor<2x3xi32>) -> tensor<i32>
  %rprod = graph.reduce %a {axes = array<i64: 0>, keepdims, kind = #graph<reduce_kind prod>} : (tensor<2x3xi32>) -> tensor<1x3xi32>
  %amax = graph.arg_reduce %a {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xi32>) -> tensor<2xi64>
  %amin = graph.arg_reduce %c {axis = 0 : i64, kind = #graph<reduce_kind min>} : (tensor<2x3xi64>) -> tensor<3xi64>
  %amaxl = graph.arg_reduce %c {axis = 1 : i64, kind = #graph<reduce_kind max>, select_last_index} : (tensor<2x3xi64>) -> tensor<2xi64>
  %bmax = graph.arg_reduce %p {axis = 1 : i64, kind = #graph<reduce_kind max>} : (tensor<2x3xi1>) -> tensor<2xi64>
  return %fd, %md, %rm, %mx, %mn, %abs, %neg, %sign, %sel, %gei, %andi, %ori, %xori, %noti, %blti, %cnei, %a64, %c32, %f32i, %af, %abi, %fbi, %fd64, %md64, %rm64, %mx64, %rsum, %rmax, %rmin, %rprod, %amax, %amin, %amaxl, %bmax : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2xi32>, tensor<3xi64>, tensor<i32>, tensor<1x3xi32>, tensor<2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2xi64>
}

func.func @main() {
  %a = arith.constant dense<[[7, -7, 9], [-9, 0, 5]]> : tensor<2x3xi32>
  %b = arith.constant dense<[2, 3, -4]> : tensor<3xi32>
  %c = arith.constant dense<[[100, -37, 100], [-100, 37, 6]]> : tensor<2x3xi64>
  %d = arith.constant dense<[[7], [-5]]> : tensor<2x1xi64>
  %p = arith.constant dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>
  %q = arith.constant dense<[true, false, false]> : tensor<3xi1>
  %f = arith.constant dense<[[1.7, -1.7, 2.5], [-0.5, 3.99, -3.99]]> : tensor<2x3xf32>
  %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33 = call @compute(%a, %b, %c, %d, %p, %q, %f) : (tensor<2x3xi32>, tensor<3xi32>, tensor<2x3xi64>, tensor<2x1xi64>, tensor<2x3xi1>, tensor<3xi1>, tensor<2x3xf32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<2xi32>, tensor<3xi64>, tensor<i32>, tensor<1x3xi32>, tensor<2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2xi64>)
  %u0 = tensor.cast %r0 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  %u1 = tensor.cast %r1 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %r2 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  %u3 = tensor.cast %r3 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
  %u4 = tensor.cast %r4 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
  %u5 = tensor.cast %r5 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
  %u6 = tensor.cast %r6 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
  %u7 = tensor.cast %r7 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
  %u8 = tensor.cast %r8 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
  %u9 = tensor.cast %r9 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
  %u10 = tensor.cast %r10 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
  %u11 = tensor.cast %r11 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
  %u12 = tensor.cast %r12 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
  %u13 = tensor.cast %r13 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
  %u14 = tensor.cast %r14 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
  %u15 = tensor.cast %r15 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
  %u16 = tensor.cast %r16 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u16) : (tensor<*xi64>) -> ()
  %u17 = tensor.cast %r17 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u17) : (tensor<*xi32>) -> ()
  %u18 = tensor.cast %r18 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u18) : (tensor<*xi32>) -> ()
  %u19 = tensor.cast %r19 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u19) : (tensor<*xf32>) -> ()
  %u20 = tensor.cast %r20 : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u20) : (tensor<*xi32>) -> ()
  %u21 = tensor.cast %r21 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u21) : (tensor<*xi64>) -> ()
  %u22 = tensor.cast %r22 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u22) : (tensor<*xi64>) -> ()
  %u23 = tensor.cast %r23 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u23) : (tensor<*xi64>) -> ()
  %u24 = tensor.cast %r24 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u24) : (tensor<*xi64>) -> ()
  %u25 = tensor.cast %r25 : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%u25) : (tensor<*xi64>) -> ()
  %u26 = tensor.cast %r26 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%u26) : (tensor<*xi32>) -> ()
  %u27 = tensor.cast %r27 : tensor<3xi64> to tensor<*xi64>
  call @printMemrefI64(%u27) : (tensor<*xi64>) -> ()
  %u28 = tensor.cast %r28 : tensor<i32> to tensor<*xi32>
  call @printMemrefI32(%u28) : (tensor<*xi32>) -> ()
  %u29 = tensor.cast %r29 : tensor<1x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u29) : (tensor<*xi32>) -> ()
  %u30 = tensor.cast %r30 : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%u30) : (tensor<*xi64>) -> ()
  %u31 = tensor.cast %r31 : tensor<3xi64> to tensor<*xi64>
  call @printMemrefI64(%u31) : (tensor<*xi64>) -> ()
  %u32 = tensor.cast %r32 : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%u32) : (tensor<*xi64>) -> ()
  %u33 = tensor.cast %r33 : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%u33) : (tensor<*xi64>) -> ()
  return
}
