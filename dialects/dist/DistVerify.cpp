//===- DistVerify.cpp - module-wide checks of dist communication ----------===//
//
// Pairs every dist.send with its dist.recv and every collective instance with
// the instances of the other group members, across the tasks of a module.
// TaskOp::verifySymbolUses runs this once per module (see the dialect
// description for why it runs there).
//
//===----------------------------------------------------------------------===//

#include "dist/DistOps.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace graphc::dist;

namespace {
/// A communication op and the task it runs in.
struct Placed {
  Operation *op;
  DeviceAttr task;
};

/// The send and recv ops, in module order, that use one rendezvous key.
struct Rendezvous {
  SmallVector<Placed, 1> sends;
  SmallVector<Placed, 1> recvs;
};
} // namespace

/// Attaches a note pointing at `other` to `diag`.
static InFlightDiagnostic &noteAt(InFlightDiagnostic &diag, Operation *other,
                                  StringRef what) {
  diag.attachNote(other->getLoc()) << what;
  return diag;
}

static LogicalResult verifyRendezvous(StringRef key, const Rendezvous &r) {
  for (const SmallVector<Placed, 1> *ops : {&r.sends, &r.recvs}) {
    if (ops->size() > 1) {
      InFlightDiagnostic diag = (*ops)[1].op->emitOpError()
                                << "rendezvous key \"" << key
                                << "\" is already used by another "
                                << (*ops)[0].op->getName();
      noteAt(diag, (*ops)[0].op, "first use here");
      return failure();
    }
  }
  if (r.recvs.empty()) {
    return r.sends[0].op->emitOpError()
           << "has no matching dist.recv with key \"" << key << "\"";
  }
  if (r.sends.empty()) {
    return r.recvs[0].op->emitOpError()
           << "has no matching dist.send with key \"" << key << "\"";
  }

  auto send = cast<SendOp>(r.sends[0].op);
  auto recv = cast<RecvOp>(r.recvs[0].op);
  DeviceAttr sender = r.sends[0].task, receiver = r.recvs[0].task;
  if (send.getPeer().getTaskAttr() != receiver) {
    InFlightDiagnostic diag = send.emitOpError()
                              << "sends to '" << send.getPeer().str()
                              << "' but the dist.recv with key \"" << key
                              << "\" is in task '" << receiver.str() << "'";
    noteAt(diag, recv, "dist.recv here");
    return failure();
  }
  if (recv.getPeer().getTaskAttr() != sender) {
    InFlightDiagnostic diag = recv.emitOpError()
                              << "receives from '" << recv.getPeer().str()
                              << "' but the dist.send with key \"" << key
                              << "\" is in task '" << sender.str() << "'";
    noteAt(diag, send, "dist.send here");
    return failure();
  }
  if (send.getInput().getType() != recv.getType()) {
    InFlightDiagnostic diag = recv.emitOpError()
                              << "receives " << recv.getType()
                              << " but the dist.send with key \"" << key
                              << "\" sends " << send.getInput().getType();
    noteAt(diag, send, "dist.send here");
    return failure();
  }
  return success();
}

/// Checks that every instance of the collective `key` agrees with the first,
/// that no task runs two, and that every group member runs one.
static LogicalResult verifyCollectiveKey(StringRef key,
                                         ArrayRef<Placed> instances) {
  Placed first = instances.front();
  auto firstOp = cast<CollectiveOpInterface>(first.op);
  for (size_t i = 1, e = instances.size(); i < e; ++i) {
    const Placed &inst = instances[i];
    auto fail = [&](const Twine &what) {
      InFlightDiagnostic diag = inst.op->emitOpError()
                                << what << " the " << first.op->getName()
                                << " with key \"" << key << "\" in task '"
                                << first.task.str() << "'";
      noteAt(diag, first.op, "first instance here");
      return failure();
    };
    auto earlier = llvm::find_if(instances.take_front(i), [&](const Placed &p) {
      return p.task == inst.task;
    });
    if (earlier != instances.take_front(i).end()) {
      InFlightDiagnostic diag = inst.op->emitOpError()
                                << "collective key \"" << key
                                << "\" is used twice in task '"
                                << inst.task.str() << "'";
      noteAt(diag, earlier->op, "first use here");
      return failure();
    }
    if (inst.op->getName() != first.op->getName()) {
      return fail("is not the same kind of collective as");
    }
    auto op = cast<CollectiveOpInterface>(inst.op);
    if (op.getGroup() != firstOp.getGroup()) {
      return fail("has a different group than");
    }
    if (op.getInput().getType() != firstOp.getInput().getType() ||
        op.getResult().getType() != firstOp.getResult().getType()) {
      return fail("has different types than");
    }
    // Inherent attributes only (reduction, axes, root): a discardable
    // attribute such as a placement may differ between instances.
    if (inst.op->getPropertiesAsAttribute() !=
        first.op->getPropertiesAsAttribute()) {
      return fail("has different attributes than");
    }
  }
  for (DeviceAttr member : firstOp.getGroup().getAsRange<DeviceAttr>()) {
    DeviceAttr task = member.getTaskAttr();
    if (llvm::none_of(instances,
                      [&](const Placed &p) { return p.task == task; })) {
      return first.op->emitOpError()
             << "group member '" << task.str() << "' runs no "
             << first.op->getName() << " with key \"" << key << "\"";
    }
  }
  return success();
}

LogicalResult graphc::dist::verifyCommunication(ModuleOp module) {
  llvm::DenseMap<DeviceAttr, TaskOp> tasks;
  // MapVector: diagnose keys in module order, so the first error is stable.
  llvm::MapVector<StringRef, Rendezvous> rendezvous;
  llvm::MapVector<StringRef, SmallVector<Placed, 4>> collectives;
  for (TaskOp task : module.getOps<TaskOp>()) {
    DeviceAttr device = task.getDevice().getTaskAttr();
    auto [it, inserted] = tasks.try_emplace(device, task);
    if (!inserted) {
      InFlightDiagnostic diag = task.emitOpError()
                                << "runs on task '" << device.str()
                                << "' like @" << it->second.getSymName();
      noteAt(diag, it->second, "other task program here");
      return failure();
    }
    task.walk([&](Operation *op) {
      if (auto send = dyn_cast<SendOp>(op)) {
        rendezvous[send.getKey()].sends.push_back({op, device});
      } else if (auto recv = dyn_cast<RecvOp>(op)) {
        rendezvous[recv.getKey()].recvs.push_back({op, device});
      } else if (auto collective = dyn_cast<CollectiveOpInterface>(op)) {
        collectives[collective.getKey()].push_back({op, device});
      }
    });
  }

  for (auto &[key, r] : rendezvous) {
    auto it = collectives.find(key);
    if (it != collectives.end()) {
      Operation *p2p = r.sends.empty() ? r.recvs[0].op : r.sends[0].op;
      InFlightDiagnostic diag = p2p->emitOpError()
                                << "key \"" << key
                                << "\" is also used by a collective";
      noteAt(diag, it->second.front().op, "collective here");
      return failure();
    }
    if (failed(verifyRendezvous(key, r))) {
      return failure();
    }
  }
  for (auto &[key, instances] : collectives) {
    if (failed(verifyCollectiveKey(key, instances))) {
      return failure();
    }
  }
  return success();
}
