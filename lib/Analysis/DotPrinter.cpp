//===- DotPrinter.cpp - a partitioned module as a Graphviz graph
//------------===//

#include "graphc/Analysis/DistReport.h"

#include "dist/DistOps.h"
#include "graph/GraphOps.h"
#include "graph/GraphTypeUtils.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::dist;

namespace {

std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string typeLabel(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  std::optional<int64_t> bytes = graph::getStaticSizeInBytes(type);
  os << "\\n"
     << (bytes ? std::to_string(*bytes) : std::string("?")) << " bytes";
  return s;
}

bool isCommunication(Operation *op) {
  return isa<SendOp, RecvOp, CollectiveOpInterface>(op);
}

class DotWriter {
public:
  DotWriter(raw_ostream &os, const DotOptions &options)
      : os(os), options(options) {}

  void write(ModuleOp module) {
    os << "digraph job {\n  compound=true;\n  rankdir=TB;\n"
       << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
    unsigned ti = 0;
    for (TaskOp task : module.getOps<TaskOp>()) {
      writeTask(task, ti++);
    }
    // Cut edges: each send to the recv with its key.
    for (auto &[key, send] : sends) {
      auto it = recvs.find(key);
      if (it == recvs.end()) {
        continue;
      }
      os << llvm::formatv("  {0} -> {1} [color=red, penwidth=2, "
                          "label=\"{2}\\n{3}\"];\n",
                          send.first, it->second, escape(key), send.second);
    }
    // One node per collective, joined to every member's instance.
    unsigned ci = 0;
    for (auto &entry : collectives) {
      std::string node = "coll" + std::to_string(ci++);
      os << llvm::formatv("  {0} [shape=hexagon, style=filled, "
                          "fillcolor=lightyellow, label=\"{1}\"];\n",
                          node, entry.second.label);
      for (const std::string &member : entry.second.instances) {
        os << llvm::formatv("  {0} -> {1} [dir=both, style=dashed, "
                            "color=blue];\n",
                            member, node);
      }
    }
    os << "}\n";
  }

private:
  struct Collective {
    std::string label;
    std::vector<std::string> instances;
  };

  void writeTask(TaskOp task, unsigned ti) {
    std::string prefix = "t" + std::to_string(ti) + "_";
    os << llvm::formatv("  subgraph cluster_{0} {\n    label=\"{1}\\n{2}\";\n"
                        "    style=rounded;\n",
                        ti, escape(task.getSymName()),
                        escape(task.getDevice().str()));
    Block &body = task.getBody().front();
    unsigned computeOps = 0;
    for (Operation &op : body) {
      if (!isCommunication(&op) && !isa<ReturnOp>(op)) {
        ++computeOps;
      }
    }
    if (computeOps > options.maxOpsPerTask) {
      writeCondensed(body, prefix);
    } else {
      writeFull(body, prefix);
    }
    os << "  }\n";
  }

  // Communication ops get the same nodes in both views.
  void writeCommunication(Operation &op, const std::string &node) {
    if (auto send = dyn_cast<SendOp>(op)) {
      os << llvm::formatv("    {0} [shape=cds, label=\"send {1}\"];\n", node,
                          escape(send.getKey()));
      sends[send.getKey().str()] = {node, typeLabel(send.getInput().getType())};
    } else if (auto recv = dyn_cast<RecvOp>(op)) {
      os << llvm::formatv("    {0} [shape=cds, label=\"recv {1}\"];\n", node,
                          escape(recv.getKey()));
      recvs[recv.getKey().str()] = node;
    } else if (auto coll = dyn_cast<CollectiveOpInterface>(op)) {
      std::string kind = op.getName().stripDialect().str();
      os << llvm::formatv("    {0} [shape=octagon, label=\"{1} {2}\"];\n", node,
                          kind, escape(coll.getKey()));
      Collective &c = collectives[coll.getKey().str()];
      if (c.label.empty()) {
        std::string group;
        for (Attribute m : coll.getGroup()) {
          group += (group.empty() ? "" : ", ") +
                   cast<DeviceAttr>(m).getTaskAttr().str();
        }
        c.label =
            llvm::formatv("{0} {1}\\n[{2}]\\n{3}", kind, escape(coll.getKey()),
                          escape(group), typeLabel(coll.getInput().getType()))
                .str();
      }
      c.instances.push_back(node);
    }
  }

  void writeFull(Block &body, const std::string &prefix) {
    DenseMap<Value, std::string> nodeOf;
    for (BlockArgument arg : body.getArguments()) {
      std::string node = prefix + "arg" + std::to_string(arg.getArgNumber());
      auto task = cast<TaskOp>(body.getParentOp());
      auto name =
          task.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "graph.name");
      os << llvm::formatv("    {0} [shape=ellipse, label=\"{1}\\n{2}\"];\n",
                          node,
                          name ? escape(name.getValue())
                               : "%arg" + std::to_string(arg.getArgNumber()),
                          typeLabel(arg.getType()));
      nodeOf[arg] = node;
    }
    unsigned i = 0;
    for (Operation &op : body) {
      std::string node = prefix + "op" + std::to_string(i++);
      if (isCommunication(&op)) {
        writeCommunication(op, node);
      } else {
        os << llvm::formatv("    {0} [label=\"{1}\"];\n", node,
                            escape(op.getName().getStringRef()));
      }
      for (Value operand : op.getOperands()) {
        auto it = nodeOf.find(operand);
        if (it != nodeOf.end()) {
          os << llvm::formatv("    {0} -> {1};\n", it->second, node);
        }
      }
      for (Value result : op.getResults()) {
        nodeOf[result] = node;
      }
    }
  }

  // One node per run of compute ops between communication ops, chained in
  // program order: a large task reads as its communication skeleton.
  void writeCondensed(Block &body, const std::string &prefix) {
    std::string previous;
    unsigned i = 0, run = 0;
    int64_t flops = 0;
    bool flopsKnown = true;
    auto chain = [&](const std::string &node) {
      if (!previous.empty()) {
        os << llvm::formatv("    {0} -> {1};\n", previous, node);
      }
      previous = node;
    };
    auto flush = [&]() {
      if (!run) {
        return;
      }
      std::string node = prefix + "run" + std::to_string(i++);
      os << llvm::formatv("    {0} [label=\"{1} op{2}\\n{3} flops\"];\n", node,
                          run, run == 1 ? "" : "s",
                          flopsKnown ? std::to_string(flops) : "?");
      chain(node);
      run = 0;
      flops = 0;
      flopsKnown = true;
    };
    for (Operation &op : body) {
      if (isa<ReturnOp>(op)) {
        continue;
      }
      if (!isCommunication(&op)) {
        ++run;
        op.walk([&](graph::CostOpInterface c) {
          if (std::optional<int64_t> f = c.getFlops()) {
            flops += *f;
          } else {
            flopsKnown = false;
          }
        });
        continue;
      }
      flush();
      std::string node = prefix + "op" + std::to_string(i++);
      writeCommunication(op, node);
      chain(node);
    }
    flush();
  }

  raw_ostream &os;
  const DotOptions &options;
  // Ordered by key so the output does not depend on hashing.
  std::map<std::string, std::pair<std::string, std::string>> sends;
  std::map<std::string, std::string> recvs;
  std::map<std::string, Collective> collectives;
};

} // namespace

void graphc::printDistDot(ModuleOp module, raw_ostream &os,
                          const DotOptions &options) {
  DotWriter(os, options).write(module);
}
