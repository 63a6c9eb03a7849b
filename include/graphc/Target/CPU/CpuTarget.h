//===- CpuTarget.h - LLVM dialect to object file and shared object -*- C++
//-*-===//
//
// The last step of the CPU path: an LLVM-dialect module becomes LLVM IR, an
// object file for the host (or a named) CPU, and a shared object linked by lld.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_TARGET_CPU_CPUTARGET_H
#define GRAPHC_TARGET_CPU_CPUTARGET_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
class DialectRegistry;
} // namespace mlir

namespace graphc {

/// What the compiler knows about a CPU: its triple, name and features in
/// LLVM's spelling ("+avx512f,+fma,-sse4a,..."), and the widest float vector
/// register it has, which drives vectorisation and register tiling.
struct CpuInfo {
  std::string triple;
  std::string cpu;
  std::string features;
  /// Width of the widest SIMD register usable for f32 arithmetic, in bits
  /// (512 with AVX-512F, 256 with AVX, 128 otherwise).
  unsigned vectorBits = 128;
  /// Whether fused multiply-add instructions are available.
  bool hasFma = false;
};

/// Detects the CPU this process runs on with llvm::sys::getHostCPUName and
/// getHostCPUFeatures. Never fails: unknown features mean a 128-bit baseline.
CpuInfo detectHostCpu();

/// Describes the CPU named `cpu` (an LLVM CPU name: x86-64-v3, znver4,
/// sapphirerapids, ...) for the host's triple: its own features, vector
/// width and FMA. An empty name is the host (detectHostCpu). Fails with a
/// message naming the CPU when LLVM does not know it for this triple.
llvm::Expected<CpuInfo> describeCpu(llvm::StringRef cpu);

/// Returns the vector width in bits that `features` (LLVM's "+a,-b" list)
/// allows for f32 arithmetic.
unsigned vectorBitsFromFeatures(llvm::StringRef features);

/// Options for object emission. Empty triple or cpu mean "the host"; empty
/// features mean the host's features for the host CPU and the named CPU's
/// own features otherwise.
struct CpuTargetOptions {
  std::string triple;
  std::string cpu;
  std::string features;
  /// LLVM optimisation level, 0 to 3.
  unsigned optLevel = 3;
  /// Position-independent code, required for shared objects.
  bool pic = true;
  /// Functions of more instructions than this have each top-level loop nest
  /// moved into a function of its own before optimisation (0: never). LLVM's
  /// loop passes and code generation are superlinear in a function's size
  /// (docs/design/cpu-codegen.md, "Compile time"); a task compiled without
  /// OpenMP is otherwise one function holding every loop of the model.
  unsigned outlineLoopsAbove = 4096;
  /// Code generation is split into parts of about this many LLVM
  /// instructions each (after outlining and merging), compiled on `threads`
  /// threads and linked together (0: one part). The parts depend on the
  /// module only, never on `threads`, so the output is the same whatever
  /// the thread count.
  unsigned instructionsPerPart = 4000;
  /// At most this many parts.
  unsigned maxParts = 16;
  /// Threads that compile the parts at once; 0 means one per hardware
  /// thread of this machine. Never changes the output.
  unsigned threads = 0;
  /// Nothing reads the MLIR module's body after its translation to LLVM IR:
  /// emitObjects erases it then (the module op and its attributes stay), so
  /// that its memory is not held through O3 and code generation.
  bool eraseModuleBody = false;
};

/// Hands the memory the allocator holds free back to the system (glibc's
/// malloc_trim; nothing elsewhere). glibc keeps freed memory in its arenas,
/// resident: what a finished phase of the compile freed (the weights once
/// written, the LLVM module once split, a code generation part's context)
/// would otherwise stay in the process's RSS, and memory a worker thread's
/// arena frees cannot serve the main thread's allocations. Called between
/// phases (a few milliseconds each); see docs/design/cpu-codegen.md, "Peak
/// memory".
void releaseFreedMemory();

/// Builds an LLVM TargetMachine for `options` (host CPU where unset).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createCpuTargetMachine(const CpuTargetOptions &options);

/// Registers the LLVM IR translations for the dialects the CPU pipeline
/// leaves in a module (builtin, LLVM, OpenMP).
void registerCpuTranslations(mlir::DialectRegistry &registry);

/// Moves every top-level loop nest of each function in `module` with more
/// than `threshold` instructions into an internal, never-inlined function of
/// its own (LLVM's CodeExtractor). Returns how many loops were moved.
unsigned outlineLoopNests(llvm::Module &module, unsigned threshold);

/// Assigns each function defined in `module` to one of at most `maxParts`
/// parts of about `instructionsPerPart` instructions: largest first onto the
/// lightest part, ties in module order. Returns the part of every defined
/// function (global variables go with part 0) and sets `parts`; a module
/// that cannot be split (aliases, comdats, block addresses) or is small gets
/// one part. Depends on the module alone.
llvm::DenseMap<const llvm::Function *, unsigned>
assignCodegenParts(const llvm::Module &module, unsigned instructionsPerPart,
                   unsigned maxParts, unsigned &parts);

/// Translates `module` (LLVM dialect, possibly with OpenMP ops) to LLVM IR,
/// outlines the loop nests of very large functions (outlineLoopNests),
/// optimises it at `options.optLevel` for the target, and appends ELF
/// objects to `objects`: one per part (assignCodegenParts), the parts
/// compiled on `options.threads` threads, their local symbols made hidden
/// globals so the parts link together. Emits a diagnostic at the module's
/// location on failure.
mlir::LogicalResult emitObjects(mlir::ModuleOp module,
                                const CpuTargetOptions &options,
                                std::vector<std::string> &objects);

/// emitObjects in one part: a single ELF object written to `os`.
mlir::LogicalResult emitObject(mlir::ModuleOp module,
                               const CpuTargetOptions &options,
                               llvm::raw_ostream &os);

/// Options for linking a shared object.
struct LinkOptions {
  /// The lld to use; empty means search ld.lld-22, ld.lld on PATH and then
  /// /usr/lib/llvm-22/bin/ld.lld.
  std::string lldPath;
  /// Extra libraries, by name as for -l (e.g. "omp", "m", "openblas").
  std::vector<std::string> libraries;
  /// Extra library search directories (-L), also added as run paths.
  std::vector<std::string> libraryPaths;
  /// Extra object files linked in after the task's own (the cuda target's
  /// task glue).
  std::vector<std::string> objects;
};

/// Finds ld.lld as described in LinkOptions::lldPath, or an error that says
/// what was searched and which package provides it.
llvm::Expected<std::string> findLld(llvm::StringRef explicitPath = "");

/// Links `objects` into the shared object `output` with lld.
llvm::Error linkSharedObject(llvm::ArrayRef<std::string> objects,
                             llvm::StringRef output,
                             const LinkOptions &options = {});

} // namespace graphc

#endif // GRAPHC_TARGET_CPU_CPUTARGET_H
