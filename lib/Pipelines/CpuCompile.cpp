//===- CpuCompile.cpp - linalg on tensors to a shared object --------------===//

#include "graphc/Pipelines/CpuCodegen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace graphc {

LogicalResult lowerToLLVMDialect(ModuleOp module,
                                 const CpuCodegenOptions &options) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  buildCpuCodegenPipeline(pm, options);
  return pm.run(module);
}

/// The directory holding LLVM's libomp.so: beside the lld we link with
/// (…/llvm-22/bin/ld.lld -> …/llvm-22/lib), else the system library path.
static std::string findOpenMPLibraryDir(llvm::StringRef lld) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(lld, real)) {
    real = lld;
  }
  llvm::SmallString<256> dir =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(real));
  llvm::sys::path::append(dir, "lib");
  llvm::SmallString<256> candidate = dir;
  llvm::sys::path::append(candidate, "libomp.so");
  if (llvm::sys::fs::exists(candidate)) {
    return dir.str().str();
  }
  for (llvm::StringRef sys :
       {"/usr/lib/llvm-22/lib", "/usr/lib/x86_64-linux-gnu"}) {
    llvm::SmallString<256> lib(sys);
    llvm::sys::path::append(lib, "libomp.so");
    if (llvm::sys::fs::exists(lib)) {
      return sys.str();
    }
  }
  return "";
}

LogicalResult compileToSharedObject(ModuleOp module,
                                    const CpuCodegenOptions &options,
                                    const CpuTargetOptions &target,
                                    llvm::StringRef soPath,
                                    const LinkOptions &link) {
  if (failed(lowerToLLVMDialect(module, options))) {
    return failure();
  }
  return emitSharedObject(module, options.openmp, target, soPath, link);
}

LogicalResult emitSharedObject(ModuleOp module, bool openmp,
                               const CpuTargetOptions &target,
                               llvm::StringRef soPath,
                               const LinkOptions &link) {
  // One object per code generation part (emitObjects), linked together.
  std::vector<std::string> objects;
  if (failed(emitObjects(module, target, objects))) {
    return failure();
  }
  std::vector<std::string> objPaths;
  std::vector<llvm::FileRemover> removeObjects;
  removeObjects.reserve(objects.size());
  for (std::string &object : objects) {
    llvm::SmallString<128> objPath;
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "graphc-cpu", "o", fd, objPath)) {
      return module.emitError()
             << "cannot create a temporary object file: " << ec.message();
    }
    removeObjects.emplace_back(objPath);
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
    os.close();
    if (os.has_error()) {
      return module.emitError()
             << "cannot write '" << objPath << "': " << os.error().message();
    }
    objPaths.push_back(objPath.str().str());
    object.clear();
    object.shrink_to_fit();
  }

  LinkOptions linkOptions = link;
  if (openmp) {
    llvm::Expected<std::string> lld = findLld(link.lldPath);
    if (!lld) {
      return module.emitError() << llvm::toString(lld.takeError());
    }
    std::string ompDir = findOpenMPLibraryDir(*lld);
    if (ompDir.empty()) {
      return module.emitError()
             << "generated code uses OpenMP but libomp.so was not found "
                "beside "
             << *lld
             << " or in /usr/lib; install libomp-22-dev (scripts/setup.sh) "
                "or compile with openmp=false";
    }
    linkOptions.libraryPaths.push_back(ompDir);
    linkOptions.libraries.push_back("omp");
  }
  linkOptions.libraries.push_back("m");
  if (llvm::Error err = linkSharedObject(objPaths, soPath, linkOptions)) {
    return module.emitError() << llvm::toString(std::move(err));
  }
  return success();
}

} // namespace graphc
