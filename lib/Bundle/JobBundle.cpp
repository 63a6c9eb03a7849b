//===- JobBundle.cpp - task modules to shared objects and a manifest ------===//

#include "graphc/Bundle/JobBundle.h"
#include "graphc/Conversion/DistToRuntime/TaskAttrs.h"
#include "graphc/Target/CUDA/CudaTarget.h"

#include "graphrt/common/ManifestSchema.h"
#include "graphrt/graphrt.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace mlir;

namespace graphc {

using task::TaskInfo;
using task::TensorInfo;

/// Lower-case hex SHA-256 of `bytes`.
static std::string sha256Hex(StringRef bytes) {
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  std::string hex;
  for (uint8_t byte : hash) {
    const char *digits = "0123456789abcdef";
    hex += digits[byte >> 4];
    hex += digits[byte & 15];
  }
  return hex;
}

/// Writes `bytes` to `path`; diagnoses failures at `loc`.
static LogicalResult writeFile(Location loc, StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << bytes;
    os.close();
    if (os.has_error()) {
      ec = os.error();
    }
  }
  if (ec) {
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  }
  return success();
}

/// The task modules of a lowered module, in module order, with their
/// attributes read.
static FailureOr<std::vector<std::pair<ModuleOp, TaskInfo>>>
taskModules(ModuleOp module) {
  std::vector<std::pair<ModuleOp, TaskInfo>> tasks;
  for (auto m : module.getOps<ModuleOp>()) {
    if (!task::isTaskModule(m)) {
      continue;
    }
    FailureOr<TaskInfo> info = task::readTask(m);
    if (failed(info)) {
      return failure();
    }
    tasks.push_back({m, std::move(*info)});
  }
  if (tasks.empty()) {
    return module.emitError()
           << "no task modules to write; run the graphc-task-lowering and "
              "graphc-task-codegen pipelines first";
  }
  return tasks;
}

/// The task's target (graphrt.target, set by the cuda pipeline), "cpu"
/// when absent.
static std::string taskTarget(ModuleOp task) {
  auto target = task->getAttrOfType<StringAttr>("graphrt.target");
  return target ? target.getValue().str() : "cpu";
}

/// Writes the cuda task glue object to a new temporary file.
static LogicalResult writeGlueObject(Location loc,
                                     llvm::SmallString<128> &path) {
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "graphc-cuda-glue", "o", fd, path)) {
    return emitError(loc) << "cannot create a temporary object file: "
                          << ec.message();
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << cudaTaskGlueObject();
  os.close();
  if (os.has_error()) {
    return emitError(loc) << "cannot write '" << path
                          << "': " << os.error().message();
  }
  return success();
}

/// The runtime's bytes of a variable's initial value (raw little-endian,
/// row-major, one byte per element below 8 bits), or an error naming it. A
/// view of the attribute's own data where that is already the runtime's
/// layout (the weights are not copied); else built in `storage` (splats,
/// bit-packed i1).
static FailureOr<StringRef> variableBytes(ModuleOp task, const TensorInfo &var,
                                          std::string &storage) {
  auto type = cast<ShapedType>(var.value.getType());
  Type element = type.getElementType();
  int64_t elementBytes =
      std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  int64_t size = type.getNumElements() * elementBytes;
  storage.clear();
  StringRef bytes;
  if (auto dense = dyn_cast<DenseElementsAttr>(var.value)) {
    if (element.isInteger(1)) {
      // i1 may be bit-packed in the attribute; the runtime's bool is a byte.
      for (bool v : dense.getValues<bool>()) {
        storage.push_back(v ? 1 : 0);
      }
      bytes = storage;
    } else if (dense.isSplat()) {
      ArrayRef<char> one = dense.getRawData();
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        storage.append(one.begin(), one.end());
      }
      bytes = storage;
    } else {
      bytes = StringRef(dense.getRawData().data(), dense.getRawData().size());
    }
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(var.value)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
      bytes = StringRef(blob->getData().data(), blob->getData().size());
    }
  }
  if (static_cast<int64_t>(bytes.size()) != size) {
    return task.emitError()
           << "task '" << task.getSymName().value_or("")
           << "': the initial value of variable '" << var.name << "' has "
           << bytes.size() << " bytes, its type " << type << " needs " << size;
  }
  return bytes;
}

/// Frees the resource blobs that hold the tasks' variables' initial values
/// (written to the weights files already), except those the tasks' code
/// also uses. The variables' attributes stay; their blobs are then empty.
static void
releaseVariableBlobs(ArrayRef<std::pair<ModuleOp, TaskInfo>> tasks) {
  using Entry = DialectResourceBlobManager::BlobEntry;
  llvm::SmallPtrSet<Entry *, 16> usedByCode;
  for (const auto &entry : tasks) {
    ModuleOp m = entry.first;
    // The task module's own attributes are the variables' (graphrt.*); its
    // body is the code.
    m.getBody()->walk([&](Operation *op) {
      op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
        usedByCode.insert(attr.getRawHandle().getResource());
      });
    });
  }
  for (auto &[m, info] : tasks) {
    for (const TensorInfo &var : info.variables) {
      auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(var.value);
      if (!resource) {
        continue;
      }
      Entry *entry = resource.getRawHandle().getResource();
      if (entry && entry->getBlob() && !usedByCode.contains(entry)) {
        entry->setBlob(AsmResourceBlob());
      }
    }
  }
}

/// Appends one signature per tensor; `files[i]`, when not empty, is tensor
/// i's weights file.
static void addSignatures(
    google::protobuf::RepeatedPtrField<graphrt::manifest::TensorSignature> *out,
    ArrayRef<TensorInfo> tensors, ArrayRef<std::string> files = {}) {
  for (auto [i, t] : llvm::enumerate(tensors)) {
    graphrt::manifest::TensorSignature *s = out->Add();
    s->set_name(t.name);
    s->set_dtype(t.dtype);
    for (int64_t d : t.shape) {
      s->add_shape(d);
    }
    if (i < files.size() && !files[i].empty()) {
      s->set_file(files[i]);
    }
    s->set_replica_of(t.replicaOf);
    if (t.slotOf) {
      s->set_slot_of(*t.slotOf);
    }
  }
}

namespace {
/// How a target turns a task module into its library file.
struct LibraryKind {
  /// Appended to the task's name: `.so`, `.stablehlo.mlir`.
  StringRef suffix;
  /// The manifest's Task.target and Task.entry.
  StringRef target;
  StringRef entry;
  std::function<LogicalResult(ModuleOp, StringRef path)> write;
};
} // namespace

/// Creates the bundle directory `dir`.
static LogicalResult createBundleDir(Location loc, StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return emitError(loc) << "cannot create the bundle directory '" << dir
                          << "': " << ec.message();
  }
  return success();
}

static std::string pathIn(StringRef dir, StringRef file) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, file);
  return std::string(p);
}

/// Writes the weights files of `tasks` into `dir` and records them in
/// `weights`; with options.releaseWeights, then frees the blobs that held
/// them.
static LogicalResult
writeWeightsFiles(Location loc, ArrayRef<std::pair<ModuleOp, TaskInfo>> tasks,
                  StringRef dir, const BundleOptions &options,
                  BundleWeights &weights) {
  // Identical initial values share one weights file (replicas' copies of a
  // variable, tied weights): files are found by the SHA-256 of their bytes,
  // which the manifest records anyway, so the bytes are neither kept nor
  // read back.
  llvm::StringMap<std::string> fileOfHash;
  std::string storage;
  for (auto &[m, info] : tasks) {
    BundleWeights::Task &task = weights.tasks[info.name];
    for (auto [i, var] : llvm::enumerate(info.variables)) {
      task.variables.push_back(var.name);
      if (!var.value) {
        task.files.push_back(""); // zeroed by the runtime
        continue;
      }
      FailureOr<StringRef> bytes = variableBytes(m, var, storage);
      if (failed(bytes)) {
        return failure();
      }
      std::string hash = sha256Hex(*bytes);
      auto [it, inserted] = fileOfHash.try_emplace(
          hash, info.name + ".w" + std::to_string(i) + ".bin");
      if (inserted) {
        if (failed(writeFile(loc, pathIn(dir, it->second), *bytes))) {
          return failure();
        }
        task.written.push_back(it->second);
        weights.files[it->second] = {hash, bytes->size()};
      }
      task.files.push_back(it->second);
    }
  }
  storage.clear();
  storage.shrink_to_fit();
  if (options.releaseWeights) {
    releaseVariableBlobs(tasks);
    releaseFreedMemory();
  }
  return success();
}

LogicalResult writeBundleWeights(ModuleOp module, StringRef dir,
                                 const BundleOptions &options,
                                 BundleWeights &weights) {
  auto tasks = taskModules(module);
  if (failed(tasks) || failed(createBundleDir(module.getLoc(), dir))) {
    return failure();
  }
  weights = BundleWeights();
  return writeWeightsFiles(module.getLoc(), *tasks, dir, options, weights);
}

/// The bundle of any target: one library per task module (`kind`), the
/// weights files and the manifest. `written`: the weights files
/// writeBundleWeights wrote earlier, else they are written here.
static LogicalResult writeBundle(ModuleOp module, StringRef dir,
                                 const BundleOptions &options,
                                 const LibraryKind &kind,
                                 const BundleWeights *written) {
  Location loc = module.getLoc();
  auto tasks = taskModules(module);
  if (failed(tasks) || failed(createBundleDir(loc, dir))) {
    return failure();
  }
  auto path = [&](StringRef file) { return pathIn(dir, file); };

  // The weights are written before any library, so that with
  // releaseWeights their memory is freed before code generation.
  BundleWeights local;
  if (!written) {
    if (failed(writeWeightsFiles(loc, *tasks, dir, options, local))) {
      return failure();
    }
    written = &local;
  }
  // Written earlier: the tasks must still have the variables they had.
  std::vector<const BundleWeights::Task *> taskWeights;
  for (auto &[m, info] : *tasks) {
    auto it = written->tasks.find(info.name);
    bool same = it != written->tasks.end() &&
                it->second.variables.size() == info.variables.size();
    for (size_t i = 0; same && i < info.variables.size(); ++i) {
      same = it->second.variables[i] == info.variables[i].name;
    }
    if (!same) {
      return m.emitError() << "internal error: the variables of task '"
                           << info.name
                           << "' changed after its weights files were written";
    }
    taskWeights.push_back(&it->second);
  }

  // Each task's library, then its weights files, in the manifest.
  std::vector<std::string> files;
  for (auto [t, entry] : llvm::enumerate(*tasks)) {
    auto &[m, info] = entry;
    std::string library = info.name + kind.suffix.str();
    if (failed(kind.write(m, path(library)))) {
      return failure();
    }
    files.push_back(library);
    llvm::append_range(files, taskWeights[t]->written);
  }

  graphrt::manifest::Manifest manifest;
  manifest.set_format_version(graphrt::kManifestFormatVersion);
  manifest.set_name(options.jobName);
  for (auto [t, entry] : llvm::enumerate(*tasks)) {
    const TaskInfo &info = entry.second;
    graphrt::manifest::Task *task = manifest.add_tasks();
    task->set_name(info.name);
    task->set_job(info.job);
    task->set_index(info.index);
    task->set_library(info.name + kind.suffix.str());
    // The cpu writer also writes cuda tasks (a .so each): the task module
    // says which it is.
    std::string target =
        kind.target == "cpu" ? taskTarget(entry.first) : kind.target.str();
    task->set_target(target);
    task->set_device(target == "cuda"
                         ? "/job:" + info.job + "/task:" +
                               std::to_string(info.index) + "/device:GPU:0"
                         : info.device);
    task->set_entry(kind.entry.str());
    addSignatures(task->mutable_inputs(), info.inputs);
    addSignatures(task->mutable_outputs(), info.outputs);
    addSignatures(task->mutable_variables(), info.variables,
                  taskWeights[t]->files);
  }
  // Channels once, from their sending task; groups once, by name.
  llvm::StringSet<> groupsSeen;
  for (auto &[m, info] : *tasks) {
    for (const task::ChannelInfo &c : info.channels) {
      if (!c.send) {
        continue;
      }
      graphrt::manifest::Channel *channel = manifest.add_channels();
      channel->set_key(c.key);
      channel->set_src(info.name);
      channel->set_dst(c.peer);
      graphrt::manifest::TensorSignature *payload = channel->mutable_payload();
      payload->set_dtype(c.payload.dtype);
      for (int64_t d : c.payload.shape) {
        payload->add_shape(d);
      }
    }
    for (const task::GroupInfo &g : info.groups) {
      if (!groupsSeen.insert(g.name).second) {
        continue;
      }
      graphrt::manifest::CollectiveGroup *group =
          manifest.add_collective_groups();
      group->set_name(g.name);
      for (const std::string &member : g.tasks) {
        group->add_tasks(member);
      }
    }
  }
  for (const std::string &file : files) {
    graphrt::manifest::File *f = manifest.add_files();
    f->set_path(file);
    auto known = written->files.find(file);
    if (known != written->files.end()) {
      f->set_sha256(known->second.first);
      f->set_size(known->second.second);
      continue;
    }
    auto buffer = llvm::MemoryBuffer::getFile(path(file), /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      return emitError(loc) << "cannot read back '" << path(file)
                            << "': " << buffer.getError().message();
    }
    f->set_sha256(sha256Hex((*buffer)->getBuffer()));
    f->set_size((*buffer)->getBufferSize());
  }
  // The runtime's own rules: a bundle graph-run would refuse is a graphc bug,
  // better reported here than when the job is deployed.
  std::string error;
  if (!graphrt::checkManifest(manifest, &error)) {
    return emitError(loc) << "internal error: the manifest of job '"
                          << options.jobName << "' breaks a rule graph-run "
                          << "checks: " << error;
  }
  return writeFile(loc, path("manifest.json"),
                   graphrt::printManifestJson(manifest));
}

LogicalResult writeJobBundle(ModuleOp module, StringRef dir,
                             const BundleOptions &options,
                             const BundleWeights *weights) {
  // The cuda tasks' glue object, written once for the linker.
  llvm::SmallString<128> gluePath;
  std::optional<llvm::FileRemover> removeGlue;
  auto write = [&](ModuleOp m, StringRef file) -> LogicalResult {
    LinkOptions link = options.link;
    bool openmp = options.openmp;
    if (taskTarget(m) == "cuda") {
      if (gluePath.empty()) {
        if (failed(writeGlueObject(m.getLoc(), gluePath))) {
          return failure();
        }
        removeGlue.emplace(gluePath);
      }
      link.objects.push_back(gluePath.str().str());
      // The host side of a cuda task is sequential: no libomp.
      openmp = false;
    }
    CpuTargetOptions target = options.target;
    target.eraseModuleBody = options.consumeModule;
    return emitSharedObject(m, openmp, target, file, link);
  };
  return writeBundle(module, dir, options,
                     {".so", "cpu", GRAPHRT_TASK_DESCRIPTOR_SYMBOL, write},
                     weights);
}

void printStablehloTask(ModuleOp task, llvm::raw_ostream &os) {
  // The graphrt.* attributes are the manifest's business (and hold the
  // variables' initial values): the file carries the program only.
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(task->clone());
  for (NamedAttribute attr :
       llvm::to_vector(copy->getOperation()->getAttrs())) {
    if (attr.getName().getValue().starts_with("graphrt.")) {
      copy->getOperation()->removeAttr(attr.getName());
    }
  }
  copy->print(os);
  os << "\n";
}

LogicalResult writeStablehloBundle(ModuleOp module, StringRef dir,
                                   const BundleOptions &options) {
  return writeBundle(module, dir, options,
                     {".stablehlo.mlir", "stablehlo", "main",
                      [&](ModuleOp m, StringRef file) -> LogicalResult {
                        std::string text;
                        llvm::raw_string_ostream os(text);
                        printStablehloTask(m, os);
                        return writeFile(m.getLoc(), file, text);
                      }},
                     /*written=*/nullptr);
}

LogicalResult writeTaskObject(ModuleOp module, const BundleOptions &options,
                              llvm::raw_ostream &os) {
  auto tasks = taskModules(module);
  if (failed(tasks)) {
    return failure();
  }
  if (tasks->size() != 1) {
    std::string names;
    for (auto &[m, info] : *tasks) {
      names += (names.empty() ? "" : ", ") + info.name;
    }
    return module.emitError()
           << "--emit=obj writes one object, and this job has " << tasks->size()
           << " tasks (" << names
           << "); use --emit=job for a bundle with one .so per task, or "
              "--emit=llvm to see every task's code";
  }
  return emitObject(tasks->front().first, options.target, os);
}

} // namespace graphc
