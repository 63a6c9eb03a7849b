"""prepare_weights.py model DIR | check DIR OUT

model: writes DIR/model.mlir, a graph-dialect step with two 3x3
convolutions of x [1, 4, 9, 9] with 16 output channels: one filter (W) is
only read, the other (V) is halved by the step after it is read, so that
graphc-cpu-prepare-weights moves W's re-layout to load time and keeps V's in
the step. Also DIR/x.npy.

check: compares DIR/OUT/y.npy (the output of the second step: conv(x, W) +
conv(x, V / 2)) with NumPy and prints the largest error."""
import sys

import numpy as np


def conv(x, w):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, f, h, wd), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = p[:, :, i:i + h, j:j + wd]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out


def values(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)


def literal(a):
    """The raw little-endian bytes as MLIR's hex elements literal."""
    return 'dense<"0x%s">' % a.astype("<f4").tobytes().hex().upper()


def model(d):
    w, v = values((16, 4, 3, 3), 1), values((16, 4, 3, 3), 2)
    np.save(d + "/x.npy", values((1, 4, 9, 9), 3))
    t = "tensor<16x4x3x3xf32>"
    conv_attrs = ("{pad_low = array<i64: 1, 1>, pad_high = array<i64: 1, 1>}"
                  " : (tensor<1x4x9x9xf32>, %s) -> tensor<1x16x9x9xf32>" % t)
    with open(d + "/model.mlir", "w") as f:
        f.write("""graph.variable @W : %(t)s = %(w)s
graph.variable @V : %(t)s = %(v)s
func.func @main(%%x: tensor<1x4x9x9xf32> {graph.name = "x"})
    -> (tensor<1x16x9x9xf32> {graph.name = "y"}) {
  %%w = graph.read_variable @W : %(t)s
  %%v = graph.read_variable @V : %(t)s
  %%a = graph.conv %%x, %%w %(attrs)s
  %%b = graph.conv %%x, %%v %(attrs)s
  %%y = graph.add %%a, %%b : (tensor<1x16x9x9xf32>, tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %%half = graph.constant dense<0.5> : tensor<f32>
  %%v2 = graph.mul %%v, %%half : (%(t)s, tensor<f32>) -> %(t)s
  graph.assign_variable @V, %%v2 : %(t)s
  return %%y : tensor<1x16x9x9xf32>
}
""" % {"t": t, "w": literal(w), "v": literal(v),
       "attrs": conv_attrs})


def check(d, out):
    x = np.load(d + "/x.npy").astype(np.float64)
    w, v = values((16, 4, 3, 3), 1), values((16, 4, 3, 3), 2)
    want = conv(x, w) + conv(x, v.astype(np.float64) / 2)
    got = np.load(d + "/" + out + "/y.npy")
    err = np.abs(got - want).max()
    print("prepare-weights: max error %.1e (%s)" %
          (err, "ok" if err < 1e-4 else "WRONG"))


if __name__ == "__main__":
    if sys.argv[1] == "model":
        model(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
