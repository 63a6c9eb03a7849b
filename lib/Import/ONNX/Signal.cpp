//===- Signal.cpp - ONNX signal ops to the graph dialect ------------------===//
//
// HannWindow, HammingWindow, BlackmanWindow, MelWeightMatrix, DFT and STFT.
//
// graphc compiles static shapes, so a window's size, the mel matrix's
// parameters and a DFT's length are compile-time values; the windows and
// the mel matrix are then constants, computed here. A DFT of static length
// is a product with a constant matrix of twiddle factors: the signal axis
// and the real/imaginary axis are moved last and flattened into one
// contraction axis, one graph.matmul with a [N*C, K*C'] matrix computes
// every output bin's real and imaginary part, and the result is moved
// back. That is the O(N*K) direct transform, not an FFT: it reuses the
// tuned matmul lowering and suits the short transforms of audio front
// ends (STFT frames), not long signals (the matrix is capped below). STFT
// is a gather of the frames (constant indices), the window product, and
// that DFT along the frame axis.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeBuilder.h"

#include <cmath>

using namespace mlir;

namespace graphc::import {

namespace {

/// The most elements a DFT's twiddle matrix may have (16 MiB in f32).
constexpr int64_t kMaxTwiddleElements = int64_t(1) << 22;

/// A constant scalar operand (one element, any shape), as a double.
std::optional<double> constScalar(Value v) {
  DenseElementsAttr a;
  if (!v || !matchPattern(v, m_Constant(&a)) || a.getNumElements() != 1) {
    return std::nullopt;
  }
  if (isa<FloatType>(a.getElementType())) {
    return (*a.getValues<llvm::APFloat>().begin()).convertToDouble();
  }
  if (isa<IntegerType>(a.getElementType())) {
    return double((*a.getValues<llvm::APInt>().begin()).getSExtValue());
  }
  return std::nullopt;
}

/// `values` as a constant of `shape` and element type `element` (float, or
/// integer by truncation toward zero).
DenseElementsAttr denseOf(ArrayRef<int64_t> shape, Type element,
                          ArrayRef<double> values) {
  llvm::SmallVector<Attribute> elems;
  elems.reserve(values.size());
  for (double v : values) {
    if (isa<FloatType>(element)) {
      elems.push_back(FloatAttr::get(element, v));
    } else {
      elems.push_back(IntegerAttr::get(element, int64_t(v)));
    }
  }
  return DenseElementsAttr::get(RankedTensorType::get(shape, element), elems);
}

/// What a DFT computes, for the twiddle matrix.
struct DftForm {
  int64_t length;          // L: the transform length (dft_length)
  bool inverse;            // e^{+i..} and 1/L
  bool onesided;           // forward: bins 0..L/2; inverse: Hermitian input
  ArrayRef<double> window; // per input sample, or empty
};

/// The number of output bins and of output parts (2 = complex, 1 = real).
std::pair<int64_t, int64_t> dftOutput(const DftForm &f) {
  if (f.inverse && f.onesided) {
    return {f.length, 1};
  }
  return {f.onesided ? f.length / 2 + 1 : f.length, 2};
}

/// The [inLen*inParts, K*outParts] matrix with which a row of the signal
/// (sample-major, real/imaginary minor) multiplies into a row of the
/// transform (bin-major, real/imaginary minor).
llvm::SmallVector<double> twiddles(const DftForm &f, int64_t inLen,
                                   int64_t inParts) {
  auto [bins, outParts] = dftOutput(f);
  int64_t L = f.length;
  int64_t cols = bins * outParts;
  llvm::SmallVector<double> m(inLen * inParts * cols, 0.0);
  // cos and sin of 2 pi a b / L. k*n is reduced modulo L first (cos/sin of
  // large arguments lose digits), and quarter turns are exact, so that
  // bins that should cancel (a real signal's Nyquist bin) do.
  auto turn = [&](int64_t a, int64_t b) -> std::pair<double, double> {
    int64_t r = (a * b) % L;
    if ((4 * r) % L == 0) {
      static const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
      int64_t q = 4 * r / L;
      return {c[q], s[q]};
    }
    double t = 2.0 * M_PI * double(r) / double(L);
    return {std::cos(t), std::sin(t)};
  };
  for (int64_t n = 0; n < inLen; ++n) {
    for (int64_t k = 0; k < bins; ++k) {
      double re[2], im[2]; // contribution of input part c to output re/im
      if (f.inverse && f.onesided) {
        // Inverse of a one-sided spectrum: input bin n stands for itself
        // and its mirror L-n, whose imaginary parts cancel.
        double weight = (n == 0 || 2 * n == L) ? 1 : 2 * n < L ? 2 : 0;
        auto [cosT, sinT] = turn(n, k);
        re[0] = weight * cosT / double(L);
        re[1] = -weight * sinT / double(L);
        im[0] = im[1] = 0;
      } else {
        if (n >= L) {
          continue; // truncated by dft_length
        }
        double s = f.inverse ? 1 : -1;
        double scale = (f.inverse ? 1.0 / double(L) : 1.0) *
                       (f.window.empty() ? 1.0 : f.window[n]);
        auto [cosT, sinT] = turn(k, n);
        re[0] = cosT * scale;
        im[0] = s * sinT * scale;
        re[1] = -s * sinT * scale;
        im[1] = cosT * scale;
      }
      for (int64_t c = 0; c < inParts; ++c) {
        int64_t row = n * inParts + c;
        m[row * cols + k * outParts] = re[c];
        if (outParts == 2) {
          m[row * cols + k * outParts + 1] = im[c];
        }
      }
    }
  }
  return m;
}

} // namespace

/// The element type of a window or Mel matrix (`output_datatype`).
static FailureOr<Type> outputType(OnnxImporter &imp, StringRef op,
                                  const onnx::NodeProto &def, Location at) {
  int64_t dt = imp.attrInt(def, "output_datatype", onnx::TensorProto::FLOAT);
  Type t = convertOnnxElementType(imp.ctx, int32_t(dt));
  if (!t || (!isa<FloatType>(t) && !isa<IntegerType>(t))) {
    return emitError(at) << op << " output_datatype " << dt
                         << " is not a supported numeric type";
  }
  return t;
}

/// HannWindow, HammingWindow, BlackmanWindow: constants.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importWindow(const GraphNode &node, const onnx::NodeProto &def,
                           ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  if (!operand(0)) {
    return nodeFailed(emitError(at) << op << " needs input 0 (size)");
  }
  std::optional<double> size = constScalar(in[0]);
  if (!size) {
    return nodeFailed(emitError(at) << op
                                    << " size computed at run time is not "
                                       "supported");
  }
  int64_t n = int64_t(*size);
  if (n < 0 || n > (int64_t(1) << 24)) {
    return nodeFailed(emitError(at)
                      << op << " size " << n << " is out of range [0, 2^24]");
  }
  FailureOr<Type> element = outputType(*this, op, def, at);
  if (failed(element)) {
    return nodeFailed(failure());
  }
  // w[i] = a0 - a1 cos(2 pi i / N) + a2 cos(4 pi i / N), N the size
  // (periodic) or the size - 1 (symmetric).
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (op == "HammingWindow") {
    a0 = 25.0 / 46.0;
    a1 = 21.0 / 46.0;
  } else if (op == "BlackmanWindow") {
    a0 = 0.42;
    a2 = 0.08;
  }
  int64_t period = attrInt(def, "periodic", 1) ? n : n - 1;
  llvm::SmallVector<double> w;
  for (int64_t i = 0; i < n; ++i) {
    // A symmetric window of one sample has no period: its angle is 0.
    double t = period > 0 ? 2.0 * M_PI * double(i) / double(period) : 0;
    w.push_back(a0 - a1 * std::cos(t) + a2 * std::cos(2 * t));
  }
  return nodeResults({constant(at, denseOf({n}, *element, w))});
}

/// MelWeightMatrix: a constant, as the ONNX reference computes it.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importMelWeightMatrix(const GraphNode &node,
                                    const onnx::NodeProto &def,
                                    ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  double v[5];
  static const char *const names[5] = {"num_mel_bins", "dft_length",
                                       "sample_rate", "lower_edge_hertz",
                                       "upper_edge_hertz"};
  for (int i = 0; i < 5; ++i) {
    std::optional<double> s = constScalar(operand(i));
    if (!s) {
      return nodeFailed(emitError(at)
                        << op << " " << names[i]
                        << (operand(i) ? " computed at run time is not "
                                         "supported"
                                       : " is missing"));
    }
    v[i] = *s;
  }
  int64_t mels = int64_t(v[0]), dftLength = int64_t(v[1]);
  double rate = v[2], lower = v[3], upper = v[4];
  if (mels <= 0 || dftLength <= 0 || rate <= 0) {
    return nodeFailed(emitError(at)
                      << op << " needs num_mel_bins, dft_length and "
                      << "sample_rate > 0, got " << mels << ", " << dftLength
                      << ", " << rate);
  }
  if (lower < 0 || upper < lower) {
    return nodeFailed(emitError(at) << op << " edges " << lower << " and "
                                    << upper << " are not 0 <= lower <= "
                                    << "upper");
  }
  FailureOr<Type> element = outputType(*this, op, def, at);
  if (failed(element)) {
    return nodeFailed(failure());
  }
  // As the ONNX reference: num_mel_bins + 2 points evenly spaced in mel
  // between the edges (step = range / (num_mel_bins + 2)), mapped to
  // spectrogram bins, then triangles between neighbouring points.
  int64_t bins = dftLength / 2 + 1;
  auto mel = [](double hz) { return 2595.0 * std::log10(1 + hz / 700); };
  double lowMel = mel(lower), step = (mel(upper) - lowMel) / double(mels + 2);
  llvm::SmallVector<int64_t> point;
  for (int64_t i = 0; i < mels + 2; ++i) {
    double hz = 700 * (std::pow(10.0, (double(i) * step + lowMel) / 2595) - 1);
    point.push_back(int64_t(std::floor(double(dftLength + 1) * hz / rate)));
    if (point.back() < 0 || point.back() >= bins) {
      return nodeFailed(emitError(at)
                        << op << " mel point " << i << " falls in bin "
                        << point.back() << ", outside the " << bins
                        << " spectrogram bins");
    }
  }
  llvm::SmallVector<double> m(bins * mels, 0.0);
  for (int64_t i = 0; i < mels; ++i) {
    int64_t lo = point[i], mid = point[i + 1], hi = point[i + 2];
    if (mid == lo) {
      m[mid * mels + i] = 1;
    } else {
      for (int64_t j = lo; j <= mid; ++j) {
        m[j * mels + i] = double(j - lo) / double(mid - lo);
      }
    }
    for (int64_t j = mid; j < hi; ++j) {
      m[j * mels + i] = double(hi - j) / double(hi - mid);
    }
  }
  return nodeResults({constant(at, denseOf({bins, mels}, *element, m))});
}

namespace {
/// A DFT or STFT signal after the checks both share: static, float, ending
/// in a real (1) or complex (2) dimension.
struct Signal {
  Value x;
  llvm::SmallVector<int64_t> shape;
  Type element;
  int64_t rank, parts;
  bool onesided, inverse;
};
} // namespace

static FailureOr<Signal> signalInput(OnnxImporter &imp, StringRef op,
                                     const onnx::NodeProto &def, Value x,
                                     Location at) {
  if (!x) {
    return emitError(at) << op << " needs input 0";
  }
  auto shape = getShape(x);
  Type element = getElementType(x);
  if (!shape || ShapedType::isDynamicShape(*shape)) {
    return emitError(at) << op << " needs a static input shape";
  }
  if (!isa<FloatType>(element)) {
    return emitError(at) << op << " needs a float input, got " << element;
  }
  int64_t rank = shape->size();
  if (rank < 2 || (shape->back() != 1 && shape->back() != 2)) {
    return emitError(at) << op << " input must end in a dimension of 1 (real) "
                         << "or 2 (complex), got rank " << rank
                         << (rank
                                 ? " ending in " + std::to_string(shape->back())
                                 : std::string());
  }
  int64_t parts = shape->back();
  bool onesided = imp.attrInt(def, "onesided", op == "STFT" ? 1 : 0);
  bool inverse = op == "DFT" && imp.attrInt(def, "inverse", 0);
  if (onesided && parts == 2 && !inverse) {
    return emitError(at) << op
                         << " onesided needs a real input, got a complex one";
  }
  return Signal{x, *shape, element, rank, parts, onesided, inverse};
}

/// The direct transform of `sig.x` along `axis` with `length` (and the
/// constant `window` folded into the twiddle matrix).
static std::optional<FailureOr<llvm::SmallVector<Value>>>
directTransform(OnnxImporter &imp, StringRef op, const Signal &sig,
                int64_t axis, int64_t length, ArrayRef<double> window,
                Location at) {
  NodeBuilder b{imp, at};
  Value x = sig.x;
  ArrayRef<int64_t> shape = sig.shape;
  Type element = sig.element;
  int64_t rank = sig.rank, parts = sig.parts;
  bool inverse = sig.inverse, onesided = sig.onesided;
  DftForm form{length, inverse, bool(onesided), window};
  auto [bins, outParts] = dftOutput(form);
  int64_t inLen = shape[axis];
  int64_t entries = inLen * parts * bins * outParts;
  if (entries > kMaxTwiddleElements) {
    return nodeFailed(emitError(at)
                      << op << " of length " << length << " needs a " << entries
                      << "-element twiddle matrix, more than the "
                      << kMaxTwiddleElements << " a direct transform allows");
  }
  // Move the transformed axis and the real/imaginary axis last.
  llvm::SmallVector<int64_t> perm, others;
  for (int64_t d = 0; d < rank - 1; ++d) {
    if (d != axis) {
      perm.push_back(d);
      others.push_back(shape[d]);
    }
  }
  perm.push_back(axis);
  perm.push_back(rank - 1);
  bool moved = axis != rank - 2;
  if (moved) {
    x = b.op("graph.transpose", {x}, {b.i64s("perm", perm)});
  }
  int64_t rows = 1;
  for (int64_t d : others) {
    rows *= d;
  }
  x = b.op("graph.reshape", {x}, {b.i64s("shape", {rows, inLen * parts})});
  Value matrix =
      imp.constant(at, denseOf({inLen * parts, bins * outParts}, element,
                               twiddles(form, inLen, parts)));
  Value y = b.op("graph.matmul", {x, matrix});
  llvm::SmallVector<int64_t> outShape(others);
  outShape.push_back(bins);
  outShape.push_back(outParts);
  y = b.op("graph.reshape", {y}, {b.i64s("shape", outShape)});
  if (moved) {
    llvm::SmallVector<int64_t> back(rank);
    for (int64_t i = 0; i < rank; ++i) {
      back[perm[i]] = i;
    }
    y = b.op("graph.transpose", {y}, {b.i64s("perm", back)});
  }
  return nodeResults({y});
}

/// DFT (opsets 17-20): the signal axis an attribute, then input 2.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importDFT(const GraphNode &node, const onnx::NodeProto &def,
                        ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<Signal> sig = signalInput(*this, op, def, operand(0), at);
  if (failed(sig)) {
    return nodeFailed(failure());
  }
  auto shape = std::optional(sig->shape);
  int64_t rank = sig->rank;
  bool inverse = sig->inverse, onesided = sig->onesided;
  int64_t axis, length;
  // DFT: axis an attribute until opset 20, then input 2 (default -2).
  if (opset >= 20) {
    axis = -2;
    if (Value a = operand(2)) {
      std::optional<double> v = constScalar(a);
      if (!v) {
        return nodeFailed(emitError(at) << op << " axis must be a constant");
      }
      axis = int64_t(*v);
    }
  } else {
    axis = attrInt(def, "axis", 1);
  }
  if (axis < -rank || axis >= rank - 1 || axis == -1) {
    return nodeFailed(emitError(at)
                      << op << " axis " << axis << " is out of range for "
                      << "an input of rank " << rank);
  }
  if (axis < 0) {
    axis += rank;
  }
  int64_t n = (*shape)[axis];
  length = inverse && onesided ? 2 * (n - 1) : n;
  if (Value l = operand(1)) {
    std::optional<double> v = constScalar(l);
    if (!v) {
      return nodeFailed(emitError(at)
                        << op << " dft_length must be a constant");
    }
    length = int64_t(*v);
  }
  if (length <= 0) {
    return nodeFailed(emitError(at)
                      << op << " length " << length << " is not positive");
  }
  return directTransform(*this, op, *sig, axis, length, {}, at);
}

/// STFT: frames gathered with constant indices, times the window, then the
/// DFT of each frame.
std::optional<FailureOr<llvm::SmallVector<Value>>>
OnnxImporter::importSTFT(const GraphNode &node, const onnx::NodeProto &def,
                         ArrayRef<Value> in, Location at) {
  StringRef op = node.op;
  FailureOr<Signal> sig = signalInput(*this, op, def, operand(0), at);
  if (failed(sig)) {
    return nodeFailed(failure());
  }
  NodeBuilder b{*this, at};
  Value x = sig->x;
  auto shape = std::optional(sig->shape);
  Type element = sig->element;
  int64_t rank = sig->rank;
  llvm::SmallVector<double> window;
  int64_t axis, length;
  // signal [batch, T, parts] -> frames [batch, F, L, parts].
  if (rank != 3) {
    return nodeFailed(emitError(at)
                      << op << " signal must have rank 3, got " << rank);
  }
  std::optional<double> stepValue = constScalar(operand(1));
  if (!stepValue) {
    return nodeFailed(emitError(at)
                      << op << " frame_step "
                      << (operand(1) ? "must be a constant" : "is missing"));
  }
  int64_t step = int64_t(*stepValue);
  Value win = operand(2);
  std::optional<int64_t> frameLength;
  if (Value fl = operand(3)) {
    std::optional<double> l = constScalar(fl);
    if (!l) {
      return nodeFailed(emitError(at)
                        << op << " frame_length must be a constant");
    }
    frameLength = int64_t(*l);
  }
  if (win) {
    auto wshape = getShape(win);
    if (!wshape || wshape->size() != 1 || ShapedType::isDynamic((*wshape)[0])) {
      return nodeFailed(emitError(at)
                        << op << " window must be 1-D of static size");
    }
    if (getElementType(win) != element) {
      return nodeFailed(emitError(at)
                        << op << " window element type " << getElementType(win)
                        << " does not match the "
                        << "signal's " << element);
    }
    if (frameLength && *frameLength != (*wshape)[0]) {
      return nodeFailed(emitError(at)
                        << op << " frame_length " << *frameLength
                        << " does not match the window size " << (*wshape)[0]);
    }
    frameLength = (*wshape)[0];
  }
  if (!frameLength) {
    return nodeFailed(emitError(at)
                      << op << " needs a window or a frame_length");
  }
  length = *frameLength;
  int64_t samples = (*shape)[1];
  if (step <= 0 || length <= 0 || length > samples) {
    return nodeFailed(emitError(at)
                      << op << " needs frame_step > 0 and 0 < frame_length"
                      << " <= " << samples << ", got " << step << " and "
                      << length);
  }
  int64_t frames = (samples - length) / step + 1;
  llvm::SmallVector<int64_t> index;
  for (int64_t f = 0; f < frames; ++f) {
    for (int64_t l = 0; l < length; ++l) {
      index.push_back(f * step + l);
    }
  }
  Value indices = constant(
      at, DenseElementsAttr::get(
              RankedTensorType::get({frames, length}, builder.getI64Type()),
              ArrayRef<int64_t>(index)));
  x = b.op("graph.gather", {x, indices}, {b.i64("axis", 1)});
  DenseElementsAttr wconst;
  if (win && matchPattern(win, m_Constant(&wconst))) {
    // A constant window scales the twiddle matrix's rows.
    for (const llvm::APFloat &v : wconst.getValues<llvm::APFloat>()) {
      window.push_back(v.convertToDouble());
    }
  } else if (win) {
    Value column = b.op("graph.reshape", {win}, {b.i64s("shape", {length, 1})});
    x = b.op("graph.mul", {x, column});
  }
  if (!x) {
    return nodeFailed(failure());
  }
  shape = getShape(x);
  rank = 4;
  axis = 2;
  Signal framed = *sig;
  framed.x = x;
  framed.shape = *shape;
  framed.rank = rank;
  return directTransform(*this, op, framed, axis, length, window, at);
}

} // namespace graphc::import
