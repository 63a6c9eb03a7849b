//===- Partitions.cpp - partitioned TensorFlow graphs: _Send/_Recv pairs --===//
//
// TensorFlow's graph partitioner cuts every edge between devices into a
// _Send on the producer's device and a _Recv on the consumer's, which meet at
// a rendezvous key built from their attributes (Rendezvous::CreateKey):
//
//   SEND_DEVICE;INCARNATION;RECV_DEVICE;TENSOR_NAME;FRAME:ITER
//
// with the incarnation as 16 lower-case hex digits and "0:0" outside loops.
// A graph holding both ends of such a pair is imported as the job it already
// is: the module carries `dist.cluster`, each task's nodes become one
// `dist.task` (symbol JOB + index, as dist-partition names them), and the
// pair becomes `dist.send` / `dist.recv` under TensorFlow's key. A pair
// between two devices of one task (CPU to GPU) is a plain edge. A lone
// _Send or _Recv, and the client_terminated ones (a fetch or a feed), stay
// results and arguments of @main (GraphDefImporter.cpp).
//
//===----------------------------------------------------------------------===//

#include "GraphDefImporterImpl.h"

#include "dist/DistDialect.h"
#include "dist/DistOps.h"

#include "llvm/Support/FormatVariadic.h"

namespace graphc::import {

/// TensorFlow's rendezvous key of a _Send or _Recv (both carry the same
/// attributes), or none when it lacks one or the client is the other end.
static std::optional<std::string> rendezvousKey(const tensorflow::NodeDef &nd) {
  auto get = [&](StringRef name) -> const tensorflow::AttrValue * {
    auto it = nd.attr().find(name.str());
    return it == nd.attr().end() ? nullptr : &it->second;
  };
  const tensorflow::AttrValue *client = get("client_terminated");
  const tensorflow::AttrValue *tensor = get("tensor_name");
  const tensorflow::AttrValue *from = get("send_device");
  const tensorflow::AttrValue *to = get("recv_device");
  const tensorflow::AttrValue *incarnation = get("send_device_incarnation");
  if ((client && client->b()) || !tensor || !from || !to) {
    return std::nullopt;
  }
  return llvm::formatv("{0};{1:x-16};{2};{3};0:0", from->s(),
                       uint64_t(incarnation ? incarnation->i() : 0), to->s(),
                       tensor->s())
      .str();
}

LogicalResult GraphDefImporter::pairSendsAndRecvs() {
  llvm::StringMap<unsigned> sendOf;
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (node.op == "_Send") {
      if (std::optional<std::string> key = rendezvousKey(def(node))) {
        if (!sendOf.try_emplace(*key, index).second) {
          return emitError(loc(node.name))
                 << "two _Send nodes, '" << graph.nodes[sendOf[*key]].name
                 << "' and '" << node.name << "', use rendezvous key '" << *key
                 << "'";
        }
      }
    }
  }
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (node.op != "_Recv") {
      continue;
    }
    std::optional<std::string> key = rendezvousKey(def(node));
    auto send = key ? sendOf.find(*key) : sendOf.end();
    if (send == sendOf.end()) {
      continue;
    }
    Rendezvous pair{send->second, unsigned(index), *key, {}, {}};
    for (auto [end, spec] :
         {std::pair(&pair.from, attr(def(node), "send_device")->s()),
          std::pair(&pair.to, attr(def(node), "recv_device")->s())}) {
      std::string error;
      auto device = dist::DeviceAttr::fromString(ctx, spec, error);
      if (failed(device)) {
        return emitError(loc(node.name))
               << "bad device '" << spec << "': " << error;
      }
      *end = device->getTaskAttr();
    }
    rendezvous[graph.nodes[pair.send].name] = pair;
    rendezvous[node.name] = pair;
    // The _Recv is ordered after its _Send (its type is the sent value's);
    // run() takes this edge out again once the order is known.
    graph.nodes[index].controlInputs.push_back(pair.send);
    partitioned |= pair.from != pair.to;
  }
  return success();
}

void GraphDefImporter::dropRendezvousEdges() {
  for (auto &entry : rendezvous) {
    const Rendezvous &pair = entry.second;
    if (entry.first() == graph.nodes[pair.recv].name) {
      graph.nodes[pair.recv].controlInputs.pop_back();
    }
  }
}

LogicalResult GraphDefImporter::importRendezvous(const GraphNode &node,
                                                 Location at,
                                                 llvm::ArrayRef<Value> in,
                                                 Value &result) {
  const Rendezvous &pair = rendezvous.find(node.name)->second;
  if (!frameOf[graph.nodeByName.lookup(node.name)].empty()) {
    return emitError(at) << node.op
                         << " inside a while loop: its rendezvous key "
                            "changes with each iteration, which graphc does "
                            "not model";
  }
  bool isSend = node.op == "_Send";
  if (isSend) {
    if (in.size() != 1 || !in[0]) {
      return emitError(at) << "_Send takes one tensor";
    }
    sentValues[pair.key] = in[0];
  }
  Value sent = sentValues.lookup(pair.key);
  if (!sent) {
    return emitError(at) << "_Recv '" << node.name << "': its _Send '"
                         << graph.nodes[pair.send].name << "' was not imported";
  }
  if (pair.from == pair.to) {
    // Two devices of one task: the pair is a copy, the _Recv the value.
    result = isSend ? Value() : sent;
    return success();
  }
  OperationState state(at, isSend ? "dist.send" : "dist.recv");
  state.addAttribute("peer", isSend ? pair.to : pair.from);
  state.addAttribute("key", builder.getStringAttr(pair.key));
  if (isSend) {
    state.addOperands(in[0]);
  } else {
    state.addTypes(sent.getType());
  }
  Operation *op = builder.create(state);
  if (failed(annotate(op, node))) {
    return failure();
  }
  result = isSend ? Value() : op->getResult(0);
  return success();
}

LogicalResult GraphDefImporter::openTasks(llvm::ArrayRef<unsigned> order,
                                          const std::vector<bool> &keep) {
  nodeTask.assign(graph.nodes.size(), -1);
  std::map<std::string, unsigned> byDevice; // sorted: a stable task order
  llvm::SmallVector<std::pair<unsigned, dist::DeviceAttr>> found;
  for (unsigned index : order) {
    const GraphNode &node = graph.nodes[index];
    if (!keep[index]) {
      continue;
    }
    std::string error;
    auto device = dist::DeviceAttr::fromString(ctx, node.device, error);
    if (node.device.empty() || failed(device) ||
        !device->getTaskAttr().namesTask()) {
      return emitError(loc(node.name))
             << "node '" << node.name << "' of a partitioned graph (it has "
             << "_Send/_Recv pairs between tasks) names no task: device '"
             << node.device << "'; every node needs /job:NAME/task:N";
    }
    found.push_back({index, device->getTaskAttr()});
    byDevice.try_emplace(device->getTaskAttr().str(), 0);
  }
  // The cluster: each job with as many tasks as its highest index + 1.
  std::map<std::string, int64_t> jobs;
  for (auto &[name, unused] : byDevice) {
    std::string error;
    auto task = *dist::DeviceAttr::fromString(ctx, name, error);
    int64_t &count = jobs[task.getJob().str()];
    count = std::max(count, *task.getTask() + 1);
  }
  auto cpu =
      dist::DeviceAttr::get(ctx, "", std::nullopt, std::nullopt, "CPU", 0);
  llvm::SmallVector<dist::JobAttr> jobAttrs;
  for (auto &[job, count] : jobs) {
    jobAttrs.push_back(dist::JobAttr::get(ctx, job, count, {cpu}));
  }
  module->setAttr(dist::DistDialect::kClusterAttrName,
                  dist::ClusterAttr::get(ctx, jobAttrs));
  for (auto &[name, slot] : byDevice) {
    std::string error;
    auto task = *dist::DeviceAttr::fromString(ctx, name, error);
    slot = tasks.size();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(module.getBody());
    std::string symbol = task.getJob().str() + std::to_string(*task.getTask());
    auto f = func::FuncOp::create(builder, module.getLoc(), symbol,
                                  builder.getFunctionType({}, {}));
    f.addEntryBlock();
    tasks.push_back({task, f});
  }
  for (auto [index, task] : found) {
    nodeTask[index] = byDevice[task.str()];
  }
  return success();
}

void GraphDefImporter::enterTaskOf(unsigned index) {
  if (tasks.empty() || nodeTask[index] < 0) {
    return;
  }
  func = tasks[nodeTask[index]].body;
  builder.setInsertionPointToEnd(&func.getBody().front());
}

LogicalResult GraphDefImporter::closeTasks(
    llvm::ArrayRef<std::pair<unsigned, unsigned>> outputs) {
  for (auto [slot, task] : llvm::enumerate(tasks)) {
    func::FuncOp f = task.body;
    llvm::SmallVector<Value> results;
    llvm::SmallVector<Attribute> resultAttrs;
    auto addResult = [&](Value v, StringRef name, StringRef device) {
      results.push_back(v);
      llvm::SmallVector<NamedAttribute> attrs = {
          builder.getNamedAttr("graph.name", builder.getStringAttr(name))};
      std::string error;
      if (auto d = dist::DeviceAttr::fromString(ctx, device, error);
          !device.empty() && succeeded(d)) {
        attrs.push_back(
            builder.getNamedAttr(dist::DistDialect::kDeviceAttrName, *d));
      }
      resultAttrs.push_back(builder.getDictionaryAttr(attrs));
    };
    for (auto [node, index] : outputs) {
      std::string key = graph.nodes[node].name + ":" + std::to_string(index);
      if (nodeTask[node] == int(slot) && values.lookup(key)) {
        addResult(values.lookup(key), index == 0 ? graph.nodes[node].name : key,
                  graph.nodes[node].device);
      }
    }
    for (const Send &send : sends) {
      auto it = graph.nodeByName.find(send.node);
      if (it != graph.nodeByName.end() && nodeTask[it->second] == int(slot)) {
        addResult(send.value, send.node, send.device);
      }
    }
    Block &body = f.getBody().front();
    builder.setInsertionPointToEnd(&body);
    dist::ReturnOp::create(builder, f.getLoc(), results);
    builder.setInsertionPoint(f);
    auto op = dist::TaskOp::create(
        builder, f.getLoc(), f.getSymName(), task.device,
        builder.getFunctionType(body.getArgumentTypes(),
                                TypeRange(ValueRange(results))));
    op.getBody().takeBody(f.getBody());
    op.setArgAttrsAttr(f.getArgAttrsAttr());
    op.setResAttrsAttr(builder.getArrayAttr(resultAttrs));
    f.erase();
  }
  return success();
}

LogicalResult GraphDefImporter::translatePartitions(
    const GraphNode &node, const tensorflow::NodeDef &nd, Location at,
    StringRef op, llvm::ArrayRef<Value> in, Value &result,
    llvm::SmallVectorImpl<Value> &results) {
  if ((op == "_Send" || op == "_Recv") && rendezvous.count(node.name)) {
    if (failed(importRendezvous(node, at, in, result))) {
      return failure();
    }
    if (result) {
      values[node.name + ":0"] = result;
    }
    return success();
  } else if (op == "_Send" || op == "_Recv") {
    // Outside a dist.task a partition boundary is an edge of the function:
    // _Send's tensor becomes a result, _Recv's an argument (both named by
    // tensor_name).
    const tensorflow::AttrValue *tensorName = attr(nd, "tensor_name");
    std::string name = tensorName ? tensorName->s() : node.name;
    if (op == "_Send") {
      if (failed(needInputs(in, at, op, 1))) {
        return failure();
      }
      sends.push_back({in[0], node.name, name, nd.device()});
      if (!nd.device().empty()) {
        placed.insert(node.name);
      }
      return success();
    }
    const tensorflow::AttrValue *type = attr(nd, "tensor_type");
    Type element = type ? convertTFType(ctx, type->type()) : Type();
    if (!element) {
      return emitError(at) << "_Recv has no supported tensor_type";
    }
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, UnrankedTensorType::get(element),
            builder.getDictionaryAttr(
                {named("graph.name", builder.getStringAttr(node.name)),
                 named("graph.tensor_name", builder.getStringAttr(name))}),
            at))) {
      return failure();
    }
    values[node.name + ":0"] = func.getArgument(index);
    return success();
  } else {
    return notTranslated(at, op, "TF/Partitions.cpp");
  }
  recordResults = true;
  return success();
}

} // namespace graphc::import
