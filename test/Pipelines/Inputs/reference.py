#!/usr/bin/python3
"""reference.py: NumPy references for the CPU pipeline's run tests.

Reads what printMemrefF32 printed (stdin or a file), recomputes the expected
tensor independently with NumPy from the same input formula the test uses,
and exits non-zero with a message on any mismatch.

Input formula (shared with the tests' @init functions): element `idx` of the
input numbered `t` is ((sum_d idx_d * P[t][d]) mod 11) - 5.
"""
import re
import sys

import numpy as np

P = [[7, 3, 5, 2], [5, 2, 3, 7], [3, 7, 2, 5], [2, 5, 7, 3]]


def make(t, shape):
    idx = np.indices(shape)
    s = sum(idx[d] * P[t][d] for d in range(len(shape)))
    return (s % 11 - 5).astype(np.float64)


def matmul_bias_relu(m, k, n):
    a, b, bias = make(0, (m, k)), make(1, (k, n)), make(2, (1, n))[0]
    return np.maximum(a @ b + bias, 0.0)


def conv_nchw(n, c, h, w, f, kh, kw):
    x, k = make(0, (n, c, h, w)), make(1, (f, c, kh, kw))
    oh, ow = h - kh + 1, w - kw + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nchw,fc->nfhw", x[:, :, i:i + oh, j:j + ow],
                             k[:, :, i, j])
    return out


def conv_epilogue(n, c, h, w, f, kh, kw):
    """conv_nchw, then max((y + b[f]) * s[f]^2 + r - 0.5, 0): a bias b and a
    scale s per channel (input 3 and input 0 of shape [1, F, 1, 1]) and a
    residual r (input 2, the output's shape)."""
    y = conv_nchw(n, c, h, w, f, kh, kw)
    b = make(3, (1, f, 1, 1))
    s = make(0, (1, f, 1, 1))
    r = make(2, y.shape)
    return np.maximum((y + b) * s * s + r - 0.5, 0.0)


def conv_nchw_strided(n, c, h, w, f, kh, kw, sh, sw, dh, dw):
    """conv_nchw with strides (sh, sw) and dilations (dh, dw), no padding."""
    x, k = make(0, (n, c, h, w)), make(1, (f, c, kh, kw))
    oh, ow = (h - dh * (kh - 1) - 1) // sh + 1, (w - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            win = x[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                    j * dw:j * dw + sw * (ow - 1) + 1:sw]
            out += np.einsum("nchw,fc->nfhw", win, k[:, :, i, j])
    return out


def conv_nchw_strided_acc(n, c, h, w, f, kh, kw, sh, sw, dh, dw):
    """conv_nchw_strided accumulated into an init that is input 2."""
    out = conv_nchw_strided(n, c, h, w, f, kh, kw, sh, sw, dh, dw)
    return out + make(2, out.shape)


def filter_grad(n, c, h, w, o, k, s, p):
    """The filter gradient [O, C, K, K] of a KxK convolution with stride s
    and padding p of x (input 0, [N, C, H, W]) whose output adjoint is dy
    (input 1, [N, O, Ho, Wo])."""
    ho, wo = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    x = np.pad(make(0, (n, c, h, w)), ((0, 0), (0, 0), (p, p), (p, p)))
    dy = make(1, (n, o, ho, wo))
    out = np.zeros((o, c, k, k))
    for i in range(k):
        for j in range(k):
            win = x[:, :, i:i + s * (ho - 1) + 1:s, j:j + s * (wo - 1) + 1:s]
            out[:, :, i, j] = np.einsum("nchw,nohw->oc", win, dy)
    return out


def data_grad(n, o, h, w, c, k):
    """The data gradient [N, C, H, W] of a KxK stride-1 convolution padded by
    (K - 1) / 2, by the forward filter w (input 1, [O, C, K, K]), of the
    output adjoint dy (input 0, [N, O, H, W])."""
    p = (k - 1) // 2
    dy = np.pad(make(0, (n, o, h, w)), ((0, 0), (0, 0), (p, p), (p, p)))
    wt = make(1, (o, c, k, k))
    out = np.zeros((n, c, h, w))
    for i in range(k):
        for j in range(k):
            win = dy[:, :, 2 * p - i:2 * p - i + h, 2 * p - j:2 * p - j + w]
            out += np.einsum("nohw,oc->nchw", win, wt[:, :, i, j])
    return out


def conv_grouped(n, c, h, w, f, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr,
                 groups, x=None):
    """A grouped convolution (graph.conv with `groups`) of input 0 (or x)
    padded by (top, left, bottom, right), filter input 1
    [f, c / groups, kh, kw]."""
    k = make(1, (f, c // groups, kh, kw))
    if x is None:
        x = make(0, (n, c, h, w))
    x = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    hp, wp = x.shape[2], x.shape[3]
    oh, ow = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    cg, fg = c // groups, f // groups
    out = np.zeros((n, f, oh, ow))
    for g in range(groups):
        xs, ks = x[:, g * cg:(g + 1) * cg], k[g * fg:(g + 1) * fg]
        for i in range(kh):
            for j in range(kw):
                win = xs[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                         j * dw:j * dw + sw * (ow - 1) + 1:sw]
                out[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", win, ks[:, :, i, j])
    return out


def conv_shuffled_dw(n, c, h, w, gs):
    """ShuffleNet's channel shuffle of input 0 (reshape to [n, gs, c / gs,
    h, w], swap the two channel dimensions, reshape back), then a depthwise
    3x3 convolution with padding 1 by filter input 1 [c, 1, 3, 3]."""
    x = make(0, (n, c, h, w)).reshape(n, gs, c // gs, h, w)
    x = x.transpose(0, 2, 1, 3, 4).reshape(n, c, h, w)
    return conv_grouped(n, c, h, w, c, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, c, x=x)


def dw_epilogue(n, c, h, w):
    """A depthwise 3x3 convolution with padding 1 of input 0 by filter
    input 1 [c, 1, 3, 3], then max((y + b[c]) * s[c]^2 + r - 0.5, 0): a bias
    b and a scale s per channel (input 3 and input 0 of shape [1, c, 1, 1])
    and a residual r (input 2, the output's shape)."""
    y = conv_grouped(n, c, h, w, c, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, c)
    b = make(3, (1, c, 1, 1))
    s = make(0, (1, c, 1, 1))
    r = make(2, y.shape)
    return np.maximum((y + b) * s * s + r - 0.5, 0.0)


def pw_epilogue(n, c, h, w, f, groups):
    """A grouped 1x1 convolution of input 0 by filter input 1
    [f, c / groups, 1, 1], then grouped_epilogue's elementwise op."""
    return grouped_epilogue(n, c, h, w, f, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0,
                            groups)


def grouped_epilogue(*args):
    """conv_grouped(*args) (f = args[4] output channels, groups = args[15]),
    then max((y + b[f]) * s[g]^2 + r - 0.5, 0): a bias b per output channel
    (input 3 of shape [1, f, 1, 1]), a scale s per group (input 0 of shape
    [1, groups, 1, 1]) and a residual r (input 2, the output's shape)."""
    f, groups = args[4], args[15]
    y = conv_grouped(*args)
    b = make(3, (1, f, 1, 1))
    s = np.repeat(make(0, (1, groups, 1, 1)), f // groups, axis=1)
    r = make(2, y.shape)
    return np.maximum((y + b) * s * s + r - 0.5, 0.0)


def conv_grouped_acc(*args):
    """conv_grouped accumulated into an init that is input 2."""
    out = conv_grouped(*args)
    return out + make(2, out.shape)


def pool(n, c, h, w, kh, kw, sh, sw, pt, pl, pb, pr, avg):
    """graph.pool of input 0 over kh x kw windows with strides (sh, sw) and
    padding (top, left, bottom, right): the maximum (avg 0; padding never
    wins) or the average of the cells inside the input (avg 1; ONNX's
    count_include_pad = 0)."""
    x = make(0, (n, c, h, w))
    fill = 0.0 if avg else -np.inf
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    cells = np.pad(np.ones((h, w)), ((pt, pb), (pl, pr)))
    oh, ow = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]
            if avg:
                count = cells[i * sh:i * sh + kh, j * sw:j * sw + kw].sum()
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
            else:
                out[:, :, i, j] = win.max(axis=(2, 3))
    return out


def concat_relu(n, c0, c1, h, w):
    """ReLU of inputs 0 ([n, c0, h, w]) and 1 ([n, c1, h, w], plus one)
    concatenated along the channels."""
    a = np.maximum(make(0, (n, c0, h, w)), 0.0)
    b = np.maximum(make(1, (n, c1, h, w)) + 1.0, 0.0)
    return np.concatenate([a, b], axis=1)


def softmax_rows(m, n):
    x = make(0, (m, n)) * 0.25
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def channel_sums(n, c, h, w):
    """1 + sum over N, H, W of (x - b[c]) * y: x, y inputs 0 and 1, b input
    2 of shape [1, c, 1, 1] (run-lane-reduction.mlir)."""
    x, y = make(0, (n, c, h, w)), make(1, (n, c, h, w))
    b = make(2, (1, c, 1, 1))
    return 1.0 + ((x - b) * y).sum(axis=(0, 2, 3))


def neg_swap01(a, b, c, d):
    """-x transposed [a, b, c, d] -> [b, a, c, d] (run-block-copy.mlir)."""
    return -make(0, (a, b, c, d)).transpose(1, 0, 2, 3)


def matmul(m, k, n):
    return make(0, (m, k)) @ make(1, (k, n))


def gemv_acc(k, n):
    """A [1, k] row (input 0) times B [k, n] (input 1), accumulated into an
    init that is input 2 [1, n]."""
    return make(0, (1, k)) @ make(1, (k, n)) + make(2, (1, n))


def batch_matmul(b, m, k, n):
    x, y = make(0, (b, m, k)), make(1, (b, k, n))
    return np.einsum("bmk,bkn->bmn", x, y)


def transpose_add(m, n):
    return make(0, (n, m)).T + make(1, (m, n))


def parse(text):
    m = re.search(r"sizes = \[([0-9, ]*)\].*?data =\s*(.*)", text, re.S)
    if not m:
        sys.exit("reference.py: no printMemrefF32 output found")
    shape = tuple(int(s) for s in m.group(1).split(",") if s.strip())
    nums = re.findall(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)", m.group(2))
    data = np.array([float(v) for v in nums])
    if data.size != int(np.prod(shape)):
        sys.exit(f"reference.py: expected {int(np.prod(shape))} values, "
                 f"got {data.size}")
    return data.reshape(shape)


def main():
    name, args = sys.argv[1], [int(a) for a in sys.argv[2].split(",")]
    expected = globals()[name](*args)
    text = open(sys.argv[3]).read() if len(sys.argv) > 3 else sys.stdin.read()
    got = parse(text)
    if got.shape != expected.shape:
        sys.exit(f"reference.py: shape {got.shape} != expected {expected.shape}")
    err = np.abs(got - expected).max()
    tol = 1e-4 * max(1.0, np.abs(expected).max())
    if not np.isfinite(err) or err > tol:
        bad = np.unravel_index(np.argmax(np.abs(got - expected)), got.shape)
        sys.exit(f"reference.py: {name} mismatch at {bad}: got {got[bad]}, "
                 f"expected {expected[bad]} (max error {err}, tolerance {tol})")
    print(f"reference.py: {name} OK, {got.size} values, max error {err}")


if __name__ == "__main__":
    main()
