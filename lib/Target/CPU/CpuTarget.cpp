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
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/DeadArgumentElimination.h"
#include "llvm/Transforms/IPO/FunctionAttrs.h"
#include "llvm/Transforms/IPO/GlobalOpt.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/IPO/SCCP.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
  // f16 arithmetic the same on every x86 host: with AVX512-FP16 (Sapphire
  // and Emerald Rapids) LLVM keeps f16 values in f16 registers through
  // whole expressions, elsewhere it widens them to f32 around each
  // operation, and the results differed (ONNX's fp16 attention tests
  // failed on Emerald Rapids only). Without the feature every host widens.
  if (triple.isX86() &&
      options.features.find("avx512fp16") == std::string::npos) {
    features += features.empty() ? "-avx512fp16" : ",-avx512fp16";
  }

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

llvm::DenseMap<const llvm::Function *, unsigned>
assignCodegenParts(const llvm::Module &module, unsigned instructionsPerPart,
                   unsigned maxParts, unsigned &parts) {
  llvm::DenseMap<const llvm::Function *, unsigned> partOf;
  parts = 1;
  struct Sized {
    unsigned size;
    unsigned index; // in module order
    const llvm::Function *fn;
  };
  llvm::SmallVector<Sized> sizes;
  uint64_t total = 0;
  for (const llvm::Function &fn : module) {
    if (fn.isDeclaration()) {
      continue;
    }
    sizes.push_back(
        {fn.getInstructionCount(), static_cast<unsigned>(sizes.size()), &fn});
    total += sizes.back().size;
  }
  auto assignAllToOne = [&] {
    for (const Sized &s : sizes) {
      partOf[s.fn] = 0;
    }
    return partOf;
  };
  if (instructionsPerPart == 0 || maxParts < 2 || sizes.size() < 2) {
    return assignAllToOne();
  }
  // What must stay together: an alias and its aliasee, a comdat's members,
  // a function and the users of its block addresses. The modules graphc
  // makes have none of them; a module that does is not split.
  if (!module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty()) {
    return assignAllToOne();
  }
  for (const llvm::Function &fn : module) {
    for (const llvm::BasicBlock &block : fn) {
      if (block.hasAddressTaken()) {
        return assignAllToOne();
      }
    }
  }
  uint64_t wanted = (total + instructionsPerPart - 1) / instructionsPerPart;
  parts = static_cast<unsigned>(
      std::min<uint64_t>({wanted, maxParts, sizes.size()}));
  if (parts < 2) {
    parts = 1;
    return assignAllToOne();
  }
  // Largest first onto the lightest part; module order among equal sizes,
  // and the lowest-numbered part among equally light ones, so the
  // assignment depends on the module alone.
  llvm::sort(sizes, [](const Sized &a, const Sized &b) {
    return a.size != b.size ? a.size > b.size : a.index < b.index;
  });
  std::vector<uint64_t> load(parts, 0);
  for (const Sized &s : sizes) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    partOf[s.fn] = lightest;
    load[lightest] += s.size;
  }
  return partOf;
}

/// What O3 would have done across functions before the module is split
/// and each part is optimised alone, where those functions are external:
/// constants passed to an outlined loop nest become constants in its body
/// (IPSCCP), unused arguments go, internal functions get the fast calling
/// convention (GlobalOpt), and arguments are marked nocapture/readonly from
/// their callees' bodies.
static void optimiseAcrossFunctions(llvm::Module &module,
                                    llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                               moduleAnalyses);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::IPSCCPPass());
  passes.addPass(llvm::GlobalOptPass());
  passes.addPass(llvm::DeadArgumentEliminationPass());
  passes.addPass(llvm::createModuleToPostOrderCGSCCPassAdaptor(
      llvm::PostOrderFunctionAttrsPass()));
  passes.addPass(llvm::ReversePostOrderFunctionAttrsPass());
  passes.run(module, moduleAnalyses);
}

/// Makes every local symbol defined in `module` a hidden global one, so a
/// part can call a function or read a constant another part defines. Hidden
/// symbols stay inside the shared object; the prefix keeps them apart from
/// the symbols of any object linked beside the task's.
static void externalizeLocals(llvm::Module &module) {
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || !value.hasLocalLinkage()) {
      continue;
    }
    std::string name = value.hasName() ? value.getName().str() : "unnamed";
    value.setName("__graphc_local." + name);
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

/// Part `part` of `module`: the definitions of its functions (and, for part
/// 0, of every global variable), the rest declared. As bitcode, so another
/// thread can read it into an LLVMContext of its own.
static std::string
partBitcode(const llvm::Module &module,
            const llvm::DenseMap<const llvm::Function *, unsigned> &partOf,
            unsigned part) {
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> clone =
      llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
        if (auto *fn = dyn_cast<llvm::Function>(value)) {
          return partOf.lookup(fn) == part;
        }
        return part == 0;
      });
  if (part != 0) {
    clone->setModuleInlineAsm("");
    // llvm.global_ctors and the like are defined once, in part 0; the
    // declarations left here would mean nothing.
    for (llvm::GlobalVariable &global :
         llvm::make_early_inc_range(clone->globals())) {
      if (global.getName().starts_with("llvm.") && global.use_empty()) {
        global.eraseFromParent();
      }
    }
  }
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*clone, os);
  return bitcode;
}

/// Generates the code of `module` for `machine` into an ELF object.
static llvm::Error generateCode(llvm::Module &module,
                                llvm::TargetMachine &machine,
                                std::string &object) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream bufferStream(buffer);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, bufferStream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    return llvm::createStringError("target '" +
                                   machine.getTargetTriple().str() +
                                   "' cannot emit object files");
  }
  codegen.run(module);
  object.assign(buffer.begin(), buffer.end());
  return llvm::Error::success();
}

/// One part, on a worker thread: its bitcode read into a context of its
/// own, optimised at `options.optLevel` and compiled for a target machine
/// of its own (neither LLVMContext nor TargetMachine may be shared by
/// threads).
static llvm::Error compilePart(llvm::StringRef bitcode,
                               const CpuTargetOptions &options,
                               std::string &object) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "part"), context);
  if (!module) {
    return module.takeError();
  }
  auto machine = createCpuTargetMachine(options);
  if (!machine) {
    return machine.takeError();
  }
  auto optimise = makeOptimizingTransformer(options.optLevel,
                                            /*sizeLevel=*/0, machine->get());
  if (llvm::Error err = optimise(module->get())) {
    return err;
  }
  return generateCode(**module, **machine, object);
}

void releaseFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

LogicalResult emitObjects(ModuleOp module, const CpuTargetOptions &options,
                          std::vector<std::string> &objects) {
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
  if (options.eraseModuleBody) {
    Block *body = module.getBody();
    for (Operation &op : *body) {
      op.dropAllReferences();
    }
    while (!body->empty()) {
      body->back().erase();
    }
    releaseFreedMemory();
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

  unsigned parts = 1;
  assignCodegenParts(*llvmModule, options.instructionsPerPart, options.maxParts,
                     parts);
  if (parts == 1) {
    auto optimise = makeOptimizingTransformer(options.optLevel,
                                              /*sizeLevel=*/0, &machine);
    if (llvm::Error err = optimise(llvmModule.get())) {
      return module.emitError()
             << "LLVM optimisation failed: " << llvm::toString(std::move(err));
    }
    if (llvm::Error err =
            generateCode(*llvmModule, machine, objects.emplace_back())) {
      return module.emitError() << llvm::toString(std::move(err));
    }
    return success();
  }

  // Several parts, each optimised (O3) and compiled on its own: what O3
  // does across functions happens first, on the whole module, and may
  // replace functions, so the parts are chosen after it.
  optimiseAcrossFunctions(*llvmModule, machine);
  llvm::DenseMap<const llvm::Function *, unsigned> partOf = assignCodegenParts(
      *llvmModule, options.instructionsPerPart, options.maxParts, parts);
  // The parts are made here one after the other (they read the one
  // module) and compiled on the pool as each is ready.
  externalizeLocals(*llvmModule);
  unsigned threads = std::min(
      parts,
      llvm::hardware_concurrency(options.threads).compute_thread_count());
  std::optional<llvm::DefaultThreadPool> pool;
  if (threads > 1) {
    pool.emplace(llvm::hardware_concurrency(threads));
  }
  std::vector<std::string> bitcodes(parts), partObjects(parts);
  std::vector<std::string> errors(parts);
  for (unsigned part = 0; part < parts; ++part) {
    bitcodes[part] = partBitcode(*llvmModule, partOf, part);
    auto work = [&, part] {
      if (llvm::Error err =
              compilePart(bitcodes[part], options, partObjects[part])) {
        errors[part] = llvm::toString(std::move(err));
      }
      bitcodes[part].clear();
      bitcodes[part].shrink_to_fit();
      // The part's context, module and code generator are gone: their
      // memory is this thread's arena's, which no other thread reuses.
      releaseFreedMemory();
    };
    if (pool) {
      pool->async(work);
    } else {
      work();
    }
  }
  // The whole module is no longer needed while the last parts compile.
  partOf.clear();
  llvmModule.reset();
  releaseFreedMemory();
  if (pool) {
    pool->wait();
  }
  for (unsigned part = 0; part < parts; ++part) {
    if (!errors[part].empty()) {
      return module.emitError() << "code generation of part " << part
                                << " failed: " << errors[part];
    }
    objects.push_back(std::move(partObjects[part]));
  }
  return success();
}

LogicalResult emitObject(ModuleOp module, const CpuTargetOptions &options,
                         llvm::raw_ostream &os) {
  CpuTargetOptions onePart = options;
  onePart.instructionsPerPart = 0;
  std::vector<std::string> objects;
  if (failed(emitObjects(module, onePart, objects))) {
    return failure();
  }
  os << objects.front();
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
