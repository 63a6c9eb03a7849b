#!/usr/bin/env python3
"""onnx-attention-gen.py DIR: writes small opset-23/27 models with Attention,
RMSNormalization, RotaryEmbedding, CausalConvWithState and LinearAttention
for the importer tests (built with the
onnx package's helpers; the ops are newer than the installed onnx, whose
checker is therefore not run)."""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h
import onnx

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, opset=23):
    graph = h.make_graph(nodes, name, inputs, outputs)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


def value(n, t, s):
    return h.make_tensor_value_info(n, t, s)


f32 = lambda n, s: value(n, T.FLOAT, s)
f16 = lambda n, s: value(n, T.FLOAT16, s)

# 3-D grouped-query attention (4 query heads on 2 KV heads) with a KV cache,
# a boolean mask and the causal mask.
save("attention-gqa", [
    h.make_node("Attention", ["q", "k", "v", "mask", "pk", "pv"],
                ["y", "present_k", "present_v"], q_num_heads=4,
                kv_num_heads=2, is_causal=1),
], [f32("q", [1, 3, 32]), f32("k", [1, 3, 16]), f32("v", [1, 3, 16]),
    value("mask", T.BOOL, [3, 5]), f32("pk", [1, 2, 2, 8]),
    f32("pv", [1, 2, 2, 8])],
   [f32("y", [1, 3, 32]), f32("present_k", [1, 2, 5, 8]),
    f32("present_v", [1, 2, 5, 8])])

# fp16 4-D attention with softcap and the softmax probabilities as output.
save("attention-f16", [
    h.make_node("Attention", ["q", "k", "v"], ["y", "", "", "p"],
                softcap=2.0, qk_matmul_output_mode=3, scale=0.25),
], [f16("q", [1, 2, 3, 4]), f16("k", [1, 2, 5, 4]), f16("v", [1, 2, 5, 6])],
   [f16("y", [1, 2, 3, 6]), f16("p", [1, 2, 3, 5])])

# 3-D Attention without head counts.
save("attention-no-heads", [
    h.make_node("Attention", ["q", "k", "v"], ["y"]),
], [f32("q", [1, 3, 32]), f32("k", [1, 3, 32]), f32("v", [1, 3, 32])],
   [f32("y", [1, 3, 32])])

# Query heads that are not a multiple of the KV heads.
save("attention-bad-gqa", [
    h.make_node("Attention", ["q", "k", "v"], ["y"]),
], [f32("q", [1, 3, 2, 8]), f32("k", [1, 2, 2, 8]), f32("v", [1, 2, 2, 8])],
   [f32("y", [1, 3, 2, 8])])

save("rms-norm", [
    h.make_node("RMSNormalization", ["x", "w"], ["y"], axis=1, epsilon=0.5),
], [f32("x", [2, 3, 4]), f32("w", [3, 4])], [f32("y", [2, 3, 4])])

save("rms-norm-bad-axis", [
    h.make_node("RMSNormalization", ["x", "w"], ["y"], axis=3),
], [f32("x", [2, 3, 4]), f32("w", [4])], [f32("y", [2, 3, 4])])

# Interleaved rotation of the first 4 of 8 features, angles gathered at
# position_ids.
save("rotary", [
    h.make_node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"],
                interleaved=1, rotary_embedding_dim=4),
], [f32("x", [2, 4, 3, 8]), f32("cos", [16, 2]), f32("sin", [16, 2]),
    value("pos", T.INT64, [2, 3])], [f32("y", [2, 4, 3, 8])])

save("rotary-odd-dim", [
    h.make_node("RotaryEmbedding", ["x", "cos", "sin"], ["y"],
                rotary_embedding_dim=3),
], [f32("x", [2, 4, 3, 8]), f32("cos", [2, 3, 4]), f32("sin", [2, 3, 4])],
   [f32("y", [2, 4, 3, 8])])

# Opset 27: a depthwise causal convolution over [B, C, T] with SiLU and no
# past state, and one whose kernel of 1 keeps an empty state.
save("causal-conv", [
    h.make_node("CausalConvWithState", ["x", "w"], ["y", "state"],
                activation="silu"),
], [f32("x", [2, 4, 8]), f32("w", [4, 1, 3])],
   [f32("y", [2, 4, 8]), f32("state", [2, 4, 2])], 27)

save("causal-conv-k1", [
    h.make_node("CausalConvWithState", ["x", "w", "b"], ["y", "state"]),
], [f32("x", [2, 4, 8]), f32("w", [4, 1, 1]), f32("b", [4])],
   [f32("y", [2, 4, 8]), f32("state", [2, 4, 0])], 27)

save("causal-conv-bad-weight", [
    h.make_node("CausalConvWithState", ["x", "w"], ["y", "state"]),
], [f32("x", [2, 4, 8]), f32("w", [4, 2, 3])],
   [f32("y", [2, 4, 8]), f32("state", [2, 4, 2])], 27)

# Gated delta rule over 2 steps, 4 query heads reading 2 KV heads' state.
save("linear-attention", [
    h.make_node("LinearAttention", ["q", "k", "v", "", "decay", "beta"],
                ["y", "state"], q_num_heads=4, kv_num_heads=2),
], [f32("q", [1, 2, 16]), f32("k", [1, 2, 8]), f32("v", [1, 2, 6]),
    f32("decay", [1, 2, 8]), f32("beta", [1, 2, 2])],
   [f32("y", [1, 2, 12]), f32("state", [1, 2, 4, 3])], 27)

save("linear-attention-no-beta", [
    h.make_node("LinearAttention", ["q", "k", "v", "", "decay"],
                ["y", "state"], q_num_heads=2, kv_num_heads=2),
], [f32("q", [1, 2, 8]), f32("k", [1, 2, 8]), f32("v", [1, 2, 8]),
    f32("decay", [1, 2, 8])],
   [f32("y", [1, 2, 8]), f32("state", [1, 2, 4, 4])], 27)


def save_preview(name, nodes, inputs, outputs, inits=()):
    graph = h.make_graph(nodes, name, inputs, outputs,
                         initializer=list(inits))
    model = h.make_model(graph, opset_imports=[
        h.make_opsetid("", 26), h.make_opsetid("ai.onnx.preview", 1)])
    onnx.save(model, os.path.join(out, name + ".onnx"))


# FlexAttention (ai.onnx.preview) with a score_mod that adds an outer-scope
# bias and names a value 'y' (which must not shadow the graph's output),
# and a prob_mod scaling the probabilities by a body initializer.
score_mod = h.make_graph(
    [h.make_node("Add", ["scores", "bias"], ["y"])], "score_mod",
    [f32("scores", None)], [f32("y", None)])
prob_mod = h.make_graph(
    [h.make_node("Mul", ["probs", "half"], ["probs_out"])], "prob_mod",
    [f32("probs", None)], [f32("probs_out", None)],
    initializer=[h.make_tensor("half", T.FLOAT, [], [0.5])])
save_preview("flex-attention", [
    h.make_node("FlexAttention", ["q", "k", "v"], ["y"],
                domain="ai.onnx.preview", score_mod=score_mod,
                prob_mod=prob_mod),
], [f32("q", [1, 2, 3, 4]), f32("k", [1, 2, 5, 4]), f32("v", [1, 2, 5, 4])],
   [f32("y", [1, 2, 3, 4])],
   [h.make_tensor("bias", T.FLOAT, [3, 5], [0.25] * 15)])

two_outputs = h.make_graph(
    [h.make_node("Neg", ["s"], ["a"]), h.make_node("Abs", ["s"], ["b"])],
    "score_mod", [f32("s", None)], [f32("a", None), f32("b", None)])
save_preview("flex-attention-bad-mod", [
    h.make_node("FlexAttention", ["q", "k", "v"], ["y"],
                domain="ai.onnx.preview", score_mod=two_outputs),
], [f32("q", [1, 2, 3, 4]), f32("k", [1, 2, 5, 4]), f32("v", [1, 2, 5, 4])],
   [f32("y", [1, 2, 3, 4])])
