#!/usr/bin/env python3
"""onnx-maxpool-indices-gen.py DIR: a model of MaxPool nodes with the
Indices output for onnx-maxpool-indices.test (1-D, 2-D and 3-D windows;
strides, dilations, pads, auto_pad, ceil_mode; storage_order 0 and 1;
an int8 input with ties), its inputs (.npy) and the outputs of a direct
NumPy reading of the specification (expected.npz): each window's first
maximum in scan order, its index flattened over the whole input (N, C and
the spatial dimensions, row major; storage_order 1 puts the spatial
dimensions in column-major order) and never pointing into the padding."""
import itertools
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(7)


def out_size(size, k, s, dil, lo, hi, ceil):
    span = size + lo + hi - ((k - 1) * dil + 1)
    n = (math.ceil(span / s) if ceil else span // s) + 1
    if ceil and (n - 1) * s >= size + lo:
        n -= 1
    return n


def maxpool(x, kernel, strides, dilations, pads, ceil, order):
    n, c = x.shape[:2]
    dims = x.shape[2:]
    r = len(dims)
    outs = [out_size(dims[i], kernel[i], strides[i], dilations[i], pads[i],
                     pads[r + i], ceil) for i in range(r)]
    y = np.zeros((n, c, *outs), x.dtype)
    ind = np.zeros((n, c, *outs), np.int64)
    plane = int(np.prod(dims))
    for b, ch in itertools.product(range(n), range(c)):
        for o in itertools.product(*[range(m) for m in outs]):
            best, where = None, None
            for k in itertools.product(*[range(m) for m in kernel]):
                pos = [o[i] * strides[i] - pads[i] + k[i] * dilations[i]
                       for i in range(r)]
                if any(p < 0 or p >= dims[i] for i, p in enumerate(pos)):
                    continue
                v = x[(b, ch, *pos)]
                if best is None or v > best:
                    best, where = v, pos
            if order == 0:
                flat = int(np.ravel_multi_index(where, dims))
            else:
                flat = int(np.ravel_multi_index(where[::-1], dims[::-1]))
            y[(b, ch, *o)] = best
            ind[(b, ch, *o)] = (b * c + ch) * plane + flat
    return y, ind


cases = [
    # name, shape, dtype, attributes, pads for the reference
    ("p2d", (2, 3, 6, 7), np.float32,
     dict(kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 1, 1],
          dilations=[1, 2])),
    ("p2d_cols", (2, 3, 6, 7), np.float32,
     dict(kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 1, 1],
          dilations=[1, 2], storage_order=1)),
    ("p2d_ceil", (1, 2, 5, 5), np.float32,
     dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
    ("p1d_same", (2, 2, 9), np.float32,
     dict(kernel_shape=[3], strides=[2], auto_pad="SAME_UPPER")),
    ("p3d_cols", (1, 2, 4, 5, 3), np.float32,
     dict(kernel_shape=[2, 2, 2], storage_order=1)),
    ("ties_i8", (1, 1, 4, 4), np.int8,
     dict(kernel_shape=[2, 2], strides=[1, 1])),
]
nodes, inputs, outputs, expected = [], [], [], {}
for name, shape, dtype, attrs in cases:
    if dtype == np.int8:
        x = rng.integers(0, 2, shape).astype(dtype)
    else:
        x = rng.standard_normal(shape).astype(dtype)
    np.save(os.path.join(d, name + ".npy"), x)
    r = len(shape) - 2
    pads = attrs.get("pads", [0] * 2 * r)
    strides = attrs.get("strides", [1] * r)
    if attrs.get("auto_pad") == "SAME_UPPER":
        pads = [0] * 2 * r
        for i in range(r):
            out = -(-shape[2 + i] // strides[i])
            total = max(0, (out - 1) * strides[i] + attrs["kernel_shape"][i]
                        - shape[2 + i])
            pads[i], pads[r + i] = total // 2, total - total // 2
    y, ind = maxpool(x, attrs["kernel_shape"], strides,
                     attrs.get("dilations", [1] * r), pads,
                     attrs.get("ceil_mode", 0), attrs.get("storage_order", 0))
    expected[name + "_y"], expected[name + "_i"] = y, ind
    elem = T.INT8 if dtype == np.int8 else T.FLOAT
    nodes.append(h.make_node("MaxPool", [name], [name + "_y", name + "_i"],
                             name=name, **attrs))
    inputs.append(h.make_tensor_value_info(name, elem, list(shape)))
    outputs += [h.make_tensor_value_info(name + "_y", elem, list(y.shape)),
                h.make_tensor_value_info(name + "_i", T.INT64,
                                         list(ind.shape))]
graph = h.make_graph(nodes, "maxpool", inputs, outputs)
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 12)]),
          os.path.join(d, "maxpool.onnx"))
np.savez(os.path.join(d, "expected.npz"), **expected)

# storage_order other than 0 and 1.
graph = h.make_graph(
    [h.make_node("MaxPool", ["x"], ["y", "i"], name="bad_order",
                 kernel_shape=[2, 2], storage_order=2)],
    "bad", [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])],
    [h.make_tensor_value_info("y", T.FLOAT, [1, 1, 3, 3]),
     h.make_tensor_value_info("i", T.INT64, [1, 1, 3, 3])])
onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 12)]),
          os.path.join(d, "bad_order.onnx"))
