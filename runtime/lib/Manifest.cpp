// Manifest.cpp: reading a bundle's manifest.json and verifying its files (the
// rules are in GraphrtCommon).
#include "Manifest.h"

#include "Sha256.h"

#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace graphrt {

Status parseManifest(const std::string &json, manifest::Manifest *out) {
  std::string error;
  if (!parseManifestJson(json, out, &error)) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, "manifest: " + error);
  }
  return Status::ok();
}

Status validateManifest(const manifest::Manifest &m) {
  std::string error;
  if (!checkManifest(m, &error)) {
    return Status(GRAPHRT_STATUS_INVALID_ARGUMENT, "manifest: " + error);
  }
  return Status::ok();
}

Status readBundle(const std::string &dir, Bundle *out) {
  std::string path = dir + "/manifest.json";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(GRAPHRT_STATUS_NOT_FOUND, "cannot read '" + path + "': is '" +
                                                dir +
                                                "' a job bundle (X.gjob/)?");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string json = ss.str();
  out->dir = dir;
  out->manifestSha256 = sha256Hex(json.data(), json.size());
  Status st = parseManifest(json, &out->manifest);
  if (!st.isOk()) {
    return Status(st.code(), path + ": " + st.message());
  }
  return Status::ok();
}

Status refuseStablehloTask(const manifest::Task &task) {
  if (task.target() != "stablehlo") {
    return Status::ok();
  }
  return Status(GRAPHRT_STATUS_FAILED_PRECONDITION,
                "task '" + task.name() + "' is compiled for stablehlo (" +
                    task.library() +
                    " is a StableHLO module, not a shared object); run it "
                    "with JAX or another PJRT client on a TPU VM "
                    "(docs/user/tpu.md)");
}

Status verifyBundleFile(const Bundle &bundle, const std::string &path) {
  const manifest::File *f = findFile(bundle.manifest, path);
  if (!f) {
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "file '" + path + "' is not listed in the manifest");
  }
  std::string full = bundle.dir + "/" + path;
  struct stat sb;
  if (::stat(full.c_str(), &sb) != 0) {
    return Status(GRAPHRT_STATUS_NOT_FOUND,
                  "bundle file '" + full + "' does not exist");
  }
  if (static_cast<uint64_t>(sb.st_size) != f->size()) {
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "bundle file '" + path + "' has " +
                      std::to_string(sb.st_size) +
                      " bytes, the manifest says " + std::to_string(f->size()) +
                      "; refusing to load it");
  }
  std::string hex;
  GRAPHRT_RETURN_IF_ERROR(sha256File(full, &hex));
  if (hex != f->sha256()) {
    return Status(GRAPHRT_STATUS_PERMISSION_DENIED,
                  "bundle file '" + path + "' has sha256 " + hex +
                      ", the manifest says " + f->sha256() +
                      "; refusing to load it");
  }
  return Status::ok();
}

} // namespace graphrt
