//===- ReplicaRewrite.cpp - the replicas placement strategy ---------------===//
//
// TF-Replicator's data parallelism: the step is written once for the whole
// batch; this rewrites it into the step of one replica, which sees 1/N of
// the batch. Every value is tracked as shared (the same in every replica),
// batched along one axis (each replica holds its own rows), or partial (a
// reduction over the batch axis: each replica holds its rows' share, and
// only a dist.replica_all_reduce makes it whole). An allowlist says how each
// op maps these states; an op that would mix the rows of different
// replicas, or a partial value that reaches anything but an all-reduce, is
// an error naming the op, because the replicated program would compute
// something else.
//
//===----------------------------------------------------------------------===//

#include "graphc/Transforms/Placement.h"

#include "graph/GraphOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

#include <variant>

using namespace mlir;
using namespace graphc;
using namespace graphc::transforms;
using graphc::dist::DeviceAttr;
using graphc::dist::stringifyReductionKind;

namespace {

/// How the replicas hold a value.
struct RowState {
  enum Kind { Shared, Batched, Partial } kind = Shared;
  /// The batch axis of a batched value.
  int64_t axis = -1;
  /// How a partial value combines across replicas.
  dist::ReductionKind reduction = dist::ReductionKind::sum;
  /// The op that reduced over the batch axis (for diagnostics).
  Operation *origin = nullptr;
  /// A batched axis is `blocks` consecutive blocks, each cut into the
  /// replicas' contiguous shares: 1 for the batch as fed, more where a
  /// reshape merged the batch under another dimension (attention's
  /// (seq, batch x heads) -> seq x batch rows). Row-wise ops do not care;
  /// reshapes and the output's concat do.
  int64_t blocks = 1;

  /// The same rows along another axis.
  RowState at(int64_t newAxis) const {
    RowState s = *this;
    s.axis = newAxis;
    return s;
  }

  static RowState batched(int64_t axis) { return {Batched, axis}; }
  /// `axis` is the batch axis the reduction removed (for diagnostics).
  static RowState partial(dist::ReductionKind kind, Operation *origin,
                          int64_t axis) {
    return {Partial, axis, kind, origin};
  }
};

/// Why an op cannot run per replica (a reason completes "'op' at LOC ...").
struct Refusal {
  std::string reason;
};

using Outcome = std::variant<SmallVector<RowState>, Refusal>;

static Outcome refuse(const Twine &reason) { return Refusal{reason.str()}; }
static Outcome all(Operation *op, RowState state) {
  return SmallVector<RowState>(op->getNumResults(), state);
}

static int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

static int64_t rankOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getRank() : -1;
}

} // namespace

/// Ops computed element by element with NumPy broadcasting: a row of the
/// result depends only on the same row of each operand.
bool transforms::isElementwise(Operation *op) {
  return isa<
      graph::NegOp, graph::AbsOp, graph::ReluOp, graph::SignOp, graph::ExpOp,
      graph::LogOp, graph::SqrtOp, graph::RsqrtOp, graph::ReciprocalOp,
      graph::TanhOp, graph::SigmoidOp, graph::ErfOp, graph::FloorOp,
      graph::CeilOp, graph::RoundOp, graph::SinOp, graph::CosOp,
      graph::SoftplusOp, graph::NotOp, graph::GeluOp, graph::LeakyReluOp,
      graph::EluOp, graph::CastOp, graph::ClampOp, graph::AddOp, graph::SubOp,
      graph::MulOp, graph::DivOp, graph::PowOp, graph::MaxOp, graph::MinOp,
      graph::FloorDivOp, graph::ModOp, graph::RemOp, graph::AndOp, graph::OrOp,
      graph::XorOp, graph::CompareOp, graph::SelectOp, graph::TanOp,
      graph::AsinOp, graph::AcosOp, graph::AtanOp, graph::SinhOp, graph::CoshOp,
      graph::AsinhOp, graph::AcoshOp, graph::AtanhOp, graph::BitwiseAndOp,
      graph::BitwiseOrOp, graph::BitwiseXorOp, graph::BitwiseNotOp,
      graph::ShiftLeftOp, graph::ShiftRightOp, graph::IdentityOp>(op);
}

namespace {

/// Ops that take a batch on dimension 0 of their first operand (NCHW or
/// NHWC alike) and treat every example alone, the other operands being
/// parameters.
/// The discardable unit attribute of a reduction over the batch that is a
/// batch statistic (graph-autodiff sets it on batch_norm_train's gradient
/// sums; docs/design/training.md).
constexpr llvm::StringLiteral kBatchStatistic = "graph.batch_statistic";

static bool isPerExample(Operation *op) {
  return isa<graph::ConvOp, graph::ConvTransposeOp, graph::PoolOp,
             graph::BatchNormOp, graph::LRNOp, graph::Col2ImOp>(op);
}

static dist::ReductionKind toReduction(graph::ReduceKind kind) {
  switch (kind) {
  case graph::ReduceKind::sum:
    return dist::ReductionKind::sum;
  case graph::ReduceKind::mean:
    return dist::ReductionKind::mean;
  case graph::ReduceKind::max:
    return dist::ReductionKind::max;
  case graph::ReduceKind::min:
    return dist::ReductionKind::min;
  case graph::ReduceKind::prod:
    return dist::ReductionKind::prod;
  }
  llvm_unreachable("unknown reduce kind");
}

struct ReplicaRewriter {
  ReplicaRewriter(ModuleOp module, func::FuncOp func, int64_t replicas,
                  StringRef job, StringRef prefix, StringRef unit)
      : module(module), func(func), replicas(replicas), job(job),
        prefix(prefix), unit(unit) {}

  ModuleOp module;
  func::FuncOp func;
  int64_t replicas;
  StringRef job;
  /// What starts every diagnostic ("dist-place: replicas=2") and what the
  /// slices of the batch are called in them ("replicas", "microbatches").
  StringRef prefix, unit;
  /// The whole batch and one replica's share of it.
  int64_t globalBatch = 0, localBatch = 0;
  /// Every replica's task (`/job:worker`).
  DeviceAttr replicatedDevice;
  llvm::DenseMap<Value, RowState> states;

  /// Synchronised batch norm (--replicas): graph.batch_norm_train is
  /// decomposed and its statistics all-reduced instead of refused.
  bool syncBatchNorm = false;

  RowState stateOf(Value v) { return states.lookup(v); }

  static std::string describe(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "'" << op->getName() << "' at " << op->getLoc();
    return s;
  }

  InFlightDiagnostic error(Operation *op, const Twine &what) {
    return op->emitError() << prefix << ": '" << op->getName() << "' at "
                           << op->getLoc() << " " << what;
  }

  //===--------------------------------------------------------------------===//
  // The allowlist
  //===--------------------------------------------------------------------===//

  Outcome elementwise(Operation *op) {
    int64_t rank = rankOf(op->getResult(0));
    if (rank < 0) {
      return refuse("has an unranked result");
    }
    int64_t axis = -1, size = -1;
    RowState first;
    for (Value operand : op->getOperands()) {
      RowState s = stateOf(operand);
      if (s.kind != RowState::Batched) {
        continue;
      }
      size = std::max(size, globalSize(operand, s.axis));
      int64_t at = s.axis + rank - rankOf(operand);
      if (axis >= 0 && at != axis) {
        return refuse("combines values batched along different axes (" +
                      Twine(axis) + " and " + Twine(at) + ")");
      }
      if (axis >= 0 && s.blocks != first.blocks) {
        return refuse(blocksDiffer(first, s));
      }
      axis = at;
      first = s;
    }
    // A shared operand must broadcast along the batch axis, not carry one
    // entry per example of the whole batch.
    for (Value operand : op->getOperands()) {
      if (stateOf(operand).kind == RowState::Batched) {
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type) {
        return refuse("broadcasts an unranked operand against the batch");
      }
      int64_t at = axis - (rank - type.getRank());
      if (at >= 0 && type.getDimSize(at) != 1 &&
          !localSplat(operand, at, size)) {
        return refuse("combines the batch with an operand that is not split "
                      "(its dimension " +
                      Twine(at) + " has size " + Twine(type.getDimSize(at)) +
                      ", not 1)");
      }
    }
    localizeSplats(op, axis, size);
    return all(op, first.at(axis));
  }

  /// A splat constant is the same in every row, so one replica's share of
  /// it is a smaller splat (a gradient's 1/B fill of the global batch's
  /// shape). True when `v` is one with the whole batch, `size` rows, at
  /// `axis`.
  bool localSplat(Value v, int64_t axis, int64_t size) {
    auto constant = v.getDefiningOp<graph::ConstantOp>();
    auto type = dyn_cast<RankedTensorType>(v.getType());
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                          : DenseElementsAttr();
    return dense && dense.isSplat() && type && type.getDimSize(axis) == size;
  }

  /// Gives `op` one replica's share of every splat operand that
  /// elementwise() accepted through localSplat().
  void localizeSplats(Operation *op, int64_t axis, int64_t size) {
    int64_t rank = rankOf(op->getResult(0));
    for (OpOperand &use : op->getOpOperands()) {
      Value v = use.get();
      if (stateOf(v).kind == RowState::Batched) {
        continue;
      }
      auto type = dyn_cast<RankedTensorType>(v.getType());
      int64_t at = type ? axis - (rank - type.getRank()) : -1;
      if (at < 0 || type.getDimSize(at) == 1 || !localSplat(v, at, size)) {
        continue;
      }
      SmallVector<int64_t> shape(type.getShape());
      shape[at] = size / replicas;
      auto dense = cast<DenseElementsAttr>(
          v.getDefiningOp<graph::ConstantOp>().getValue());
      OpBuilder b(op);
      auto local = graph::ConstantOp::create(
          b, v.getLoc(), dense.resizeSplat(type.clone(shape)));
      setPlacement(local, replicatedDevice);
      use.set(local.getResult());
      // Already visited: erasing it does not disturb the walk.
      if (v.use_empty()) {
        v.getDefiningOp()->erase();
      }
    }
  }

  static std::string blocksDiffer(RowState a, RowState b) {
    return ("combines values whose batch rows are laid out differently (in " +
            Twine(a.blocks) + " and " + Twine(b.blocks) +
            " blocks along the batch axis)")
        .str();
  }

  Outcome matmul(graph::MatMulOp op) {
    RowState l = stateOf(op.getLhs()), r = stateOf(op.getRhs());
    int64_t rl = rankOf(op.getLhs()), rr = rankOf(op.getRhs());
    int64_t rank = rankOf(op.getResult());
    if (rl < 2 || rr < 2 || rank < 2) {
      return refuse("multiplies vectors; only matrices keep the batch apart");
    }
    int64_t lRow = op.getTransposeLhs() ? rl - 1 : rl - 2;
    int64_t lK = op.getTransposeLhs() ? rl - 2 : rl - 1;
    int64_t rK = op.getTransposeRhs() ? rr - 1 : rr - 2;
    int64_t rCol = op.getTransposeRhs() ? rr - 2 : rr - 1;
    bool lb = l.kind == RowState::Batched, rb = r.kind == RowState::Batched;
    // Both contract over the batch: each replica's product is its share of
    // the whole product (a gradient), summed by an all-reduce.
    if (lb && rb && l.axis == lK && r.axis == rK) {
      return all(op, RowState::partial(dist::ReductionKind::sum, op, l.axis));
    }
    if ((lb && l.axis == lK) || (rb && r.axis == rK)) {
      return refuse("contracts over the batch axis with an operand that is "
                    "not split");
    }
    int64_t axis = -1;
    if (lb) {
      axis = l.axis == lRow ? rank - 2 : l.axis + rank - rl;
    }
    if (rb) {
      int64_t at = r.axis == rCol ? rank - 1 : r.axis + rank - rr;
      if (axis >= 0 && at != axis) {
        return refuse("combines operands batched along different axes");
      }
      if (lb && l.blocks != r.blocks) {
        return refuse(blocksDiffer(l, r));
      }
      axis = at;
    }
    // A leading (broadcast) batch dimension of one operand must not meet a
    // full-size dimension of the other.
    for (auto [v, st, rk] : {std::make_tuple(op.getLhs(), l, rl),
                             std::make_tuple(op.getRhs(), r, rr)}) {
      if (st.kind == RowState::Batched || axis >= rank - 2) {
        continue;
      }
      int64_t at = axis - (rank - rk);
      auto type = cast<RankedTensorType>(v.getType());
      if (at >= 0 && at < rk - 2 && type.getDimSize(at) != 1) {
        return refuse("broadcasts an operand that is not split along the "
                      "batch axis");
      }
    }
    return all(op, (lb ? l : r).at(axis));
  }

  /// A convolution whose input channels are the batch (a filter gradient:
  /// graph-autodiff convolves the input, batch as channels, with the output
  /// gradient, batch as the filter's input channels) sums over the batch:
  /// each replica's result is its share of the sum, like matmul's. None when
  /// the batch is not on the channels of both.
  std::optional<Outcome> convOverBatch(graph::ConvOp op) {
    RowState x = stateOf(op.getInput()), w = stateOf(op.getFilter());
    bool xc = x.kind == RowState::Batched && x.axis == 1;
    bool wc = w.kind == RowState::Batched && w.axis == 1;
    if (!xc && !wc) {
      return std::nullopt;
    }
    if (!xc || !wc) {
      return refuse("contracts over the batch (its input channels) with an "
                    "operand that is not split along them");
    }
    if (op.getGroups() != 1) {
      return refuse("contracts over the batch in " + Twine(op.getGroups()) +
                    " groups; each replica's channels would mix groups");
    }
    if (op.getBias()) {
      return refuse("adds a bias to a sum over the batch; every replica "
                    "would add it");
    }
    return all(op, RowState::partial(dist::ReductionKind::sum, op, 1));
  }

  Outcome reduce(graph::ReduceOp op, RowState in) {
    int64_t rank = rankOf(op.getInput());
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes()) {
      axes.push_back(normalizeAxis(a, rank));
    }
    if (llvm::is_contained(axes, in.axis)) {
      return all(op, RowState::partial(toReduction(op.getKind()), op, in.axis));
    }
    int64_t axis = in.axis;
    if (!op.getKeepdims()) {
      axis -= llvm::count_if(axes, [&](int64_t a) { return a < in.axis; });
    }
    return all(op, in.at(axis));
  }

  /// The whole batch's size along `axis` of the batched `v`, whose type is
  /// already one replica's share (each replica holds a contiguous 1/N).
  /// -1 when it is not known.
  int64_t globalSize(Value v, int64_t axis) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || ShapedType::isDynamic(type.getDimSize(axis))) {
      return -1;
    }
    return type.getDimSize(axis) * replicas;
  }

  /// In row-major order a batched value is `outer` blocks (the elements
  /// before the batch axis, times its blocks), each holding every replica's
  /// share in turn. A reshape keeps that layout when the dimensions before
  /// some target dimension `d` hold a divisor of `outer` elements and `d` is
  /// the rest of `outer` (its new blocks) times a size that divides into the
  /// replicas: then each block of `d` is a block of the input. The batch is
  /// the leading factor of `d` (merging: 8x4 -> 32), `d` the leading factor
  /// of the batch (splitting: 32 -> 8x4), or the batch sits under a
  /// dimension merged with it (10x32 -> 320, 10 blocks), and replica k's
  /// elements are the k-th 1/N of each block of `d`. The result is batched
  /// along `d`, whose target size becomes one replica's share.
  Outcome reshape(graph::ReshapeOp op, RowState in) {
    auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
    if (!inType) {
      return refuse("reshapes an unranked value");
    }
    SmallVector<int64_t> inShape(inType.getShape());
    inShape[in.axis] = globalSize(op.getInput(), in.axis);
    SmallVector<int64_t> shape(op.getShape());
    if (shape.empty()) {
      return refuse("reshapes the batch into a scalar");
    }
    // The blocks of the batch in row-major order.
    int64_t outer = in.blocks;
    for (int64_t d : ArrayRef<int64_t>(inShape).take_front(in.axis)) {
      outer = ShapedType::isDynamic(d) || outer < 0 ? -1 : outer * d;
    }
    // A -1 in the target takes what the other dimensions leave.
    auto hole = llvm::find(shape, -1);
    if (hole != shape.end() && inType.hasStaticShape()) {
      int64_t total = 1, rest = 1;
      for (int64_t d : inShape) {
        total *= d;
      }
      for (int64_t d : shape) {
        rest *= d == -1 ? 1 : d;
      }
      if (rest != 0 && total % rest == 0) {
        *hole = total / rest;
      }
    }
    int64_t prefix = 1;
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (outer < 0 || size <= 0 || prefix <= 0 || prefix > outer) {
        break;
      }
      int64_t blocks = outer / prefix;
      if (outer % prefix == 0 && size % blocks == 0 &&
          (size / blocks) % replicas == 0) {
        // A -1 there stays: it takes one replica's share by itself.
        SmallVector<int64_t> target(op.getShape());
        if (target[d] != -1) {
          target[d] = size / replicas;
        }
        op.setShape(target);
        RowState out = in.at(d);
        out.blocks = blocks;
        return all(op, out);
      }
      prefix *= size;
    }
    std::string target;
    llvm::raw_string_ostream os(target);
    llvm::interleave(op.getShape(), os, "x");
    return refuse("reshapes to " + target +
                  ", which mixes the rows of the "
                  "batch axis " +
                  Twine(in.axis) + " (size " + Twine(inShape[in.axis]) +
                  ") with other dimensions: no "
                  "target dimension starts where the batch axis does and "
                  "divides into " +
                  Twine(replicas) +
                  " replicas; keep the "
                  "batch as the leading factor of one dimension");
  }

  Outcome slice(graph::SliceOp op, RowState in) {
    int64_t a = in.axis;
    int64_t size = globalSize(op.getInput(), a);
    if (op.getStarts()[a] != 0 || op.getLimits()[a] != size ||
        op.getStrides()[a] != 1) {
      return refuse("slices rows of the batch along axis " + Twine(a));
    }
    SmallVector<int64_t> limits(op.getLimits());
    limits[a] = size / replicas;
    op.setLimits(limits);
    return all(op, in);
  }

  Outcome unsqueeze(graph::UnsqueezeOp op, RowState in) {
    int64_t outRank = rankOf(op.getResult());
    SmallVector<bool> inserted(outRank, false);
    for (int64_t a : op.getAxes()) {
      inserted[normalizeAxis(a, outRank)] = true;
    }
    for (int64_t i = 0, k = 0; i < outRank; ++i) {
      if (inserted[i]) {
        continue;
      }
      if (k++ == in.axis) {
        return all(op, in.at(i));
      }
    }
    return refuse("has an unexpected rank");
  }

  /// The allowlist: the states of `op`'s results given its operands', or
  /// why it cannot run per replica. Updates attributes that name the batch
  /// size (reshape targets, slice limits).
  Outcome transfer(Operation *op) {
    // The first batched operand decides the axis where only one may be.
    RowState in;
    for (Value v : op->getOperands()) {
      if (stateOf(v).kind == RowState::Batched) {
        in = stateOf(v);
        break;
      }
    }
    auto onlyFirstBatched = [&]() {
      return llvm::all_of(op->getOperands().drop_front(), [&](Value v) {
        return stateOf(v).kind == RowState::Shared;
      });
    };
    if (isElementwise(op)) {
      return elementwise(op);
    }
    if (auto conv = dyn_cast<graph::ConvOp>(op)) {
      if (std::optional<Outcome> contraction = convOverBatch(conv)) {
        return *contraction;
      }
    }
    if (isPerExample(op)) {
      if (stateOf(op->getOperand(0)).kind != RowState::Batched ||
          in.axis != 0 || !onlyFirstBatched()) {
        return refuse("takes the batch only on dimension 0 of its input");
      }
      return all(op, in);
    }
    return llvm::TypeSwitch<Operation *, Outcome>(op)
        .Case([&](graph::MatMulOp m) { return matmul(m); })
        .Case<graph::SoftmaxOp, graph::LogSoftmaxOp>([&](auto s) -> Outcome {
          int64_t axis = normalizeAxis(s.getAxis(), rankOf(s.getInput()));
          if (axis == in.axis) {
            return refuse("normalises over the batch axis " + Twine(axis));
          }
          return all(op, in);
        })
        .Case([&](graph::LayerNormOp ln) -> Outcome {
          int64_t axis = normalizeAxis(ln.getAxis(), rankOf(ln.getInput()));
          if (stateOf(ln.getInput()).kind != RowState::Batched ||
              !onlyFirstBatched() || in.axis >= axis) {
            return refuse("normalises over the batch axis " + Twine(in.axis));
          }
          return all(op, in);
        })
        .Case([&](graph::ReduceOp r) { return reduce(r, in); })
        .Case([&](graph::ArgReduceOp r) -> Outcome {
          int64_t rank = rankOf(r.getInput());
          int64_t axis = normalizeAxis(r.getAxis(), rank);
          if (axis == in.axis) {
            return refuse("picks an index along the batch axis " + Twine(axis));
          }
          return all(op, in.at(in.axis - (!r.getKeepdims() && axis < in.axis)));
        })
        .Case([&](graph::ReshapeOp r) { return reshape(r, in); })
        .Case([&](graph::BroadcastToOp b) -> Outcome {
          // Rows stay apart when the batch axis is broadcast to itself (the
          // backward of a mean over the other axes spreads each row's
          // gradient over its own row): the target's batch size becomes
          // one replica's share.
          SmallVector<int64_t> shape(b.getShape());
          int64_t axis = in.axis + int64_t(shape.size()) - rankOf(b.getInput());
          int64_t size = globalSize(b.getInput(), in.axis);
          if (shape[axis] != size) {
            return refuse("broadcasts the batch axis " + Twine(in.axis) +
                          " to " + Twine(shape[axis]) + " rows");
          }
          shape[axis] = size / replicas;
          b.setShape(shape);
          return all(op, in.at(axis));
        })
        .Case([&](graph::TransposeOp t) -> Outcome {
          auto perm = t.getPerm();
          auto it = llvm::find(perm, in.axis);
          return all(op, in.at(it - perm.begin()));
        })
        .Case([&](graph::ConcatOp c) -> Outcome {
          int64_t axis = normalizeAxis(c.getAxis(), rankOf(c.getResult()));
          if (axis == in.axis) {
            return refuse("concatenates along the batch axis " + Twine(axis));
          }
          for (Value v : c.getInputs()) {
            if (stateOf(v).kind != RowState::Batched ||
                stateOf(v).axis != in.axis || stateOf(v).blocks != in.blocks) {
              return refuse("concatenates a split value with one that is "
                            "not split");
            }
          }
          return all(op, in);
        })
        .Case([&](graph::SplitOp s) -> Outcome {
          int64_t axis = normalizeAxis(s.getAxis(), rankOf(s.getInput()));
          if (axis == in.axis) {
            return refuse("splits along the batch axis " + Twine(axis));
          }
          return all(op, in);
        })
        .Case([&](graph::SliceOp s) { return slice(s, in); })
        .Case([&](graph::SqueezeOp s) -> Outcome {
          int64_t rank = rankOf(s.getInput());
          int64_t removed = 0;
          for (int64_t a : s.getAxes()) {
            a = normalizeAxis(a, rank);
            if (a == in.axis) {
              return refuse("squeezes the batch axis " + Twine(a));
            }
            removed += a < in.axis;
          }
          return all(op, in.at(in.axis - removed));
        })
        .Case([&](graph::UnsqueezeOp u) { return unsqueeze(u, in); })
        .Case([&](graph::PadOp p) -> Outcome {
          if (p.getLow()[in.axis] != 0 || p.getHigh()[in.axis] != 0 ||
              !onlyFirstBatched()) {
            return refuse("pads along the batch axis " + Twine(in.axis));
          }
          return all(op, in);
        })
        .Case([&](graph::GatherOp g) -> Outcome {
          RowState data = stateOf(g.getInput()), idx = stateOf(g.getIndices());
          int64_t axis = normalizeAxis(g.getAxis(), rankOf(g.getInput()));
          if (g.getBatchDims() != 0) {
            return refuse("gathers with batch_dims");
          }
          // An embedding lookup: batched indices into a shared table.
          if (data.kind == RowState::Shared) {
            return all(op, idx.at(axis + idx.axis));
          }
          if (idx.kind != RowState::Shared || axis == data.axis) {
            return refuse("gathers along the batch axis " + Twine(data.axis));
          }
          return all(op, data.at(data.axis < axis
                                     ? data.axis
                                     : data.axis + rankOf(g.getIndices()) - 1));
        })
        .Case([&](graph::ScatterElementsOp sc) -> Outcome {
          // Rows stay apart when the scatter runs along another axis and
          // the indices and updates are split along the batch: the adjoint
          // of a max pool (graph-autodiff) adds each window's gradient into
          // zeros of x's shape, a splat of the whole batch, whose share is
          // a smaller splat.
          RowState idx = stateOf(sc.getIndices());
          RowState upd = stateOf(sc.getUpdates());
          RowState data = stateOf(sc.getInput());
          int64_t axis = normalizeAxis(sc.getAxis(), rankOf(sc.getInput()));
          if (idx.kind != RowState::Batched || upd.kind != RowState::Batched ||
              idx.axis != upd.axis || idx.blocks != upd.blocks ||
              axis == idx.axis) {
            return refuse("scatters along the batch axis, or with indices "
                          "and updates not split alike");
          }
          if (data.kind == RowState::Batched) {
            if (data.axis != idx.axis || data.blocks != idx.blocks) {
              return refuse(blocksDiffer(data, idx));
            }
            return all(op, idx);
          }
          int64_t size = globalSize(sc.getIndices(), idx.axis);
          if (!localSplat(sc.getInput(), idx.axis, size)) {
            return refuse("scatters split updates into a value that is not "
                          "split");
          }
          localizeSplats(op, idx.axis, size);
          return all(op, idx);
        })
        .Case([&](graph::OneHotOp o) -> Outcome {
          int64_t outRank = rankOf(o.getResult());
          int64_t axis = normalizeAxis(o.getAxis(), outRank);
          if (!onlyFirstBatched()) {
            return refuse("takes batched on/off values");
          }
          return all(op, in.at(in.axis + (axis <= in.axis)));
        })
        .Case([&](graph::SoftmaxCrossEntropyOp s) -> Outcome {
          if (stateOf(s.getLogits()).kind != RowState::Batched ||
              stateOf(s.getLabels()).kind != RowState::Batched ||
              stateOf(s.getLogits()).axis != 0 ||
              stateOf(s.getLabels()).axis != 0 ||
              stateOf(s.getLogits()).blocks != stateOf(s.getLabels()).blocks) {
            return refuse("needs logits and labels both split on axis 0");
          }
          return all(op, in);
        })
        // Under --replicas decomposeBatchNormTrain() has synchronised it;
        // microbatches run one after another, so none sees the batch.
        .Case([&](graph::BatchNormTrainOp) {
          return refuse("computes statistics over the batch axis, of which "
                        "each of the " +
                        unit +
                        " holds only a share; use graph.batch_norm with "
                        "running statistics (graphc --batch-norm=running)");
        })
        .Case([&](graph::AssignVariableOp a) {
          return refuse("assigns a split value to variable @" +
                        a.getVariable() +
                        "; each replica would store different rows");
        })
        .Case([&](dist::ReplicaAllReduceOp) {
          return refuse("all-reduces a value that is split along the batch; "
                        "all-reduce a reduction over the batch instead");
        })
        .Case([&](graph::ShapeOfOp) {
          return refuse("reads the shape of a split value, which differs per "
                        "replica");
        })
        .Default([&](Operation *) {
          return refuse("is not known to keep the rows of the batch apart "
                        "(dist-place's allowlist does not have it)");
        });
  }

  //===--------------------------------------------------------------------===//
  // The rewrite
  //===--------------------------------------------------------------------===//

  /// Gives `op` the result types its (now per-replica) operands infer,
  /// keeping static sizes the inference loses off the batch axis.
  LogicalResult reinferTypes(Operation *op, ArrayRef<RowState> results) {
    auto infer = dyn_cast<InferTypeOpInterface>(op);
    if (!infer) {
      return error(op, "cannot re-derive its result types for one replica");
    }
    SmallVector<Type> inferred;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), inferred))) {
      return error(op, "has no valid result type for one replica's share of "
                       "the batch");
    }
    for (auto [result, type, state] :
         llvm::zip_equal(op->getResults(), inferred, results)) {
      auto oldType = dyn_cast<RankedTensorType>(result.getType());
      auto newType = dyn_cast<RankedTensorType>(type);
      if (oldType && newType && oldType.getRank() == newType.getRank()) {
        SmallVector<int64_t> shape(newType.getShape());
        for (int64_t d = 0; d < newType.getRank(); ++d) {
          if (ShapedType::isDynamic(shape[d]) && d != state.axis) {
            shape[d] = oldType.getDimSize(d);
          }
        }
        type = newType.clone(shape);
      }
      result.setType(type);
    }
    return success();
  }

  /// The state of a linear function of partial values, which is partial
  /// too: the all-reduce that follows combines it as it would have combined
  /// its inputs (a gradient scaled by 1/B, the sum of two gradient paths, a
  /// transposed gradient). None when `op` is not one.
  std::optional<RowState> linearOfPartial(Operation *op) {
    SmallVector<RowState> partials;
    for (Value v : op->getOperands()) {
      RowState s = stateOf(v);
      if (s.kind == RowState::Batched) {
        return std::nullopt;
      }
      if (s.kind == RowState::Partial) {
        partials.push_back(s);
      }
    }
    if (partials.empty() || op->getNumRegions() != 0) {
      return std::nullopt;
    }
    RowState first = partials.front();
    bool allSame = llvm::all_of(partials, [&](const RowState &s) {
      return s.reduction == first.reduction;
    });
    // Rearranging elements commutes with any elementwise reduction.
    if (isa<graph::ReshapeOp, graph::TransposeOp, graph::IdentityOp,
            graph::SliceOp, graph::BroadcastToOp>(op)) {
      return first;
    }
    // A conversion between floats (a mixed-precision gradient brought back
    // to f32, docs/design/training.md): the all-reduce combines the
    // converted shares, in the wider type where the conversion widens, which
    // differs from converting the whole only by each share's rounding.
    if (auto cast = dyn_cast<graph::CastOp>(op);
        cast && isa<FloatType>(getElementTypeOrSelf(cast.getInput())) &&
        isa<FloatType>(getElementTypeOrSelf(cast.getType()))) {
      return first;
    }
    bool additive = first.reduction == dist::ReductionKind::sum ||
                    first.reduction == dist::ReductionKind::mean;
    if (!additive || !allSame) {
      return std::nullopt;
    }
    if (isa<graph::NegOp>(op)) {
      return first;
    }
    // Sums and differences of partial sums (or means) only.
    if (isa<graph::AddOp, graph::SubOp>(op) &&
        partials.size() == op->getNumOperands()) {
      return first;
    }
    // Sums and means of its elements (attention's weight gradient: one
    // product per sequence position, summed over them).
    if (auto reduce = dyn_cast<graph::ReduceOp>(op);
        reduce && (reduce.getKind() == graph::ReduceKind::sum ||
                   reduce.getKind() == graph::ReduceKind::mean)) {
      return first;
    }
    // Scaling by a value every replica shares.
    if (isa<graph::MulOp>(op) && partials.size() == 1) {
      return first;
    }
    if (isa<graph::DivOp>(op) && partials.size() == 1 &&
        stateOf(op->getOperand(0)).kind == RowState::Partial) {
      return first;
    }
    return std::nullopt;
  }

  /// Inserts the all-reduce that makes the partial `use` whole, with the
  /// reduction that made it partial, right after the value is computed: a
  /// gradient's all-reduce then starts while the backward pass goes on, and
  /// dist-fuse-collectives can bucket it with the next ones (their results
  /// are used only by the updates at the end).
  void allReduce(OpOperand &use) {
    RowState s = stateOf(use.get());
    OpBuilder b(use.getOwner());
    if (Operation *def = use.get().getDefiningOp()) {
      b.setInsertionPointAfter(def);
    } else {
      b.setInsertionPointToStart(use.get().getParentBlock());
    }
    auto reduce = dist::ReplicaAllReduceOp::create(
        b, use.get().getLoc(), use.get().getType(),
        dist::ReductionKindAttr::get(b.getContext(), s.reduction), use.get());
    setPlacement(reduce, replicatedDevice);
    use.set(reduce.getResult());
  }

  /// TF-Replicator's fill-in: a partial value (a weight gradient, each
  /// replica's share of the batch's) that reaches an optimizer update as its
  /// gradient, or a graph.assign_variable, is all-reduced first, so every
  /// replica applies the same update to its copy of the variable.
  void allReduceUpdates(Operation *op) {
    Value grad = llvm::TypeSwitch<Operation *, Value>(op)
                     .Case<graph::SGDUpdateOp, graph::MomentumUpdateOp,
                           graph::AdamUpdateOp, graph::FtrlUpdateOp>(
                         [](auto update) { return update.getGrad(); })
                     .Case([](graph::AssignVariableOp assign) {
                       return assign.getValue();
                     })
                     .Default([](Operation *) { return Value(); });
    if (!grad || stateOf(grad).kind != RowState::Partial) {
      return;
    }
    for (OpOperand &use : op->getOpOperands()) {
      if (use.get() == grad) {
        allReduce(use);
      }
    }
  }

  /// Synchronised batch norm: a reduction over the batch marked
  /// `graph.batch_statistic` (batch norm's mean and variance, and the sums
  /// over the batch in its gradient) is all-reduced right where it is
  /// computed, with the reduction that made it, so every replica
  /// normalises with (and differentiates through) the global batch's
  /// statistics, not its share's.
  void syncBatchStatistic(Operation *op) {
    if (!syncBatchNorm || !op->hasAttr(kBatchStatistic) ||
        op->getNumResults() != 1 ||
        stateOf(op->getResult(0)).kind != RowState::Partial) {
      return;
    }
    Value share = op->getResult(0);
    OpBuilder b(op->getContext());
    b.setInsertionPointAfter(op);
    auto reduce = dist::ReplicaAllReduceOp::create(
        b, share.getLoc(), share.getType(),
        dist::ReductionKindAttr::get(b.getContext(), stateOf(share).reduction),
        share);
    setPlacement(reduce, replicatedDevice);
    share.replaceAllUsesExcept(reduce.getResult(), reduce);
  }

  /// Each graph.batch_norm_train becomes its statistics as reductions
  /// marked `graph.batch_statistic` (the mean, then the mean of the squared
  /// deviations from it, as the op computes them) and an inference
  /// graph.batch_norm with them, so that syncBatchStatistic() can
  /// all-reduce them. One with a dynamic input stays, and is refused.
  void decomposeBatchNormTrain() {
    SmallVector<graph::BatchNormTrainOp> norms;
    func.walk([&](graph::BatchNormTrainOp op) { norms.push_back(op); });
    for (graph::BatchNormTrainOp op : norms) {
      Value x = op.getInput();
      auto type = dyn_cast<RankedTensorType>(x.getType());
      auto statType = dyn_cast<RankedTensorType>(op.getBatchMean().getType());
      if (!type || !type.hasStaticShape() || type.getRank() < 2 || !statType) {
        continue;
      }
      SmallVector<int64_t> axes, channels(type.getRank(), 1);
      channels[1] = type.getDimSize(1);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (d != 1) {
          axes.push_back(d);
        }
      }
      OpBuilder b(op);
      Location loc = op.getLoc();
      auto mean = graph::ReduceOp::create(b, loc, statType, x,
                                          graph::ReduceKind::mean, axes,
                                          /*keepdims=*/false);
      mean->setAttr(kBatchStatistic, b.getUnitAttr());
      auto perChannel = graph::ReshapeOp::create(b, loc, type.clone(channels),
                                                 mean, channels);
      auto centered = graph::SubOp::create(b, loc, type, x, perChannel);
      auto squares = graph::MulOp::create(b, loc, type, centered, centered);
      auto variance = graph::ReduceOp::create(b, loc, statType, squares,
                                              graph::ReduceKind::mean, axes,
                                              /*keepdims=*/false);
      variance->setAttr(kBatchStatistic, b.getUnitAttr());
      auto norm = graph::BatchNormOp::create(
          b, loc, op.getOutput().getType(), x, op.getScale(), op.getBias(),
          mean, variance, op.getEpsilonAttr());
      op.getOutput().replaceAllUsesWith(norm.getResult());
      op.getBatchMean().replaceAllUsesWith(mean.getResult());
      op.getBatchVariance().replaceAllUsesWith(variance.getResult());
      op.erase();
    }
  }

  /// Diagnoses a partial value reaching `user`, pointing at its reduction.
  LogicalResult partialReaches(RowState s, Operation *user,
                               StringRef userName) {
    return error(s.origin, "reduces over the batch axis ")
           << s.axis << ", and its result reaches " << userName
           << " without a dist.replica_all_reduce; each replica "
           << "holds only its share of it (all-reduce it, or keep the "
              "batch axis)";
  }

  LogicalResult run() {
    Block &body = func.getBody().front();
    MLIRContext *ctx = func.getContext();
    OpBuilder builder(ctx);

    // The batch is dimension 0 of the first input that has one.
    int64_t batchArg = -1;
    for (BlockArgument arg : body.getArguments()) {
      if (rankOf(arg) >= 1) {
        batchArg = arg.getArgNumber();
        break;
      }
    }
    if (batchArg < 0) {
      return func.emitError() << prefix << ": @" << func.getSymName()
                              << " has no input with a batch dimension";
    }
    globalBatch = cast<RankedTensorType>(body.getArgument(batchArg).getType())
                      .getDimSize(0);
    if (ShapedType::isDynamic(globalBatch)) {
      // graphc compiles a dynamic batch for one task only
      // (docs/design/dynamic-batch.md); replicas need it to split.
      std::string name = "#" + std::to_string(batchArg);
      if (auto given =
              func.getArgAttrOfType<StringAttr>(batchArg, "graph.name")) {
        name = given.getValue().str();
      }
      return func.emitError()
             << prefix << ": input #" << batchArg << " of @"
             << func.getSymName()
             << " has a dynamic batch size; fix it first (graph-infer-shapes "
                "arg-shapes; graphc: --input-shape "
             << name << ":NxD...)";
    }
    if (globalBatch % replicas != 0) {
      return func.emitError()
             << prefix << ": the batch size " << globalBatch
             << " (dimension 0 of input #" << batchArg
             << ") does not divide into " << replicas << " " << unit;
    }
    localBatch = globalBatch / replicas;

    DeviceAttr replicated =
        DeviceAttr::get(ctx, job, std::nullopt, std::nullopt, "", std::nullopt);
    replicatedDevice = replicated;
    DeviceAttr first =
        DeviceAttr::get(ctx, job, std::nullopt, 0, "", std::nullopt);
    func->setAttr(dist::DistDialect::kReplicasAttrName,
                  builder.getI64IntegerAttr(replicas));

    // Split every input batched like the first one.
    builder.setInsertionPointToStart(&body);
    for (BlockArgument arg : body.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      func.setArgAttr(arg.getArgNumber(), dist::DistDialect::kDeviceAttrName,
                      first);
      if (!type || type.getRank() < 1 || type.getDimSize(0) != globalBatch ||
          arg.use_empty()) {
        continue;
      }
      // Partitioning slices the batch with static bounds.
      if (!type.hasStaticShape()) {
        return func.emitError()
               << prefix << ": input #" << arg.getArgNumber() << " of @"
               << func.getSymName() << " has type " << type
               << "; a batched input needs a static shape to be split "
                  "(graph-infer-shapes arg-shapes)";
      }
      SmallVector<int64_t> shape(type.getShape());
      shape[0] = localBatch;
      auto split = dist::ReplicaSplitOp::create(
          builder, arg.getLoc(), type.clone(shape), arg, /*axis=*/0);
      arg.replaceAllUsesExcept(split.getResult(), split);
      states[split.getResult()] = RowState::batched(0);
    }

    if (syncBatchNorm) {
      decomposeBatchNormTrain();
    }
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      setPlacement(&op, replicated);
      if (isa<dist::ReplicaSplitOp>(op)) {
        continue;
      }
      if (std::optional<RowState> partial = linearOfPartial(&op)) {
        for (Value result : op.getResults()) {
          states[result] = *partial;
        }
        continue;
      }
      allReduceUpdates(&op);
      bool anyBatched = false;
      for (Value v : getUsedValues(&op)) {
        RowState s = stateOf(v);
        auto reduce = dyn_cast<dist::ReplicaAllReduceOp>(op);
        if (s.kind == RowState::Partial && !reduce) {
          return partialReaches(s, &op, describe(&op));
        }
        // Only the reduction that made the partial value makes it whole:
        // a mean of partial sums is 1/N of the sum the step computes.
        if (s.kind == RowState::Partial &&
            reduce.getReduction() != s.reduction) {
          return error(&op, "combines with ")
                 << stringifyReductionKind(reduce.getReduction())
                 << " the value that " << describe(s.origin) << " reduces with "
                 << stringifyReductionKind(s.reduction)
                 << " over the batch axis " << s.axis
                 << "; use dist.replica_all_reduce "
                 << stringifyReductionKind(s.reduction);
        }
        anyBatched |= s.kind == RowState::Batched;
      }
      // A partial value made whole is the same in every replica.
      if (isa<dist::ReplicaAllReduceOp>(op) && !anyBatched) {
        continue;
      }
      if (!anyBatched) {
        continue;
      }
      if (op.getNumRegions() != 0) {
        return error(&op, "uses a value split along the batch inside a "
                          "region, which dist-place cannot follow");
      }
      Outcome outcome = transfer(&op);
      if (auto *refusal = std::get_if<Refusal>(&outcome)) {
        return error(&op, refusal->reason);
      }
      auto &results = std::get<SmallVector<RowState>>(outcome);
      for (auto [value, state] : llvm::zip_equal(op.getResults(), results)) {
        states[value] = state;
      }
      bool typeChanges = llvm::any_of(results, [](const RowState &s) {
        return s.kind == RowState::Batched;
      });
      if (typeChanges && failed(reinferTypes(&op, results))) {
        return failure();
      }
      syncBatchStatistic(&op);
    }

    // Join batched outputs; the outputs belong to the first replica's task.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    builder.setInsertionPoint(ret);
    SmallVector<StringRef> outputNames;
    if (auto names = func->getAttrOfType<ArrayAttr>("graph.output_names")) {
      for (Attribute name : names) {
        auto str = dyn_cast<StringAttr>(name);
        outputNames.push_back(str ? str.getValue() : StringRef());
      }
    }
    for (OpOperand &operand : ret->getOpOperands()) {
      unsigned r = operand.getOperandNumber();
      func.setResultAttr(r, dist::DistDialect::kDeviceAttrName, first);
      RowState s = stateOf(operand.get());
      // A training step's loss (docs/design/training.md) is the mean over
      // the global batch: every replica gets the whole of it.
      if (s.kind == RowState::Partial && r < outputNames.size() &&
          outputNames[r] == "loss") {
        allReduce(operand);
        continue;
      }
      if (s.kind == RowState::Partial) {
        return partialReaches(s, ret,
                              "output #" + std::to_string(r) + " of @" +
                                  func.getSymName().str());
      }
      if (s.kind != RowState::Batched) {
        continue;
      }
      // Joining the replicas' shares end to end would reorder the rows.
      if (s.blocks != 1) {
        return func.emitError()
               << "dist-place: replicas=" << replicas << ": output #" << r
               << " of @" << func.getSymName() << " holds the batch along axis "
               << s.axis << " in " << s.blocks
               << " blocks (a reshape merged it under another dimension); "
                  "reshape it so the batch leads that dimension";
      }
      // Located at its input, so keys and diagnostics name the tensor.
      auto concat = dist::ReplicaConcatOp::create(
          builder, operand.get().getLoc(), func.getResultTypes()[r],
          operand.get(), s.axis);
      setPlacement(concat, first);
      operand.set(concat.getResult());
    }
    for (auto var : module.getOps<graph::VariableOp>()) {
      setPlacement(var, replicated);
    }
    return success();
  }
};
} // namespace

LogicalResult transforms::rewriteForReplicas(ModuleOp module, func::FuncOp func,
                                             int64_t replicas, StringRef job) {
  if (replicas == 1) {
    // One replica is the plain step on one task: nothing to split.
    placeAllOn(module, func,
               DeviceAttr::get(module.getContext(), job, std::nullopt, 0, "",
                               std::nullopt));
    return success();
  }
  std::string prefix = "dist-place: replicas=" + std::to_string(replicas);
  ReplicaRewriter rewriter(module, func, replicas, job, prefix, "replicas");
  rewriter.syncBatchNorm = true;
  return rewriter.run();
}

LogicalResult transforms::rewriteForBatchSlices(ModuleOp module,
                                                func::FuncOp func,
                                                int64_t slices, StringRef job,
                                                StringRef prefix,
                                                StringRef unit) {
  ReplicaRewriter rewriter(module, func, slices, job, prefix, unit);
  return rewriter.run();
}
