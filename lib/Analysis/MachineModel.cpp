//===- MachineModel.cpp - machine-model JSON and the built-in default
//-------===//

#include "graphc/Analysis/MachineModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace graphc;

namespace {

constexpr const char *kFlops = "flops_per_second";
constexpr const char *kMemory = "memory_bytes_per_second";
constexpr const char *kLinkBandwidth = "link_bytes_per_second";
constexpr const char *kLinkLatency = "link_latency_seconds";
constexpr const char *kEfficiency = "efficiency";
constexpr const char *kName = "name";
constexpr const char *kSharedCores = "shared_cores";

llvm::Error fieldError(llvm::StringRef source, llvm::StringRef field,
                       const llvm::Twine &what) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0}: machine model field '{1}' {2}", source, field,
                    what.str())
          .str());
}

} // namespace

double MachineModel::opSeconds(llvm::StringRef opName, double flops,
                               double bytes) const {
  double scale = 1;
  auto it = efficiency.find(opName);
  if (it != efficiency.end()) {
    scale = it->second;
  }
  return std::max(flops / (flopsPerSecond * scale),
                  bytes / memoryBytesPerSecond);
}

MachineModel MachineModel::getDefault() {
  // Measured with `bash bench/run.sh machine-model` on the development
  // machine (2026-12-01, idle, two runs averaged): an AMD EPYC (Zen 3
  // "Milan", AVX2, no AVX-512), 2 vCPUs, one thread (--no-openmp), median
  // steps, loopback TCP between two graph-worker processes. GEMM
  // 256x1024x1024 f32: 18.6 ms (28.85 GFLOP/s); ResNet's eleven distinct
  // convolution shapes at batch 1 together at 98% of that rate; Add of 2 x
  // 1M f32: 0.86 ms (15 GB/s); an 8-byte message in 73 us, 400 kB at 3.66
  // GB/s past that.
  MachineModel m;
  m.name = "built-in default (AMD EPYC Zen 3, 1 thread, loopback)";
  m.flopsPerSecond = 2.885e10;
  m.memoryBytesPerSecond = 1.5e10;
  m.linkBytesPerSecond = 3.66e9;
  m.linkLatencySeconds = 7.3e-5;
  m.efficiency["graph.conv"] = 0.98;
  return m;
}

llvm::Expected<MachineModel> MachineModel::fromJson(llvm::StringRef text,
                                                    llvm::StringRef source) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: not valid JSON: {1}", source,
                      llvm::toString(parsed.takeError()))
            .str());
  }
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: a machine model must be a JSON object", source)
            .str());
  }

  static const char *const known[] = {kName,          kFlops,       kMemory,
                                      kLinkBandwidth, kLinkLatency, kEfficiency,
                                      kSharedCores};
  for (const auto &kv : *obj) {
    if (llvm::find(known, kv.first.str()) == std::end(known)) {
      return fieldError(source, kv.first,
                        "is not known (expected name, flops_per_second, "
                        "memory_bytes_per_second, link_bytes_per_second, "
                        "link_latency_seconds, efficiency, shared_cores)");
    }
  }

  MachineModel m;
  m.name = source.str();
  if (const llvm::json::Value *v = obj->get(kName)) {
    std::optional<llvm::StringRef> s = v->getAsString();
    if (!s) {
      return fieldError(source, kName, "must be a string");
    }
    m.name = s->str();
  }
  // Every rate must be a finite positive number: the estimate divides by
  // them, and a zero latency is allowed but a negative one is not.
  auto number = [&](const char *field, double &out,
                    bool allowZero) -> llvm::Error {
    const llvm::json::Value *v = obj->get(field);
    if (!v) {
      return fieldError(source, field, "is missing");
    }
    std::optional<double> d = v->getAsNumber();
    if (!d) {
      return fieldError(source, field, "must be a number");
    }
    if (!std::isfinite(*d) || *d < 0 || (!allowZero && *d == 0)) {
      return fieldError(source, field,
                        llvm::formatv("must be {0}, not {1}",
                                      allowZero ? "at least 0" : "positive",
                                      *d));
    }
    out = *d;
    return llvm::Error::success();
  };
  if (llvm::Error e = number(kFlops, m.flopsPerSecond, false)) {
    return std::move(e);
  }
  if (llvm::Error e = number(kMemory, m.memoryBytesPerSecond, false)) {
    return std::move(e);
  }
  if (llvm::Error e = number(kLinkBandwidth, m.linkBytesPerSecond, false)) {
    return std::move(e);
  }
  if (llvm::Error e = number(kLinkLatency, m.linkLatencySeconds, true)) {
    return std::move(e);
  }

  if (const llvm::json::Value *v = obj->get(kSharedCores)) {
    std::optional<int64_t> cores = v->getAsInteger();
    if (!cores || *cores < 0 || *cores > (1 << 20)) {
      return fieldError(source, kSharedCores,
                        "must be a whole number of cores, at least 0 (0: "
                        "every task has cores of its own)");
    }
    m.sharedCores = double(*cores);
  }

  if (const llvm::json::Value *v = obj->get(kEfficiency)) {
    const llvm::json::Object *eff = v->getAsObject();
    if (!eff) {
      return fieldError(source, kEfficiency,
                        "must be an object of op name to fraction");
    }
    for (const auto &kv : *eff) {
      std::string field =
          (llvm::Twine(kEfficiency) + "." + llvm::StringRef(kv.first)).str();
      std::optional<double> d = kv.second.getAsNumber();
      if (!d) {
        return fieldError(source, field, "must be a number");
      }
      if (!(*d > 0 && *d <= 1)) {
        return fieldError(source, field,
                          llvm::formatv("must be in (0, 1], not {0}", *d));
      }
      m.efficiency[kv.first] = *d;
    }
  }
  return m;
}

llvm::Expected<MachineModel> MachineModel::fromFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buf) {
    return llvm::createStringError(
        buf.getError(), llvm::formatv("cannot read machine model '{0}': {1}",
                                      path, buf.getError().message())
                            .str());
  }
  return fromJson((*buf)->getBuffer(), path);
}

llvm::json::Object MachineModel::toJson() const {
  llvm::json::Object eff;
  for (const auto &kv : efficiency) {
    eff[kv.first()] = kv.second;
  }
  llvm::json::Object obj{{kName, name},
                         {kFlops, flopsPerSecond},
                         {kMemory, memoryBytesPerSecond},
                         {kLinkBandwidth, linkBytesPerSecond},
                         {kLinkLatency, linkLatencySeconds},
                         {kEfficiency, std::move(eff)}};
  if (sharedCores) {
    obj[kSharedCores] = sharedCores;
  }
  return obj;
}
