// graphc --direct-conv: 2-D f32 convolutions of the classes named get the
// direct (im2col-free) kernel of graphc-cpu-direct-conv instead of im2col +
// GEMM (docs/design/cpu-codegen.md, "Direct convolution"). The default is
// 3x3,strided,1x1,wgrad; none turns it off.
// The kernel's loop carries one accumulator per output column (14 here) and
// multiply-adds broadcast input elements; the GEMM path has no such loop.
// REQUIRES: compiler
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v4 --direct-conv=3x3 | FileCheck %s --check-prefix=DIRECT
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v4 --direct-conv=1x1,strided | FileCheck %s --check-prefix=GEMM
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v4 | FileCheck %s --check-prefix=DIRECT
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v4 --direct-conv=none | FileCheck %s --check-prefix=GEMM
// RUN: rm -rf %t.gjob && graphc %s --direct-conv=all -o %t.gjob
// RUN: test -f %t.gjob/main.so
// An unknown class is a usage error (exit 2) that names it.
// RUN: %python %S/../Inputs/expect_exit.py 2 -- graphc %s --emit=llvm --direct-conv=3x3,5x5 | FileCheck %s --check-prefix=BAD

// The reduction loops' blocks carry the 14 column accumulators (two-vector
// rows of 32 output channels):
// DIRECT: ^bb{{[0-9]+}}({{.*}}%{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>)
// GEMM-NOT: %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>, %{{[0-9a-z_]+}}: vector<32xf32>
// BAD: graphc: error: --direct-conv: unknown convolution class '5x5'
func.func @main(%x: tensor<1x16x16x16xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x14x14xf32> {
  %y = graph.conv %x, %w : (tensor<1x16x16x16xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x14x14xf32>
  return %y : tensor<1x32x14x14xf32>
}
