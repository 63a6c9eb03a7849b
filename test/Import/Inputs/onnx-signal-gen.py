#!/usr/bin/env python3
"""onnx-signal-gen.py DIR: writes small models with the ONNX signal ops
(HannWindow, HammingWindow, BlackmanWindow, MelWeightMatrix, DFT, STFT)
for the importer tests. DFT with the axis as an input is opset 20, newer
than the installed onnx, whose checker is therefore not run."""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h
import onnx

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, opset=17):
    graph = h.make_graph(nodes, name, inputs, outputs)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def const(name, t, v):
    return h.make_node("Constant", [], [name],
                       value=h.make_tensor(name, t, [], [v]))


f32 = lambda n, s: h.make_tensor_value_info(n, T.FLOAT, s)

# Periodic Hann window of 4: [0, 0.5, 1, 0.5].
save("hann", [const("n", T.INT64, 4), h.make_node("HannWindow", ["n"], ["y"])],
     [], [f32("y", [4])])
# Symmetric Hamming window of 3 in f64: [4/46, 1, 4/46].
save("hamming-f64", [const("n", T.INT32, 3),
                     h.make_node("HammingWindow", ["n"], ["y"], periodic=0,
                                 output_datatype=T.DOUBLE)],
     [], [h.make_tensor_value_info("y", T.DOUBLE, [3])])
# A window whose size is a graph input.
save("blackman-runtime", [h.make_node("BlackmanWindow", ["n"], ["y"])],
     [h.make_tensor_value_info("n", T.INT64, [])], [f32("y", [None])])
# Mel matrix: 4 mel bins over a 8-point DFT (5 spectrogram bins).
save("mel", [const("m", T.INT64, 4), const("d", T.INT64, 8),
             const("r", T.INT64, 8000), const("lo", T.FLOAT, 0.0),
             const("hi", T.FLOAT, 4000.0),
             h.make_node("MelWeightMatrix", ["m", "d", "r", "lo", "hi"],
                         ["y"])],
     [], [f32("y", [5, 4])])
# Real DFT along axis 1 (opset 17: an attribute), onesided.
save("rfft", [h.make_node("DFT", ["x"], ["y"], axis=1, onesided=1)],
     [f32("x", [2, 8, 1])], [f32("y", [2, 5, 2])])
# Complex inverse DFT along axis 1 of 4-D input, padded to 6 (opset 20:
# the axis is input 2, dft_length input 1).
save("idft-axis", [const("len", T.INT64, 6), const("axis", T.INT64, -3),
                   h.make_node("DFT", ["x", "len", "axis"], ["y"],
                               inverse=1)],
     [f32("x", [3, 4, 5, 2])], [f32("y", [3, 6, 5, 2])], opset=20)
# Inverse of a one-sided spectrum (irfft): 5 bins -> 8 real samples.
save("irfft", [h.make_node("DFT", ["x"], ["y"], axis=1, inverse=1,
                           onesided=1)],
     [f32("x", [2, 5, 2])], [f32("y", [2, 8, 1])])
# STFT of 16 samples, frames of 8 every 4, window a graph input.
save("stft", [const("step", T.INT64, 4),
              h.make_node("STFT", ["s", "step", "w"], ["y"])],
     [f32("s", [1, 16, 1]), f32("w", [8])], [f32("y", [1, 3, 5, 2])])
# Errors: the axis a graph input; onesided on complex input; the last
# axis; a window that frame_length contradicts.
save("dft-runtime-axis", [h.make_node("DFT", ["x", "", "axis"], ["y"])],
     [f32("x", [2, 8, 1]), h.make_tensor_value_info("axis", T.INT64, [])],
     [f32("y", [2, 8, 2])], opset=20)
save("dft-complex-onesided",
     [h.make_node("DFT", ["x"], ["y"], axis=1, onesided=1)],
     [f32("x", [2, 8, 2])], [f32("y", [2, 5, 2])])
save("dft-last-axis", [h.make_node("DFT", ["x"], ["y"], axis=2)],
     [f32("x", [2, 8, 1])], [f32("y", [2, 8, 2])])
save("stft-bad-length", [const("step", T.INT64, 4), const("len", T.INT64, 6),
                         h.make_node("STFT", ["s", "step", "w", "len"],
                                     ["y"])],
     [f32("s", [1, 16, 1]), f32("w", [8])], [f32("y", [1, 3, 5, 2])])

# Inputs and NumPy's transforms for the models run end to end.
import numpy as np

rng = np.random.default_rng(7)


def cplx(a):
    return np.stack([a.real, a.imag], axis=-1).astype(np.float32)


x = rng.standard_normal((2, 8, 1), dtype=np.float32)
np.save(os.path.join(out, "rfft-x.npy"), x)
np.save(os.path.join(out, "rfft-y.npy"), cplx(np.fft.rfft(x[..., 0], axis=1)))
z = rng.standard_normal((3, 4, 5, 2), dtype=np.float32)
np.save(os.path.join(out, "idft-axis-x.npy"), z)
np.save(os.path.join(out, "idft-axis-y.npy"),
        cplx(np.fft.ifft(z[..., 0] + 1j * z[..., 1], n=6, axis=1)))
s = rng.standard_normal((2, 5, 2), dtype=np.float32)
np.save(os.path.join(out, "irfft-x.npy"), s)
np.save(os.path.join(out, "irfft-y.npy"), np.fft.irfft(
    s[..., 0] + 1j * s[..., 1], n=8, axis=1)[..., None].astype(np.float32))
sig = rng.standard_normal((1, 16, 1), dtype=np.float32)
win = np.hanning(8).astype(np.float32)
np.save(os.path.join(out, "stft-s.npy"), sig)
np.save(os.path.join(out, "stft-w.npy"), win)
frames = np.stack([sig[0, f * 4:f * 4 + 8, 0] * win for f in range(3)])
np.save(os.path.join(out, "stft-y.npy"), cplx(np.fft.rfft(frames, axis=1))[None])
