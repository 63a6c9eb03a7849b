//===- DistOps.td - dist dialect ops -------------------------*- tablegen -*-===//
//
// Task programs, point-to-point send/recv and collectives.
//
//===----------------------------------------------------------------------===//

#ifndef GRAPHC_DIALECTS_DIST_DISTOPS_TD
#define GRAPHC_DIALECTS_DIST_DISTOPS_TD

include "dist/DistBase.td"
include "dist/DistAttrs.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// A list of tasks, each a `#dist.device` naming a task.
def Dist_DeviceGroupAttr : TypedArrayAttrBase<Dist_DeviceAttr,
                                              "array of #dist.device">;

//===----------------------------------------------------------------------===//
// dist.task
//===----------------------------------------------------------------------===//

def Dist_TaskOp : Dist_Op<"task", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    HasParent<"::mlir::ModuleOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The program one task of the cluster runs";
  let description = [{
    The body is what the task named by `device` (`/job:NAME/task:I`, a task
    of the module's `dist.cluster`) runs each step: it takes the task's
    inputs, computes, talks to the other tasks with `dist.send`, `dist.recv`
    and collectives, and returns its outputs with `dist.return`.

    Why a dedicated op and not `func.func` with a `dist.task` attribute:

    * the task is part of the op's syntax and a required, typed attribute, so
      it cannot be dropped by a pass that rebuilds functions, and every
      communication op finds its own task with one `getParentOfType`;
    * the op can verify, in its own verifier, that it names a task of the
      cluster, and run the module-wide send/recv/collective matching from its
      `verifySymbolUses` once every nested op has verified;
    * a task program is not callable: nothing may `func.call` it, and it must
      have a body. It still implements `FunctionOpInterface` (and so
      `Symbol`), so upstream function passes, printing helpers and the
      symbol table work on it, and `IsolatedFromAbove` so passes may run on
      tasks in parallel.

    Example:

    ```mlir
    dist.task @worker0 on #dist.device<"/job:worker/task:0">
        (%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = dist.all_reduce sum %x group [#dist.device<"/job:worker/task:0">,
          #dist.device<"/job:worker/task:1">] key "grad" : tensor<4xf32> -> tensor<4xf32>
      dist.return %y : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       Dist_DeviceAttr:$device,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::graphc::dist::DeviceAttr":$device,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// FunctionOpInterface / CallableOpInterface.
    ::mlir::Region *getCallableRegion() {
      return getBody().empty() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// A task program always has a body (the verifier checks it), so it is
    /// never a declaration, whatever state a pass leaves it in.
    bool isDeclaration() { return false; }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Dist_ReturnOp : Dist_Op<"return", [
    Pure, HasParent<"TaskOp">, ReturnLike, Terminator]> {
  let summary = "Returns the outputs of a task program";
  let description = [{
    Ends a `dist.task` body; the operand types are the task's result types.

    Example:

    ```mlir
    dist.return %y : tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Point-to-point
//===----------------------------------------------------------------------===//

def Dist_SendOp : Dist_Op<"send", [Dist_CommunicationEffects]> {
  let summary = "Sends a tensor to another task under a rendezvous key";
  let description = [{
    Hands `input` to the task `peer`, where the one `dist.recv` with the same
    `key` receives it. The pair is TensorFlow's Send/Recv on a cut edge. The
    send does not wait for the receiver; the tensor is buffered at the
    rendezvous until the recv takes it.

    ```
      task /job:worker/task:0          task /job:worker/task:1
      +---------------------+          +---------------------+
      | dist.send %x        |  "e0"    | %y = dist.recv      |
      |   to task:1 ------- | -------> |   from task:0       |
      +---------------------+          +---------------------+
    ```

    The enclosing module must hold exactly one `dist.recv` with this key, in
    task `peer`, receiving from this task, of the same type.

    Example:

    ```mlir
    dist.send %x to #dist.device<"/job:worker/task:1"> key "e0" : tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyTensor:$input, Dist_DeviceAttr:$peer, StrAttr:$key);
  let assemblyFormat = [{
    $input `to` custom<Device>($peer) `key` $key attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def Dist_RecvOp : Dist_Op<"recv", [Dist_CommunicationEffects]> {
  let summary = "Receives a tensor from another task under a rendezvous key";
  let description = [{
    Waits for the tensor that the one `dist.send` with the same `key` in task
    `peer` sends to this task, and returns it.

    ```
      task /job:ps/task:0              task /job:worker/task:0
      +---------------------+          +---------------------+
      | dist.send %w        |  "w"     | %w = dist.recv      |
      |   to worker:0 ----- | -------> |   from ps:0         |
      +---------------------+          +---------------------+
    ```

    Example:

    ```mlir
    %w = dist.recv from #dist.device<"/job:ps/task:0"> key "w" : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins Dist_DeviceAttr:$peer, StrAttr:$key);
  let results = (outs AnyTensor:$result);
  let assemblyFormat = [{
    `from` custom<Device>($peer) `key` $key attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

def Dist_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::graphc::dist";
  let description = [{
    A collective over an explicit group of tasks. Every task of `group` runs
    one instance with the same `key`; the instances meet by key.
  }];
  let methods = [
    InterfaceMethod<"The tasks taking part, each a #dist.device naming a task.",
                    "::mlir::ArrayAttr", "getGroup">,
    InterfaceMethod<"The key that pairs the instances in different tasks.",
                    "::llvm::StringRef", "getKey">,
    InterfaceMethod<"This task's contribution.", "::mlir::Value", "getInput">,
    InterfaceMethod<"This task's result.", "::mlir::Value", "getResult">,
  ];
  let verify = [{ return ::graphc::dist::detail::verifyCollective($_op); }];
}

class Dist_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [
        Dist_CommunicationEffects, Dist_CollectiveOpInterface])> {
  dag commonArgs = (ins Dist_DeviceGroupAttr:$group, StrAttr:$key);
  let results = (outs AnyRankedTensor:$result);
  let hasVerifier = 1;
}

def Dist_AllReduceOp : Dist_CollectiveOp<"all_reduce"> {
  let summary = "Combines the tensors of a group elementwise; all get the result";
  let description = [{
    Every member contributes a tensor of the same type; every member gets
    the elementwise `reduction` (sum, mean, max, min or prod) of all of them.
    The result type equals the input type.

    ```
      task:0  [1 2]  ---+                 +--> task:0  [4 6]
                        +-- sum --> [4 6] |
      task:1  [3 4]  ---+                 +--> task:1  [4 6]
    ```

    Example:

    ```mlir
    %g = dist.all_reduce sum %grad group [#dist.device<"/job:worker/task:0">,
        #dist.device<"/job:worker/task:1">] key "grad0"
        : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = !con((ins Dist_ReductionKind:$reduction,
                            AnyRankedTensor:$input), commonArgs);
  let assemblyFormat = [{
    $reduction $input `group` $group `key` $key attr-dict
    `:` type($input) `->` type($result)
  }];
}

def Dist_AllGatherOp : Dist_CollectiveOp<"all_gather"> {
  let summary = "Concatenates the tensors of a group; all get the result";
  let description = [{
    Every member contributes a tensor of the same type; every member gets
    their concatenation along `axis`, in group order. Dimension `axis` of the
    result is the group size times that of the input.

    ```
                   axis 0
      task:0  [1 2]  ---+               +--> task:0  [1 2]
                        +-- concat -->  |            [3 4]
      task:1  [3 4]  ---+               +--> task:1  [1 2]
                                                     [3 4]
    ```

    Example:

    ```mlir
    %all = dist.all_gather %x axis 0 group [#dist.device<"/job:worker/task:0">,
        #dist.device<"/job:worker/task:1">] key "x"
        : tensor<1x2xf32> -> tensor<2x2xf32>
    ```
  }];
  let arguments = !con((ins AnyRankedTensor:$input, I64Attr:$axis),
                       commonArgs);
  let assemblyFormat = [{
    $input `axis` $axis `group` $group `key` $key attr-dict
    `:` type($input) `->` type($result)
  }];
}

def Dist_ReduceScatterOp : Dist_CollectiveOp<"reduce_scatter"> {
  let summary = "Reduces the tensors of a group; member i gets slice i";
  let description = [{
    Combines the members' tensors elementwise with `reduction`, splits the
    result along `axis` into as many equal slices as the group has members,
    and gives slice i to the i-th member of the group. Dimension `axis` of
    the input must be divisible by the group size when it is static.

    ```
      task:0  [1 2 3 4]  ---+                     +--> task:0  [ 6  8]
                            +-- sum --> [6 8 10 12]
      task:1  [5 6 7 8]  ---+                     +--> task:1  [10 12]
    ```

    Example:

    ```mlir
    %s = dist.reduce_scatter sum %g axis 0 group [#dist.device<"/job:worker/task:0">,
        #dist.device<"/job:worker/task:1">] key "g"
        : tensor<4xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = !con((ins Dist_ReductionKind:$reduction,
                            AnyRankedTensor:$input, I64Attr:$axis),
                       commonArgs);
  let assemblyFormat = [{
    $reduction $input `axis` $axis `group` $group `key` $key attr-dict
    `:` type($input) `->` type($result)
  }];
}

def Dist_BroadcastOp : Dist_CollectiveOp<"broadcast"> {
  let summary = "Copies the tensor of the root task to every member";
  let description = [{
    Every member gets the input of the member `root`; the inputs of the
    others only give the type. `root` must be a member of the group. The
    result type equals the input type.

    ```
      task:0 (root) [1 2]  ---+--> task:0  [1 2]
                              +--> task:1  [1 2]
                              +--> task:2  [1 2]
    ```

    Example:

    ```mlir
    %w = dist.broadcast %w0 root #dist.device<"/job:worker/task:0">
        group [#dist.device<"/job:worker/task:0">, #dist.device<"/job:worker/task:1">]
        key "init" : tensor<4xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = !con((ins AnyRankedTensor:$input, Dist_DeviceAttr:$root),
                       commonArgs);
  let assemblyFormat = [{
    $input `root` custom<Device>($root) `group` $group `key` $key attr-dict
    `:` type($input) `->` type($result)
  }];
}

def Dist_AllToAllOp : Dist_CollectiveOp<"all_to_all"> {
  let summary = "Member i sends slice j of its tensor to member j";
  let description = [{
    Each member splits its input along `split_axis` into as many equal slices
    as the group has members and sends slice j to member j; each member
    concatenates the slices it receives, in group order, along `concat_axis`.
    The split dimension must be divisible by the group size when static; the
    result divides it by the group size and multiplies the concat dimension
    by it (both cancel when the axes are equal).

    ```
              split axis 0                      concat axis 0
      task:0  [a0 a1]  -- a0 -> task:0, a1 -> task:1 --> task:0  [a0 b0]
      task:1  [b0 b1]  -- b0 -> task:0, b1 -> task:1 --> task:1  [a1 b1]
    ```

    Example:

    ```mlir
    %t = dist.all_to_all %x split 0 concat 1 group [#dist.device<"/job:worker/task:0">,
        #dist.device<"/job:worker/task:1">] key "a2a"
        : tensor<4x3xf32> -> tensor<2x6xf32>
    ```
  }];
  let arguments = !con((ins AnyRankedTensor:$input, I64Attr:$split_axis,
                            I64Attr:$concat_axis), commonArgs);
  let assemblyFormat = [{
    $input `split` $split_axis `concat` $concat_axis `group` $group `key` $key
    attr-dict `:` type($input) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Cross-replica placeholders (TF-Replicator)
//===----------------------------------------------------------------------===//

class Dist_ReplicaOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

def Dist_ReplicaSplitOp : Dist_ReplicaOp<"replica_split"> {
  let summary = "A replica's slice of a batched value";
  let description = [{
    Inside a function replicated `N` times (`dist.replicas = N` on the
    function), the slice of `input` that this replica works on: `input` cut
    into `N` equal slices along `axis`, slice `r` for replica `r`. The result
    type is the input type with dimension `axis` divided by `N` (the
    function's `dist.replicas` when it has one; otherwise the ratio of the two
    types, which must be a whole number).

    A placeholder written by `dist-place{strategy=replicas}`:
    `dist-partition` materialises it as a slice per replica in the task that
    owns `input` and a send of each other slice to its replica.

    ```
                                    axis 0
      input [x0 x1 x2 x3] --split--> replica 0: [x0 x1]
                                 \-> replica 1: [x2 x3]
    ```

    Example:

    ```mlir
    %xr = dist.replica_split %x axis 0 : tensor<8x784xf32> -> tensor<4x784xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `axis` $axis attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_ReplicaConcatOp : Dist_ReplicaOp<"replica_concat"> {
  let summary = "The replicas' slices joined back into the whole value";
  let description = [{
    Inside a function replicated `N` times, the concatenation along `axis`
    of every replica's `input`, in replica order: the whole batch again. The
    result type is the input type with dimension `axis` multiplied by `N`.

    A placeholder written by `dist-place{strategy=replicas}`:
    `dist-partition` materialises it as a send from each other replica to
    the task that owns the result, and a `graph.concat` there.

    ```
      replica 0: [y0 y1] --+                 axis 0
                           +--concat--> [y0 y1 y2 y3]
      replica 1: [y2 y3] --+
    ```

    Example:

    ```mlir
    %y = dist.replica_concat %yr axis 0 : tensor<4x10xf32> -> tensor<8x10xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `axis` $axis attr-dict `:` type($input) `->` type($result)
  }];
}

def Dist_ReplicaAllReduceOp : Dist_ReplicaOp<"replica_all_reduce",
                                             [AllTypesMatch<["input", "result"]>]> {
  let summary = "A value that every replica must agree on";
  let description = [{
    Inside a replicated function, the elementwise `reduction` of `input` over
    all replicas (gradients summed or averaged across the batch slices);
    every replica gets the same result, of the input's type.

    A placeholder: `dist-partition` materialises it as one `dist.all_reduce`
    over the group of the replicas' tasks.

    ```
      replica 0: [1 2] --+               +--> replica 0: [4 6]
                         +--sum--> [4 6] |
      replica 1: [3 4] --+               +--> replica 1: [4 6]
    ```

    Example:

    ```mlir
    %g = dist.replica_all_reduce mean %gr : tensor<784x10xf32>
    ```
  }];
  let arguments = (ins Dist_ReductionKind:$reduction, AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$reduction $input attr-dict `:` type($input)";
  let hasVerifier = 0;
}

def Dist_GroupAllReduceOp : Dist_Op<"group_all_reduce", [Pure]> {
  let summary = "An all-reduce over named tasks, before partitioning";
  let description = [{
    In an entry function whose ops are placed on explicit tasks (the
    `tensor-parallel` strategy's copies), the elementwise `reduction` of
    `inputs`, where input `i` is computed on task `group[i]`; result `i` is
    the reduced value on task `group[i]`. All inputs and results have one
    type. The op itself is placed on `group[0]`.

    A placeholder: `dist-partition` materialises it as one `dist.all_reduce`
    per member task, at the op's position in the entry's order (so every
    member issues it at the same place in the global order, which keeps the
    deadlock argument of docs/design/distribution.md).

    Example:

    ```mlir
    %y0, %y1 = dist.group_all_reduce sum %p0, %p1
        group [#dist.device<"/job:worker/task:0">,
               #dist.device<"/job:worker/task:1">]
        : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>, tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Dist_ReductionKind:$reduction,
                       Variadic<AnyRankedTensor>:$inputs,
                       Dist_DeviceGroupAttr:$group);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $reduction $inputs `group` $group attr-dict `:` type($inputs) `->`
    type($results)
  }];
  let hasVerifier = 1;
}

#endif // GRAPHC_DIALECTS_DIST_DISTOPS_TD
