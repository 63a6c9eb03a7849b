//===- JobBundle.cpp - graph module to task and job bundle ----------------===//

#include "graphc/Bundle/JobBundle.h"
#include "graphc/Conversion/Passes.h"

#include "graph/GraphOps.h"

#include "graphrt/common/DType.h"
#include "graphrt/common/ManifestSchema.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace graphc {

/// The runtime's dtype for an element type; GRAPHRT_DTYPE_INVALID if it has
/// none. The names are the shared table's (graphrt/common/DType.h).
static graphrt_dtype_t runtimeDType(Type t) {
  if (t.isF32())
    return GRAPHRT_DTYPE_F32;
  if (t.isF64())
    return GRAPHRT_DTYPE_F64;
  if (t.isF16())
    return GRAPHRT_DTYPE_F16;
  if (t.isBF16())
    return GRAPHRT_DTYPE_BF16;
  if (t.isInteger(1))
    return GRAPHRT_DTYPE_BOOL;
  // ONNX's small types (one element per byte in the runtime's buffers).
  if (isa<Float8E4M3FNType>(t))
    return GRAPHRT_DTYPE_F8E4M3FN;
  if (isa<Float8E4M3FNUZType>(t))
    return GRAPHRT_DTYPE_F8E4M3FNUZ;
  if (isa<Float8E5M2Type>(t))
    return GRAPHRT_DTYPE_F8E5M2;
  if (isa<Float8E5M2FNUZType>(t))
    return GRAPHRT_DTYPE_F8E5M2FNUZ;
  if (isa<Float8E8M0FNUType>(t))
    return GRAPHRT_DTYPE_F8E8M0;
  if (isa<Float4E2M1FNType>(t))
    return GRAPHRT_DTYPE_F4E2M1;
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSigned())
      return GRAPHRT_DTYPE_INVALID; // the graph dialect's integers are
                                    // signless or unsigned
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 2:
      return u ? GRAPHRT_DTYPE_U2 : GRAPHRT_DTYPE_I2;
    case 4:
      return u ? GRAPHRT_DTYPE_U4 : GRAPHRT_DTYPE_I4;
    case 8:
      return u ? GRAPHRT_DTYPE_U8 : GRAPHRT_DTYPE_I8;
    case 16:
      return u ? GRAPHRT_DTYPE_U16 : GRAPHRT_DTYPE_I16;
    case 32:
      return u ? GRAPHRT_DTYPE_U32 : GRAPHRT_DTYPE_I32;
    case 64:
      return u ? GRAPHRT_DTYPE_U64 : GRAPHRT_DTYPE_I64;
    default:
      return GRAPHRT_DTYPE_INVALID;
    }
  }
  return GRAPHRT_DTYPE_INVALID;
}

std::string manifestDType(Type t) {
  graphrt_dtype_t dtype = runtimeDType(t);
  return dtype == GRAPHRT_DTYPE_INVALID ? "" : graphrt::dtypeName(dtype);
}

LogicalResult lowerGraphToLinalg(ModuleOp module) {
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  pm.addPass(createConvertGraphToLinalg());
  return pm.run(module);
}

/// A name usable in the manifest for value `i` of a kind, from its
/// `graph.name` attribute when there is one; unique among `taken`.
static std::string uniqueName(DictionaryAttr attrs, StringRef fallback,
                              llvm::StringSet<> &taken, bool isOutput = false) {
  std::string base = fallback.str();
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>("graph.name"))
      if (!name.getValue().empty())
        base = name.getValue().str();
  // graph-run writes DIR/<output>.npy: no directories in an output's name.
  if (isOutput)
    std::replace(base.begin(), base.end(), '/', '_');
  std::string name = base;
  for (int i = 1; !taken.insert(name).second; ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

/// Fills `t` from a static tensor type; diagnoses anything else at `loc`.
static LogicalResult describe(Type type, Location loc, StringRef what,
                              TaskTensor &t) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !ranked.hasStaticShape())
    return emitError(loc) << what << " '" << t.name << "' has type " << type
                          << "; a task needs static shapes (fix them with "
                             "--input-shape)";
  t.dtype = manifestDType(ranked.getElementType());
  if (t.dtype.empty())
    return emitError(loc) << what << " '" << t.name << "' has element type "
                          << ranked.getElementType()
                          << ", which the runtime has no dtype for";
  t.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
  return success();
}

/// The name of a constant's source value ("conv1.weight"), when the importer
/// located it by name, sanitised for the manifest.
static std::string constantName(Location loc, size_t index) {
  std::string name;
  if (auto named = dyn_cast<NameLoc>(loc))
    name = named.getName().str();
  else if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto named = dyn_cast<NameLoc>(inner))
        name = named.getName().str();
  // Importer locations are "FILE:NODE"; keep the node.
  if (size_t colon = name.rfind(':'); colon != std::string::npos)
    name = name.substr(colon + 1);
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '.' && c != '-')
      c = '_';
  return name.empty() ? "const" + std::to_string(index) : name;
}

/// The raw little-endian bytes of a constant's value: a dense attribute's
/// (none for a splat, which stays inline), or a dense_resource blob's (the
/// ONNX importer keeps large initializers as blobs).
static std::optional<ArrayRef<char>> constantBytes(Attribute value) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

/// Dense (or dense_resource), non-splat graph.constant ops of at least
/// `threshold` bytes become trailing arguments of `func`; their values go into
/// `sig.variables`.
static LogicalResult hoistConstants(func::FuncOp func, int64_t threshold,
                                    TaskSignature &sig,
                                    llvm::StringSet<> &varNames) {
  if (threshold < 0)
    return success();
  SmallVector<graph::ConstantOp> constants;
  func.walk([&](graph::ConstantOp op) { constants.push_back(op); });
  for (graph::ConstantOp op : constants) {
    std::optional<ArrayRef<char>> bytes = constantBytes(op.getValue());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!bytes || !type || !type.hasStaticShape())
      continue;
    Type element = type.getElementType();
    // i1 is bit-packed in the attribute; leave it inline.
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 ||
        manifestDType(element).empty())
      continue;
    ArrayRef<char> raw = *bytes;
    // A blob of another size than the tensor's is left to the lowering.
    if (static_cast<int64_t>(raw.size()) !=
            type.getNumElements() * (element.getIntOrFloatBitWidth() / 8) ||
        static_cast<int64_t>(raw.size()) < threshold)
      continue;
    TaskTensor var;
    var.name = constantName(op.getLoc(), sig.variables.size());
    for (int i = 1; !varNames.insert(var.name).second; ++i)
      var.name = constantName(op.getLoc(), sig.variables.size()) + "_" +
                 std::to_string(i);
    if (failed(describe(type, op.getLoc(), "constant", var)))
      return failure();
    var.data.assign(raw.begin(), raw.end());
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, type, {}, op.getLoc())))
      return failure();
    op.getResult().replaceAllUsesWith(func.getArgument(index));
    op.erase();
    sig.variables.push_back(std::move(var));
  }
  return success();
}

LogicalResult prepareTask(ModuleOp module, const BundleOptions &options,
                          TaskSignature &sig) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<bufferization::BufferizationDialect, memref::MemRefDialect,
                   LLVM::LLVMDialect>();
  auto func = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!func || func.isExternal())
    return module.emitError() << "no entry function '" << options.entry
                              << "' with a body";
  sig = TaskSignature();
  sig.name = options.taskName;

  // Names are unique across the job's inputs and outputs.
  llvm::StringSet<> names, varNames;
  unsigned numInputs = func.getNumArguments();
  for (unsigned i = 0; i < numInputs; ++i) {
    TaskTensor t;
    t.name = uniqueName(func.getArgAttrDict(i), "input" + std::to_string(i),
                        names);
    if (failed(describe(func.getArgument(i).getType(), func.getLoc(),
                        "input", t)))
      return failure();
    sig.inputs.push_back(std::move(t));
  }
  // Output names: a result's graph.name, else the importers' list.
  auto outputNames = func->getAttrOfType<ArrayAttr>("graph.output_names");
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    TaskTensor t;
    DictionaryAttr attrs = func.getResultAttrDict(i);
    if ((!attrs || !attrs.get("graph.name")) && outputNames &&
        i < outputNames.size())
      if (auto name = dyn_cast<StringAttr>(outputNames[i]))
        attrs = DictionaryAttr::get(
            ctx, {NamedAttribute(StringAttr::get(ctx, "graph.name"), name)});
    t.name = uniqueName(attrs,
                        "output" + std::to_string(i), names,
                        /*isOutput=*/true);
    if (failed(describe(func.getResultTypes()[i], func.getLoc(), "output", t)))
      return failure();
    sig.outputs.push_back(std::move(t));
  }
  if (failed(hoistConstants(func, options.weightsThresholdBytes, sig,
                            varNames)))
    return failure();
  if (failed(lowerGraphToLinalg(module)))
    return failure();

  // graphc_task_run(inputs..., variables..., outputs...): the model over
  // identity-layout memrefs, writing each result into its output buffer.
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = func.getLoc();
  SmallVector<Type> argTypes;
  for (Type t : func.getArgumentTypes()) {
    auto tensor = cast<RankedTensorType>(t);
    argTypes.push_back(MemRefType::get(tensor.getShape(),
                                       tensor.getElementType()));
  }
  for (Type t : func.getResultTypes()) {
    auto tensor = cast<RankedTensorType>(t);
    argTypes.push_back(MemRefType::get(tensor.getShape(),
                                       tensor.getElementType()));
  }
  if (module.lookupSymbol("graphc_task_run"))
    return module.emitError()
           << "symbol 'graphc_task_run' is reserved for the task entry";
  auto run = func::FuncOp::create(b, loc, "graphc_task_run",
                                  b.getFunctionType(argTypes, {}));
  Block *body = run.addEntryBlock();
  b.setInsertionPointToStart(body);
  // The entry's body moves into graphc_task_run (functions it calls stay
  // functions; bufferization handles calls).
  IRMapping mapping;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    mapping.map(func.getArgument(i),
                bufferization::ToTensorOp::create(
                    b, loc, func.getArgumentTypes()[i], body->getArgument(i),
                    /*restrict=*/true, /*writable=*/false));
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "has " << func.getBody().getBlocks().size()
                              << " blocks; a task entry needs one";
  for (Operation &op : func.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, v] : llvm::enumerate(ret.getOperands()))
        bufferization::MaterializeInDestinationOp::create(
            b, loc, Type(), mapping.lookupOrDefault(v),
            body->getArgument(func.getNumArguments() + i), /*restrict=*/true,
            /*writable=*/true);
      continue;
    }
    b.clone(op, mapping);
  }
  func::ReturnOp::create(b, loc);
  func.erase();

  // Only graphc_task_run stays public.
  for (auto f : module.getOps<func::FuncOp>())
    if (f != run)
      f.setPrivate();
  PassManager pm(ctx, ModuleOp::getOperationName());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createCanonicalizerPass());
  return pm.run(module);
}

/// Lower-case hex SHA-256 of `bytes`.
static std::string sha256Hex(StringRef bytes) {
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()),
                        bytes.size()));
  std::string hex;
  for (uint8_t byte : hash) {
    const char *digits = "0123456789abcdef";
    hex += digits[byte >> 4];
    hex += digits[byte & 15];
  }
  return hex;
}

/// Appends one signature per tensor; `files[i]` is tensor i's weights file.
static void addSignatures(
    google::protobuf::RepeatedPtrField<graphrt::manifest::TensorSignature> *out,
    ArrayRef<TaskTensor> tensors, ArrayRef<std::string> files = {}) {
  for (auto [i, t] : llvm::enumerate(tensors)) {
    graphrt::manifest::TensorSignature *s = out->Add();
    s->set_name(t.name);
    s->set_dtype(t.dtype);
    for (int64_t d : t.shape)
      s->add_shape(d);
    if (i < files.size())
      s->set_file(files[i]);
  }
}

/// Writes `bytes` to `path`; diagnoses failures at `loc`.
static LogicalResult writeFile(Location loc, StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << bytes;
    os.close();
    if (os.has_error())
      ec = os.error();
  }
  if (ec)
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  return success();
}

LogicalResult writeJobBundle(ModuleOp module, StringRef dir,
                             const BundleOptions &options) {
  Location loc = module.getLoc();
  TaskSignature sig;
  if (failed(prepareTask(module, options, sig)) ||
      failed(lowerTaskToLLVM(module, options, sig)))
    return failure();
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return emitError(loc) << "cannot create the bundle directory '" << dir
                          << "': " << ec.message();

  auto path = [&](StringRef file) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, file);
    return std::string(p);
  };
  std::vector<std::string> files, weightFiles;
  std::string library = options.taskName + ".so";
  if (failed(emitSharedObject(module, options.codegen.openmp, options.target,
                              path(library), options.link)))
    return failure();
  files.push_back(library);
  for (auto [i, var] : llvm::enumerate(sig.variables)) {
    std::string file = options.taskName + ".w" + std::to_string(i) + ".bin";
    if (failed(writeFile(loc, path(file), var.data)))
      return failure();
    weightFiles.push_back(file);
    files.push_back(file);
  }

  graphrt::manifest::Manifest manifest;
  manifest.set_format_version(graphrt::kManifestFormatVersion);
  manifest.set_name(options.jobName);
  graphrt::manifest::Task *task = manifest.add_tasks();
  task->set_name(sig.name);
  task->set_job("worker");
  task->set_index(0);
  task->set_library(library);
  task->set_device("/job:worker/task:0/device:CPU:0");
  task->set_entry(GRAPHRT_TASK_DESCRIPTOR_SYMBOL);
  addSignatures(task->mutable_inputs(), sig.inputs);
  addSignatures(task->mutable_outputs(), sig.outputs);
  addSignatures(task->mutable_variables(), sig.variables, weightFiles);
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(path(file), /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return emitError(loc) << "cannot read back '" << path(file)
                            << "': " << buffer.getError().message();
    graphrt::manifest::File *f = manifest.add_files();
    f->set_path(file);
    f->set_sha256(sha256Hex((*buffer)->getBuffer()));
    f->set_size((*buffer)->getBufferSize());
  }
  // The runtime's own rules: a bundle graph-run would refuse is a graphc bug,
  // better reported here than when the job is deployed.
  std::string error;
  if (!graphrt::checkManifest(manifest, &error))
    return emitError(loc) << "internal error: the manifest of job '"
                          << options.jobName << "' breaks a rule graph-run "
                          << "checks: " << error;
  return writeFile(loc, path("manifest.json"),
                   graphrt::printManifestJson(manifest));
}

} // namespace graphc
