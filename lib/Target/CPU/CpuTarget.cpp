//===- CpuTarget.cpp - host CPU detection, object emission, lld linking ---===//

#include "graphc/Target/CPU/CpuTarget.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace mlir;

namespace graphc {

//===----------------------------------------------------------------------===//
// Host detection
//===----------------------------------------------------------------------===//

unsigned vectorBitsFromFeatures(llvm::StringRef features) {
  llvm::SmallVector<llvm::StringRef> list;
  features.split(list, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  bool avx512f = false, avx = false;
  for (llvm::StringRef f : list) {
    if (f == "+avx512f") {
      avx512f = true;
    } else if (f == "+avx") {
      avx = true;
    }
  }
  if (avx512f) {
    return 512;
  }
  if (avx) {
    return 256;
  }
  return 128;
}

CpuInfo detectHostCpu() {
  CpuInfo info;
  info.triple = llvm::sys::getProcessTriple();
  info.cpu = llvm::sys::getHostCPUName().str();
  // LLVM 22 returns the host feature map directly; render it in the "+a,-b"
  // spelling TargetMachine expects. Sorted so the string is deterministic.
  llvm::StringMap<bool> map = llvm::sys::getHostCPUFeatures();
  llvm::SmallVector<std::string> features;
  for (const auto &entry : map) {
    features.push_back((entry.second ? "+" : "-") + entry.first().str());
  }
  llvm::sort(features);
  info.features = llvm::join(features, ",");
  info.vectorBits = vectorBitsFromFeatures(info.features);
  info.hasFma = map.lookup("fma");
  return info;
}

llvm::Expected<CpuInfo> describeCpu(llvm::StringRef cpu) {
  if (cpu.empty()) {
    return detectHostCpu();
  }
  static bool initialised = [] {
    llvm::InitializeNativeTarget();
    return true;
  }();
  (void)initialised;
  CpuInfo info;
  info.triple = llvm::sys::getProcessTriple();
  info.cpu = cpu.str();
  llvm::Triple triple(info.triple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    return llvm::createStringError("no LLVM target for triple '" + info.triple +
                                   "': " + error);
  }
  // Checked on the generic subtarget first: creating one for an unknown
  // name would print LLVM's own warning beside our error.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  if (generic && generic->isCPUStringValid(cpu)) {
    subtarget.reset(target->createMCSubtargetInfo(triple, cpu, ""));
  }
  if (!subtarget) {
    return llvm::createStringError(
        "unknown CPU '" + cpu.str() + "' for " + info.triple +
        "; LLVM's names are listed by `llc-22 -mcpu=help` (for example "
        "x86-64-v3, x86-64-v4, znver4, sapphirerapids)");
  }
  bool avx512f = subtarget->checkFeatures("+avx512f");
  bool avx = subtarget->checkFeatures("+avx");
  info.vectorBits = avx512f ? 512 : avx ? 256 : 128;
  info.hasFma = subtarget->checkFeatures("+fma");
  return info;
}

//===----------------------------------------------------------------------===//
// Object emission
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCpuTargetMachine(const CpuTargetOptions &options) {
  static bool initialised = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialised;

  // The host's features only complete the host's CPU: a named CPU brings
  // its own (x86-64-v4 means AVX-512 whatever this machine has).
  CpuInfo host;
  bool needHost = options.triple.empty() || options.cpu.empty();
  if (needHost) {
    host = detectHostCpu();
  }
  llvm::Triple triple(options.triple.empty() ? host.triple : options.triple);
  std::string cpu = options.cpu.empty() ? host.cpu : options.cpu;
  std::string features = options.features.empty() && options.cpu.empty()
                             ? host.features
                             : options.features;

  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    return llvm::createStringError("no LLVM target for triple '" +
                                   triple.str() + "': " + error);
  }
  if (options.optLevel > 3) {
    return llvm::createStringError("optimisation level " +
                                   llvm::Twine(options.optLevel) +
                                   " is not in 0..3");
  }
  llvm::CodeGenOptLevel level =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  llvm::TargetOptions targetOptions;
  // Constructors (the cuda target's kernel-module registration) in
  // .init_array, which the dynamic loader runs; .ctors needs crtbegin, which
  // a task library linked by plain lld does not have.
  targetOptions.UseInitArray = true;
  std::optional<llvm::Reloc::Model> reloc;
  if (options.pic) {
    reloc = llvm::Reloc::PIC_;
  }
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, reloc, std::nullopt, level));
  if (!machine) {
    return llvm::createStringError("could not create a target machine for '" +
                                   triple.str() + "' cpu '" + cpu + "'");
  }
  return machine;
}

void registerCpuTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

unsigned outlineLoopNests(llvm::Module &module, unsigned threshold) {
  if (threshold == 0) {
    return 0;
  }
  // Chosen before extraction: the functions it creates are small by
  // construction and must not be split again.
  llvm::SmallVector<llvm::Function *> large;
  for (llvm::Function &fn : module) {
    if (!fn.isDeclaration() && fn.getInstructionCount() > threshold) {
      large.push_back(&fn);
    }
  }
  unsigned outlined = 0;
  for (llvm::Function *fn : large) {
    llvm::DominatorTree domTree(*fn);
    llvm::LoopInfo loops(domTree);
    // A single loop nest is already as small as outlining can make it.
    if (std::distance(loops.begin(), loops.end()) < 2) {
      continue;
    }
    // One cache for all the loops of the function: extraction keeps it
    // valid, and rebuilding it per loop would walk the whole function
    // again for each of its thousands of loops.
    llvm::CodeExtractorAnalysisCache cache(*fn);
    llvm::SmallVector<llvm::Loop *> topLevel(loops.begin(), loops.end());
    for (llvm::Loop *loop : topLevel) {
      // Allocas inside a loop are the stack save/restore scopes of its
      // body (graphc-cpu-lower-alloca-scopes): they move with it.
      llvm::CodeExtractor extractor(loop->getBlocks(), &domTree,
                                    /*AggregateArgs=*/false, /*BFI=*/nullptr,
                                    /*BPI=*/nullptr, /*AC=*/nullptr,
                                    /*AllowVarArgs=*/false,
                                    /*AllowAlloca=*/true,
                                    /*AllocationBlock=*/nullptr, "loop");
      if (!extractor.isEligible()) {
        continue;
      }
      llvm::Function *body = extractor.extractCodeRegion(cache);
      if (!body) {
        continue;
      }
      // Inlining the single call back would rebuild the giant function.
      body->addFnAttr(llvm::Attribute::NoInline);
      ++outlined;
    }
  }
  return outlined;
}

LogicalResult emitObject(ModuleOp module, const CpuTargetOptions &options,
                         llvm::raw_ostream &os) {
  auto machineOr = createCpuTargetMachine(options);
  if (!machineOr) {
    return module.emitError() << llvm::toString(machineOr.takeError());
  }
  llvm::TargetMachine &machine = **machineOr;

  // The translations must be known to the module's context before export;
  // appending them is idempotent.
  DialectRegistry registry;
  registerCpuTranslations(registry);
  module->getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "graphc");
  if (!llvmModule) {
    return module.emitError() << "translation to LLVM IR failed";
  }
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());
  // Optimisation and code generation cost grows faster than the code: one
  // function per loop nest keeps each function small, and kernels that
  // repeat (every block of a ResNet stage has the same convolutions, the
  // backward pass repeats the forward's shapes) are optimised and emitted
  // once. Identical functions become one before O3 sees them.
  outlineLoopNests(*llvmModule, options.outlineLoopsAbove);
  llvm::MergeFunctionsPass::runOnModule(*llvmModule);
  // Give every function the target's CPU and features so LLVM's middle end
  // (vectoriser, unroller) costs code for this machine, not a generic x86-64.
  for (llvm::Function &fn : *llvmModule) {
    if (fn.isDeclaration()) {
      continue;
    }
    fn.addFnAttr("target-cpu", machine.getTargetCPU());
    fn.addFnAttr("target-features", machine.getTargetFeatureString());
  }

  auto optimise = makeOptimizingTransformer(options.optLevel,
                                            /*sizeLevel=*/0, &machine);
  if (llvm::Error err = optimise(llvmModule.get())) {
    return module.emitError()
           << "LLVM optimisation failed: " << llvm::toString(std::move(err));
  }

  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream bufferStream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, bufferStream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    return module.emitError() << "target '" << machine.getTargetTriple().str()
                              << "' cannot emit object files";
  }
  codegen.run(*llvmModule);
  os << buffer;
  os.flush();
  return success();
}

//===----------------------------------------------------------------------===//
// Linking
//===----------------------------------------------------------------------===//

llvm::Expected<std::string> findLld(llvm::StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (llvm::sys::fs::can_execute(explicitPath)) {
      return explicitPath.str();
    }
    return llvm::createStringError("lld '" + explicitPath +
                                   "' does not exist or is not executable");
  }
  for (llvm::StringRef name : {"ld.lld-22", "ld.lld"}) {
    if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(name)) {
      return *path;
    }
  }
  llvm::StringRef fallback = "/usr/lib/llvm-22/bin/ld.lld";
  if (llvm::sys::fs::can_execute(fallback)) {
    return fallback.str();
  }
  return llvm::createStringError(
      "cannot find lld: searched ld.lld-22 and ld.lld on PATH and " + fallback +
      "; install the lld-22 package (scripts/setup.sh) or pass its path");
}

llvm::Error linkSharedObject(llvm::ArrayRef<std::string> objects,
                             llvm::StringRef output,
                             const LinkOptions &options) {
  if (objects.empty()) {
    return llvm::createStringError("no object files to link into '" + output +
                                   "'");
  }
  llvm::Expected<std::string> lld = findLld(options.lldPath);
  if (!lld) {
    return lld.takeError();
  }

  std::vector<std::string> args = {*lld, "-shared", "--as-needed", "-o",
                                   output.str()};
  for (const std::string &object : objects) {
    args.push_back(object);
  }
  for (const std::string &object : options.objects) {
    args.push_back(object);
  }
  for (const std::string &dir : options.libraryPaths) {
    args.push_back("-L" + dir);
    args.push_back("-rpath=" + dir);
  }
  // ld.lld, unlike a compiler driver, has no default search path: add the
  // host's (Debian multiarch first) so -lc, -lm and -lomp resolve.
  llvm::Triple host(llvm::sys::getProcessTriple());
  std::string multiarch = host.getArchName().str() + "-linux-gnu";
  for (std::string dir : {"/lib/" + multiarch, "/usr/lib/" + multiarch,
                          std::string("/lib"), std::string("/usr/lib")}) {
    if (llvm::sys::fs::is_directory(dir)) {
      args.push_back("-L" + dir);
    }
  }
  for (const std::string &lib : options.libraries) {
    args.push_back("-l" + lib);
  }
  // Link libc so symbol versions of memcpy/malloc resolve at load time.
  args.push_back("-lc");

  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  llvm::SmallString<128> errFile;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("graphc-lld", "txt", errFile)) {
    return llvm::errorCodeToError(ec);
  }
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, errFile.str(),
                                                errFile.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*lld, argRefs, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &execError);
  std::string diagnostics;
  if (auto buffer = llvm::MemoryBuffer::getFile(errFile)) {
    diagnostics = (*buffer)->getBuffer().trim().str();
  }
  llvm::sys::fs::remove(errFile);
  if (rc != 0) {
    return llvm::createStringError(
        "linking '" + output + "' with " + *lld + " failed (exit code " +
        llvm::Twine(rc) + ")" + (execError.empty() ? "" : ": " + execError) +
        (diagnostics.empty() ? "" : ":\n" + diagnostics));
  }
  return llvm::Error::success();
}

} // namespace graphc
