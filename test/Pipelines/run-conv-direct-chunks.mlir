// Numeric checks of the direct row kernel's channel chunks
// (docs/design/conv-codegen.md, "Round four"): a filter block past 48 KB
// (with a fill) is reduced in chunks of input channels over strips of
// register tiles, the accumulators kept in a scratch tensor between
// chunks. Each case is Inputs/conv-direct-shape.mlir with its shape
// substituted, filter and input made at run time, compared with NumPy
// (Inputs/reference.py); the structure is pinned by
// conv-direct-chunks.mlir.
// REQUIRES: libomp
// 7 columns, tiles of 2 rows x 7 (a strip of all 7 rows: 2 + 2 + 2 + 1), 4 chunks of 16 channels: 2x64x9x9 * 32x64x3x3 -> 7x7.
// RUN: sed -e 's/@N@/2/g;s/@C@/64/g;s/@H@/9/g;s/@W@/9/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.a.mlir
// RUN: graph-opt %t.a.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.a.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,64,9,9,32,3,3,1,1,1,1 %t.a.out
// RUN: graph-opt %t.a.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=A
// A: tensor.empty() : tensor<4x14x32xf32>
// A: scf.for %{{.*}} = %c0{{.*}} to %c7{{(_[0-9]+)?}} step %c7
// A: scf.for %{{.*}} = %c0{{.*}} to %c64{{(_[0-9]+)?}} step %c16
// 29 columns (tiles 14 + 14 + 1 in a one-row strip), 64 output channels (two blocks), serial: 1x64x5x31 * 64x64x3x3 -> 3x29.
// RUN: sed -e 's/@N@/1/g;s/@C@/64/g;s/@H@/5/g;s/@W@/31/g;s/@F@/64/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/3/g;s/@OW@/29/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.b.mlir
// RUN: graph-opt %t.b.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.b.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,64,5,31,64,3,3,1,1,1,1 %t.b.out
// RUN: graph-opt %t.b.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=B
// B: tensor.empty() : tensor<3x14x32xf32>
// B: scf.for %{{.*}} = %c0{{.*}} to %c64{{(_[0-9]+)?}} step %c16
// stride 2 and dilation 2, 16 columns (tiles of 8) in strips of 2 rows, 8 lanes (blocks of 16 channels, chunks of 32): 2x96x35x35 * 16x96x3x3 -> 16x16.
// RUN: sed -e 's/@N@/2/g;s/@C@/96/g;s/@H@/35/g;s/@W@/35/g;s/@F@/16/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/16/g;s/@OW@/16/g;s/@SH@/2/g;s/@SW@/2/g;s/@DH@/2/g;s/@DW@/2/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.c.mlir
// RUN: graph-opt %t.c.mlir --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.c.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,96,35,35,16,3,3,2,2,2,2 %t.c.out
// RUN: graph-opt %t.c.mlir --graphc-cpu-direct-conv="vector-width=8" | FileCheck %s --check-prefix=C
// C: tensor.empty() : tensor<4x8x16xf32>
// C: scf.for %{{.*}} = %c0{{.*}} to %c2{{(_[0-9]+)?}} step %c2
// C: scf.for %{{.*}} = %c0{{.*}} to %c96{{(_[0-9]+)?}} step %c32
// An epilogue (bias, scale, residual, ReLU) on chunked tiles: run-conv-epilogue.mlir's
// row-kernel case with 64 input channels and 29 columns (a strip of 14 + 14 + 1): 2x64x10x31 * 32x64x3x3 -> 8x29.
// RUN: sed -e 's/2x5x10x10/2x64x10x31/g;s/32x5x3x3/32x64x3x3/g;s/2x32x8x8/2x32x8x29/g' \
// RUN:   -e 's/^  %%x, %%w, %%r, %%b, %%s = call @inputs(%%c2, %%c5, %%c10, %%c10, %%c32, %%c3, %%c8, %%c8)/  %%c64x = arith.constant 64 : index\n  %%c31x = arith.constant 31 : index\n  %%c29x = arith.constant 29 : index\n  %%x, %%w, %%r, %%b, %%s = call @inputs(%%c2, %%c64x, %%c10, %%c31x, %%c32, %%c3, %%c8, %%c29x)/' \
// RUN:   %S/run-conv-epilogue.mlir > %t.e.mlir
// RUN: graph-opt %t.e.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.e.out
// RUN: %numpy_python %S/Inputs/reference.py conv_epilogue 2,64,10,31,32,3,3 %t.e.out
// RUN: graph-opt %t.e.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=E
// E-LABEL: func.func @conv
// E: tensor.empty() : tensor<3x14x32xf32>
// E: arith.maximumf {{.*}} : vector<32x14xf32>
// E-NOT: linalg.generic
// E-LABEL: func.func @conv_pointwise
// The same without chunks (a filter block under 48 KB: 32 channels) for contrast: 2x32x9x9 * 32x32x3x3 -> 7x7.
// RUN: sed -e 's/@N@/2/g;s/@C@/32/g;s/@H@/9/g;s/@W@/9/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.d.mlir
// RUN: graph-opt %t.d.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.d.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,32,9,9,32,3,3,1,1,1,1 %t.d.out
// RUN: graph-opt %t.d.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=D
// D-LABEL: func.func @conv
// D-NOT: arith.select
// D: vector.fma
// D-NOT: arith.select
// D-LABEL: func.func @main
