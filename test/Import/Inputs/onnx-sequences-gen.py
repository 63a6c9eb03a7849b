#!/usr/bin/env python3
"""onnx-sequences-gen.py DIR: models whose sequences live inside the graph
(tensor inputs and outputs, sequence ops between them) for
onnx-sequences.test, with their inputs (.npy) and the outputs NumPy gives
by following the ONNX specification of each sequence op (expected.npz);
and malformed models the importer must refuse by name."""
import os
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import TensorProto as T
from onnx import helper as h

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
vi = h.make_tensor_value_info


def save(name, nodes, inputs, outputs, inits=()):
    graph = h.make_graph(nodes, name, inputs, outputs, list(inits))
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]),
              os.path.join(d, name + ".onnx"))


def i64(name, v):
    return h.make_tensor(name, T.INT64, [], [v])


rng = np.random.default_rng(5)
x = rng.standard_normal((2, 3)).astype(np.float32)
y = rng.standard_normal((2, 3)).astype(np.float32)
z = rng.standard_normal((2, 3)).astype(np.float32)
w = rng.standard_normal((5, 3)).astype(np.float32)
for n, v in dict(x=x, y=y, z=z, w=w).items():
    np.save(os.path.join(d, n + ".npy"), v)

# ops: every sequence op, positions negative and positive, constants
# (initializers) and Constant nodes.
nodes = [
    h.make_node("SequenceEmpty", [], ["s0"], dtype=T.FLOAT),
    h.make_node("SequenceInsert", ["s0", "x"], ["s1"]),             # [x]
    h.make_node("SequenceInsert", ["s1", "y", "zero"], ["s2"]),     # [y, x]
    h.make_node("Constant", [], ["minus1"], value=i64("m1", -1)),
    h.make_node("SequenceInsert", ["s2", "z", "minus1"], ["s3"]),   # [y, z, x]
    h.make_node("SequenceErase", ["s3", "zero"], ["s4"]),           # [z, x]
    h.make_node("SequenceAt", ["s4", "minus1"], ["at"]),            # x
    h.make_node("Relu", ["at"], ["relu_at"]),
    h.make_node("ConcatFromSequence", ["s3"], ["stacked"], axis=-1,
                new_axis=1),                                         # 2x3x3
    h.make_node("ConcatFromSequence", ["s4"], ["joined"], axis=0),  # 4x3
    h.make_node("SequenceLength", ["s3"], ["len3"]),
    # Split w (5x3) along axis 0 in chunks of 2: 2, 2, 1.
    h.make_node("SplitToSequence", ["w", "two"], ["chunks"], axis=0),
    h.make_node("SequenceAt", ["chunks", "minus1"], ["last_chunk"]),
    h.make_node("SequenceLength", ["chunks"], ["nchunks"]),
    # Rows of w without keepdims: five tensors of 3.
    h.make_node("SplitToSequence", ["w"], ["rows"], axis=0, keepdims=0),
    h.make_node("SequenceAt", ["rows", "one"], ["row1"]),
    h.make_node("SplitToSequence", ["w", "sizes"], ["parts"], axis=-2),
    h.make_node("ConcatFromSequence", ["parts"], ["rejoined"], axis=0),
    h.make_node("SequenceConstruct", ["x", "y"], ["pair"]),
    h.make_node("SequenceAt", ["pair", "one"], ["second"]),
    h.make_node("Add", ["second", "row1"], ["sum"]),
]
outs = [vi("relu_at", T.FLOAT, [2, 3]), vi("stacked", T.FLOAT, [2, 3, 3]),
        vi("joined", T.FLOAT, [4, 3]), vi("len3", T.INT64, []),
        vi("last_chunk", T.FLOAT, [1, 3]), vi("nchunks", T.INT64, []),
        vi("rejoined", T.FLOAT, [5, 3]), vi("sum", T.FLOAT, [2, 3])]
save("ops", nodes,
     [vi(n, T.FLOAT, list(v.shape)) for n, v in
      dict(x=x, y=y, z=z, w=w).items()], outs,
     [i64("zero", 0), i64("one", 1), i64("two", 2),
      h.make_tensor("sizes", T.INT64, [2], [4, 1])])
np.savez(os.path.join(d, "expected.npz"),
         relu_at=np.maximum(x, 0), stacked=np.stack([y, z, x], axis=-1),
         joined=np.concatenate([z, x], axis=0), len3=np.array(3, np.int64),
         last_chunk=w[4:5], nchunks=np.array(3, np.int64),
         rejoined=w, sum=y + w[1])

# A position given at run time: refused unless frozen (--freeze-input).
with open(os.path.join(d, "pos.pb"), "wb") as f:
    f.write(onnx.numpy_helper.from_array(np.array(-2, np.int64))
            .SerializeToString())
save("runtime_pos",
     [h.make_node("SequenceConstruct", ["x", "y", "z"], ["s"]),
      h.make_node("SequenceAt", ["s", "pos"], ["out"])],
     [vi("x", T.FLOAT, [2, 3]), vi("y", T.FLOAT, [2, 3]),
      vi("z", T.FLOAT, [2, 3]), vi("pos", T.INT64, [])],
     [vi("out", T.FLOAT, [2, 3])])

# Malformed.
save("out_of_range",
     [h.make_node("SequenceConstruct", ["x", "y"], ["s"]),
      h.make_node("SequenceErase", ["s", "two"], ["s2"]),
      h.make_node("ConcatFromSequence", ["s2"], ["out"], axis=0)],
     [vi("x", T.FLOAT, [2, 3]), vi("y", T.FLOAT, [2, 3])],
     [vi("out", T.FLOAT, [2, 3])], [i64("two", 2)])
save("not_a_sequence_op",
     [h.make_node("SequenceConstruct", ["x"], ["s"]),
      h.make_node("Relu", ["s"], ["out"])],
     [vi("x", T.FLOAT, [2, 3])], [vi("out", T.FLOAT, [2, 3])])
save("sequence_output",
     [h.make_node("SequenceConstruct", ["x"], ["s"], name="make")],
     [vi("x", T.FLOAT, [2, 3])],
     [h.make_tensor_sequence_value_info("s", T.FLOAT, [2, 3])])
save("mixed_types",
     [h.make_node("SequenceEmpty", [], ["s0"], dtype=T.INT64),
      h.make_node("SequenceInsert", ["s0", "x"], ["s1"], name="insert"),
      h.make_node("SequenceAt", ["s1", "zero"], ["out"])],
     [vi("x", T.FLOAT, [2, 3])], [vi("out", T.FLOAT, [2, 3])],
     [i64("zero", 0)])
save("tensor_as_sequence",
     [h.make_node("SequenceAt", ["x", "zero"], ["out"], name="at")],
     [vi("x", T.FLOAT, [2, 3])], [vi("out", T.FLOAT, [3])],
     [i64("zero", 0)])
