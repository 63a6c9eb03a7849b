// GpuTask.h: one cuda task's device, stream, pooled memory, GEMM plans and
// collective groups.
#ifndef GRAPHRT_LIB_GPU_GPUTASK_H
#define GRAPHRT_LIB_GPU_GPUTASK_H

#include "Gpu/CudaApi.h"
#include "graphrt/graphrt.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace graphrt::gpu {

/// The CUDA device a task's manifest device names: the N of "...:GPU:N"
/// (0 when the device names no GPU), taken modulo `deviceCount` so that a
/// job placed on more GPUs than this machine has still runs, its tasks
/// sharing devices (their collectives then stage through host memory).
int deviceOrdinalFor(const std::string &device, int deviceCount);

/// What one member of a group tells the others before the group's first
/// device collective: where its GPU is and whether it has NCCL.
struct DeviceRecord {
  char host[64];
  char busId[32];
  int32_t ncclAvailable;
  int32_t reserved;
};

/// NCCL when every member has it and a GPU of its own (NCCL refuses two
/// ranks on one device); the same answer on every member, since all decide
/// from the same gathered records.
bool groupUsesNccl(const std::vector<DeviceRecord> &members);

/// The row-major -> column-major mapping of `gpu->gemm`: cuBLASLt sees
/// C^T = op(B)^T x op(A)^T, so its first operand is B and its second A.
struct GemmLayout {
  int transA, transB; // cuBLASLt's CUBLAS_OP_* for its first and second operand
  uint64_t rows[3], cols[3];
  int64_t ld[3]; // cuBLASLt's A (our B), B (our A), C/D (our C)
};
GemmLayout columnMajorGemm(int32_t transposeA, int32_t transposeB, int64_t m,
                           int64_t n, int64_t k, int64_t lda, int64_t ldb,
                           int64_t ldc);

/// A cuda task's GPU state. Created by the worker for a cuda task (or by a
/// test with fake driver tables); its services table forwards each call to
/// this object through the context's `gpu` member.
class GpuTask {
public:
  /// Binds device `ordinal`: retains its primary context, creates the task's
  /// stream and keeps freed memory in the device's default pool. `host` is
  /// the task's services table, whose collectives stage GPU collectives.
  static Status create(const CudaDriverApi *cu, int ordinal,
                       const graphrt_services_v1_t *host,
                       std::unique_ptr<GpuTask> *out);
  ~GpuTask();
  GpuTask(const GpuTask &) = delete;
  GpuTask &operator=(const GpuTask &) = delete;

  const graphrt_gpu_services_t *table() const { return &table_; }
  /// Overrides the libraries loaded at first use (tests: fakes; null: none).
  void setCublasLt(const CublasLtApi *lt) {
    lt_ = lt;
    ltTried_ = true;
  }
  void setNccl(const NcclApi *nccl) {
    nccl_ = nccl;
    ncclTried_ = true;
  }
  /// How many device collectives went through NCCL and through host memory.
  int ncclCalls() const { return ncclCalls_; }
  int stagedCalls() const { return stagedCalls_; }

  // The services, with the task's stream for a null `stream`.
  Status moduleLoad(const void *image, size_t size, void **out);
  void moduleUnload(void *module);
  Status moduleGetFunction(void *module, const char *name, void **out);
  Status launch(void *function, const int64_t grid[3], const int64_t block[3],
                int32_t sharedBytes, void *stream, void **params);
  Status synchronize(void *stream);
  Status allocate(size_t size, void *stream, void **out);
  void release(void *ptr, void *stream);
  Status copy(void *dst, const void *src, size_t size,
              graphrt_memcpy_kind_t kind, void *stream);
  Status fill(void *dst, uint8_t value, size_t size, void *stream);
  Status gemm(void *stream, graphrt_dtype_t dtype, int32_t transposeA,
              int32_t transposeB, int64_t m, int64_t n, int64_t k, float alpha,
              const void *a, int64_t lda, int64_t strideA, const void *b,
              int64_t ldb, int64_t strideB, float beta, void *c, int64_t ldc,
              int64_t strideC, int64_t batch);
  enum class Collective { AllReduce, AllGather, ReduceScatter };
  Status collective(graphrt_context_t *ctx, Collective kind, const char *group,
                    graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                    const void *input, void *output, size_t count,
                    void *stream);

private:
  GpuTask(const CudaDriverApi *cu, const graphrt_services_v1_t *host)
      : cu_(cu), host_(host) {}
  Status bind();
  CUstream streamOr(void *stream) const {
    return stream ? static_cast<CUstream>(stream) : stream_;
  }
  struct Group {
    bool nccl = false;
    ncclComm_t comm = nullptr;
  };
  Status groupState(graphrt_context_t *ctx, const std::string &group,
                    Group **out);
  Status staged(graphrt_context_t *ctx, Collective kind, const char *group,
                int32_t size, graphrt_reduce_op_t op, graphrt_dtype_t dtype,
                const void *input, void *output, size_t count, CUstream stream);
  struct GemmPlan {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t layouts[3] = {};
    cublasLtMatmulAlgo_t algo;
  };
  using GemmKey =
      std::tuple<int, int, int, int64_t, int64_t, int64_t, int64_t, int64_t,
                 int64_t, int64_t, int64_t, int64_t, int64_t>;
  Status gemmPlan(const GemmKey &key, const GemmPlan **out);
  Status ltError(cublasStatus_t s, const std::string &call) const;

  const CudaDriverApi *cu_;
  const graphrt_services_v1_t *host_;
  uint64_t id_ = 0; // unique in the process, for bind()
  CUdevice device_ = 0;
  bool retained_ = false;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  graphrt_gpu_services_t table_{};

  const CublasLtApi *lt_ = nullptr;
  bool ltTried_ = false;
  std::string ltError_;
  cublasLtHandle_t ltHandle_ = nullptr;
  CUdeviceptr workspace_ = 0;
  size_t workspaceBytes_ = 0;
  std::map<GemmKey, GemmPlan> plans_;

  const NcclApi *nccl_ = nullptr;
  bool ncclTried_ = false;
  std::map<std::string, Group> groups_;
  std::vector<char> stageIn_, stageOut_;
  int ncclCalls_ = 0, stagedCalls_ = 0;
};

} // namespace graphrt::gpu

#endif // GRAPHRT_LIB_GPU_GPUTASK_H
