"""A small ONNX-to-PyTorch-eager evaluator: runs an ONNX graph node by node
with torch operators, so models that have no PyTorch definition (the ONNX
backend suite's light/ CNNs, mnist-8) get a PyTorch peer in the e2e
benchmark. It covers the ops those models use; anything else raises
Unsupported and the benchmark prints n/a.

Nodes whose inputs are all constants (initializers, ConstantOfShape weights
and what is computed from them) are evaluated once in prepare(), outside the
timed call, as graphc folds them at compile time.
"""
import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper


class Unsupported(Exception):
    pass


def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _pads2d(a, x, kernel, strides, dilations=(1, 1)):
    """ONNX pads [top, left, bottom, right] from `pads` or `auto_pad`."""
    auto = a.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0, 0, 0, 0]
        for i in range(2):
            size = x.shape[2 + i]
            out = -(-size // strides[i])
            total = max(0, (out - 1) * strides[i] +
                        (kernel[i] - 1) * dilations[i] + 1 - size)
            small, big = total // 2, total - total // 2
            pads[i], pads[2 + i] = ((small, big) if auto == "SAME_UPPER"
                                    else (big, small))
        return pads
    if auto == "VALID":
        return [0, 0, 0, 0]
    return list(a.get("pads", [0, 0, 0, 0]))


def _padded(x, pads, value=0.0):
    """(x padded where pads are asymmetric, symmetric padding for torch)."""
    t, l, b, r = pads
    if t == b and l == r:
        return x, (t, l)
    return F.pad(x, (l, r, t, b), value=value), (0, 0)


def _conv(x, w, b=None, **a):
    k = w.shape[2:]
    strides = a.get("strides", [1, 1])
    dil = a.get("dilations", [1, 1])
    x, pad = _padded(x, _pads2d(a, x, k, strides, dil))
    return F.conv2d(x, w, b, stride=strides, padding=pad, dilation=dil,
                    groups=a.get("group", 1))


def _maxpool(x, **a):
    k = a["kernel_shape"]
    strides = a.get("strides", [1, 1])
    x, pad = _padded(x, _pads2d(a, x, k, strides), value=float("-inf"))
    return F.max_pool2d(x, k, strides, pad, ceil_mode=bool(a.get("ceil_mode", 0)))


def _avgpool(x, **a):
    k = a["kernel_shape"]
    strides = a.get("strides", [1, 1])
    ceil = bool(a.get("ceil_mode", 0))
    t, l, b, r = _pads2d(a, x, k, strides)
    # Window sums over the zero-padded input, divided by how many elements of
    # each window count: the real ones, or with count_include_pad the padded
    # ones too (windows that ceil_mode lets run off the end count neither).
    sums = F.avg_pool2d(F.pad(x, (l, r, t, b)), k, strides, 0, ceil,
                        divisor_override=1)
    ones = torch.ones((1, 1) + tuple(x.shape[2:]), dtype=x.dtype)
    ones = F.pad(ones, (l, r, t, b), value=float(a.get("count_include_pad", 0)))
    if a.get("count_include_pad", 0):
        ones = torch.ones_like(ones)
    counts = F.avg_pool2d(ones, k, strides, 0, ceil, divisor_override=1)
    return sums / counts


def _gemm(x, w, c=None, **a):
    if a.get("transA", 0):
        x = x.t()
    if a.get("transB", 0):
        w = w.t()
    y = a.get("alpha", 1.0) * (x @ w)
    return y if c is None else y + a.get("beta", 1.0) * c


def _softmax(x, axis=1, **_):
    # Opset < 13: coerce to 2-D at `axis`, normalise the second dimension.
    shape = x.shape
    axis = axis % x.dim()
    return torch.softmax(x.reshape(int(np.prod(shape[:axis])), -1), 1).reshape(shape)


def _reshape(x, shape, **_):
    shape = [x.shape[i] if int(s) == 0 else int(s) for i, s in enumerate(shape.tolist())]
    return x.reshape(shape)


def _unsqueeze(x, axes=None, **_):
    for ax in sorted(axes):
        x = x.unsqueeze(ax)
    return x


def _const_of_shape(shape, value=None, **_):
    v = numpy_helper.to_array(value) if value is not None else np.zeros(1, np.float32)
    return torch.from_numpy(np.full([int(s) for s in shape.tolist()], v.item(),
                                    dtype=v.dtype))


OPS = {
    "Add": lambda a, b, **_: a + b,
    "Mul": lambda a, b, **_: a * b,
    "Sum": lambda *xs, **_: sum(xs[1:], xs[0]),
    "MatMul": lambda a, b, **_: a @ b,
    "Relu": lambda x, **_: torch.relu(x),
    "Dropout": lambda x, *_, **__: x,
    "Identity": lambda x, **_: x,
    "Conv": _conv,
    "MaxPool": _maxpool,
    "AveragePool": _avgpool,
    "GlobalAveragePool": lambda x, **_: x.mean(dim=(2, 3), keepdim=True),
    "BatchNormalization": lambda x, s, b, m, v, epsilon=1e-5, **_:
        F.batch_norm(x, m, v, s, b, False, 0.0, epsilon),
    "Gemm": _gemm,
    "Softmax": _softmax,
    "Reshape": _reshape,
    "Flatten": lambda x, axis=1, **_: x.reshape(int(np.prod(x.shape[:axis])), -1),
    "Transpose": lambda x, perm=None, **_: x.permute(*perm).contiguous(),
    "Concat": lambda *xs, axis=0, **_: torch.cat(xs, axis),
    "Unsqueeze": _unsqueeze,
    "ConstantOfShape": _const_of_shape,
    "LRN": lambda x, size=None, alpha=1e-4, beta=0.75, bias=1.0, **_:
        F.local_response_norm(x, size, alpha, beta, bias),
}


class Model:
    """prepare() an ONNX file once; run(feeds) evaluates the remaining
    nodes in torch and returns the graph outputs as torch tensors."""

    def __init__(self, path):
        m = onnx.load(path)
        self.graph = m.graph
        for n in m.graph.node:
            if n.op_type not in OPS:
                raise Unsupported("no torch rule for ONNX op %s" % n.op_type)
        self.consts = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
                       for i in m.graph.initializer}
        self.inputs = [i.name for i in m.graph.input if i.name not in self.consts]
        self.outputs = [o.name for o in m.graph.output]
        self.plan = []
        with torch.no_grad():
            for n in m.graph.node:
                fn, attrs = OPS[n.op_type], _attrs(n)
                if all(i in self.consts for i in n.input if i):
                    # Weights and what derives only from them.
                    self._eval(fn, n, attrs, self.consts)
                else:
                    self.plan.append((fn, n, attrs))

    @staticmethod
    def _eval(fn, node, attrs, env):
        args = [env[i] if i else None for i in node.input]
        out = fn(*args, **attrs)
        env[node.output[0]] = out

    def run(self, feeds):
        env = dict(self.consts)
        env.update(feeds)
        for fn, n, attrs in self.plan:
            self._eval(fn, n, attrs, env)
        return [env[o] for o in self.outputs]
