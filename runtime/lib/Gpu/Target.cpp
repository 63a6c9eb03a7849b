// Target.cpp: refusing a task this machine cannot run, before anything of it is
// loaded.
#include "Gpu/Target.h"

#include "Gpu/CudaApi.h"

namespace graphrt {

Status checkTaskTarget(const manifest::Task &task) {
  const std::string &target = task.target();
  std::string head = "task '" + task.name() + "' is compiled for " + target;
  if (target.empty() || target == "cpu") {
    return Status::ok();
  }
  if (target == "cuda") {
    const gpu::CudaDriverApi *cu = nullptr;
    Status st = gpu::loadCudaDriver(&cu);
    if (!st.isOk()) {
      return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                    head + ", and this machine has no CUDA driver (" +
                        st.message() +
                        "); run the bundle on a GPU node (docs/user/gpu.md)");
    }
    int count = 0;
    st = gpu::probeCudaDevice(cu, &count);
    if (!st.isOk()) {
      return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                    head + ", and this machine has " + st.message() +
                        "; run the bundle on a GPU node (docs/user/gpu.md)");
    }
    return Status::ok();
  }
  if (target == "stablehlo") {
    return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                  head + ": its library is a StableHLO module, which "
                         "graph-run and graph-worker do not execute; run it "
                         "with JAX on a TPU VM or another PJRT plugin "
                         "(docs/user/tpu.md)");
  }
  return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                "task '" + task.name() + "' has target '" + target +
                    "', which this runtime does not know (it runs cpu and "
                    "cuda tasks); recompile the bundle with this graphc");
}

} // namespace graphrt
