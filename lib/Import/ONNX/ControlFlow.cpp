//===- ControlFlow.cpp - ONNX If, Loop and Scan to scf -----------------===//
//
// ONNX control flow carries its bodies as subgraphs (graph attributes) that
// read the enclosing graph's values by name. If becomes scf.if (or, on a
// constant condition, the taken branch inline); Loop and Scan become one
// scf.while whose `after` region holds the body. The loop carries the
// iteration number (tensor<i64>), the condition (tensor<i1>), the ONNX
// loop-carried values and, for scan outputs, one buffer each of the trip
// count's length, written with graph.scatter_nd at the iteration number.
// graphc compiles static shapes, so a loop-carried value must keep its type
// across iterations and scan outputs need a trip count known at compile
// time and a loop that cannot stop early; what breaks that is refused at
// the node (docs/design/importers.md, "ONNX control flow").
//
//===----------------------------------------------------------------------===//

#include "OnnxImporterImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/ScopeExit.h"

namespace graphc::import {

using mlir::Block;
using mlir::emitError;
using mlir::failure;
using mlir::success;

GraphNode OnnxImporter::subgraphNode(const onnx::NodeProto &node, int index,
                                     StringRef what) {
  GraphNode g;
  g.name = node.name().empty()
               ? (what + "/" + node.op_type() + "_#" + llvm::Twine(index)).str()
               : node.name();
  g.op = node.op_type();
  g.domain = node.domain() == "ai.onnx" ? "" : node.domain();
  g.source = &node;
  for (const std::string &name : node.input()) {
    NodeInput input;
    input.producer = name.empty() ? NodeInput::kAbsent : NodeInput::kOuter;
    input.name = name;
    g.inputs.push_back(input);
  }
  return g;
}

FailureOr<OnnxImporter::Results>
OnnxImporter::importSubgraph(const onnx::GraphProto &body,
                             ArrayRef<Value> inputs, StringRef what,
                             Location at) {
  if (body.input_size() != int(inputs.size())) {
    return emitError(at) << what << " has " << body.input_size()
                         << " inputs where " << inputs.size()
                         << " are bound to it";
  }
  // The body sees the enclosing values by name; what it defines (and the
  // initializers it first uses, whose constants sit inside the body) must
  // not be seen after it, so both maps are restored whole.
  llvm::StringMap<Value> savedValues = values;
  llvm::StringMap<const onnx::TensorProto *> savedInits = initializers;
  llvm::StringMap<Sequence> savedSequences = sequences;
  llvm::scope_exit restore([&] {
    values = std::move(savedValues);
    initializers = std::move(savedInits);
    sequences = std::move(savedSequences);
  });
  for (const onnx::TensorProto &init : body.initializer()) {
    values.erase(init.name());
    initializers[init.name()] = &init;
  }
  for (auto [info, value] : llvm::zip(body.input(), inputs)) {
    values[info.name()] = value;
  }
  for (int i = 0; i < body.node_size(); ++i) {
    const onnx::NodeProto &node = body.node(i);
    GraphNode g = subgraphNode(node, i, what);
    if (failed(importNode(g))) {
      return failure();
    }
  }
  Results results;
  for (const onnx::ValueInfoProto &output : body.output()) {
    Value v = lookupValue(output.name());
    if (!v && sequences.count(output.name())) {
      return emitError(at) << what << " output '" << output.name()
                           << "' is a sequence; sequences are resolved "
                              "while importing and cannot leave a subgraph";
    }
    if (!v) {
      return emitError(at) << what << " output '" << output.name()
                           << "' has no value";
    }
    results.push_back(v);
  }
  return results;
}

namespace {

/// `v` as a rank-0 tensor (ONNX conditions may be one-element vectors).
Value asScalar(OnnxImporter &imp, Value v, Location at) {
  auto shape = getShape(v);
  if (shape && shape->empty()) {
    return v;
  }
  return imp.build1(at, "graph.reshape", {v},
                    {imp.named("shape", imp.i64Array({}))});
}

/// Whether `v` is a constant whose every element is non-zero (true).
bool isConstantTrue(Value v) {
  DenseElementsAttr a;
  if (!v || !matchPattern(v, mlir::m_Constant(&a))) {
    return false;
  }
  return llvm::all_of(a.getValues<llvm::APInt>(),
                      [](const llvm::APInt &x) { return !x.isZero(); });
}

/// `v` with graph.identity and one-element reshapes looked through.
Value lookThrough(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    StringRef name = op->getName().getStringRef();
    if (name != "graph.identity" && name != "graph.reshape") {
      break;
    }
    v = op->getOperand(0);
  }
  return v;
}

/// The least static type both branches' `a` and `b` fit (dimensions that
/// differ become dynamic); null when rank or element type differ.
Type joinTypes(Type a, Type b) {
  if (a == b) {
    return a;
  }
  auto ra = llvm::dyn_cast<RankedTensorType>(a);
  auto rb = llvm::dyn_cast<RankedTensorType>(b);
  if (!ra || !rb || ra.getRank() != rb.getRank() ||
      ra.getElementType() != rb.getElementType()) {
    return {};
  }
  llvm::SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(ra.getShape(), rb.getShape())) {
    dims.push_back(x == y ? x : mlir::ShapedType::kDynamic);
  }
  return RankedTensorType::get(dims, ra.getElementType());
}

/// `v` cast to `type` (tensor.cast) when it differs.
Value castTo(OpBuilder &b, Location at, Value v, Type type) {
  if (v.getType() == type) {
    return v;
  }
  return mlir::tensor::CastOp::create(b, at, type, v);
}

} // namespace

FailureOr<OnnxImporter::Results> OnnxImporter::importIf(Location at) {
  const onnx::NodeProto &def = *current.def;
  const onnx::AttributeProto *thenAttr = attr(def, "then_branch");
  const onnx::AttributeProto *elseAttr = attr(def, "else_branch");
  if (failed(need(1)) || !thenAttr || !elseAttr) {
    return emitError(at) << "If needs a condition and both branches";
  }
  std::string name = current.def->name().empty() ? "If" : current.def->name();
  Value cond = operand(0);
  // A condition known at compile time (shape checks in expanded functions)
  // takes its branch inline, so the branch's static shapes survive.
  DenseElementsAttr known;
  if (matchPattern(cond, mlir::m_Constant(&known))) {
    bool taken = isConstantTrue(cond);
    return importSubgraph(taken ? thenAttr->g() : elseAttr->g(), {},
                          name + (taken ? "/then" : "/else"), at);
  }
  Value flag = asScalar(*this, cond, at);
  if (!flag) {
    return failure();
  }
  flag = mlir::tensor::ExtractOp::create(builder, at, flag, ValueRange{});
  OpBuilder::InsertPoint outer = builder.saveInsertionPoint();
  llvm::scope_exit restore([&] { builder.restoreInsertionPoint(outer); });
  // Each branch is imported into a detached block; the result types (the
  // join of both branches') are known only then.
  std::unique_ptr<Block> blocks[2] = {std::make_unique<Block>(),
                                      std::make_unique<Block>()};
  Results branchResults[2];
  const onnx::AttributeProto *branches[2] = {thenAttr, elseAttr};
  for (int k = 0; k < 2; ++k) {
    builder.setInsertionPointToEnd(blocks[k].get());
    auto r = importSubgraph(branches[k]->g(), {},
                            name + (k ? "/else" : "/then"), at);
    if (failed(r)) {
      return failure();
    }
    branchResults[k] = std::move(*r);
  }
  if (branchResults[0].size() != branchResults[1].size()) {
    return emitError(at) << "If '" << name << "': then_branch has "
                         << branchResults[0].size()
                         << " outputs and else_branch "
                         << branchResults[1].size();
  }
  llvm::SmallVector<Type> types;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(branchResults[0], branchResults[1]))) {
    Type t =
        joinTypes(std::get<0>(pair).getType(), std::get<1>(pair).getType());
    if (!t) {
      return emitError(at) << "If '" << name << "' output " << i << " is "
                           << std::get<0>(pair).getType()
                           << " in then_branch and "
                           << std::get<1>(pair).getType()
                           << " in else_branch; graphc needs one rank and "
                              "element type";
    }
    types.push_back(t);
  }
  for (int k = 0; k < 2; ++k) {
    builder.setInsertionPointToEnd(blocks[k].get());
    llvm::SmallVector<Value> yields;
    for (auto [v, t] : llvm::zip(branchResults[k], types)) {
      yields.push_back(castTo(builder, at, v, t));
    }
    mlir::scf::YieldOp::create(builder, at, yields);
  }
  builder.restoreInsertionPoint(outer);
  auto ifOp = mlir::scf::IfOp::create(builder, at, types, flag,
                                      /*addThenBlock=*/false,
                                      /*addElseBlock=*/false);
  ifOp.getThenRegion().push_back(blocks[0].release());
  ifOp.getElseRegion().push_back(blocks[1].release());
  return Results(ifOp.getResults().begin(), ifOp.getResults().end());
}

FailureOr<OnnxImporter::Results>
OnnxImporter::emitLoop(Value tripCount, Value cond, ArrayRef<Value> init,
                       ArrayRef<bool> reverseScans, const LoopBody &body,
                       StringRef what, Location at) {
  Type i64 = builder.getI64Type();
  Value i0 = scalar(at, i64, 0);
  Value c0 =
      cond ? asScalar(*this, cond, at) : scalar(at, builder.getI1Type(), 1);
  if (!i0 || !c0) {
    return failure();
  }
  std::optional<int64_t> trips;
  if (tripCount) {
    if (auto v = constInts(tripCount); v && v->size() == 1) {
      trips = (*v)[0];
    }
    tripCount = asScalar(*this, tripCount, at);
  }
  llvm::SmallVector<Value> inits = {i0, c0};
  inits.append(init.begin(), init.end());
  llvm::SmallVector<Type> types;
  for (Value v : inits) {
    types.push_back(v.getType());
  }

  OpBuilder::InsertPoint outer = builder.saveInsertionPoint();
  llvm::scope_exit restore([&] { builder.restoreInsertionPoint(outer); });
  std::unique_ptr<Block> after = std::make_unique<Block>();
  for (Type t : types) {
    after->addArgument(t, at);
  }
  builder.setInsertionPointToEnd(after.get());
  llvm::SmallVector<Value> args(after->getArguments());
  FailureOr<LoopBodyResults> out = body(args);
  if (failed(out)) {
    return failure();
  }
  if (out->carried.size() != init.size()) {
    return emitError(at) << what << ": the body yields " << out->carried.size()
                         << " loop-carried values for " << init.size();
  }
  llvm::SmallVector<Value> yields = {Value(), Value()};
  for (auto [k, pair] : llvm::enumerate(llvm::zip(out->carried, init))) {
    auto [next, first] = pair;
    if (next.getType() != first.getType() &&
        !mlir::tensor::CastOp::areCastCompatible(next.getType(),
                                                 first.getType())) {
      return emitError(at)
             << what << ": loop-carried value " << k << " is "
             << first.getType() << " before the loop and " << next.getType()
             << " after an iteration; graphc compiles static shapes, so a "
                "loop-carried value must keep its shape";
    }
    yields.push_back(castTo(builder, at, next, first.getType()));
  }
  // Scan outputs: one buffer of the trip count's length each, which needs
  // the count at compile time and a loop that cannot stop early.
  llvm::SmallVector<Type> bufferTypes;
  if (!out->scans.empty()) {
    if (!trips) {
      return emitError(at)
             << what
             << ": its scan outputs' length is the trip count, "
                "which is computed at run time; graphc compiles static "
                "shapes (give the trip count as a constant, e.g. with "
                "--freeze-input)";
    }
    bool stopsEarly =
        !isConstantTrue(c0) || (out->cond && !isConstantTrue(out->cond) &&
                                lookThrough(out->cond) != args[1]);
    if (stopsEarly) {
      return emitError(at)
             << what
             << ": its condition may stop the loop before the trip "
                "count, so its scan outputs' length is computed at run "
                "time; graphc compiles static shapes";
    }
    for (auto [k, s] : llvm::enumerate(out->scans)) {
      auto t = llvm::dyn_cast<RankedTensorType>(s.getType());
      if (!t || !t.hasStaticShape()) {
        return emitError(at) << what << ": scan output " << k << " is "
                             << s.getType() << ", not a static shape";
      }
      llvm::SmallVector<int64_t> dims = {*trips};
      dims.append(t.getShape().begin(), t.getShape().end());
      bufferTypes.push_back(RankedTensorType::get(dims, t.getElementType()));
    }
  }
  Value nextCond = out->cond ? asScalar(*this, out->cond, at) : args[1];
  if (!nextCond) {
    return failure();
  }
  yields[0] = build1(at, "graph.add", {args[0], scalar(at, i64, 1)});
  yields[1] = castTo(builder, at, nextCond, c0.getType());
  for (auto [k, type] : llvm::enumerate(bufferTypes)) {
    Value buffer = after->addArgument(type, at);
    Value index = args[0];
    if (k < reverseScans.size() && reverseScans[k]) {
      index = build1(at, "graph.sub", {scalar(at, i64, *trips - 1), index});
    }
    index = build1(at, "graph.reshape", {index},
                   {named("shape", i64Array({1, 1}))});
    Value update = build1(at, "graph.unsqueeze", {out->scans[k]},
                          {named("axes", i64Array({0}))});
    Value written = build1(at, "graph.scatter_nd", {buffer, index, update});
    if (!index || !update || !written) {
      return failure();
    }
    yields.push_back(written);
  }
  if (!yields[0]) {
    return failure();
  }
  mlir::scf::YieldOp::create(builder, at, yields);

  builder.restoreInsertionPoint(outer);
  for (Type type : bufferTypes) {
    auto t = llvm::cast<RankedTensorType>(type);
    Attribute zero =
        llvm::isa<FloatType>(t.getElementType())
            ? Attribute(builder.getFloatAttr(t.getElementType(), 0))
            : Attribute(builder.getIntegerAttr(t.getElementType(), 0));
    inits.push_back(constant(at, DenseElementsAttr::get(t, zero)));
    types.push_back(type);
  }
  auto loop = mlir::scf::WhileOp::create(builder, at, types, inits);
  Block *before = builder.createBlock(&loop.getBefore());
  for (Type t : types) {
    before->addArgument(t, at);
  }
  builder.setInsertionPointToEnd(before);
  Value keep = before->getArgument(1);
  if (tripCount) {
    Value lt =
        build1(at, "graph.compare", {before->getArgument(0), tripCount},
               {named("direction", kindAttr("#graph<compare_direction lt>"))},
               builder.getI1Type());
    keep = lt ? build1(at, "graph.and", {keep, lt}) : Value();
    if (!keep) {
      return failure();
    }
  }
  Value flag = mlir::tensor::ExtractOp::create(builder, at, keep, ValueRange{});
  mlir::scf::ConditionOp::create(builder, at, flag, before->getArguments());
  loop.getAfter().push_back(after.release());
  Results results(loop.getResults().begin() + 2, loop.getResults().end());
  return results;
}

FailureOr<OnnxImporter::Results> OnnxImporter::importLoop(Location at) {
  const onnx::NodeProto &def = *current.def;
  const onnx::AttributeProto *bodyAttr = attr(def, "body");
  if (!bodyAttr) {
    return emitError(at) << "Loop needs its body";
  }
  std::string name = def.name().empty() ? "Loop" : def.name();
  const onnx::GraphProto &graph = bodyAttr->g();
  llvm::SmallVector<Value> init;
  for (unsigned i = 2; i < current.in.size(); ++i) {
    if (!operand(i)) {
      return emitError(at) << "Loop '" << name << "' input " << i
                           << " is absent; optional loop-carried values are "
                              "not supported";
    }
    init.push_back(operand(i));
  }
  int64_t carried = init.size();
  int64_t scans = graph.output_size() - 1 - carried;
  if (scans < 0) {
    return emitError(at) << "Loop '" << name << "' body has "
                         << graph.output_size() << " outputs for " << carried
                         << " loop-carried values";
  }
  LoopBody body = [&](ArrayRef<Value> args) -> FailureOr<LoopBodyResults> {
    // The body reads (iteration number, condition, loop-carried values...).
    auto r = importSubgraph(graph, args, name + "/body", at);
    if (failed(r)) {
      return failure();
    }
    LoopBodyResults out;
    out.cond = (*r)[0];
    out.carried.assign(r->begin() + 1, r->begin() + 1 + carried);
    out.scans.assign(r->begin() + 1 + carried, r->end());
    return out;
  };
  return emitLoop(operand(0), operand(1), init, {}, body, "Loop '" + name + "'",
                  at);
}

/// Scan over `states` and the `inputs` (already per batch for opset 8):
/// the scan axis of each input is moved first, each iteration gathers its
/// slice, and each scan output's buffer is moved to its output axis.
FailureOr<OnnxImporter::Results>
OnnxImporter::scanOnce(const onnx::GraphProto &graph, ArrayRef<Value> states,
                       ArrayRef<Value> inputs, ArrayRef<int64_t> inAxes,
                       ArrayRef<int64_t> inDirs, ArrayRef<int64_t> outAxes,
                       ArrayRef<int64_t> outDirs, StringRef what, Location at) {
  Type i64 = builder.getI64Type();
  llvm::SmallVector<Value> moved;
  std::optional<int64_t> length;
  for (auto [k, input] : llvm::enumerate(inputs)) {
    Value x = input;
    auto shape = getShape(x);
    int64_t rank = shape ? shape->size() : 0;
    int64_t axis = k < inAxes.size() ? inAxes[k] : 0;
    axis = axis < 0 ? axis + rank : axis;
    if (!shape || axis < 0 || axis >= rank ||
        mlir::ShapedType::isDynamic((*shape)[axis])) {
      return emitError(at) << what << ": scan input " << k
                           << " needs a static length along axis " << axis;
    }
    if (length && *length != (*shape)[axis]) {
      return emitError(at) << what << ": scan inputs have lengths " << *length
                           << " and " << (*shape)[axis];
    }
    length = (*shape)[axis];
    if (axis != 0) {
      llvm::SmallVector<int64_t> perm = {axis};
      for (int64_t d = 0; d < rank; ++d) {
        if (d != axis) {
          perm.push_back(d);
        }
      }
      x = build1(at, "graph.transpose", {x}, {named("perm", i64Array(perm))});
      if (!x) {
        return failure();
      }
    }
    moved.push_back(x);
  }
  if (!length) {
    return emitError(at) << what << " has no scan input";
  }
  int64_t numScanOut = graph.output_size() - int64_t(states.size());
  llvm::SmallVector<bool> reverse;
  for (int64_t k = 0; k < numScanOut; ++k) {
    reverse.push_back(k < int64_t(outDirs.size()) && outDirs[k] == 1);
  }
  LoopBody body = [&](ArrayRef<Value> args) -> FailureOr<LoopBodyResults> {
    llvm::SmallVector<Value> bound(args.begin() + 2, args.end());
    for (auto [k, x] : llvm::enumerate(moved)) {
      Value index = args[0];
      if (k < inDirs.size() && inDirs[k] == 1) {
        index = build1(at, "graph.sub", {scalar(at, i64, *length - 1), index});
      }
      // A 1-D input is gathered as [L, 1] and reshaped to a scalar: the
      // CPU vectoriser does not take a gather whose result has rank 0.
      Value source = x;
      if (rankOf(x) == 1) {
        source = build1(at, "graph.reshape", {x},
                        {named("shape", i64Array({*length, 1}))});
      }
      Value slice = index && source
                        ? build1(at, "graph.gather", {source, index},
                                 {named("axis", i64Attr(0))})
                        : Value();
      if (slice && source != x) {
        slice = build1(at, "graph.reshape", {slice},
                       {named("shape", i64Array({}))});
      }
      if (!slice) {
        return failure();
      }
      bound.push_back(slice);
    }
    auto r = importSubgraph(graph, bound, (what + "/body").str(), at);
    if (failed(r)) {
      return failure();
    }
    LoopBodyResults out;
    out.carried.assign(r->begin(), r->begin() + states.size());
    out.scans.assign(r->begin() + states.size(), r->end());
    return out;
  };
  auto r = emitLoop(scalar(at, i64, *length), Value(), states, reverse, body,
                    what, at);
  if (failed(r)) {
    return failure();
  }
  for (int64_t k = 0; k < numScanOut; ++k) {
    Value &v = (*r)[states.size() + k];
    int64_t rank = *rankOf(v);
    int64_t axis = k < int64_t(outAxes.size()) ? outAxes[k] : 0;
    axis = axis < 0 ? axis + rank : axis;
    if (axis <= 0 || axis >= rank) {
      continue;
    }
    // The buffer's leading (iteration) axis moves to `axis`.
    llvm::SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d) {
      perm.push_back(d < axis ? d + 1 : d == axis ? 0 : d);
    }
    v = build1(at, "graph.transpose", {v}, {named("perm", i64Array(perm))});
    if (!v) {
      return failure();
    }
  }
  return r;
}

FailureOr<OnnxImporter::Results> OnnxImporter::importScan(Location at) {
  const onnx::NodeProto &def = *current.def;
  const onnx::AttributeProto *bodyAttr = attr(def, "body");
  int64_t numScan = attrInt(def, "num_scan_inputs", 0);
  std::string name = def.name().empty() ? "Scan" : def.name();
  std::string what = "Scan '" + name + "'";
  if (!bodyAttr || numScan <= 0) {
    return emitError(at) << what << " needs its body and num_scan_inputs";
  }
  const onnx::GraphProto &graph = bodyAttr->g();
  auto ints = [&](StringRef n) {
    return attrInts(def, n).value_or(llvm::SmallVector<int64_t>());
  };
  bool batched = opset < 9;
  unsigned first = batched ? 1 : 0;
  if (batched && operand(0)) {
    return emitError(at) << what
                         << ": sequence_lens is not supported (every "
                            "sequence must have the full length)";
  }
  int64_t numStates = int64_t(current.in.size()) - first - numScan;
  if (numStates < 0) {
    return emitError(at) << what << " has fewer inputs than num_scan_inputs";
  }
  llvm::SmallVector<Value> states, inputs;
  for (unsigned i = first; i < current.in.size(); ++i) {
    if (!operand(i)) {
      return emitError(at) << what << " input " << i << " is absent";
    }
    (int64_t(i - first) < numStates ? states : inputs).push_back(operand(i));
  }
  if (!batched) {
    return scanOnce(graph, states, inputs, ints("scan_input_axes"),
                    ints("scan_input_directions"), ints("scan_output_axes"),
                    ints("scan_output_directions"), what, at);
  }
  // Opset 8: every input has a leading batch axis; each batch entry is
  // scanned on its own (unrolled over the static batch) and restacked.
  auto shape = getShape(inputs.front());
  if (!shape || shape->empty() || mlir::ShapedType::isDynamic((*shape)[0])) {
    return emitError(at) << what << " needs a static batch size";
  }
  Type i64 = builder.getI64Type();
  llvm::SmallVector<Results> perBatch;
  for (int64_t b = 0; b < (*shape)[0]; ++b) {
    Value index = scalar(at, i64, b);
    auto pick = [&](ArrayRef<Value> vs) {
      llvm::SmallVector<Value> r;
      for (Value v : vs) {
        r.push_back(build1(at, "graph.gather", {v, index},
                           {named("axis", i64Attr(0))}));
      }
      return r;
    };
    auto r = scanOnce(graph, pick(states), pick(inputs), {}, ints("directions"),
                      {}, {}, what, at);
    if (failed(r)) {
      return failure();
    }
    perBatch.push_back(std::move(*r));
  }
  Results results;
  for (size_t k = 0; k < perBatch.front().size(); ++k) {
    llvm::SmallVector<Value> parts;
    for (Results &r : perBatch) {
      parts.push_back(build1(at, "graph.unsqueeze", {r[k]},
                             {named("axes", i64Array({0}))}));
    }
    Value v = parts.size() == 1 ? parts[0]
                                : build1(at, "graph.concat", parts,
                                         {named("axis", i64Attr(0))});
    if (!v) {
      return failure();
    }
    results.push_back(v);
  }
  return results;
}

std::optional<FailureOr<OnnxImporter::Results>>
OnnxImporter::importControlFlow(const GraphNode &node, const onnx::NodeProto &,
                                ArrayRef<Value>, Location at) {
  if (node.op == "If") {
    return importIf(at);
  }
  if (node.op == "Loop") {
    return importLoop(at);
  }
  if (node.op == "Scan") {
    return importScan(at);
  }
  return std::nullopt;
}

} // namespace graphc::import
