//===- TensorParallel.cpp - Megatron-style tensor-parallel placement ------===//
//
// The `tensor-parallel` strategy (docs/design/distribution-2.md, "Tensor
// parallelism"): splits matmul weights over T shard tasks the way
// Megatron-LM does, so an MLP block or an attention block costs one sum
// all-reduce, and rewrites the entry into one copy of every op per task,
// placed on that task. Split weights become one `graph.variable` per shard
// holding its slice; everything else runs (and is stored) on every shard.
// dist-partition then cuts the copies along their placements as it cuts any
// placed function; `dist.group_all_reduce` is the one placeholder it
// materialises.
//
// Why not MLIR's shard dialect: see the design note. In short, its SPMD
// output is one program for all devices, which cannot say "shard k's
// variable holds slice k", and its ops have no models for the reshapes that
// split attention heads.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;

namespace {

/// How the T shards of one replica hold a value.
///
/// `Split(axis, chunk)`: along `axis` (global size n), the indices come in
/// groups of T*chunk, and shard k holds the k-th run of `chunk` in every
/// group: global index o*T*chunk + k*chunk + j is shard k's o*chunk + j.
/// One group (chunk = n/T) is a plain contiguous split; several groups are
/// what a fused Q/K/V projection needs (each shard takes its heads' columns
/// of Q, of K and of V) and what merging the heads into the batch axis
/// makes of a head split.
struct Sharding {
  enum Kind { Rep, Split, Partial } kind = Rep;
  int64_t axis = -1;
  int64_t chunk = 0;

  static Sharding split(int64_t axis, int64_t chunk) {
    return {Split, axis, chunk};
  }
  bool isSplit() const { return kind == Split; }
  bool operator==(const Sharding &o) const {
    return kind == o.kind && axis == o.axis && chunk == o.chunk;
  }
};

/// The decisions: what is split where, and where the all-reduces go.
struct Plan {
  /// Value -> sharding (absent: replicated).
  llvm::DenseMap<Value, Sharding> state;
  /// Weights (variable reads, constants) split where they are defined.
  llvm::DenseMap<Value, Sharding> sourceSplits;
  /// Replicated operands a shard slices for itself before the op.
  llvm::DenseMap<std::pair<Operation *, unsigned>, Sharding> localSlices;
  /// Ops whose result is a partial sum, all-reduced right after them.
  llvm::SetVector<Operation *> reduceAfter;
};

static RankedTensorType staticType(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() ? type : RankedTensorType();
}

static int64_t normalize(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  return strides;
}

/// Megatron's propagation: for each op, the shardings of its results from
/// those of its operands, asking for replicated operands to be split (at
/// their source when they are weights used only there, else by a local
/// slice) where the op needs them split alike.
class Planner {
public:
  Planner(func::FuncOp entry, int64_t shards) : T(shards) {
    llvm::StringMap<int> reads;
    llvm::StringSet<> assigned;
    entry.walk([&](Operation *op) {
      if (auto read = dyn_cast<graph::ReadVariableOp>(op)) {
        ++reads[read.getVariable()];
      } else if (auto assign = dyn_cast<graph::AssignVariableOp>(op)) {
        assigned.insert(assign.getVariable());
      } else if (auto sym = op->getAttrOfType<FlatSymbolRefAttr>("variable")) {
        assigned.insert(sym.getValue()); // an in-place update
      }
    });
    for (auto &[name, count] : reads) {
      if (count == 1 && !assigned.contains(name)) {
        splittableVars.insert(name);
      }
    }
    for (Operation &op : entry.getBody().front()) {
      ops.push_back(&op);
    }
  }

  /// Greedy, in program order: at each matmul of a replicated activation
  /// by a weight, first try Megatron's column split (every chunk size, the
  /// plainest first) and keep it when the split values all reach a row
  /// split before anything that needs whole rows; else split the weight by
  /// rows alone (each shard slicing its part of the activation); else leave
  /// it replicated. Each try replays the whole function with the decisions
  /// so far, so every plan is one consistent pass.
  Plan run() {
    Decisions decided;
    Plan plan = *simulate(decided);
    for (Operation *op : ops) {
      auto mm = dyn_cast<graph::MatMulOp>(op);
      if (!mm || !isCandidate(plan, mm)) {
        continue;
      }
      MatAxes axes = *matAxes(mm);
      RankedTensorType w = staticType(mm.getRhs());
      SmallVector<Sharding> tries;
      int64_t n = w.getDimSize(axes.rhsN), k = w.getDimSize(axes.rhsK);
      for (int64_t chunk = n / T; n % T == 0 && chunk >= 1; --chunk) {
        if ((n / T) % chunk == 0) {
          tries.push_back(Sharding::split(axes.rhsN, chunk));
        }
      }
      if (k % T == 0) {
        tries.push_back(Sharding::split(axes.rhsK, k / T));
      }
      for (Sharding want : tries) {
        decided[mm] = want;
        std::optional<Plan> trial = simulate(decided);
        // A column split must end in a row split's all-reduce (Megatron's
        // pair); otherwise it only moved the gather somewhere else.
        if (trial && trial->reduceAfter.size() > plan.reduceAfter.size()) {
          plan = std::move(*trial);
          break;
        }
        decided.erase(mm);
      }
    }
    return plan;
  }

private:
  using Decisions = llvm::DenseMap<Operation *, Sharding>;

  /// One pass over the function with the weights of `decided` matmuls split
  /// as given; none when an op cannot take its operands' shardings.
  std::optional<Plan> simulate(const Decisions &decided) {
    Plan plan;
    for (Operation *op : ops) {
      if (auto it = decided.find(op); it != decided.end()) {
        if (!require(plan, op, 1, it->second)) {
          return std::nullopt;
        }
      }
      if (!step(plan, op)) {
        return std::nullopt;
      }
    }
    return plan;
  }

  int64_t T;
  SmallVector<Operation *> ops;
  llvm::StringSet<> splittableVars;

  static Sharding get(const Plan &plan, Value v) {
    return plan.state.lookup(v);
  }

  /// A weight that can be stored split: a constant, or a variable read
  /// once and never written, used by this op alone.
  bool isWeight(Value v) const {
    if (!v.hasOneUse() || !staticType(v)) {
      return false;
    }
    Operation *def = v.getDefiningOp();
    if (auto read = dyn_cast_or_null<graph::ReadVariableOp>(def)) {
      return splittableVars.contains(read.getVariable());
    }
    return isa_and_nonnull<graph::ConstantOp>(def);
  }

  /// Axes of a matmul operand of rank >= 2: (rows or columns, contraction).
  struct MatAxes {
    int64_t lhsM, lhsK, rhsK, rhsN;
  };
  static std::optional<MatAxes> matAxes(graph::MatMulOp mm) {
    RankedTensorType l = staticType(mm.getLhs()), r = staticType(mm.getRhs());
    if (!l || !r || l.getRank() < 2 || r.getRank() < 2 ||
        !staticType(mm.getResult())) {
      return std::nullopt;
    }
    int64_t rl = l.getRank(), rr = r.getRank();
    MatAxes a{rl - 2, rl - 1, rr - 2, rr - 1};
    if (mm.getTransposeLhs()) {
      std::swap(a.lhsM, a.lhsK);
    }
    if (mm.getTransposeRhs()) {
      std::swap(a.rhsK, a.rhsN);
    }
    return a;
  }

  /// A replicated activation times a replicated weight.
  bool isCandidate(const Plan &plan, graph::MatMulOp mm) const {
    return matAxes(mm) && get(plan, mm.getLhs()).kind == Sharding::Rep &&
           get(plan, mm.getRhs()).kind == Sharding::Rep &&
           isWeight(mm.getRhs());
  }

  /// Makes operand `index` of `user` split as `want`: already so, or
  /// replicated and then split at its source or sliced locally.
  bool require(Plan &plan, Operation *user, unsigned index, Sharding want) {
    Value v = user->getOperand(index);
    Sharding have = get(plan, v);
    if (have == want) {
      return true;
    }
    RankedTensorType type = staticType(v);
    if (have.kind != Sharding::Rep || !type || want.axis >= type.getRank() ||
        type.getDimSize(want.axis) % (T * want.chunk) != 0) {
      return false;
    }
    if (isWeight(v)) {
      plan.sourceSplits[v] = want;
      plan.state[v] = want;
    } else {
      plan.localSlices[{user, index}] = want;
    }
    return true;
  }

  static void setResult(Plan &plan, Value v, Sharding s) {
    if (s.kind == Sharding::Rep) {
      plan.state.erase(v);
    } else {
      plan.state[v] = s;
    }
  }

  /// The shardings of `op`'s results; false when `op` cannot take its
  /// operands' shardings.
  bool step(Plan &plan, Operation *op) {
    bool anySplit = llvm::any_of(getUsedValues(op), [&](Value v) {
      return get(plan, v).kind != Sharding::Rep;
    });
    if (!anySplit) {
      for (Value r : op->getResults()) {
        setResult(plan, r, {});
      }
      return true;
    }
    // Split values used inside a region, by a terminator or by anything
    // not handled below need whole rows.
    if (op->getNumRegions() > 0 || op->getNumResults() != 1 ||
        !staticType(op->getResult(0))) {
      return false;
    }
    std::optional<Sharding> out = transfer(plan, op);
    if (!out) {
      return false;
    }
    if (out->kind == Sharding::Partial) {
      plan.reduceAfter.insert(op);
      out = Sharding();
    }
    setResult(plan, op->getResult(0), *out);
    return true;
  }

  std::optional<Sharding> transfer(Plan &plan, Operation *op) {
    Value result = op->getResult(0);
    RankedTensorType resultType = staticType(result);
    int64_t rank = resultType.getRank();
    if (isElementwise(op)) {
      return elementwise(plan, op, resultType);
    }
    if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
      return matmul(plan, mm, rank);
    }
    Sharding in = get(plan, op->getOperand(0));
    if (auto t = dyn_cast<graph::TransposeOp>(op)) {
      auto it = llvm::find(t.getPerm(), in.axis);
      return Sharding::split(it - t.getPerm().begin(), in.chunk);
    }
    if (auto r = dyn_cast<graph::ReshapeOp>(op)) {
      return reshape(in, staticType(r.getInput()), resultType);
    }
    if (auto s = dyn_cast<graph::SliceOp>(op)) {
      int64_t group = T * in.chunk;
      int64_t start = s.getStarts()[in.axis], limit = s.getLimits()[in.axis];
      if (s.getStrides()[in.axis] != 1 || start < 0 || limit < start ||
          start % group != 0 || limit % group != 0) {
        return std::nullopt;
      }
      return in;
    }
    if (isa<graph::SoftmaxOp, graph::LogSoftmaxOp>(op)) {
      int64_t axis = isa<graph::SoftmaxOp>(op)
                         ? cast<graph::SoftmaxOp>(op).getAxis()
                         : cast<graph::LogSoftmaxOp>(op).getAxis();
      if (normalize(axis, rank) == in.axis) {
        return std::nullopt;
      }
      return in;
    }
    if (auto ln = dyn_cast<graph::LayerNormOp>(op)) {
      // Normalised over axis..rank-1; scale and bias span those.
      if (!in.isSplit() || in.axis >= normalize(ln.getAxis(), rank) ||
          llvm::any_of(op->getOperands().drop_front(), [&](Value v) {
            return get(plan, v).kind != Sharding::Rep;
          })) {
        return std::nullopt;
      }
      return in;
    }
    if (auto red = dyn_cast<graph::ReduceOp>(op)) {
      int64_t inRank = staticType(red.getInput()).getRank();
      int64_t before = 0;
      for (int64_t a : red.getAxes()) {
        int64_t axis = normalize(a, inRank);
        if (axis == in.axis) {
          return std::nullopt;
        }
        before += axis < in.axis;
      }
      return Sharding::split(red.getKeepdims() ? in.axis : in.axis - before,
                             in.chunk);
    }
    if (auto cat = dyn_cast<graph::ConcatOp>(op)) {
      std::optional<Sharding> want;
      for (Value v : cat.getInputs()) {
        if (get(plan, v).isSplit()) {
          want = get(plan, v);
        }
      }
      if (normalize(cat.getAxis(), rank) == want->axis) {
        return std::nullopt;
      }
      for (unsigned i = 0; i < op->getNumOperands(); ++i) {
        if (!require(plan, op, i, *want)) {
          return std::nullopt;
        }
      }
      return want;
    }
    return std::nullopt;
  }

  std::optional<Sharding> elementwise(Plan &plan, Operation *op,
                                      RankedTensorType resultType) {
    int64_t rank = resultType.getRank();
    std::optional<Sharding> out;
    for (Value v : op->getOperands()) {
      Sharding s = get(plan, v);
      if (!s.isSplit()) {
        continue;
      }
      RankedTensorType type = staticType(v);
      if (!type) {
        return std::nullopt;
      }
      int64_t axis = s.axis + rank - type.getRank();
      if (type.getDimSize(s.axis) != resultType.getDimSize(axis) ||
          (out && (out->axis != axis || out->chunk != s.chunk))) {
        return std::nullopt;
      }
      out = Sharding::split(axis, s.chunk);
    }
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Value v = op->getOperand(i);
      RankedTensorType type = staticType(v);
      if (!type) {
        return std::nullopt;
      }
      int64_t axis = out->axis - (rank - type.getRank());
      // A broadcast operand (no such axis, or size 1) is the same for
      // every shard.
      if (axis < 0 || type.getDimSize(axis) == 1) {
        continue;
      }
      if (!require(plan, op, i, Sharding::split(axis, out->chunk))) {
        return std::nullopt;
      }
    }
    return out;
  }

  std::optional<Sharding> matmul(Plan &plan, graph::MatMulOp mm, int64_t rank) {
    std::optional<MatAxes> axes = matAxes(mm);
    if (!axes) {
      return std::nullopt;
    }
    Sharding l = get(plan, mm.getLhs()), r = get(plan, mm.getRhs());
    int64_t rl = staticType(mm.getLhs()).getRank();
    int64_t rr = staticType(mm.getRhs()).getRank();
    // Contraction split: each shard multiplies its part; partial sums.
    if (l.isSplit() && l.axis == axes->lhsK) {
      if (!require(plan, mm, 1, Sharding::split(axes->rhsK, l.chunk))) {
        return std::nullopt;
      }
      return Sharding{Sharding::Partial};
    }
    if (r.isSplit() && r.axis == axes->rhsK) {
      if (!require(plan, mm, 0, Sharding::split(axes->lhsK, r.chunk))) {
        return std::nullopt;
      }
      return Sharding{Sharding::Partial};
    }
    // Rows of the left or columns of the right: the result splits alike.
    if (l.isSplit() && l.axis == axes->lhsM && !r.isSplit()) {
      return Sharding::split(rank - 2, l.chunk);
    }
    if (r.isSplit() && r.axis == axes->rhsN && !l.isSplit()) {
      return Sharding::split(rank - 1, r.chunk);
    }
    // A batch axis (attention heads): both operands alike unless one
    // broadcasts along it.
    Sharding s = l.isSplit() ? l : r;
    int64_t axis = s.axis + rank - (l.isSplit() ? rl : rr);
    if (axis >= rank - 2) {
      return std::nullopt;
    }
    for (unsigned i = 0; i < 2; ++i) {
      RankedTensorType type = staticType(mm->getOperand(i));
      int64_t a = axis - (rank - type.getRank());
      if (a < 0 || type.getDimSize(a) == 1) {
        if (get(plan, mm->getOperand(i)).isSplit()) {
          return std::nullopt;
        }
        continue;
      }
      if (!require(plan, mm, i, Sharding::split(a, s.chunk))) {
        return std::nullopt;
      }
    }
    return Sharding::split(axis, s.chunk);
  }

  /// A reshape keeps a split when the run of T shards, seen in the flat
  /// row-major index (stride chunk * stride of the axis), lies within one
  /// axis of the target shape.
  std::optional<Sharding> reshape(Sharding in, RankedTensorType from,
                                  RankedTensorType to) {
    int64_t flat = in.chunk * stridesOf(from.getShape())[in.axis];
    SmallVector<int64_t> strides = stridesOf(to.getShape());
    for (int64_t b = 0; b < to.getRank(); ++b) {
      if (flat % strides[b] != 0) {
        continue;
      }
      int64_t chunk = flat / strides[b];
      if (to.getDimSize(b) % (T * chunk) == 0) {
        return Sharding::split(b, chunk);
      }
    }
    return std::nullopt;
  }
};

//===----------------------------------------------------------------------===//
// Slicing values
//===----------------------------------------------------------------------===//

static RankedTensorType localType(RankedTensorType type, Sharding s,
                                  int64_t shards) {
  if (!s.isSplit()) {
    return type;
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[s.axis] /= shards;
  return type.clone(shape);
}

/// Calls `copy(start, count)` for every run of consecutive elements (in
/// row-major order) that shard `k` holds.
template <typename Fn>
static void forEachRun(ArrayRef<int64_t> shape, Sharding s, int64_t shards,
                       int64_t k, Fn copy) {
  int64_t inner = stridesOf(shape)[s.axis];
  int64_t outer = 1;
  for (int64_t i = 0; i < s.axis; ++i) {
    outer *= shape[i];
  }
  int64_t groups = shape[s.axis] / (shards * s.chunk);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t g = 0; g < groups; ++g) {
      int64_t index = o * shape[s.axis] + g * shards * s.chunk + k * s.chunk;
      copy(index * inner, s.chunk * inner);
    }
  }
}

/// Shard `k`'s part of a weight's value.
static ElementsAttr sliceElements(ElementsAttr value, Sharding s,
                                  int64_t shards, int64_t k) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType local = localType(type, s, shards);
  if (auto dense = dyn_cast<DenseElementsAttr>(value);
      dense && dense.isSplat()) {
    return dense.resizeSplat(local);
  }
  if (std::optional<ArrayRef<char>> raw = graph::getRawElementBytes(value)) {
    size_t bytes = type.getElementTypeBitWidth() / 8;
    std::vector<char> data;
    data.reserve(local.getNumElements() * bytes);
    forEachRun(type.getShape(), s, shards, k, [&](int64_t start, int64_t n) {
      data.insert(data.end(), raw->begin() + start * bytes,
                  raw->begin() + (start + n) * bytes);
    });
    return DenseElementsAttr::getFromRawBuffer(local, data);
  }
  SmallVector<Attribute> all(value.getValues<Attribute>());
  SmallVector<Attribute> part;
  forEachRun(type.getShape(), s, shards, k, [&](int64_t start, int64_t n) {
    part.append(all.begin() + start, all.begin() + start + n);
  });
  return DenseElementsAttr::get(local, part);
}

/// Shard `k`'s part of a replicated value, computed where it is needed: a
/// slice, with a reshape around it when the split has several groups.
static Value sliceValue(OpBuilder &b, Location loc, Value whole, Sharding s,
                        int64_t shards, int64_t k, DeviceAttr task) {
  auto type = cast<RankedTensorType>(whole.getType());
  int64_t n = type.getDimSize(s.axis);
  int64_t groups = n / (shards * s.chunk);
  SmallVector<int64_t> shape(type.getShape());
  Value in = whole;
  int64_t axis = s.axis;
  if (groups > 1) {
    shape[s.axis] = shards * s.chunk;
    shape.insert(shape.begin() + s.axis, groups);
    auto grouped = graph::ReshapeOp::create(b, loc, type.clone(shape), whole,
                                            b.getDenseI64ArrayAttr(shape));
    setPlacement(grouped, task);
    in = grouped;
    axis = s.axis + 1;
  }
  SmallVector<int64_t> starts(shape.size(), 0), strides(shape.size(), 1);
  SmallVector<int64_t> limits(shape);
  starts[axis] = k * s.chunk;
  limits[axis] = (k + 1) * s.chunk;
  shape[axis] = s.chunk;
  auto slice = graph::SliceOp::create(b, loc, type.clone(shape), in, starts,
                                      limits, strides);
  setPlacement(slice, task);
  if (groups == 1) {
    return slice;
  }
  RankedTensorType local = localType(type, s, shards);
  auto flat = graph::ReshapeOp::create(
      b, loc, local, slice, b.getDenseI64ArrayAttr(local.getShape()));
  setPlacement(flat, task);
  return flat;
}

//===----------------------------------------------------------------------===//
// Rewriting the entry: one copy of every op per task
//===----------------------------------------------------------------------===//

class Rewriter {
public:
  Rewriter(ModuleOp module, func::FuncOp entry, const Plan &plan,
           int64_t replicas, int64_t shards, StringRef job)
      : module(module), entry(entry), plan(plan), R(replicas), T(shards),
        job(job), symbols(module) {}

  LogicalResult run() {
    SmallVector<Operation *> originals;
    for (Operation &op : entry.getBody().front().without_terminator()) {
      originals.push_back(&op);
    }
    Block &body = entry.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      copies[arg].assign(R * T, arg);
    }
    for (Operation *op : originals) {
      if (failed(rewrite(op))) {
        return failure();
      }
    }
    Operation *ret = body.getTerminator();
    for (OpOperand &operand : ret->getOpOperands()) {
      operand.set(copies[operand.get()][0]);
    }
    for (Operation *op : llvm::reverse(originals)) {
      op->erase();
    }
    // Variables whose every read now reads a shard or a copy.
    for (auto var :
         llvm::make_early_inc_range(module.getOps<graph::VariableOp>())) {
      if (replaced.contains(var.getSymName()) &&
          SymbolTable::symbolKnownUseEmpty(var, module)) {
        var.erase();
      } else if (DeviceAttr d = getPlacement(var);
                 !d || isReplicatedPlacement(d)) {
        // Unused by the entry: kept on the first task.
        setPlacement(var, task(0));
      }
    }
    entry->removeAttr(dist::DistDialect::kReplicasAttrName);
    for (unsigned a = 0; a < entry.getNumArguments(); ++a) {
      entry.setArgAttr(a, dist::DistDialect::kDeviceAttrName, task(0));
    }
    for (unsigned r = 0; r < entry.getNumResults(); ++r) {
      entry.setResultAttr(r, dist::DistDialect::kDeviceAttrName, task(0));
    }
    return success();
  }

private:
  ModuleOp module;
  func::FuncOp entry;
  const Plan &plan;
  int64_t R, T;
  StringRef job;
  SymbolTable symbols;
  llvm::DenseMap<Value, SmallVector<Value>> copies;
  /// (variable, task) -> the copy or shard that task reads.
  llvm::DenseMap<std::pair<StringAttr, int64_t>, StringAttr> variableCopies;
  llvm::StringSet<> replaced;
  llvm::DenseMap<Operation *, Operation *> lastCopy;

  DeviceAttr task(int64_t t) {
    return DeviceAttr::get(module.getContext(), job, std::nullopt, t, "",
                           std::nullopt);
  }

  Sharding shardingOf(Value v) { return plan.state.lookup(v); }

  RankedTensorType localTypeOf(Value v) {
    return localType(cast<RankedTensorType>(v.getType()), shardingOf(v), T);
  }

  /// The variable task `t` reads for `var`: the original on task 0, a
  /// copy elsewhere, or its shard when the weight is split.
  StringAttr variableFor(graph::VariableOp var, int64_t t,
                         std::optional<Sharding> split) {
    auto key = std::make_pair(var.getSymNameAttr(), t);
    if (StringAttr name = variableCopies.lookup(key)) {
      return name;
    }
    replaced.insert(var.getSymName());
    int64_t r = t / T, k = t % T;
    // Copies follow the variable in task order.
    Operation *&last = lastCopy[var];
    OpBuilder b(var);
    b.setInsertionPointAfter(last ? last : var.getOperation());
    if (!split && t == 0) {
      setPlacement(var, task(0));
      return variableCopies[key] = var.getSymNameAttr();
    }
    auto copy = cast<graph::VariableOp>(b.clone(*var));
    std::string base = var.getSymName().str();
    if (split) {
      base += "_tp" + std::to_string(k);
      auto type = cast<RankedTensorType>(var.getType());
      copy.setType(localType(type, *split, T));
      if (auto value = var.getInitialValueAttr()) {
        copy.setInitialValueAttr(sliceElements(value, *split, T, k));
      }
      if (r > 0) {
        // Replica r's shard k is replica 0's shard k under another name.
        copy->setAttr("graph.replica_of", b.getStringAttr(base));
      }
    } else {
      copy->setAttr("graph.replica_of", var.getSymNameAttr());
    }
    std::string name = r > 0 || !split
                           ? base + (split ? "_r" + std::to_string(r)
                                           : "_t" + std::to_string(t))
                           : base;
    copy.setSymName(name);
    symbols.insert(copy); // renames on a clash
    last = copy;
    setPlacement(copy, task(t));
    return variableCopies[key] = copy.getSymNameAttr();
  }

  LogicalResult rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto split = dyn_cast<dist::ReplicaSplitOp>(op)) {
      // The batch: replica r's rows, sliced on task 0 for its shards.
      auto type = split.getResult().getType();
      int64_t share = type.getDimSize(split.getAxis());
      for (int64_t r = 0; r < R; ++r) {
        SmallVector<int64_t> starts(type.getRank(), 0),
            strides(type.getRank(), 1);
        SmallVector<int64_t> limits(type.getShape());
        starts[split.getAxis()] = r * share;
        limits[split.getAxis()] = (r + 1) * share;
        auto slice = graph::SliceOp::create(
            b, loc, type, copies[split.getInput()][0], starts, limits, strides);
        setPlacement(slice, task(0));
        for (int64_t k = 0; k < T; ++k) {
          copies[split.getResult()].push_back(slice);
        }
      }
      return success();
    }
    if (auto concat = dyn_cast<dist::ReplicaConcatOp>(op)) {
      SmallVector<Value> parts;
      for (int64_t r = 0; r < R; ++r) {
        parts.push_back(copies[concat.getInput()][r * T]);
      }
      auto joined = graph::ConcatOp::create(b, loc, parts, concat.getAxis());
      setPlacement(joined, task(0));
      copies[concat.getResult()].assign(R * T, joined);
      return success();
    }
    if (isa<dist::ReplicaAllReduceOp>(op)) {
      return op->emitError()
             << "dist-place: tensor-parallel=" << T << " with replicas=" << R
             << ": '" << op->getName()
             << "' (a training step's cross-replica reduction) is not "
                "supported with tensor parallelism yet; train with "
                "--replicas alone";
    }
    auto sourceSplit = [&](Value v) -> std::optional<Sharding> {
      auto it = plan.sourceSplits.find(v);
      return it == plan.sourceSplits.end() ? std::nullopt
                                           : std::optional(it->second);
    };
    for (int64_t t = 0; t < R * T; ++t) {
      int64_t k = t % T;
      IRMapping mapping;
      for (Value v : getUsedValues(op)) {
        mapping.map(v, copies[v][t]);
      }
      for (OpOperand &operand : op->getOpOperands()) {
        auto it = plan.localSlices.find({op, operand.getOperandNumber()});
        if (it != plan.localSlices.end()) {
          mapping.map(operand.get(),
                      sliceValue(b, loc, copies[operand.get()][t], it->second,
                                 T, k, task(t)));
        }
      }
      Operation *clone = b.clone(*op, mapping);
      setPlacement(clone, task(t));
      for (Value res : clone->getResults()) {
        res.setType(
            localTypeOf(op->getResult(cast<OpResult>(res).getResultNumber())));
      }
      if (auto read = dyn_cast<graph::ReadVariableOp>(clone)) {
        auto var = symbols.lookup<graph::VariableOp>(read.getVariable());
        if (var) {
          read.setVariable(
              variableFor(var, t, sourceSplit(op->getResult(0))).getValue());
          read.setValueType(read.getResult().getType());
        }
      } else if (auto assign = dyn_cast<graph::AssignVariableOp>(clone)) {
        if (auto var =
                symbols.lookup<graph::VariableOp>(assign.getVariable())) {
          assign.setVariable(variableFor(var, t, std::nullopt).getValue());
        }
      } else if (auto cst = dyn_cast<graph::ConstantOp>(clone)) {
        if (std::optional<Sharding> s = sourceSplit(op->getResult(0))) {
          cst.setValueAttr(sliceElements(cst.getValue(), *s, T, k));
        }
      } else if (auto reshape = dyn_cast<graph::ReshapeOp>(clone)) {
        reshape.setShape(cast<RankedTensorType>(reshape.getType()).getShape());
      } else if (auto slice = dyn_cast<graph::SliceOp>(clone)) {
        Sharding s = shardingOf(op->getResult(0));
        if (s.isSplit()) {
          SmallVector<int64_t> starts(slice.getStarts()),
              limits(slice.getLimits());
          starts[s.axis] /= T;
          limits[s.axis] /= T;
          slice.setStarts(starts);
          slice.setLimits(limits);
        }
      }
      for (auto [orig, copy] :
           llvm::zip(op->getResults(), clone->getResults())) {
        copies[orig].push_back(copy);
      }
    }
    if (plan.reduceAfter.contains(op)) {
      // One sum all-reduce per replica over its shards' partial sums.
      Value orig = op->getResult(0);
      for (int64_t r = 0; r < R; ++r) {
        SmallVector<Value> inputs;
        SmallVector<Attribute> group;
        for (int64_t k = 0; k < T; ++k) {
          inputs.push_back(copies[orig][r * T + k]);
          group.push_back(task(r * T + k));
        }
        SmallVector<Type> types(T, inputs.front().getType());
        auto reduce = dist::GroupAllReduceOp::create(
            b, loc, types, dist::ReductionKind::sum, inputs,
            b.getArrayAttr(group));
        setPlacement(reduce, task(r * T));
        for (int64_t k = 0; k < T; ++k) {
          copies[orig][r * T + k] = reduce.getResult(k);
        }
      }
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The strategy
//===----------------------------------------------------------------------===//

class TensorParallelStrategy : public PlacementStrategy {
public:
  StringRef getName() const override { return "tensor-parallel"; }

  /// T shards (2 to the cluster), alone or under R replicas with R*T tasks
  /// at most; a model with nothing to split is refused and listed as such.
  SmallVector<PlacementCandidate>
  getCandidates(int64_t workers) const override {
    SmallVector<PlacementCandidate> candidates;
    for (int64_t t = 2; t <= workers; ++t) {
      for (int64_t r = 1; r * t <= workers; ++r) {
        PlacementCandidate c;
        c.label = "tensor-parallel=" + std::to_string(t) +
                  (r > 1 ? " replicas=" + std::to_string(r) : "");
        c.options.strategy = "tensor-parallel";
        c.options.replicas = r;
        c.options.tensorParallel = t;
        candidates.push_back(c);
      }
    }
    return candidates;
  }

  LogicalResult place(ModuleOp module, func::FuncOp entry,
                      const PlacementOptions &options) override {
    int64_t T = options.tensorParallel, R = options.replicas;
    StringRef job = options.defaultTask.getJob();
    if (options.defaultTask.getTask().value_or(0) != 0) {
      return module.emitError()
             << "dist-place: strategy=tensor-parallel runs on tasks 0.."
             << R * T - 1 << " of the default device's job; default-device "
             << options.defaultTask.str() << " names another task";
    }
    // Replicas first: the plan below is made on one replica's shapes.
    if (R > 1 && failed(rewriteForReplicas(module, entry, R, job))) {
      return failure();
    }
    Plan plan = Planner(entry, T).run();
    if (plan.reduceAfter.empty()) {
      return entry.emitError()
             << "dist-place: tensor-parallel=" << T << ": nothing to split in @"
             << entry.getSymName()
             << ": looked for a graph.matmul whose right operand is a weight "
                "(a graph.constant, or a graph.variable read once and never "
                "assigned, used only by that matmul) with a static output or "
                "contraction dimension divisible by "
             << T << "; run the model on one task or with --replicas";
    }
    return Rewriter(module, entry, plan, R, T, job).run();
  }
};

} // namespace

std::unique_ptr<PlacementStrategy> transforms::createTensorParallelStrategy() {
  return std::make_unique<TensorParallelStrategy>();
}
