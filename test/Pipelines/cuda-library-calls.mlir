// graphc-cuda-library-calls: matmuls on buffers become cuBLASLt GEMM calls
// (beta 1: linalg accumulates into the output), with the pointer, leading
// dimension and batch stride of every operand read from its strided
// metadata; contractions cuBLASLt does not take here stay linalg.
// RUN: graph-opt %s --graphc-cuda-library-calls --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[NO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[M:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[K:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[ASTR:[a-z_0-9]+]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[LDA:.*]] = arith.index_cast %[[ASTR]]#0 : index to i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @graphc_cuda_gemm(%[[F32]], %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[K]], %{{.*}}, %[[LDA]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%c : memref<8x32xf32>)
  return
}

// -----

// A batch of 4 bf16 products (dtype 9), A a strided view: lda is its row
// stride (64), the batch stride its first stride.
// CHECK-LABEL: func.func @batch_bf16
// CHECK-DAG: %[[BF16:.*]] = llvm.mlir.constant(9 : i32) : i32
// CHECK: %[[B4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT: llvm.call @graphc_cuda_gemm(%[[BF16]], {{.*}}, %[[B4]])
func.func @batch_bf16(%a: memref<4x8x16xbf16, strided<[512, 64, 1]>>, %b: memref<4x16x8xbf16>, %c: memref<4x8x8xbf16>) {
  linalg.batch_matmul ins(%a, %b : memref<4x8x16xbf16, strided<[512, 64, 1]>>, memref<4x16x8xbf16>) outs(%c : memref<4x8x8xbf16>)
  return
}

// -----

// i32 and mixed-precision products, and a transposed operand (a column
// stride), become generated kernels instead.
// CHECK-LABEL: func.func @not_library
// CHECK-NOT: graphc_cuda_gemm
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<8x16xi32>
// CHECK: linalg.matmul ins(%arg3, %arg4 : memref<8x16xf16>, memref<16x32xf16>) outs(%arg5 : memref<8x32xf32>)
// CHECK: linalg.matmul ins(%arg6, %arg4 : memref<8x16xf16, strided<[1, 8]>>
func.func @not_library(%a: memref<8x16xi32>, %b: memref<16x32xi32>, %c: memref<8x32xi32>,
                       %d: memref<8x16xf16>, %e: memref<16x32xf16>, %f: memref<8x32xf32>,
                       %g: memref<8x16xf16, strided<[1, 8]>>, %h: memref<8x32xf16>) {
  linalg.matmul ins(%a, %b : memref<8x16xi32>, memref<16x32xi32>) outs(%c : memref<8x32xi32>)
  linalg.matmul ins(%d, %e : memref<8x16xf16>, memref<16x32xf16>) outs(%f : memref<8x32xf32>)
  linalg.matmul ins(%g, %e : memref<8x16xf16, strided<[1, 8]>>, memref<16x32xf16>) outs(%h : memref<8x32xf16>)
  return
}
