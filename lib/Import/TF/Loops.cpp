//===- Loops.cpp - TensorFlow TF1 while loops -----------------------------===//
//
// TF1 while loops: each frame (Enter ... Exit) becomes one scf.while; Merges
// are the loop variables, LoopCond the condition, NextIteration the yield.
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

namespace graphc::import {

/// The frame of every node: "" for the top level, an Enter's frame_name for
/// the nodes its values reach, up to the Exits (which are in the parent).
LogicalResult GraphDefImporter::computeFrames(llvm::ArrayRef<unsigned> order) {
  frameOf.assign(graph.nodes.size(), "");
  for (unsigned index : order) {
    const GraphNode &node = graph.nodes[index];
    const tensorflow::NodeDef &nd = def(node);
    if (node.op == "Enter" || node.op == "RefEnter") {
      const tensorflow::AttrValue *frame = attr(nd, "frame_name");
      if (!frame || frame->s().empty()) {
        return emitError(loc(node.name)) << "Enter has no frame_name";
      }
      std::string parent = node.inputs.empty() || node.inputs[0].producer < 0
                               ? ""
                               : frameOf[node.inputs[0].producer];
      auto [it, inserted] = frameParent.try_emplace(frame->s(), parent);
      if (!inserted && it->second != parent) {
        return emitError(loc(node.name))
               << "frame '" << frame->s() << "' is entered from two frames";
      }
      frameOf[index] = frame->s();
      continue;
    }
    std::string frame;
    for (const NodeInput &in : node.inputs) {
      if (in.producer >= 0 && !frameOf[in.producer].empty()) {
        frame = frameOf[in.producer];
        break;
      }
    }
    if (frame.empty()) {
      for (unsigned c : node.controlInputs) {
        if (!frameOf[c].empty()) {
          frame = frameOf[c];
          break;
        }
      }
    }
    if (node.op == "Exit" || node.op == "RefExit") {
      frame = frameParent.lookup(frame);
    }
    frameOf[index] = frame;
  }
  return success();
}

/// Imports the nodes of `order` that lie in `frame` (a nested frame, met
/// first at one of its nodes, is imported whole as one scf.while).
LogicalResult GraphDefImporter::importScope(llvm::ArrayRef<unsigned> order,
                                            StringRef frame,
                                            const std::vector<bool> &keep) {
  llvm::StringSet<> done;
  for (unsigned index : order) {
    if (!keep[index]) {
      continue;
    }
    StringRef f = frameOf[index];
    if (f == frame) {
      const GraphNode &node = graph.nodes[index];
      if (node.op == "Exit") { // a result of the loop imported before it
        continue;
      }
      if (frame.empty()) {
        enterTaskOf(index);
      }
      if (auto cut = cutInputs.find(node.name); cut != cutInputs.end()) {
        if (failed(importCutInput(node, cut->second))) {
          return failure();
        }
        continue;
      }
      if (failed(importNode(node))) {
        noteUnshapedInputs(index);
        return failure();
      }
      continue;
    }
    // The child of `frame` on the way to `f`.
    std::string child = f.str();
    while (!child.empty() && frameParent.lookup(child) != frame) {
      child = frameParent.lookup(child);
    }
    if (child.empty() || done.contains(child)) {
      continue;
    }
    done.insert(child);
    if (frame.empty()) {
      enterTaskOf(index);
    }
    if (failed(importLoop(child, order))) {
      return failure();
    }
  }
  return success();
}

bool GraphDefImporter::inFrame(unsigned i, StringRef frame) {
  std::string f = frameOf[i];
  while (!f.empty() && f != frame) {
    f = frameParent.lookup(f);
  }
  return f == frame;
}

LogicalResult GraphDefImporter::findLoopVars(LoopFrame &loop,
                                             llvm::ArrayRef<unsigned> order) {
  StringRef frame = loop.frame;
  auto &vars = loop.vars;
  for (unsigned i : order) {
    if (inFrame(i, frame)) {
      loop.members.push_back(i);
    }
  }
  for (unsigned i : loop.members) {
    const GraphNode &n = graph.nodes[i];
    if (frameOf[i] != frame) {
      continue;
    }
    if (n.op == "Merge") {
      LoopVar v;
      v.merge = i;
      for (const NodeInput &in : n.inputs) {
        if (in.producer < 0) {
          continue;
        }
        if (graph.nodes[in.producer].op == "NextIteration") {
          v.next = in.producer;
        } else {
          v.enter = in.producer;
        }
      }
      if (v.enter < 0 || v.next < 0) {
        return emitError(loc(n.name)) << "Merge of frame '" << frame
                                      << "' is not a loop variable (needs an "
                                         "Enter and a NextIteration input)";
      }
      vars.push_back(v);
    } else if (n.op == "LoopCond") {
      if (loop.loopCond >= 0) {
        return emitError(loc(n.name))
               << "frame '" << frame << "' has two LoopCond nodes";
      }
      loop.loopCond = i;
    }
  }
  if (loop.loopCond < 0 || vars.empty()) {
    return emitError(loc(frame))
           << "frame '" << frame << "' has no LoopCond or no loop variable";
  }
  for (unsigned i : loop.members) {
    const GraphNode &n = graph.nodes[i];
    if (n.op == "Switch" && frameOf[i] == frame) {
      for (LoopVar &v : vars) {
        if (!n.inputs.empty() && n.inputs[0].producer == v.merge) {
          v.sw = i;
        }
      }
    }
  }
  for (unsigned i = 0; i < graph.nodes.size(); ++i) {
    if (graph.nodes[i].op == "Exit" && !graph.nodes[i].inputs.empty()) {
      for (LoopVar &v : vars) {
        if (graph.nodes[i].inputs[0].producer == v.sw) {
          v.exit = i;
        }
      }
    }
  }
  for (const LoopVar &v : vars) {
    if (v.sw < 0) {
      return emitError(loc(graph.nodes[v.merge].name))
             << "loop variable has no Switch";
    }
  }
  return success();
}

void GraphDefImporter::findLoopRegions(LoopFrame &loop) {
  StringRef frame = loop.frame;
  // The nodes each region needs: ancestors of LoopCond (stopping at Merge)
  // and of the NextIterations (stopping at Switch), within the frame.
  auto ancestors = [&](llvm::ArrayRef<int> starts, StringRef stopOp) {
    std::vector<bool> need(graph.nodes.size(), false);
    llvm::SmallVector<unsigned> work;
    for (int s : starts) {
      work.push_back(s);
    }
    while (!work.empty()) {
      unsigned i = work.pop_back_val();
      if (need[i] || !inFrame(i, frame)) {
        continue;
      }
      const GraphNode &n = graph.nodes[i];
      need[i] = true;
      if ((n.op == stopOp && frameOf[i] == frame) ||
          (n.op == "Enter" && frameOf[i] == frame)) {
        continue;
      }
      for (const NodeInput &in : n.inputs) {
        if (in.producer >= 0) {
          work.push_back(in.producer);
        }
      }
      for (unsigned c : n.controlInputs) {
        work.push_back(c);
      }
    }
    return need;
  };
  llvm::SmallVector<int> nextInputs;
  for (const LoopVar &v : loop.vars) {
    nextInputs.push_back(graph.nodes[v.next].inputs[0].producer);
  }
  // Sinks inside the body (a nested loop whose results go unused) run every
  // iteration too: they are imported into the body.
  std::vector<bool> consumed(graph.nodes.size(), false);
  for (const GraphNode &n : graph.nodes) {
    for (const NodeInput &in : n.inputs) {
      if (in.producer >= 0) {
        consumed[in.producer] = true;
      }
    }
    for (unsigned c : n.controlInputs) {
      consumed[c] = true;
    }
  }
  for (unsigned i : loop.members) {
    if (!consumed[i] && frameOf[i] == frame) {
      nextInputs.push_back(i);
    }
  }
  loop.condNodes =
      ancestors({graph.nodes[loop.loopCond].inputs[0].producer}, "Merge");
  loop.bodyNodes = ancestors(nextInputs, "Switch");
  auto structural = [&](unsigned i) {
    StringRef op = graph.nodes[i].op;
    return frameOf[i] == frame &&
           (op == "Enter" || op == "Merge" || op == "Switch" ||
            op == "LoopCond" || op == "NextIteration" || op == "Exit");
  };
  for (unsigned i = 0; i < graph.nodes.size(); ++i) {
    if (structural(i)) {
      loop.condNodes[i] = loop.bodyNodes[i] = false;
    }
  }
}

void GraphDefImporter::bindEnters(const LoopFrame &loop,
                                  const llvm::StringMap<Value> &outer) {
  for (unsigned i : loop.members) {
    const GraphNode &n = graph.nodes[i];
    if (frameOf[i] == loop.frame && n.op == "Enter") {
      const GraphNode &src = graph.nodes[n.inputs[0].producer];
      if (Value v = outer.lookup(src.name + ":" +
                                 std::to_string(n.inputs[0].index))) {
        values[n.name + ":0"] = v;
      }
    }
  }
}

LogicalResult GraphDefImporter::fillLoop(const LoopFrame &loop,
                                         llvm::ArrayRef<unsigned> order,
                                         scf::WhileOp op,
                                         llvm::ArrayRef<Type> types) {
  StringRef frame = loop.frame;
  Location at = loc(frame);
  OpBuilder::InsertionGuard guard(builder);
  llvm::SmallVector<Location> locs(types.size(), at);
  Block *before = builder.createBlock(&op.getBefore(), {}, types, locs);
  for (auto [k, v] : llvm::enumerate(loop.vars)) {
    values[graph.nodes[v.merge].name + ":0"] = before->getArgument(k);
  }
  if (failed(importScope(order, frame, loop.condNodes))) {
    return failure();
  }
  const NodeInput &condIn = graph.nodes[loop.loopCond].inputs[0];
  Value cond = values.lookup(graph.nodes[condIn.producer].name + ":" +
                             std::to_string(condIn.index));
  auto condType =
      cond ? dyn_cast<RankedTensorType>(cond.getType()) : RankedTensorType();
  if (!condType || condType.getRank() != 0 ||
      !condType.getElementType().isInteger(1)) {
    return emitError(loc(graph.nodes[loop.loopCond].name))
           << "LoopCond needs a boolean scalar";
  }
  Value flag = tensor::ExtractOp::create(builder, at, cond, ValueRange{});
  scf::ConditionOp::create(builder, at, flag, before->getArguments());
  Block *after = builder.createBlock(&op.getAfter(), {}, types, locs);
  for (auto [k, v] : llvm::enumerate(loop.vars)) {
    values[graph.nodes[v.sw].name + ":1"] = after->getArgument(k);
  }
  if (failed(importScope(order, frame, loop.bodyNodes))) {
    return failure();
  }
  llvm::SmallVector<Value> yields;
  for (auto [k, v] : llvm::enumerate(loop.vars)) {
    const NodeInput &in = graph.nodes[v.next].inputs[0];
    Value y = values.lookup(graph.nodes[in.producer].name + ":" +
                            std::to_string(in.index));
    if (!y) {
      return emitError(loc(graph.nodes[v.next].name))
             << "NextIteration input has no value";
    }
    if (y.getType() != types[k]) {
      if (!tensor::CastOp::areCastCompatible(y.getType(), types[k])) {
        return emitError(loc(graph.nodes[v.next].name))
               << "loop variable changes type from " << types[k] << " to "
               << y.getType();
      }
      y = tensor::CastOp::create(builder, at, types[k], y);
    }
    yields.push_back(y);
  }
  scf::YieldOp::create(builder, at, yields);
  return success();
}

LogicalResult GraphDefImporter::importLoop(StringRef frame,
                                           llvm::ArrayRef<unsigned> order) {
  LoopFrame frameNodes;
  frameNodes.frame = frame;
  if (failed(findLoopVars(frameNodes, order))) {
    return failure();
  }
  const auto &vars = frameNodes.vars;

  // Values from outside: the Enters' inputs (constant Enters are captured).
  llvm::SmallVector<Value> inits;
  for (const LoopVar &v : vars) {
    const GraphNode &enter = graph.nodes[v.enter];
    Value init =
        enter.inputs.empty() || enter.inputs[0].producer < 0
            ? Value()
            : values.lookup(graph.nodes[enter.inputs[0].producer].name + ":" +
                            std::to_string(enter.inputs[0].index));
    if (!init) {
      return emitError(loc(enter.name)) << "loop input has no value";
    }
    inits.push_back(init);
  }
  llvm::StringMap<Value> outer = values;
  bindEnters(frameNodes, outer);
  findLoopRegions(frameNodes);

  Location at = loc(frame);
  auto build = [&](llvm::ArrayRef<Type> types) -> FailureOr<scf::WhileOp> {
    llvm::SmallVector<Value> castInits;
    for (auto [init, type] : llvm::zip(inits, types)) {
      castInits.push_back(
          init.getType() == type
              ? init
              : tensor::CastOp::create(builder, at, type, init).getResult());
    }
    auto loop = scf::WhileOp::create(builder, at, types, castInits);
    if (succeeded(fillLoop(frameNodes, order, loop, types))) {
      return loop;
    }
    loop->erase();
    for (Value v : castInits) {
      if (auto cast = v.getDefiningOp<tensor::CastOp>();
          cast && cast->use_empty()) {
        cast->erase();
      }
    }
    return failure();
  };

  // First with the initial types; a variable whose shape changes from one
  // iteration to the next (a growing concat) gets those dimensions dynamic.
  llvm::SmallVector<Type> types;
  for (Value v : inits) {
    types.push_back(v.getType());
  }
  FailureOr<scf::WhileOp> loop;
  {
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    loop = build(types);
  }
  bool retry = failed(loop);
  if (succeeded(loop)) {
    auto yield = cast<scf::YieldOp>(loop->getAfter().front().getTerminator());
    for (auto [k, y] : llvm::enumerate(yield.getOperands())) {
      if (auto cast = y.getDefiningOp<tensor::CastOp>()) {
        retry |= cast.getSource().getType() != types[k];
      }
    }
  }
  if (retry) {
    if (succeeded(loop)) {
      (*loop)->erase();
    }
    for (Type &t : types) {
      if (auto ranked = dyn_cast<RankedTensorType>(t)) {
        t = RankedTensorType::get(
            llvm::SmallVector<int64_t>(ranked.getRank(), ShapedType::kDynamic),
            ranked.getElementType());
      }
    }
    values = outer;
    bindEnters(frameNodes, outer);
    loop = build(types);
    if (failed(loop)) {
      return failure();
    }
  }
  (*loop)->setAttr("graph.frame", builder.getStringAttr(frame));
  values = outer;
  for (auto [k, v] : llvm::enumerate(vars)) {
    if (v.exit >= 0) {
      values[graph.nodes[v.exit].name + ":0"] = (*loop)->getResult(k);
    }
  }
  return success();
}

} // namespace graphc::import
