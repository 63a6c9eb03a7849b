// Numeric checks of the direct row kernel reading through a zero tensor.pad
// of its input (docs/design/conv-codegen.md, "Round four"): taps limited to
// the filter rows inside the source, edge column tiles with their outside
// columns read as zero, no padded copy. Each case is
// Inputs/conv-direct-pad-shape.mlir with its shape substituted, compared
// with NumPy (Inputs/reference.py conv_grouped, groups 1); the FileCheck
// of each pins whether the pad is read through.
// REQUIRES: libomp
// 3x3, pad 1: 29 columns as 14 + 14 + 1, both edge tiles and the last tile checked, the first and last rows' taps limited: 2x8x9x29 padded (1, 1, 1, 1) * 32x8x3x3 -> 9x29.
// RUN: sed -e 's/@N@/2/g;s/@C@/8/g;s/@HP@/11/g;s/@WP@/31/g;s/@H@/9/g;s/@W@/29/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/9/g;s/@OW@/29/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@PT@/1/g;s/@PL@/1/g;s/@PB@/1/g;s/@PR@/1/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.a.mlir
// RUN: graph-opt %t.a.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.a.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 2,8,9,29,32,3,3,1,1,1,1,1,1,1,1,1 %t.a.out
// RUN: graph-opt %t.a.mlir --graphc-cpu-direct-conv="vector-width=16" --canonicalize --cse | FileCheck %s --check-prefix=READ
// the same with channel chunks (64 channels), 30 columns as 10 + 10 + 10 (the middle tile inside the source, a loop): 1x64x6x30 padded (1, 1, 1, 1) * 32x64x3x3 -> 6x30.
// RUN: sed -e 's/@N@/1/g;s/@C@/64/g;s/@HP@/8/g;s/@WP@/32/g;s/@H@/6/g;s/@W@/30/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/6/g;s/@OW@/30/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@PT@/1/g;s/@PL@/1/g;s/@PB@/1/g;s/@PR@/1/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.b.mlir
// RUN: graph-opt %t.b.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16 openmp=false" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils > %t.b.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 1,64,6,30,32,3,3,1,1,1,1,1,1,1,1,1 %t.b.out
// RUN: graph-opt %t.b.mlir --graphc-cpu-direct-conv="vector-width=16" --canonicalize --cse | FileCheck %s --check-prefix=READ
// stride 2, pad 1, one tile of 8 columns at both edges, 8 lanes: 1x16x15x15 padded (1, 1, 1, 1) * 16x16x3x3 -> 8x8.
// RUN: sed -e 's/@N@/1/g;s/@C@/16/g;s/@HP@/17/g;s/@WP@/17/g;s/@H@/15/g;s/@W@/15/g;s/@F@/16/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/8/g;s/@OW@/8/g;s/@SH@/2/g;s/@SW@/2/g;s/@DH@/1/g;s/@DW@/1/g;s/@PT@/1/g;s/@PL@/1/g;s/@PB@/1/g;s/@PR@/1/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.c.mlir
// RUN: graph-opt %t.c.mlir --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.c.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 1,16,15,15,16,3,3,2,2,1,1,1,1,1,1,1 %t.c.out
// RUN: graph-opt %t.c.mlir --graphc-cpu-direct-conv="vector-width=8" --canonicalize --cse | FileCheck %s --check-prefix=READ
// dilation 2, pad 2, 20 columns as 10 + 10: 1x8x12x20 padded (2, 2, 2, 2) * 16x8x3x3 -> 12x20.
// RUN: sed -e 's/@N@/1/g;s/@C@/8/g;s/@HP@/16/g;s/@WP@/24/g;s/@H@/12/g;s/@W@/20/g;s/@F@/16/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/12/g;s/@OW@/20/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/2/g;s/@DW@/2/g;s/@PT@/2/g;s/@PL@/2/g;s/@PB@/2/g;s/@PR@/2/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.d.mlir
// RUN: graph-opt %t.d.mlir --graphc-cpu-codegen="direct-conv=all vector-width=8" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.d.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 1,8,12,20,16,3,3,1,1,2,2,2,2,2,2,1 %t.d.out
// RUN: graph-opt %t.d.mlir --graphc-cpu-direct-conv="vector-width=8" --canonicalize --cse | FileCheck %s --check-prefix=READ
// uneven pad (2 rows on top, 2 columns on the right): 1x8x5x16 padded (2, 0, 0, 2) * 32x8x3x3 -> 5x16.
// RUN: sed -e 's/@N@/1/g;s/@C@/8/g;s/@HP@/7/g;s/@WP@/18/g;s/@H@/5/g;s/@W@/16/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/5/g;s/@OW@/16/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@PT@/2/g;s/@PL@/0/g;s/@PB@/0/g;s/@PR@/2/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.e.mlir
// RUN: graph-opt %t.e.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.e.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 1,8,5,16,32,3,3,1,1,1,1,2,0,0,2,1 %t.e.out
// RUN: graph-opt %t.e.mlir --graphc-cpu-direct-conv="vector-width=16" --canonicalize --cse | FileCheck %s --check-prefix=READ
// 7x7 maps take row pairs: the pad stays a copy: 2x64x7x7 padded (1, 1, 1, 1) * 32x64x3x3 -> 7x7.
// RUN: sed -e 's/@N@/2/g;s/@C@/64/g;s/@HP@/9/g;s/@WP@/9/g;s/@H@/7/g;s/@W@/7/g;s/@F@/32/g;s/@KH@/3/g;s/@KW@/3/g;s/@OH@/7/g;s/@OW@/7/g;s/@SH@/1/g;s/@SW@/1/g;s/@DH@/1/g;s/@DW@/1/g;s/@PT@/1/g;s/@PL@/1/g;s/@PB@/1/g;s/@PR@/1/g' %S/Inputs/conv-direct-pad-shape.mlir > %t.f.mlir
// RUN: graph-opt %t.f.mlir --graphc-cpu-codegen="direct-conv=all vector-width=16" \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils,%libomp > %t.f.out
// RUN: %numpy_python %S/Inputs/reference.py conv_grouped 2,64,7,7,32,3,3,1,1,1,1,1,1,1,1,1 %t.f.out
// RUN: graph-opt %t.f.mlir --graphc-cpu-direct-conv="vector-width=16" --canonicalize | FileCheck %s --check-prefix=COPY
// The pad is read through: no tensor.pad, the source plane flattened, the
// filter rows of each tile limited to those inside the source, and in an
// edge tile one loop over them per filter column, whose FMAs leave out the
// columns outside the source.
// READ-LABEL: func.func @conv
// READ-NOT:   tensor.pad
// READ:       scf.forall
// READ:       %[[LO:.*]] = arith.maxsi %{{.*}}, %c0 : index
// READ:       %[[HI:.*]] = arith.maxsi %[[LO]], %{{.*}} : index
// READ:       scf.for %{{.*}} = %[[LO]] to %[[HI]] step %c1
// READ:       vector.fma
// READ:       scf.for %{{.*}} = %[[LO]] to %[[HI]] step %c1
// READ-LABEL: func.func @main
// Row pairs: the padded copy stays.
// COPY-LABEL: func.func @conv
// COPY:       tensor.pad
// COPY-NOT:   arith.maxsi
// COPY-LABEL: func.func @main
