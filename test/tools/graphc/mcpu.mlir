// graphc --mcpu: CPU tasks are generated for a named CPU instead of the host,
// so a bundle built on an AVX-512 machine runs on an AVX2 one. The register
// tiles follow the named CPU's vector width: 6x16 on AVX2 (two 8-lane
// vectors per row), 8x32 on AVX-512 (two 16-lane vectors).
// REQUIRES: compiler
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v3 | FileCheck %s --check-prefix=AVX2
// RUN: graphc %s --emit=llvm --mcpu=x86-64-v4 | FileCheck %s --check-prefix=AVX512
// RUN: rm -rf %t.gjob && graphc %s --mcpu=x86-64-v3 -o %t.gjob
// RUN: test -f %t.gjob/main.so
// An unknown CPU, or a CPU for another target, is a usage error (exit 2)
// that names the CPU.
// RUN: %python %S/../Inputs/expect_exit.py 2 -- graphc %s --mcpu=pentium9 -o %t.bad | FileCheck %s --check-prefix=BAD
// RUN: %python %S/../Inputs/expect_exit.py 2 -- graphc %s --mcpu=x86-64-v3 --target=tpu -o %t.bad | FileCheck %s --check-prefix=TPU

// AVX2: vector<16xf32>
// AVX2-NOT: vector<32xf32>
// AVX512: vector<32xf32>
// BAD: graphc: error: --mcpu: unknown CPU 'pentium9'
// BAD-SAME: llc-22 -mcpu=help
// TPU: --mcpu names a CPU for --target=cpu
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = graph.matmul %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
