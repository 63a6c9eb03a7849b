#!/usr/bin/env python3
"""keras_conv1d_lstm.py wrap GRAPH.mlir OUT.mlir X.npy | check MODEL X.npy OUT

The keras2onnx Conv1D + LSTM model, imported by graphc (--emit=graph),
lowered by graph-to-linalg and run under mlir-runner, compared with a NumPy
implementation of the model written from the ONNX operator definitions
(independent of graphc). `wrap` renames the imported @main to @model and
adds a @main that feeds a random input (saved to X.npy) and prints the
result; `check` compares the printed values with NumPy.

Not through graph-run: graphc-cpu-codegen vectorises the untiled 1x1
Conv1D over length 1 into 131072-element vectors, and LLVM then takes more
than ten minutes on the unrolled code (reported; not an LSTM problem).

The model's input is [1, 1, 512]: one time step, so each LSTM runs one step
from a zero state (its recurrent weights R multiply zeros); what this checks
is the graph around the LSTMs (Conv1D layout transposes, Squeeze, the gate
order and bias halves of one step), not the recurrence, which
nnsplit-lstm.test covers.
"""
import os
import re
import sys

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nnsplit_lstm import compare, lstm, sigmoid  # noqa: E402


def reference(model, x):
    """The model on `x` [1, 1, 512] in float64."""
    w = {t.name: numpy_helper.to_array(t).astype(np.float64)
         for t in model.graph.initializer}

    def conv1x1(v, kernel):  # v [N, C, L], kernel [O, C, 1]
        return np.einsum("ncl,oc->nol", v, kernel[:, :, 0])

    x = x.astype(np.float64)
    features = conv1x1(x.transpose(0, 2, 1), w["conv1d/kernel:0"])
    features = features.transpose(0, 2, 1)  # [N, L, 256]
    h = features.transpose(1, 0, 2)  # [L, N, 256]
    h = lstm(h, w["lstm_W"], w["lstm_R"], w["lstm_B"])[:, 0]
    h = lstm(h, w["lstm_1_W"], w["lstm_1_R"], w["lstm_1_B"])[:, 0]
    h = h.transpose(1, 0, 2)  # [N, L, 128]
    gate = sigmoid(h @ w["dense/kernel:0"] + w["dense/bias:0"])
    y = conv1x1((features * gate).transpose(0, 2, 1), w["conv1d_1/kernel:0"])
    return y.transpose(0, 2, 1).astype(np.float32)


def wrap(src, dst, x_path):
    x = np.random.default_rng(11).standard_normal((1, 1, 512))
    x = x.astype(np.float32)
    np.save(x_path, x)
    text = open(src).read().replace("@main(", "@model(", 1)
    values = "[[[" + ", ".join("%.9e" % v for v in x[0, 0]) + "]]]"
    main = """
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() {
    %x = arith.constant dense<VALUES> : tensor<1x1x512xf32>
    %y = call @model(%x) : (tensor<1x1x512xf32>) -> tensor<1x1x512xf32>
    %u = tensor.cast %y : tensor<1x1x512xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
""".replace("VALUES", values)
    # Insert before the module's closing brace; the resource section with
    # the weights follows it.
    head, sep, tail = text.partition("\n{-#")
    end = head.rstrip().rfind("}")
    open(dst, "w").write(head[:end] + main + head[end:] + sep + tail)


def check(model_path, x_path, out):
    text = open(out).read()
    if "data =" not in text:
        print("run printed no result")
        return
    numbers = re.findall(r"-?(?:nan|inf|[0-9.]+(?:e[-+]?[0-9]+)?)",
                         text.split("data =", 1)[1])
    got = np.array([float(v) for v in numbers], np.float32)
    want = reference(onnx.load(model_path), np.load(x_path))
    if got.size != want.size:
        print(f"MISMATCH sizes {got.size} {want.size}")
        return
    # mlir-runner prints six significant digits.
    compare("keras conv1d lstm vs numpy", got.reshape(want.shape), want,
            rtol=1e-4, atol=1e-4)


def main():
    if sys.argv[1] == "wrap":
        wrap(*sys.argv[2:5])
    else:
        check(*sys.argv[2:5])
    return 0


if __name__ == "__main__":
    sys.exit(main())
