#!/usr/bin/env python3
"""onnx-gen-quant.py DIR | check GOT.npy WANT.npy

DIR: writes one small ONNX model per quantization op translated in
lib/Import/ONNX/Quant.cpp, for onnx-quant.test (not checked: the
installed onnx package predates opset 21's block_size), and for the cases
the ONNX node tests miss (a partial last block, per-row and per-channel
zero points, auto_pad, a bias) inputs NAME.INPUT.npy and NumPy's result
NAME.want.npy, for onnx-quant-run.test.
check: GOT and WANT must be equal in dtype, shape and every element."""
import os
import sys

import numpy as np

if sys.argv[1] == "check":
    got, want = np.load(sys.argv[2]), np.load(sys.argv[3])
    if got.dtype != want.dtype or got.shape != want.shape:
        print(f"got {got.dtype}{list(got.shape)}, want "
              f"{want.dtype}{list(want.shape)}")
        sys.exit(1)
    bad = np.argwhere(got != want)
    if len(bad):
        i = tuple(bad[0])
        print(f"{len(bad)} elements differ, first at {list(i)}: got "
              f"{got[i]}, want {want[i]}")
        sys.exit(1)
    print(f"exact ({got.size} elements)")
    sys.exit(0)

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def vi(name, dtype, shape):
    return h.make_tensor_value_info(name, dtype, shape)


def save(name, node, inputs, outputs, opset=13, inits=()):
    graph = h.make_graph([node], name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


# Per-axis QuantizeLinear to uint8 (axis 1 of [2, 3, 4]).
save("quantize_axis",
     h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1),
     [vi("x", T.FLOAT, [2, 3, 4]), vi("s", T.FLOAT, [3]),
      vi("z", T.UINT8, [3])], [vi("y", T.UINT8, [2, 3, 4])])
# Blocked, symmetric, int16 by output_dtype; 5 columns in blocks of 2, so
# the last block is cut to one column.
save("quantize_blocked",
     h.make_node("QuantizeLinear", ["x", "s"], ["y"], axis=1, block_size=2,
                 output_dtype=T.INT16),
     [vi("x", T.FLOAT, [3, 5]), vi("s", T.FLOAT, [3, 3])],
     [vi("y", T.INT16, [3, 5])], 21)
# fp16 input and scale, int8 zero point: computed in f32.
save("quantize_f16",
     h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]),
     [vi("x", T.FLOAT16, [4]), vi("s", T.FLOAT16, []),
      vi("z", T.INT8, [])], [vi("y", T.INT8, [4])])
# A per-axis scale whose size does not match the axis.
save("quantize_bad_axis",
     h.make_node("QuantizeLinear", ["x", "s"], ["y"], axis=0),
     [vi("x", T.FLOAT, [2, 3]), vi("s", T.FLOAT, [3])],
     [vi("y", T.UINT8, [2, 3])])
# Refused forms, one per importer check.
save("bad_blocks",
     h.make_node("QuantizeLinear", ["x", "s"], ["y"], axis=1, block_size=2),
     [vi("x", T.FLOAT, [3, 5]), vi("s", T.FLOAT, [3, 2])],
     [vi("y", T.UINT8, [3, 5])], 21)
save("bad_block_dim",
     h.make_node("DequantizeLinear", ["x", "s"], ["y"], axis=1, block_size=2),
     [vi("x", T.INT8, [3, 4]), vi("s", T.FLOAT, [2, 2])],
     [vi("y", T.FLOAT, [3, 4])], 21)
save("bad_scale_rank",
     h.make_node("DequantizeLinear", ["x", "s"], ["y"], axis=1),
     [vi("x", T.INT8, [3, 4]), vi("s", T.FLOAT, [3, 4])],
     [vi("y", T.FLOAT, [3, 4])], 13)
save("bad_output_dtype",
     h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"],
                 output_dtype=T.INT8),
     [vi("x", T.FLOAT, [4]), vi("s", T.FLOAT, []), vi("z", T.UINT8, [])],
     [vi("y", T.UINT8, [4])], 21)
save("bad_int_scale",
     h.make_node("DequantizeLinear", ["x", "s"], ["y"]),
     [vi("x", T.INT8, [4]), vi("s", T.INT32, [])],
     [vi("y", T.FLOAT, [4])], 13)
save("bad_operand_type",
     h.make_node("MatMulInteger", ["a", "b"], ["y"]),
     [vi("a", T.INT32, [2, 3]), vi("b", T.INT8, [3, 2])],
     [vi("y", T.INT32, [2, 2])], 10)
save("bad_x_zero_point",
     h.make_node("ConvInteger", ["x", "w", "xz"], ["y"]),
     [vi("x", T.UINT8, [1, 2, 4, 4]), vi("w", T.UINT8, [1, 2, 3, 3]),
      vi("xz", T.UINT8, [2])], [vi("y", T.INT32, [1, 1, 2, 2])], 10)
save("bad_w_zero_point",
     h.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"]),
     [vi("x", T.UINT8, [1, 2, 4, 4]), vi("w", T.UINT8, [3, 2, 3, 3]),
      vi("xz", T.UINT8, []), vi("wz", T.UINT8, [2])],
     [vi("y", T.INT32, [1, 3, 2, 2])], 10)
save("bad_y_scale",
     h.make_node("QLinearMatMul",
                 ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"]),
     [vi("a", T.INT8, [2, 4]), vi("as", T.FLOAT, []), vi("az", T.INT8, []),
      vi("b", T.INT8, [4, 3]), vi("bs", T.FLOAT, []), vi("bz", T.INT8, []),
      vi("ys", T.FLOAT, [3]), vi("yz", T.INT8, [])],
     [vi("y", T.INT8, [2, 3])], 10)
save("bad_a_rows",
     h.make_node("MatMulInteger", ["a", "b", "az"], ["y"]),
     [vi("a", T.UINT8, [4, 3]), vi("b", T.UINT8, [3, 2]),
      vi("az", T.UINT8, [3])], [vi("y", T.INT32, [4, 2])], 10)
# DequantizeLinear of int8 with a bf16 scale.
save("dequantize",
     h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"]),
     [vi("x", T.INT8, [4]), vi("s", T.BFLOAT16, []), vi("z", T.INT8, [])],
     [vi("y", T.BFLOAT16, [4])])
save("dynamic", h.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"]),
     [vi("x", T.FLOAT, [2, 3])],
     [vi("y", T.UINT8, [2, 3]), vi("s", T.FLOAT, []), vi("z", T.UINT8, [])],
     11)
# Per-row a_zero_point, per-column b_zero_point.
save("matmulinteger",
     h.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"]),
     [vi("a", T.UINT8, [4, 3]), vi("b", T.INT8, [3, 2]),
      vi("az", T.UINT8, [4]), vi("bz", T.INT8, [2])],
     [vi("y", T.INT32, [4, 2])], 10)
# Per-output-channel w_zero_point, SAME_UPPER padding.
save("convinteger",
     h.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"],
                 auto_pad="SAME_UPPER"),
     [vi("x", T.UINT8, [1, 2, 5, 5]), vi("w", T.UINT8, [3, 2, 3, 3]),
      vi("xz", T.UINT8, []), vi("wz", T.UINT8, [3])],
     [vi("y", T.INT32, [1, 3, 5, 5])], 10)
save("qlinearmatmul",
     h.make_node("QLinearMatMul",
                 ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"]),
     [vi("a", T.INT8, [2, 4]), vi("as", T.FLOAT, [1]), vi("az", T.INT8, [1]),
      vi("b", T.INT8, [4, 3]), vi("bs", T.FLOAT, [1]), vi("bz", T.INT8, [1]),
      vi("ys", T.FLOAT, [1]), vi("yz", T.INT8, [1])],
     [vi("y", T.INT8, [2, 3])], 10)
# Per-channel w_scale and an int32 bias.
save("qlinearconv",
     h.make_node("QLinearConv",
                 ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"],
                 strides=[2, 2]),
     [vi("x", T.UINT8, [1, 2, 6, 6]), vi("xs", T.FLOAT, []),
      vi("xz", T.UINT8, []), vi("w", T.INT8, [4, 2, 2, 2]),
      vi("ws", T.FLOAT, [4]), vi("wz", T.INT8, [4]), vi("ys", T.FLOAT, []),
      vi("yz", T.UINT8, []), vi("b", T.INT32, [4])],
     [vi("y", T.UINT8, [1, 4, 3, 3])], 10)


# Inputs and NumPy's results.
rng = np.random.default_rng(7)


def data(name, inputs, want):
    for key, value in inputs.items():
        np.save(os.path.join(out, f"{name}.{key}.npy"), value)
    np.save(os.path.join(out, f"{name}.want.npy"), want)


def conv2d(x, w, stride, pad):
    """Direct NCHW cross-correlation in int64, zero padding."""
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, hh, ww = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (hh - kh) // stride + 1, (ww - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, :, i, j] = np.einsum("nckl,ockl->no", patch, w)
    return y


# Scales are powers of two, so x / scale is exact and the .5 ties test
# rounding half to even.
s = np.array([[0.5, 0.25, 2.0], [1.0, 0.5, 0.25], [2.0, 4.0, 0.5]],
             np.float32)
full = np.repeat(s, 2, axis=1)[:, :5]
x = (full * np.array([[2.5, -3.5, 0.5, -0.5, 1.5],
                      [70000.0, -70000.0, 7.0, 4.5, -2.5],
                      [3.0, 5.5, 6.5, -6.5, 100.0]], np.float32)).astype(np.float32)
data("quantize_blocked", {"x": x, "s": s},
     np.clip(np.rint(x / full), -32768, 32767).astype(np.int16))

a = rng.integers(0, 256, (4, 3)).astype(np.uint8)
b = rng.integers(-128, 128, (3, 2)).astype(np.int8)
az = rng.integers(0, 256, (4,)).astype(np.uint8)
bz = rng.integers(-128, 128, (2,)).astype(np.int8)
data("matmulinteger", {"a": a, "b": b, "az": az, "bz": bz},
     ((a.astype(np.int32) - az[:, None]) @ (b.astype(np.int32) - bz))
     .astype(np.int32))

x = rng.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
w = rng.integers(0, 256, (3, 2, 3, 3)).astype(np.uint8)
xz = np.array(131, np.uint8)
wz = rng.integers(0, 256, (3,)).astype(np.uint8)
data("convinteger", {"x": x, "w": w, "xz": xz, "wz": wz},
     conv2d(x.astype(np.int64) - 131,
            w.astype(np.int64) - wz[:, None, None, None].astype(np.int64),
            1, 1).astype(np.int32))

x = rng.integers(0, 256, (1, 2, 6, 6)).astype(np.uint8)
w = rng.integers(-128, 128, (4, 2, 2, 2)).astype(np.int8)
xs, ys = np.array(0.02, np.float32), np.array(0.15, np.float32)
ws = np.array([0.01, 0.03, 0.002, 0.05], np.float32)
wz = np.array([0, -3, 5, 1], np.int8)
bias = np.array([100, -2000, 0, 50000], np.int32)
acc = conv2d(x.astype(np.int64) - 120, w.astype(np.int64) -
             wz[:, None, None, None], 2, 0) + bias[None, :, None, None]
mult = (xs * ws / ys).astype(np.float32)[None, :, None, None]
data("qlinearconv",
     {"x": x, "xs": xs, "xz": np.array(120, np.uint8), "w": w, "ws": ws,
      "wz": wz, "ys": ys, "yz": np.array(128, np.uint8), "b": bias},
     np.clip(np.rint(acc.astype(np.float32) * mult) + 128, 0, 255)
     .astype(np.uint8))
