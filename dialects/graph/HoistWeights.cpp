//===- HoistWeights.cpp - large constants become graph.variables ----------===//

#include "graph/GraphOps.h"
#include "graph/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace graphc::graph {
#define GEN_PASS_DEF_GRAPHHOISTWEIGHTS
#include "graph/Passes.h.inc"
} // namespace graphc::graph

using namespace mlir;
using namespace graphc::graph;

namespace {

/// The source name of a constant ("conv1.weight"), when the importer located
/// it by name, sanitised for symbol and file names; "constN" otherwise.
std::string constantName(Location loc, size_t index) {
  std::string name;
  if (auto named = dyn_cast<NameLoc>(loc)) {
    name = named.getName().str();
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      if (auto named = dyn_cast<NameLoc>(inner)) {
        name = named.getName().str();
      }
    }
  }
  // Importer locations are "FILE:NODE"; keep the node.
  if (size_t colon = name.rfind(':'); colon != std::string::npos) {
    name = name.substr(colon + 1);
  }
  for (char &c : name) {
    if (!llvm::isAlnum(c) && c != '_' && c != '.' && c != '-') {
      c = '_';
    }
  }
  return name.empty() ? "const" + std::to_string(index) : name;
}

/// True for element types the runtime has a whole-byte dtype for: floats
/// and signless or unsigned integers of 8 bits or more per element (the
/// small float formats are one byte each). i1 is bit-packed in dense
/// attributes and stays inline.
bool hasRuntimeDType(Type element) {
  if (auto i = dyn_cast<IntegerType>(element)) {
    return !i.isSigned() && i.getWidth() % 8 == 0 && i.getWidth() <= 64;
  }
  if (auto f = dyn_cast<FloatType>(element)) {
    return f.getWidth() % 8 == 0 && f.getWidth() <= 64;
  }
  return false;
}

struct GraphHoistWeightsPass
    : graphc::graph::impl::GraphHoistWeightsBase<GraphHoistWeightsPass> {
  using GraphHoistWeightsBase::GraphHoistWeightsBase;

  void runOnOperation() override {
    if (threshold < 0) {
      return;
    }
    ModuleOp module = getOperation();
    SmallVector<ConstantOp> constants;
    module.walk([&](ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      if (!type || !type.hasStaticShape() ||
          !hasRuntimeDType(type.getElementType())) {
        return;
      }
      // A splat stays inline; a blob of another size than the tensor's is
      // left to the lowering, which diagnoses it where it is used.
      std::optional<ArrayRef<char>> raw = getRawElementBytes(op.getValue());
      if (!raw || static_cast<int64_t>(raw->size()) < threshold) {
        return;
      }
      constants.push_back(op);
    });
    // A dynamic batch's chunk body (graph-dynamic-batch) is a copy of the
    // entry: its weights are the entry's, and hoisting them again would
    // store every weight twice. Its constants come last and reuse the
    // variable of an identical constant (attributes are uniqued, so equal
    // contents are the same attribute) hoisted before them.
    llvm::DenseSet<StringRef> chunkBodies;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (auto chunk =
              fn->getAttrOfType<DictionaryAttr>("graph.dynamic_batch_chunk")) {
        if (auto body = chunk.getAs<FlatSymbolRefAttr>("func")) {
          chunkBodies.insert(body.getValue());
        }
      }
    }
    auto inChunkBody = [&](ConstantOp op) {
      auto fn = op->getParentOfType<func::FuncOp>();
      return fn && chunkBodies.contains(fn.getSymName());
    };
    std::stable_partition(constants.begin(), constants.end(),
                          [&](ConstantOp op) { return !inChunkBody(op); });
    llvm::DenseMap<std::pair<Attribute, Type>, VariableOp> hoisted;

    SymbolTable symbols(module);
    for (auto [index, op] : llvm::enumerate(constants)) {
      auto type = cast<RankedTensorType>(op.getType());
      if (VariableOp same = hoisted.lookup({op.getValue(), type});
          same && inChunkBody(op)) {
        OpBuilder b(op);
        auto read = ReadVariableOp::create(
            b, op.getLoc(), type, FlatSymbolRefAttr::get(same.getSymNameAttr()),
            TypeAttr::get(type));
        op.getResult().replaceAllUsesWith(read.getResult());
        op.erase();
        continue;
      }
      // Variables go before the top-level op holding the constant, so they
      // appear in the module in the order the program uses them.
      Operation *anchor = op;
      while (anchor->getParentOp() != module) {
        anchor = anchor->getParentOp();
      }
      OpBuilder b(anchor);
      std::string base = constantName(op.getLoc(), index);
      std::string name = base;
      for (int i = 1; symbols.lookup(name); ++i) {
        name = base + "_" + std::to_string(i);
      }
      auto variable = VariableOp::create(b, op.getLoc(), b.getStringAttr(name),
                                         TypeAttr::get(type),
                                         cast<ElementsAttr>(op.getValue()),
                                         /*trainable=*/nullptr);
      if (Attribute device = op->getAttr("dist.device")) {
        variable->setAttr("dist.device", device);
      }
      symbols.insert(variable);
      hoisted[{op.getValue(), type}] = variable;
      b.setInsertionPoint(op);
      auto read = ReadVariableOp::create(
          b, op.getLoc(), type,
          FlatSymbolRefAttr::get(variable.getSymNameAttr()),
          TypeAttr::get(type));
      if (Attribute device = op->getAttr("dist.device")) {
        read->setAttr("dist.device", device);
      }
      op.getResult().replaceAllUsesWith(read.getResult());
      op.erase();
      ++numHoisted;
    }
  }
};

} // namespace
