//===- DistAttrs.td - dist dialect attributes ----------------*- tablegen -*-===//
//
// Device and cluster attributes of the dist dialect.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_DIST_DISTATTRS_TD
#define GRAPHC_DIALECTS_DIST_DISTATTRS_TD

include "dist/DistBase.td"

class Dist_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Dist_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

def Dist_DeviceAttr : Dist_Attr<"Device", "device"> {
  let summary = "A TensorFlow device name, fully or partially specified";
  let description = [{
    A device in TensorFlow's naming scheme,
    `/job:NAME/replica:N/task:N/device:TYPE:N`. Every field is optional, so
    the attribute also expresses placement *requests* (`/job:ps`,
    `/device:GPU:0`) and task names (`/job:worker/task:1`).

    Accepted input:

    * fields in any order, each at most once: `job:NAME` (a letter, then
      letters, digits or `_`), `replica:N`, `task:N`, `device:TYPE:N` or
      `device:TYPE` (TYPE a letter, then letters, digits or `_`, folded to
      upper case);
    * the legacy device forms `cpu:N` and `gpu:N`;
    * `*` for any value, which leaves the field unset;
    * the empty string, which is the unconstrained device.

    The attribute prints the canonical form: fields in the order job, replica,
    task, device; `/device:CPU:*` when only the device type is known.

    Example:

    ```mlir
    #dist.device<"/job:worker/replica:0/task:1/device:GPU:0">
    #dist.device<"/job:ps">              // any device of any ps task
    #dist.device<"/cpu:0">               // prints as "/device:CPU:0"
    ```
  }];
  let parameters = (ins
    StringRefParameter<"job name; empty when unset", [{""}]>:$job,
    OptionalParameter<"std::optional<int64_t>", "replica index">:$replica,
    OptionalParameter<"std::optional<int64_t>", "task index">:$task,
    StringRefParameter<"upper-case device type; empty when unset", [{""}]>:$deviceType,
    OptionalParameter<"std::optional<int64_t>", "device index">:$deviceIndex
  );
  let builders = [
    AttrBuilder<(ins "const ::graphc::dist::DeviceSpec &":$spec), [{
      return $_get($_ctxt, spec.job, spec.replica, spec.task, spec.deviceType,
                   spec.deviceIndex);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses a TensorFlow device string (for importers). On failure returns
    /// failure and sets `error` to a message naming the offending field.
    static ::mlir::FailureOr<DeviceAttr>
    fromString(::mlir::MLIRContext *context, ::llvm::StringRef device,
               std::string &error);

    /// The fields as a plain struct.
    DeviceSpec getSpec() const;
    /// The canonical device string.
    std::string str() const;

    /// True when job, replica, task, device type and index are all set.
    bool isFullySpecified() const;
    /// True when job and task are set and no device type or index is: the
    /// attribute names a task.
    bool namesTask() const;
    /// True when every field set in both attributes has the same value, i.e.
    /// some device satisfies both (TensorFlow's `AreCompatibleDevNames`).
    bool isCompatibleWith(DeviceAttr other) const;
    /// True when every field set in `spec` is set here with the same value
    /// (TensorFlow's `IsSpecification(spec, this)`).
    bool matches(DeviceAttr spec) const;
    /// The device that satisfies both attributes: the union of their fields.
    /// Fails, and describes the conflicting field in `error` when given, if
    /// the two are not compatible.
    ::mlir::FailureOr<DeviceAttr> mergedWith(DeviceAttr other,
                                             std::string *error = nullptr) const;
    /// The task this device belongs to (job, replica, task; device fields
    /// dropped), with replica 0 left implicit. Two devices with the same job,
    /// task and replica (unset meaning 0) have the same task attribute.
    DeviceAttr getTaskAttr() const;
  }];
}

//===----------------------------------------------------------------------===//
// JobAttr
//===----------------------------------------------------------------------===//

def Dist_JobAttr : Dist_Attr<"Job", "job"> {
  let summary = "One job of a cluster: its task count and per-task devices";
  let description = [{
    A job of a `#dist.cluster`: a name, the number of tasks, and the devices
    each task has (`TYPE:N`). When the device list is omitted, each task has
    one `CPU:0`. It mostly appears inside `#dist.cluster`, which uses the same
    syntax for each of its jobs.

    Example:

    ```mlir
    #dist.job<worker = 2 x [CPU:0, GPU:0, GPU:1]>
    #dist.job<ps = 1>   // prints as #dist.job<ps = 1 x [CPU:0]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"job name">:$name,
    "int64_t":$numTasks,
    ArrayRefParameter<"DeviceAttr", "devices of each task (type and index)">:$devices
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Prints `name = N x [TYPE:N, ...]`, the syntax shared with ClusterAttr.
    void printBody(::mlir::AsmPrinter &printer) const;
    /// Parses `name = N (x [TYPE:N, ...])?`.
    static JobAttr parseBody(::mlir::AsmParser &parser);
  }];
}

//===----------------------------------------------------------------------===//
// ClusterAttr
//===----------------------------------------------------------------------===//

def Dist_ClusterAttr : Dist_Attr<"Cluster", "cluster"> {
  let summary = "The jobs, tasks and devices a distributed job runs on";
  let description = [{
    A cluster in the sense of TensorFlow's `ClusterSpec`: named jobs, each
    with a number of tasks, each task with the same list of devices. Tasks
    are `/job:NAME/task:I` for I in [0, tasks); devices are
    `/job:NAME/replica:0/task:I/device:TYPE:N`. Jobs keep the order they are
    written in, which is the order `getTaskAttrs` and `getDevices` enumerate
    them in. Job names are unique and every job has at least one task.

    Example:

    ```mlir
    #dist.cluster<{worker = 2 x [CPU:0, GPU:0], ps = 1}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"JobAttr", "jobs">:$jobs);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The job called `name`, or null.
    JobAttr getJob(::llvm::StringRef name) const;
    /// The total number of tasks over all jobs.
    int64_t getNumTasks() const;
    /// Every task, `/job:NAME/task:I`, job by job.
    ::llvm::SmallVector<DeviceAttr> getTaskAttrs() const;
    /// Every device, fully specified, task by task.
    ::llvm::SmallVector<DeviceAttr> getDevices() const;
    /// True when some device of the cluster matches `spec` (see
    /// DeviceAttr::matches): `/job:ps` is inside a cluster with a ps job,
    /// `/job:worker/task:3` is not inside one with 2 worker tasks.
    bool contains(DeviceAttr spec) const;
  }];
}

#endif // GRAPHC_DIALECTS_DIST_DISTATTRS_TD
