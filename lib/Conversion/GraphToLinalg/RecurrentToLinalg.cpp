//===- RecurrentToLinalg.cpp - graph lstm and gru to scf + linalg ---------===//
//
// ONNX LSTM and GRU (layout 0). Per direction, the input projection of the
// whole sequence is one linalg.matmul ([seq * batch, input] x [input, G*H]);
// an scf.for over the time steps carries the hidden (and cell) state and Y,
// doing one recurrent linalg.matmul and one gate generic per step. Without
// sequence_lens every batch row reads and writes time step t (reversed for
// the reverse direction); with them row b reads step t_b (len_b - 1 - s when
// reversed), keeps its state once s >= len_b and writes zeros to Y there.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "graph/GraphOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace graphc::graph;

namespace graphc::lowering {
namespace {

using Activation = std::function<Value(OpBuilder &, Location, Value)>;

/// The ONNX activation `name` (verified: one without parameters).
Activation getActivation(StringRef name) {
  std::string lower = name.lower();
  if (lower == "tanh") {
    return [](OpBuilder &b, Location loc, Value x) -> Value {
      return math::TanhOp::create(b, loc, x);
    };
  }
  if (lower == "relu") {
    return [](OpBuilder &b, Location loc, Value x) -> Value {
      return createMax(b, loc, x, createScalar(b, loc, x.getType(), 0));
    };
  }
  if (lower == "softsign") {
    return [](OpBuilder &b, Location loc, Value x) -> Value {
      Value one = createScalar(b, loc, x.getType(), 1);
      return arith::DivFOp::create(
          b, loc, x,
          arith::AddFOp::create(b, loc, one, math::AbsFOp::create(b, loc, x)));
    };
  }
  if (lower == "softplus") {
    return [](OpBuilder &b, Location loc, Value x) -> Value {
      return math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
    };
  }
  // sigmoid(x) = 1 / (1 + exp(-x))
  return [](OpBuilder &b, Location loc, Value x) -> Value {
    Value one = createScalar(b, loc, x.getType(), 1);
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, one,
                                 arith::AddFOp::create(b, loc, one, e));
  };
}

/// `value[index]` of a `[dirs, ...]` tensor, the leading dim dropped.
Value sliceDirection(OpBuilder &b, Location loc, Value value, int64_t index) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = b.getIndexAttr(index);
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t size : type.getShape().drop_front()) {
    sizes.push_back(b.getIndexAttr(size));
  }
  auto resultType = RankedTensorType::get(type.getShape().drop_front(),
                                          type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, value, offsets,
                                        sizes, strides);
}

/// `value[from:from+size]` of a 1-d tensor.
Value slice1d(OpBuilder &b, Location loc, Value value, int64_t from,
              int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType = RankedTensorType::get({size}, type.getElementType());
  return tensor::ExtractSliceOp::create(
      b, loc, resultType, value, ArrayRef<OpFoldResult>{b.getIndexAttr(from)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(size)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

Value transpose2d(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType = RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value,
                                     createEmpty(b, loc, resultType),
                                     ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

/// `lhs` `[m, k]` x `rhs` `[k, n]`.
Value matmul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  auto type = RankedTensorType::get({lt.getDimSize(0), rt.getDimSize(1)},
                                    lt.getElementType());
  Value acc =
      createFilled(b, loc, type, createScalar(b, loc, lt.getElementType(), 0));
  return linalg::MatmulOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                                  ValueRange{acc})
      .getResult(0);
}

/// What every recurrent step needs, per layer.
struct Recurrence {
  int64_t seq, batch, hidden, gates;
  Type type;
  Value sequenceLens; // [batch] i32 or null
  std::optional<float> clip;
};

/// The input projection of direction `d`: `X W^T + Wb`, `[seq, batch, G*H]`.
Value projectInput(OpBuilder &b, Location loc, const Recurrence &r, Value x,
                   Value w, Value wBias) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t input = xt.getDimSize(2), gh = r.gates * r.hidden;
  Value flat = reshapeTo(
      b, loc, x, RankedTensorType::get({r.seq * r.batch, input}, r.type));
  Value xw = matmul(b, loc, flat, transpose2d(b, loc, w));
  if (wBias) {
    MLIRContext *ctx = b.getContext();
    xw = buildParallelGeneric(
        b, loc, xw, r.type, ValueRange{xw, wBias},
        {b.getMultiDimIdentityMap(2),
         AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx)},
        [](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
          return arith::AddFOp::create(nb, nloc, a[0], a[1]);
        });
  }
  return reshapeTo(b, loc, xw,
                   RankedTensorType::get({r.seq, r.batch, gh}, r.type));
}

/// The time step each batch row reads at step `s` and whether the row is
/// still inside its sequence. Without sequence_lens: (t, true).
std::pair<Value, Value> rowStep(OpBuilder &b, Location loc, const Recurrence &r,
                                bool reverse, Value s, Value len) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  if (!len) {
    Value t = s;
    if (reverse) {
      Value last = arith::ConstantIndexOp::create(b, loc, r.seq - 1);
      t = arith::SubIOp::create(b, loc, last, s);
    }
    return {t, arith::ConstantOp::create(b, loc, b.getBoolAttr(true))};
  }
  len = arith::IndexCastOp::create(b, loc, b.getIndexType(), len);
  Value valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, s, len);
  Value t = s;
  if (reverse) {
    Value back = arith::SubIOp::create(
        b, loc, arith::SubIOp::create(b, loc, len, one), s);
    t = arith::SelectOp::create(b, loc, valid, back, s);
  }
  return {t, valid};
}

/// The gate inputs of step `s`, `[batch, G*H]`, for every row.
Value stepInput(OpBuilder &b, Location loc, const Recurrence &r, Value xw,
                bool reverse, Value s) {
  int64_t gh = r.gates * r.hidden;
  auto type = RankedTensorType::get({r.batch, gh}, r.type);
  if (!r.sequenceLens) {
    Value t = rowStep(b, loc, r, reverse, s, nullptr).first;
    return tensor::ExtractSliceOp::create(
        b, loc, type, xw,
        ArrayRef<OpFoldResult>{t, b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(r.batch),
                               b.getIndexAttr(gh)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                               b.getIndexAttr(1)});
  }
  MLIRContext *ctx = b.getContext();
  return buildParallelGeneric(
      b, loc, createEmpty(b, loc, type), r.type, ValueRange{r.sequenceLens},
      {AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx)},
      [&](OpBuilder &nb, Location nloc, ValueRange a) -> Value {
        Value row = linalg::IndexOp::create(nb, nloc, 0);
        Value col = linalg::IndexOp::create(nb, nloc, 1);
        Value t = rowStep(nb, nloc, r, reverse, s, a[0]).first;
        // A finished row reads a step it ignores: keep it in bounds.
        Value last = arith::ConstantIndexOp::create(nb, nloc, r.seq - 1);
        t = arith::MinSIOp::create(nb, nloc, t, last);
        return tensor::ExtractOp::create(nb, nloc, xw, ValueRange{t, row, col});
      });
}

/// Writes `h` `[batch, H]` into `y` `[seq, dirs, batch, H]` for direction
/// `d` at step `s` (per row with sequence_lens, zeros past a row's end).
Value writeOutput(OpBuilder &b, Location loc, const Recurrence &r, Value y,
                  Value h, int64_t d, bool reverse, Value s) {
  auto one = b.getIndexAttr(1);
  if (!r.sequenceLens) {
    Value t = rowStep(b, loc, r, reverse, s, nullptr).first;
    return tensor::InsertSliceOp::create(
        b, loc, h, y,
        ArrayRef<OpFoldResult>{t, b.getIndexAttr(d), b.getIndexAttr(0),
                               b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{one, one, b.getIndexAttr(r.batch),
                               b.getIndexAttr(r.hidden)},
        ArrayRef<OpFoldResult>{one, one, one, one});
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows = arith::ConstantIndexOp::create(b, loc, r.batch);
  auto rowType = RankedTensorType::get({r.hidden}, r.type);
  Value zeros = createFilled(b, loc, rowType, createScalar(b, loc, r.type, 0));
  auto loop = scf::ForOp::create(
      b, loc, zero, rows, step, ValueRange{y},
      [&](OpBuilder &nb, Location nloc, Value row, ValueRange iter) {
        Value len = tensor::ExtractOp::create(nb, nloc, r.sequenceLens, row);
        auto [t, valid] = rowStep(nb, nloc, r, reverse, s, len);
        Value hRow = tensor::ExtractSliceOp::create(
            nb, nloc, rowType, h,
            ArrayRef<OpFoldResult>{row, nb.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{one, nb.getIndexAttr(r.hidden)},
            ArrayRef<OpFoldResult>{one, one});
        Value value = arith::SelectOp::create(nb, nloc, valid, hRow, zeros);
        Value updated = tensor::InsertSliceOp::create(
            nb, nloc, value, iter[0],
            ArrayRef<OpFoldResult>{t, nb.getIndexAttr(d), row,
                                   nb.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{one, one, one, nb.getIndexAttr(r.hidden)},
            ArrayRef<OpFoldResult>{one, one, one, one});
        scf::YieldOp::create(nb, nloc, updated);
      });
  return loop.getResult(0);
}

/// Gate `gate` (`H` wide) of a `[batch, G*H]` or `[G*H]` tensor. Linalg
/// infers loop sizes from plain dimension maps, so gates are sliced out
/// rather than read through `j + gate * H` maps.
Value gateSlice(OpBuilder &b, Location loc, Value value, int64_t gate,
                int64_t hidden) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1) {
    return slice1d(b, loc, value, gate * hidden, hidden);
  }
  auto one = b.getIndexAttr(1);
  int64_t rows = type.getDimSize(0);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({rows, hidden}, type.getElementType()),
      value,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(gate * hidden)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(hidden)},
      ArrayRef<OpFoldResult>{one, one});
}

Value clipValue(OpBuilder &b, Location loc, const Recurrence &r, Value x) {
  if (!r.clip) {
    return x;
  }
  Value hi = createScalar(b, loc, r.type, *r.clip);
  Value lo = createScalar(b, loc, r.type, -*r.clip);
  return createMin(b, loc, createMax(b, loc, x, lo), hi);
}

/// The initial state of direction `d`: `init[d]` or zeros.
Value initialState(OpBuilder &b, Location loc, const Recurrence &r, Value init,
                   int64_t d) {
  if (init) {
    return sliceDirection(b, loc, init, d);
  }
  return createFilled(b, loc,
                      RankedTensorType::get({r.batch, r.hidden}, r.type),
                      createScalar(b, loc, r.type, 0));
}

/// Collects the activation functions of direction `d` (`perDirection` of
/// them), defaulting to `defaults`.
SmallVector<Activation> getActivations(std::optional<ArrayAttr> names,
                                       int64_t d, int64_t perDirection,
                                       ArrayRef<StringRef> defaults) {
  SmallVector<Activation> result;
  for (int64_t i = 0; i < perDirection; ++i) {
    StringRef name = defaults[i];
    if (names && *names) {
      name = cast<StringAttr>((*names)[d * perDirection + i]).getValue();
    }
    result.push_back(getActivation(name));
  }
  return result;
}

/// Places `states` (one `[batch, H]` per direction) into `[dirs, batch, H]`.
Value stackDirections(OpBuilder &b, Location loc, const Recurrence &r,
                      ArrayRef<Value> states) {
  int64_t dirs = states.size();
  auto type = RankedTensorType::get({dirs, r.batch, r.hidden}, r.type);
  Value result = createEmpty(b, loc, type);
  auto one = b.getIndexAttr(1);
  for (auto [d, state] : llvm::enumerate(states)) {
    result = tensor::InsertSliceOp::create(
        b, loc, state, result,
        ArrayRef<OpFoldResult>{b.getIndexAttr(d), b.getIndexAttr(0),
                               b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{one, b.getIndexAttr(r.batch),
                               b.getIndexAttr(r.hidden)},
        ArrayRef<OpFoldResult>{one, one, one});
  }
  return result;
}

/// Runs `step(s, state..., y) -> (state'..., y')` for s in [0, seq).
Value runSteps(OpBuilder &b, Location loc, const Recurrence &r,
               SmallVectorImpl<Value> &state, Value y,
               llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                     Value, ValueRange)>
                   step) {
  SmallVector<Value> init(state.begin(), state.end());
  init.push_back(y);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value seq = arith::ConstantIndexOp::create(b, loc, r.seq);
  auto loop = scf::ForOp::create(
      b, loc, zero, seq, one, init,
      [&](OpBuilder &nb, Location nloc, Value s, ValueRange iter) {
        scf::YieldOp::create(nb, nloc, step(nb, nloc, s, iter));
      });
  for (size_t i = 0; i < state.size(); ++i) {
    state[i] = loop.getResult(i);
  }
  return loop.getResults().back();
}

/// Copies the new state `value` over the loop-carried `dest`, so that the
/// loop yields a value equivalent to its iteration argument (one-shot
/// bufferization refuses a loop that yields a new buffer, and
/// graphc-cpu-codegen may retarget the state's producer to Y's slice).
Value copyInto(OpBuilder &b, Location loc, Value value, Value dest) {
  return linalg::CopyOp::create(b, loc, value, dest).getResult(0);
}

/// Keeps the old state of rows past their sequence's end.
Value keepFinished(OpBuilder &b, Location loc, const Recurrence &r, Value valid,
                   Value fresh, Value old) {
  if (!r.sequenceLens) {
    return fresh;
  }
  return arith::SelectOp::create(b, loc, valid, fresh, old);
}

//===----------------------------------------------------------------------===//
// LSTMOp
//===----------------------------------------------------------------------===//

struct LSTMLowering : OpConversionPattern<LSTMOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LSTMOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    Recurrence r;
    r.seq = xType.getDimSize(0);
    r.batch = xType.getDimSize(1);
    r.hidden = static_cast<int64_t>(op.getHiddenSize());
    r.gates = 4;
    r.type = xType.getElementType();
    r.sequenceLens = adaptor.getSequenceLens();
    if (auto clip = op.getClip()) {
      r.clip = clip->convertToFloat();
    }
    int64_t h = r.hidden;
    bool bidirectional = op.getDirection() == RNNDirection::bidirectional;
    int64_t dirs = bidirectional ? 2 : 1;
    auto yType = cast<RankedTensorType>(op.getY().getType());
    Value y = createFilled(rewriter, loc, yType,
                           createScalar(rewriter, loc, r.type, 0));
    SmallVector<Value> finalH, finalC;
    bool coupled = op.getInputForget();
    for (int64_t d = 0; d < dirs; ++d) {
      bool reverse = op.getDirection() == RNNDirection::reverse || d == 1;
      Value w = sliceDirection(rewriter, loc, adaptor.getW(), d);
      Value rt = transpose2d(rewriter, loc,
                             sliceDirection(rewriter, loc, adaptor.getR(), d));
      Value wBias, rBias, peep;
      if (adaptor.getB()) {
        Value bias = sliceDirection(rewriter, loc, adaptor.getB(), d);
        wBias = slice1d(rewriter, loc, bias, 0, 4 * h);
        rBias = slice1d(rewriter, loc, bias, 4 * h, 4 * h);
      }
      if (adaptor.getP()) {
        peep = sliceDirection(rewriter, loc, adaptor.getP(), d);
      }
      SmallVector<Activation> act = getActivations(op.getActivations(), d, 3,
                                                   {"Sigmoid", "Tanh", "Tanh"});
      Value xw = projectInput(rewriter, loc, r, adaptor.getX(), w, wBias);
      SmallVector<Value> state = {
          initialState(rewriter, loc, r, adaptor.getInitialH(), d),
          initialState(rewriter, loc, r, adaptor.getInitialC(), d)};
      y = runSteps(
          rewriter, loc, r, state, y,
          [&](OpBuilder &b, Location nloc, Value s,
              ValueRange iter) -> SmallVector<Value> {
            Value hPrev = iter[0], cPrev = iter[1];
            Value xs = stepInput(b, nloc, r, xw, reverse, s);
            Value hr = matmul(b, nloc, hPrev, rt);
            // Inputs: x and h projections of gates i, o, f, c; the
            // previous cell; optional recurrent bias, peepholes, lengths.
            AffineMap id = b.getMultiDimIdentityMap(2);
            AffineMap col =
                AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
            SmallVector<Value> ins;
            SmallVector<AffineMap> maps;
            for (int64_t g = 0; g < 4; ++g) {
              ins.append(
                  {gateSlice(b, nloc, xs, g, h), gateSlice(b, nloc, hr, g, h)});
              maps.append({id, id});
            }
            ins.push_back(cPrev);
            ins.push_back(hPrev);
            maps.append({id, id});
            if (rBias) {
              for (int64_t g = 0; g < 4; ++g) {
                ins.push_back(gateSlice(b, nloc, rBias, g, h));
                maps.push_back(col);
              }
            }
            if (peep) {
              for (int64_t g = 0; g < 3; ++g) {
                ins.push_back(gateSlice(b, nloc, peep, g, h));
                maps.push_back(col);
              }
            }
            if (r.sequenceLens) {
              ins.push_back(r.sequenceLens);
              maps.push_back(
                  AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx));
            }
            auto stateType = RankedTensorType::get({r.batch, h}, r.type);
            maps.append(
                {b.getMultiDimIdentityMap(2), b.getMultiDimIdentityMap(2)});
            SmallVector<utils::IteratorType> iterators(
                2, utils::IteratorType::parallel);
            auto cell = linalg::GenericOp::create(
                b, nloc, TypeRange{stateType, stateType}, ins,
                ValueRange{createEmpty(b, nloc, stateType),
                           createEmpty(b, nloc, stateType)},
                maps, iterators, [&](OpBuilder &nb, Location l, ValueRange a) {
                  auto add = [&](Value p, Value q) -> Value {
                    return arith::AddFOp::create(nb, l, p, q);
                  };
                  auto mul = [&](Value p, Value q) -> Value {
                    return arith::MulFOp::create(nb, l, p, q);
                  };
                  size_t next = 10;
                  SmallVector<Value> pre;
                  for (int64_t g = 0; g < 4; ++g) {
                    pre.push_back(add(a[2 * g], a[2 * g + 1]));
                  }
                  if (rBias) {
                    for (int64_t g = 0; g < 4; ++g) {
                      pre[g] = add(pre[g], a[next++]);
                    }
                  }
                  Value c = a[8], hOld = a[9];
                  Value pi, po, pf;
                  if (peep) {
                    pi = a[next++];
                    po = a[next++];
                    pf = a[next++];
                    pre[0] = add(pre[0], mul(pi, c));
                    pre[2] = add(pre[2], mul(pf, c));
                  }
                  Value valid;
                  if (r.sequenceLens) {
                    Value len = arith::IndexCastOp::create(
                        nb, l, nb.getIndexType(), a[next++]);
                    valid = arith::CmpIOp::create(
                        nb, l, arith::CmpIPredicate::slt, s, len);
                  }
                  Value i = act[0](nb, l, clipValue(nb, l, r, pre[0]));
                  Value f;
                  if (coupled) {
                    f = arith::SubFOp::create(
                        nb, l, createScalar(nb, l, r.type, 1), i);
                  } else {
                    f = act[0](nb, l, clipValue(nb, l, r, pre[2]));
                  }
                  Value candidate = act[1](nb, l, clipValue(nb, l, r, pre[3]));
                  Value cNew = add(mul(f, c), mul(i, candidate));
                  Value oPre = pre[1];
                  if (peep) {
                    oPre = add(oPre, mul(po, cNew));
                  }
                  Value o = act[0](nb, l, clipValue(nb, l, r, oPre));
                  Value hNew = mul(o, act[2](nb, l, cNew));
                  linalg::YieldOp::create(
                      nb, l,
                      ValueRange{keepFinished(nb, l, r, valid, hNew, hOld),
                                 keepFinished(nb, l, r, valid, cNew, c)});
                });
            Value hNext = cell.getResult(0), cNext = cell.getResult(1);
            Value yNext =
                writeOutput(b, nloc, r, iter[2], hNext, d, reverse, s);
            return {copyInto(b, nloc, hNext, hPrev),
                    copyInto(b, nloc, cNext, cPrev), yNext};
          });
      finalH.push_back(state[0]);
      finalC.push_back(state[1]);
    }
    Value yh = stackDirections(rewriter, loc, r, finalH);
    Value yc = stackDirections(rewriter, loc, r, finalC);
    rewriter.replaceOp(op, {y, yh, yc});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// GRUOp
//===----------------------------------------------------------------------===//

struct GRULowering : OpConversionPattern<GRUOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GRUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(requireStaticShapes(op))) {
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    Recurrence r;
    r.seq = xType.getDimSize(0);
    r.batch = xType.getDimSize(1);
    r.hidden = static_cast<int64_t>(op.getHiddenSize());
    r.gates = 3;
    r.type = xType.getElementType();
    r.sequenceLens = adaptor.getSequenceLens();
    if (auto clip = op.getClip()) {
      r.clip = clip->convertToFloat();
    }
    int64_t h = r.hidden;
    bool bidirectional = op.getDirection() == RNNDirection::bidirectional;
    int64_t dirs = bidirectional ? 2 : 1;
    bool linearBeforeReset = op.getLinearBeforeReset();
    auto yType = cast<RankedTensorType>(op.getY().getType());
    Value y = createFilled(rewriter, loc, yType,
                           createScalar(rewriter, loc, r.type, 0));
    auto stateType = RankedTensorType::get({r.batch, h}, r.type);
    AffineMap id = rewriter.getMultiDimIdentityMap(2);
    AffineMap rowMap = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
    SmallVector<Value> finalH;
    for (int64_t d = 0; d < dirs; ++d) {
      bool reverse = op.getDirection() == RNNDirection::reverse || d == 1;
      Value w = sliceDirection(rewriter, loc, adaptor.getW(), d);
      Value rt = transpose2d(rewriter, loc,
                             sliceDirection(rewriter, loc, adaptor.getR(), d));
      Value wBias, rBias;
      if (adaptor.getB()) {
        Value bias = sliceDirection(rewriter, loc, adaptor.getB(), d);
        wBias = slice1d(rewriter, loc, bias, 0, 3 * h);
        rBias = slice1d(rewriter, loc, bias, 3 * h, 3 * h);
      } else {
        rBias =
            createFilled(rewriter, loc, RankedTensorType::get({3 * h}, r.type),
                         createScalar(rewriter, loc, r.type, 0));
      }
      // R^T split: the z and r columns, and the h columns (used after the
      // reset gate unless linear_before_reset).
      auto colsOf = [&](int64_t from, int64_t size) -> Value {
        auto type = RankedTensorType::get({h, size}, r.type);
        auto one = rewriter.getIndexAttr(1);
        return tensor::ExtractSliceOp::create(
            rewriter, loc, type, rt,
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                   rewriter.getIndexAttr(from)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(h),
                                   rewriter.getIndexAttr(size)},
            ArrayRef<OpFoldResult>{one, one});
      };
      Value rtZR = colsOf(0, 2 * h), rtH = colsOf(2 * h, h);
      SmallVector<Activation> act =
          getActivations(op.getActivations(), d, 2, {"Sigmoid", "Tanh"});
      Value xw = projectInput(rewriter, loc, r, adaptor.getX(), w, wBias);
      SmallVector<Value> state = {
          initialState(rewriter, loc, r, adaptor.getInitialH(), d)};
      y = runSteps(
          rewriter, loc, r, state, y,
          [&](OpBuilder &b, Location nloc, Value s,
              ValueRange iter) -> SmallVector<Value> {
            Value hPrev = iter[0];
            Value xs = stepInput(b, nloc, r, xw, reverse, s);
            Value hrZR = matmul(b, nloc, hPrev, rtZR);
            auto sum3 = [&](OpBuilder &nb, Location l, Value p, Value q,
                            Value t) -> Value {
              return arith::AddFOp::create(
                  nb, l, arith::AddFOp::create(nb, l, p, q), t);
            };
            // z and r: act0(x + h R + Wb + Rb), one generic with two outputs.
            AffineMap col =
                AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
            auto gates = linalg::GenericOp::create(
                b, nloc, TypeRange{stateType, stateType},
                ValueRange{gateSlice(b, nloc, xs, 0, h),
                           gateSlice(b, nloc, hrZR, 0, h),
                           gateSlice(b, nloc, rBias, 0, h),
                           gateSlice(b, nloc, xs, 1, h),
                           gateSlice(b, nloc, hrZR, 1, h),
                           gateSlice(b, nloc, rBias, 1, h)},
                ValueRange{createEmpty(b, nloc, stateType),
                           createEmpty(b, nloc, stateType)},
                SmallVector<AffineMap>{id, id, col, id, id, col, id, id},
                SmallVector<utils::IteratorType>(2,
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nb, Location l, ValueRange a) {
                  Value z = act[0](
                      nb, l,
                      clipValue(nb, l, r, sum3(nb, l, a[0], a[1], a[2])));
                  Value rg = act[0](
                      nb, l,
                      clipValue(nb, l, r, sum3(nb, l, a[3], a[4], a[5])));
                  linalg::YieldOp::create(nb, l, ValueRange{z, rg});
                });
            Value z = gates.getResult(0), reset = gates.getResult(1);
            // The recurrent term of the candidate, [batch, H], Rbh included:
            // (r * h) Rh + Rbh, or r * (h Rh + Rbh) with linear_before_reset.
            Value rbH = slice1d(b, nloc, rBias, 2 * h, h);
            Value recurrent;
            AffineMap colMap =
                AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
            if (linearBeforeReset) {
              Value hr = matmul(b, nloc, hPrev, rtH);
              recurrent = buildParallelGeneric(
                  b, nloc, hr, r.type, ValueRange{hr, rbH, reset},
                  {id, colMap, id},
                  [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                    return arith::MulFOp::create(
                        nb, l, a[2], arith::AddFOp::create(nb, l, a[0], a[1]));
                  });
            } else {
              Value rh = buildParallelGeneric(
                  b, nloc, hPrev, r.type, ValueRange{reset, hPrev}, {id, id},
                  [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                    return arith::MulFOp::create(nb, l, a[0], a[1]);
                  });
              Value hr = matmul(b, nloc, rh, rtH);
              recurrent = buildParallelGeneric(
                  b, nloc, hr, r.type, ValueRange{hr, rbH}, {id, colMap},
                  [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                    return arith::AddFOp::create(nb, l, a[0], a[1]);
                  });
            }
            SmallVector<Value> ins = {gateSlice(b, nloc, xs, 2, h), recurrent,
                                      z, hPrev};
            SmallVector<AffineMap> maps = {id, id, id, id};
            if (r.sequenceLens) {
              ins.push_back(r.sequenceLens);
              maps.push_back(rowMap);
            }
            maps.push_back(id);
            Value hNext =
                linalg::GenericOp::create(
                    b, nloc, TypeRange{stateType}, ins,
                    ValueRange{createEmpty(b, nloc, stateType)}, maps,
                    SmallVector<utils::IteratorType>(
                        2, utils::IteratorType::parallel),
                    [&](OpBuilder &nb, Location l, ValueRange a) {
                      Value candidate = act[1](
                          nb, l,
                          clipValue(nb, l, r,
                                    arith::AddFOp::create(nb, l, a[0], a[1])));
                      // (1 - z) * candidate + z * h
                      Value one = createScalar(nb, l, r.type, 1);
                      Value fresh = arith::AddFOp::create(
                          nb, l,
                          arith::MulFOp::create(
                              nb, l, arith::SubFOp::create(nb, l, one, a[2]),
                              candidate),
                          arith::MulFOp::create(nb, l, a[2], a[3]));
                      Value valid;
                      if (r.sequenceLens) {
                        Value len = arith::IndexCastOp::create(
                            nb, l, nb.getIndexType(), a[4]);
                        valid = arith::CmpIOp::create(
                            nb, l, arith::CmpIPredicate::slt, s, len);
                      }
                      linalg::YieldOp::create(
                          nb, l, keepFinished(nb, l, r, valid, fresh, a[3]));
                    })
                    .getResult(0);
            Value yNext =
                writeOutput(b, nloc, r, iter[1], hNext, d, reverse, s);
            return {copyInto(b, nloc, hNext, hPrev), yNext};
          });
      finalH.push_back(state[0]);
    }
    rewriter.replaceOp(op, {y, stackDirections(rewriter, loc, r, finalH)});
    return success();
  }
};

} // namespace

void populateRecurrentPatterns(RewritePatternSet &patterns,
                               const TypeConverter *converter) {
  addPatterns<LSTMLowering, GRULowering>(patterns, converter);
}

} // namespace graphc::lowering
