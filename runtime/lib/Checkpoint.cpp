// Checkpoint.cpp: writing, listing and validating graph-run's checkpoint files.
#include "Checkpoint.h"

#include "Sha256.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace graphrt {
namespace {

const char kFormat[] = "graphrt-checkpoint-1";

std::string dataSha256(const std::vector<SafeTensor> &tensors) {
  std::string all;
  for (const SafeTensor &t : tensors) {
    all += t.data;
  }
  return sha256Hex(all.data(), all.size());
}

// The steps of DIR/ckpt-STEP.safetensors files, newest first.
std::vector<int64_t> listSteps(const std::string &dir) {
  std::vector<int64_t> steps;
  DIR *d = ::opendir(dir.c_str());
  if (!d) {
    return steps;
  }
  static const std::string kPrefix = "ckpt-", kSuffix = ".safetensors";
  while (dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.size() <= kPrefix.size() + kSuffix.size() ||
        name.compare(0, kPrefix.size(), kPrefix) != 0 ||
        name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix)) {
      continue;
    }
    std::string digits = name.substr(
        kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    steps.push_back(std::strtoll(digits.c_str(), nullptr, 10));
  }
  ::closedir(d);
  std::sort(steps.rbegin(), steps.rend());
  return steps;
}

std::string pathOf(const std::string &dir, int64_t step) {
  return dir + "/ckpt-" + std::to_string(step) + ".safetensors";
}

bool parseInt(const std::map<std::string, std::string> &m,
              const std::string &key, int64_t *out) {
  auto it = m.find(key);
  if (it == m.end() || it->second.empty() ||
      it->second.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  *out = std::strtoll(it->second.c_str(), nullptr, 10);
  return true;
}

// Why `file` (read from `path`) is not a usable checkpoint ("" if it is).
std::string check(const SafeTensorsFile &file,
                  const std::string &manifestSha256, CheckpointInfo *info) {
  const auto &m = file.metadata;
  auto get = [&](const char *k) {
    auto it = m.find(k);
    return it == m.end() ? std::string() : it->second;
  };
  if (get("format") != kFormat) {
    return "it is not a graph-run checkpoint (no __metadata__ format '" +
           std::string(kFormat) + "')";
  }
  int64_t step, epoch, position, seed;
  if (!parseInt(m, "step", &step) || !parseInt(m, "epoch", &epoch) ||
      !parseInt(m, "position", &position) || !parseInt(m, "seed", &seed)) {
    return "its __metadata__ lacks a step, epoch, position or seed";
  }
  if (dataSha256(file.tensors) != get("sha256")) {
    return "its data does not match its sha256 (corrupt)";
  }
  if (get("manifest_sha256") != manifestSha256) {
    return "it was written for another job (manifest sha256 " +
           get("manifest_sha256") + ", this job's is " + manifestSha256 + ")";
  }
  info->step = step;
  info->position = DataPosition{epoch, position};
  info->seed = static_cast<uint64_t>(seed);
  info->manifestSha256 = manifestSha256;
  return "";
}

} // namespace

Status writeCheckpoint(const std::string &dir, const CheckpointInfo &info,
                       std::vector<SafeTensor> tensors, std::string *outPath) {
  SafeTensorsFile file;
  file.metadata = {
      {"format", kFormat},
      {"step", std::to_string(info.step)},
      {"epoch", std::to_string(info.position.epoch)},
      {"position", std::to_string(info.position.index)},
      {"seed", std::to_string(info.seed)},
      {"manifest_sha256", info.manifestSha256},
      {"sha256", dataSha256(tensors)},
  };
  file.tensors = std::move(tensors);
  *outPath = pathOf(dir, info.step);
  GRAPHRT_RETURN_IF_ERROR(writeSafeTensorsAtomically(
      *outPath, dir + "/.ckpt-" + std::to_string(info.step) + ".tmp", file));
  std::vector<int64_t> steps = listSteps(dir);
  for (size_t i = kCheckpointsKept; i < steps.size(); ++i) {
    ::unlink(pathOf(dir, steps[i]).c_str());
  }
  return Status::ok();
}

Status
findCheckpoint(const std::string &dir, const std::string &manifestSha256,
               SafeTensorsFile *out, CheckpointInfo *info, std::string *path,
               std::vector<std::pair<std::string, std::string>> *skipped) {
  for (int64_t step : listSteps(dir)) {
    std::string p = pathOf(dir, step);
    Status st = readSafeTensors(p, out);
    std::string why =
        st.isOk() ? check(*out, manifestSha256, info) : st.message();
    if (why.empty() && info->step != step) {
      why = "its __metadata__ says step " + std::to_string(info->step);
    }
    if (!why.empty()) {
      skipped->push_back({p, why});
      continue;
    }
    *path = p;
    return Status::ok();
  }
  return Status(GRAPHRT_STATUS_NOT_FOUND,
                "no valid checkpoint in '" + dir + "'");
}

} // namespace graphrt
