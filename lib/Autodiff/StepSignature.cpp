//===- StepSignature.cpp - named results of a step function ---------------===//

#include "StepSignature.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace graphc::autodiff;

SmallVector<std::string> graphc::autodiff::resultNames(func::FuncOp func) {
  SmallVector<std::string> names;
  auto attr = func->getAttrOfType<ArrayAttr>("graph.output_names");
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    StringAttr name;
    if (attr && i < attr.size()) {
      name = dyn_cast<StringAttr>(attr[i]);
    }
    names.push_back(name ? name.str() : "output" + std::to_string(i));
  }
  return names;
}

std::optional<unsigned> graphc::autodiff::findResult(func::FuncOp func,
                                                     StringRef name) {
  for (auto [i, n] : llvm::enumerate(resultNames(func))) {
    if (n == name) {
      return i;
    }
  }
  return std::nullopt;
}

func::ReturnOp graphc::autodiff::returnOf(func::FuncOp func) {
  if (func.getBody().empty() || !func.getBody().hasOneBlock()) {
    return nullptr;
  }
  return dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
}

void graphc::autodiff::setResults(func::FuncOp func, ValueRange values,
                                  ArrayRef<std::string> names) {
  func::ReturnOp ret = returnOf(func);
  // A kept result keeps its attributes (the importers' graph.name).
  SmallVector<Value> old(ret->getOperands());
  SmallVector<DictionaryAttr> oldAttrs;
  for (unsigned i = 0; i < old.size(); ++i) {
    oldAttrs.push_back(func.getResultAttrDict(i));
  }
  SmallVector<Attribute> attrs;
  for (Value v : values) {
    auto *it = llvm::find(old, v);
    DictionaryAttr d =
        it == old.end() ? DictionaryAttr() : oldAttrs[it - old.begin()];
    attrs.push_back(d ? d : DictionaryAttr::get(func.getContext()));
  }
  ret->setOperands(values);
  func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                 TypeRange(values)));
  func.setAllResultAttrs(attrs);
  Builder b(func.getContext());
  SmallVector<StringRef> refs(names.begin(), names.end());
  func->setAttr("graph.output_names", b.getStrArrayAttr(refs));
}

std::string graphc::autodiff::argumentName(func::FuncOp func, unsigned index) {
  if (auto name = func.getArgAttrOfType<StringAttr>(index, "graph.name")) {
    return name.str();
  }
  return "arg" + std::to_string(index);
}
