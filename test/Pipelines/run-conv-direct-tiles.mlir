// Numeric checks of graphc-cpu-direct-conv's tile shapes
// (docs/design/cpu-codegen.md, "Direct convolution"): rows narrower than
// half the register tile share it with the next rows (and a last tile of
// fewer rows), widths with no good divisor get a narrower last column
// tile, and 1x1 stride-1 convolutions take the pointwise kernel (pixels
// flattened, 8 channels x 3 vectors of pixels, a narrower last tile). Each case is Inputs/conv-direct-shape.mlir with its shape
// substituted, filter and input made at run time, compared with NumPy
// (Inputs/reference.py).
// REQUIRES: libomp
// 7 columns: tiles of 2 rows x 7 (rows 2 + 2 + 2 + 1), zero fill: 1x5x9x9 * 32x5x3x3 -> 7x7.
// RUN: sed -e 's/@N@/1/g;s/@C@/5/g;s/@H@/9/g;s/@W@/9/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.a.mlir
// RUN: graph-opt %t.a.mlir --graphc-cpu-codegen="direct-conv=all" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.a.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,5,9,9,32,3,3,1,1,1,1 %t.a.out
// the same, serial: 1x5x9x9 * 32x5x3x3 -> 7x7.
// RUN: sed -e 's/@N@/1/g;s/@C@/5/g;s/@H@/9/g;s/@W@/9/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.s.mlir
// RUN: graph-opt %t.s.mlir --graphc-cpu-codegen="direct-conv=all openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.s.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,5,9,9,32,3,3,1,1,1,1 %t.s.out
// the same rows accumulating, batch 2, 8 lanes: 2x5x9x9 * 48x5x3x3 -> 7x7.
// RUN: sed -e 's/@N@/2/g;s/@C@/5/g;s/@H@/9/g;s/@W@/9/g;s/@F@/48/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.b.mlir
// RUN: graph-opt %t.b.mlir --graphc-cpu-codegen="direct-conv=3x3 vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.b.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,5,9,9,48,3,3,1,1,1,1 %t.b.out
// stride 2 into 7 columns, one vector of channels: 1x4x15x15 * 16x4x3x3 -> 7x7.
// RUN: sed -e 's/@N@/1/g;s/@C@/4/g;s/@H@/15/g;s/@W@/15/g;s/@F@/16/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/2/g;s/@SW@/2/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.c.mlir
// RUN: graph-opt %t.c.mlir --graphc-cpu-codegen="direct-conv=strided" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.c.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 1,4,15,15,16,3,3,2,2,1,1 %t.c.out
// 3 columns: tiles of 4 rows, tasks of 4 rows: 1x3x10x5 * 32x3x3x3 -> 8x3.
// RUN: sed -e 's/@N@/1/g;s/@C@/3/g;s/@H@/10/g;s/@W@/5/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/8/g;s/@OW@/3/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.d.mlir
// RUN: graph-opt %t.d.mlir --graphc-cpu-codegen="direct-conv=all" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.d.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,3,10,5,32,3,3,1,1,1,1 %t.d.out
// 29 columns (prime): tiles 14 + 14 + 1: 1x3x5x31 * 32x3x3x3 -> 3x29.
// RUN: sed -e 's/@N@/1/g;s/@C@/3/g;s/@H@/5/g;s/@W@/31/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/3/g;s/@OW@/29/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.e.mlir
// RUN: graph-opt %t.e.mlir --graphc-cpu-codegen="direct-conv=all" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.e.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 1,3,5,31,32,3,3,1,1,1,1 %t.e.out
// 25 columns (dilated): tiles 14 + 11, 8 lanes: 2x3x6x29 * 16x3x2x3 -> 5x25.
// RUN: sed -e 's/@N@/2/g;s/@C@/3/g;s/@H@/6/g;s/@W@/29/g;s/@F@/16/g;s/@KH@/2/g;s/@KW@/3/g;s/@OH@/5/g;s/@OW@/25/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/2/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.f.mlir
// RUN: graph-opt %t.f.mlir --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.f.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,3,6,29,16,2,3,1,1,1,2 %t.f.out
// 1x1 over 49 pixels: tiles of 48 + 1 pixels: 1x5x7x7 * 32x5x1x1 -> 7x7.
// RUN: sed -e 's/@N@/1/g;s/@C@/5/g;s/@H@/7/g;s/@W@/7/g;s/@F@/32/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.g.mlir
// RUN: graph-opt %t.g.mlir --graphc-cpu-codegen="direct-conv=1x1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.g.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,5,7,7,32,1,1,1,1,1,1 %t.g.out
// 1x1 accumulating, 100 pixels in tiles of 24 + 4, 8 lanes, 24 channels: 2x3x10x10 * 24x3x1x1 -> 10x10.
// RUN: sed -e 's/@N@/2/g;s/@C@/3/g;s/@H@/10/g;s/@W@/10/g;s/@F@/24/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/10/g;s/@OW@/10/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.h.mlir
// RUN: graph-opt %t.h.mlir --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.h.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,3,10,10,24,1,1,1,1,1,1 %t.h.out
// 1x1 over 323 pixels, more than its 16 channels: tasks over 6 chunks of pixels, the last with 35 left over: 1x6x17x19 * 16x6x1x1 -> 17x19.
// RUN: sed -e 's/@N@/1/g;s/@C@/6/g;s/@H@/17/g;s/@W@/19/g;s/@F@/16/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/17/g;s/@OW@/19/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.i.mlir
// RUN: graph-opt %t.i.mlir --graphc-cpu-codegen="direct-conv=1x1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.i.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 1,6,17,19,16,1,1,1,1,1,1 %t.i.out
// the same split serial, batch 2, 8 lanes: 2x6x11x23 * 8x6x1x1 -> 11x23.
// RUN: sed -e 's/@N@/2/g;s/@C@/6/g;s/@H@/11/g;s/@W@/23/g;s/@F@/8/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/11/g;s/@OW@/23/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.j.mlir
// RUN: graph-opt %t.j.mlir --graphc-cpu-codegen="direct-conv=1x1 vector-width=8 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.j.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 2,6,11,23,8,1,1,1,1,1,1 %t.j.out
// 1x1 with stride 2 (the row kernel): 1x5x9x9 * 16x5x1x1 -> 5x5.
// RUN: sed -e 's/@N@/1/g;s/@C@/5/g;s/@H@/9/g;s/@W@/9/g;s/@F@/16/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/5/g;s/@OW@/5/g;s/@SH@/2/g;s/@SW@/2/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.k.mlir
// RUN: graph-opt %t.k.mlir --graphc-cpu-codegen="direct-conv=strided" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.k.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 1,5,9,9,16,1,1,2,2,1,1 %t.k.out
// The tiles of case a (7 columns, 2 + 2 + 2 + 1 rows) and e (29
// columns, 14 + 14 + 1):
// RUN: graph-opt %t.a.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=ROWS
// ROWS-LABEL: func.func @conv
// ROWS:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 1)
// ROWS:       scf.for %{{.*}} = %c0{{.*}} to %c6{{(_[0-9]+)?}} step %c2{{(_[0-9]+)?}}
// ROWS:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [32, 2, 7] [1, 1, 1] : tensor<32x7x7xf32> to tensor<32x2x7xf32>
// ROWS-COUNT-14: vector.fma
// ROWS:       vector.transfer_write {{.*}} : vector<32x1x7xf32>, tensor<32x2x7xf32>
// ROWS:       vector.transfer_write {{.*}} : vector<32x1x7xf32>, tensor<32x2x7xf32>
// ROWS:       tensor.extract_slice %{{.*}}[0, %{{.*}}, 0] [32, 1, 7] [1, 1, 1] : tensor<32x7x7xf32> to tensor<32x1x7xf32>
// ROWS-COUNT-7: vector.fma
// ROWS:       vector.transfer_write {{.*}} : vector<32x1x7xf32>, tensor<32x1x7xf32>
// ROWS-NOT:   linalg.conv_2d_nchw_fchw
// RUN: graph-opt %t.e.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=COLS
// COLS-LABEL: func.func @conv
// COLS:       scf.for %{{.*}} = %c0{{.*}} to %c28{{(_[0-9]+)?}} step %c14{{(_[0-9]+)?}}
// COLS:       vector.transfer_read {{.*}} : tensor<32x1x29xf32>, vector<32x1x14xf32>
// COLS:       vector.transfer_write {{.*}} : vector<32x1x14xf32>, tensor<32x1x29xf32>
// COLS:       vector.transfer_read {{.*}} : tensor<32x1x29xf32>, vector<32x1x1xf32>
// COLS:       vector.fma
// COLS:       vector.transfer_write {{.*}} : vector<32x1x1xf32>, tensor<32x1x29xf32>
// COLS-NOT:   linalg.conv_2d_nchw_fchw
// The pointwise kernel of case i: the filter re-laid out to [2, 6, 8],
// tasks over 6 chunks of pixels and 2 blocks of 8 channels, tiles of 3
// vectors, the last chunk's 35 pixels left over (2 vectors and one of 3).
// RUN: graph-opt %t.i.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=PW
// PW-LABEL:   func.func @conv
// PW:         tensor.collapse_shape {{.*}} : tensor<1x6x17x19xf32> into tensor<1x6x323xf32>
// PW:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 6, 2)
// PW:         tensor.extract_slice {{.*}} : tensor<1x16x323xf32> to tensor<8x?xf32>
// PW:         vector.transfer_read {{.*}} : tensor<8x?xf32>, vector<16xf32>
// PW:         vector.transfer_read {{.*}} : tensor<1x6x323xf32>, vector<16xf32>
// PW:         tensor.extract {{.*}} : tensor<2x6x8xf32>
// PW:         vector.fma {{.*}} : vector<16xf32>
// PW:         scf.if
// PW:         vector.transfer_read {{.*}} : tensor<1x6x323xf32>, vector<3xf32>
// PW:         vector.fma {{.*}} : vector<3xf32>
// PW:         tensor.parallel_insert_slice
// PW:         tensor.expand_shape {{.*}} : tensor<1x16x323xf32> into tensor<1x16x17x19xf32>
// PW-NOT:     linalg.conv_2d_nchw_fchw
// Case k (1x1, stride 2) takes the pointwise kernel over a subsampled
// copy of its input: each 5-pixel output row is one shuffle of the 9
// input elements it needs (no read past the row).
// RUN: graph-opt %t.k.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=STRIDED
// STRIDED-LABEL: func.func @conv
// STRIDED:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 5) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x5x5x5xf32>)
// STRIDED:       vector.transfer_read {{.*}} : tensor<1x5x9x9xf32>, vector<9xf32>
// STRIDED:       vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8] : vector<9xf32>, vector<9xf32>
// STRIDED:       vector.transfer_write {{.*}} : vector<5xf32>, tensor<1x1x5x5xf32>
// STRIDED:       tensor.collapse_shape {{.*}} : tensor<1x5x5x5xf32> into tensor<1x5x25xf32>
// STRIDED:       vector.fma {{.*}} : vector<16xf32>
// STRIDED-NOT:   linalg.conv_2d_nchw_fchw
// 1x1 with strides (2, 3), batch 2, 8 lanes: rows of 8 + 6 pixels, the
// first read whole (24 elements), the last only as far as it needs (16):
// 2x6x12x40 * 16x6x1x1 -> 6x14.
// RUN: sed -e 's/@N@/2/g;s/@C@/6/g;s/@H@/12/g;s/@W@/40/g;s/@F@/16/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/6/g;s/@OW@/14/g;s/@SH@/2/g;s/@SW@/3/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%acc/g' %S/Inputs/conv-direct-shape.mlir > %t.m.mlir
// RUN: graph-opt %t.m.mlir --graphc-cpu-codegen="direct-conv=strided vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.m.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,6,12,40,16,1,1,2,3,1,1 %t.m.out
// RUN: graph-opt %t.m.mlir --graphc-cpu-codegen="direct-conv=strided vector-width=8 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.ms.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided_acc 2,6,12,40,16,1,1,2,3,1,1 %t.ms.out
// RUN: graph-opt %t.m.mlir --graphc-cpu-direct-conv="vector-width=8" | FileCheck %s --check-prefix=STRIDED23
// STRIDED23-LABEL: func.func @conv
// STRIDED23:       vector.transfer_read {{.*}} : tensor<2x6x12x40xf32>, vector<24xf32>
// STRIDED23:       vector.shuffle %{{.*}}, %{{.*}} [0, 3, 6, 9, 12, 15, 18, 21] : vector<24xf32>, vector<24xf32>
// STRIDED23:       vector.transfer_read {{.*}} : tensor<2x6x12x40xf32>, vector<16xf32>
// STRIDED23:       vector.shuffle %{{.*}}, %{{.*}} [0, 3, 6, 9, 12, 15] : vector<16xf32>, vector<16xf32>
// STRIDED23:       tensor.collapse_shape {{.*}} : tensor<2x6x6x14xf32> into tensor<2x6x84xf32>
// Strips of pixel tiles (kPointwiseStripBytes): with 6 input channels
// all of case i's tiles are one strip, so the channel blocks are the
// outer loop and the tiles the inner one; with 1400 input channels
// (1400 x 48 floats over the strip budget) each strip is one tile, and
// the tiles are the outer loop: 1x1400x7x10 * 16x1400x1x1 -> 7x10.
// RUN: sed -e 's/@N@/1/g;s/@C@/1400/g;s/@H@/7/g;s/@W@/10/g;s/@F@/16/g;s/@KH@/1/g;s/@KW@/1/g;s/@OH@/7/g;s/@OW@/10/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.n.mlir
// RUN: graph-opt %t.n.mlir --graphc-cpu-codegen="direct-conv=1x1" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.n.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,1400,7,10,16,1,1,1,1,1,1 %t.n.out
// RUN: graph-opt %t.i.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=STRIP
// STRIP-LABEL: func.func @conv
// STRIP:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 6, 2)
// STRIP:       scf.for %[[S:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %c10896{{(_[0-9]+)?}}
// STRIP:       arith.minui
// STRIP:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8{{(_[0-9]+)?}}
// STRIP:       scf.for %{{.*}} = %[[S]] to %{{.*}} step %c48{{(_[0-9]+)?}}
// STRIP:       vector.fma
// RUN: graph-opt %t.n.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=NOSTRIP
// NOSTRIP-LABEL: func.func @conv
// NOSTRIP:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 2)
// NOSTRIP:       scf.for %{{.*}} = %{{.*}} to %c48{{(_[0-9]+)?}} step %c48{{(_[0-9]+)?}}
// NOSTRIP-NOT:   arith.minui
// NOSTRIP:       scf.for %{{.*}} = %{{.*}} to %c8{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}}
// NOSTRIP:       vector.fma
// 24 output channels (a multiple of 8, not of 16), stride 2 into 7
// columns: channel blocks of half a vector: 1x3x15x15 * 24x3x3x3 -> 7x7.
// RUN: sed -e 's/@N@/1/g;s/@C@/3/g;s/@H@/15/g;s/@W@/15/g;s/@F@/24/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/2/g;s/@SW@/2/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.l.mlir
// RUN: graph-opt %t.l.mlir --graphc-cpu-codegen="direct-conv=strided" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.l.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 1,3,15,15,24,3,3,2,2,1,1 %t.l.out
// RUN: graph-opt %t.l.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=HALF
// HALF-LABEL: func.func @conv
// HALF:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 3)
// HALF:       vector.fma {{.*}} : vector<8xf32>
// HALF:       vector.transfer_write {{.*}} : vector<8x1x7xf32>, tensor<8x2x7xf32>
// HALF-NOT:   linalg.conv_2d_nchw_fchw
// A small map under a large filter, several images (3x3 128->256 @5,
// 1.2 MB of filter for 25 output pixels an image): the channel blocks in
// chunks whose filter fits 1 MiB (2 chunks of 128 channels), one row chunk,
// the images the innermost task dimension: 3x128x7x7 * 256x128x3x3 -> 5x5.
// RUN: sed -e 's/@N@/3/g;s/@C@/128/g;s/@H@/7/g;s/@W@/7/g;s/@F@/256/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/5/g;s/@OW@/5/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@INIT@/%%filled/g' %S/Inputs/conv-direct-shape.mlir > %t.o.mlir
// RUN: graph-opt %t.o.mlir --graphc-cpu-codegen="direct-conv=3x3" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.o.out
// RUN: %numpy_python %S/Inputs/reference.py conv_nchw_strided 3,128,7,7,256,3,3,1,1,1,1 %t.o.out
// RUN: graph-opt %t.o.mlir --graphc-cpu-direct-conv="vector-width=16" | FileCheck %s --check-prefix=IMAGES
// IMAGES-LABEL: func.func @conv
// IMAGES:       scf.forall (%[[F:[a-z0-9_]+]], %{{.*}}, %[[N:[a-z0-9_]+]]) in (2, 1, 3)
// IMAGES:       tensor.extract_slice %{{.*}}[%[[N]], %{{.*}}, %{{.*}}, 0] [1, 128, 5, 5]
// IMAGES:       vector.fma
