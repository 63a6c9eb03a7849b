#!/usr/bin/env python3
"""onnx-e2e.py gen DIR | wrap IN.mlir OUT.mlir | check DIR RUNNER_OUTPUT

An end-to-end check of imported weights against NumPy: `gen` writes a Gemm
+ Relu model whose 128x128 weight is large enough to be imported as a
dense_resource blob, plus the input and NumPy's result; `wrap` renames the
imported @main to @model and adds a @main that feeds the input and prints
the result; `check` compares the printed values with NumPy's."""
import os
import re
import sys

import numpy as np


def gen(d):
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(1)
    w = rng.standard_normal((128, 128), dtype=np.float32)
    b = rng.standard_normal((128,), dtype=np.float32)
    x = rng.standard_normal((2, 128), dtype=np.float32)
    graph = h.make_graph(
        [h.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1),
         h.make_node("Relu", ["g"], ["y"])], "gemm",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 128])],
        [h.make_tensor_value_info("y", T.FLOAT, [2, 128])],
        initializer=[numpy_helper.from_array(w, "w"),
                     numpy_helper.from_array(b, "b")])
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 13)]),
              os.path.join(d, "gemm.onnx"))
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "y.npy"), np.maximum(x @ w.T + b, 0))


def wrap(src, dst):
    text = open(src).read().replace("@main(", "@model(")
    x = np.load(os.path.join(os.path.dirname(dst), "x.npy"))
    values = ", ".join("[" + ", ".join("%.9e" % v for v in row) + "]" for row in x)
    main = """
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func @main() {
    %x = arith.constant dense<[VALUES]> : tensor<2x128xf32>
    %y = call @model(%x) : (tensor<2x128xf32>) -> tensor<2x128xf32>
    %u = tensor.cast %y : tensor<2x128xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }
""".replace("VALUES", values)
    # Insert before the module's closing brace (the resource section, if
    # any, follows it).
    head, sep, tail = text.partition("\n{-#")
    end = head.rstrip().rfind("}")
    open(dst, "w").write(head[:end] + main + head[end:] + sep + tail)


def check(d, out):
    text = open(out).read()
    data = text[text.index("data ="):]
    got = np.array([float(v) for v in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?", data)],
                   dtype=np.float32)
    want = np.load(os.path.join(d, "y.npy")).reshape(-1)
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-3):
        print("onnx e2e: MISMATCH (max error %s)" %
              (np.max(np.abs(got - want)) if got.shape == want.shape else got.shape))
        return 1
    print("onnx e2e: %d values match NumPy" % want.size)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif sys.argv[1] == "wrap":
        wrap(sys.argv[2], sys.argv[3])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
