//===- JobBundle.cpp - graph module to task and job bundle ----------------===//

#include "graphc/Bundle/JobBundle.h"
#include "graphc/Conversion/Passes.h"

#include "graph/GraphOps.h"

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

std::string manifestDType(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isInteger(1))
    return "bool";
  // ONNX's small types (one element per byte in the runtime's buffers).
  if (isa<Float8E4M3FNType>(t))
    return "f8e4m3fn";
  if (isa<Float8E4M3FNUZType>(t))
    return "f8e4m3fnuz";
  if (isa<Float8E5M2Type>(t))
    return "f8e5m2";
  if (isa<Float8E5M2FNUZType>(t))
    return "f8e5m2fnuz";
  if (isa<Float8E8M0FNUType>(t))
    return "f8e8m0";
  if (isa<Float4E2M1FNType>(t))
    return "f4e2m1";
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.isSigned())
      return ""; // the graph dialect's integers are signless or unsigned
    switch (i.getWidth()) {
    case 2:
      return i.isUnsigned() ? "u2" : "i2";
    case 4:
      return i.isUnsigned() ? "u4" : "i4";
    case 8:
      return i.isUnsigned() ? "u8" : "i8";
    case 16:
      return i.isUnsigned() ? "u16" : "i16";
    case 32:
      return i.isUnsigned() ? "u32" : "i32";
    case 64:
      return i.isUnsigned() ? "u64" : "i64";
    default:
      return "";
    }
  }
  return "";
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

static void writeJsonString(llvm::raw_ostream &os, StringRef s) {
  os << '"';
  for (char c : s) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (static_cast<unsigned char>(c) < 0x20)
      os << llvm::format("\\u%04x", c);
    else
      os << c;
  }
  os << '"';
}

static void writeSignatures(llvm::raw_ostream &os, StringRef key,
                            ArrayRef<TaskTensor> tensors,
                            ArrayRef<std::string> files = {}) {
  os << ",\n     ";
  writeJsonString(os, key);
  os << ": [";
  for (auto [i, t] : llvm::enumerate(tensors)) {
    os << (i ? ",\n       {" : "\n       {") << "\"name\": ";
    writeJsonString(os, t.name);
    os << ", \"dtype\": \"" << t.dtype << "\", \"shape\": [";
    llvm::interleaveComma(t.shape, os);
    os << "]";
    if (i < files.size()) {
      os << ", \"file\": ";
      writeJsonString(os, files[i]);
    }
    os << "}";
  }
  os << "]";
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

  std::string json;
  llvm::raw_string_ostream os(json);
  os << "{\n  \"format_version\": 1,\n  \"name\": ";
  writeJsonString(os, options.jobName);
  os << ",\n  \"tasks\": [\n    {\"name\": ";
  writeJsonString(os, sig.name);
  os << ", \"job\": \"worker\", \"index\": 0, \"library\": ";
  writeJsonString(os, library);
  os << ",\n     \"device\": \"/job:worker/task:0/device:CPU:0\", "
        "\"entry\": \"graphrt_task_descriptor_v1\"";
  writeSignatures(os, "inputs", sig.inputs);
  writeSignatures(os, "outputs", sig.outputs);
  writeSignatures(os, "variables", sig.variables, weightFiles);
  os << "}\n  ],\n  \"files\": [";
  for (auto [i, file] : llvm::enumerate(files)) {
    auto buffer = llvm::MemoryBuffer::getFile(path(file), /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return emitError(loc) << "cannot read back '" << path(file)
                            << "': " << buffer.getError().message();
    os << (i ? ",\n    {" : "\n    {") << "\"path\": ";
    writeJsonString(os, file);
    os << ", \"sha256\": \"" << sha256Hex((*buffer)->getBuffer())
       << "\", \"size\": " << (*buffer)->getBufferSize() << "}";
  }
  os << "\n  ]\n}\n";
  return writeFile(loc, path("manifest.json"), json);
}

} // namespace graphc
