# onnx-batch-gen.py: small ONNX models for graphc --batch (test/Import/batch.test).
#   batch-ok.onnx:   x [N, 3], y [N, 3]: Add; --batch fills both N.
#   batch-bad.onnx:  a [N, 3] (fillable), b with no shape, c [N, T] (T is
#                    not leading): --batch 4 leaves b and c to the user.
import sys

import onnx
from onnx import TensorProto, helper

out = sys.argv[1]


def model(inputs, name):
    nodes, value = [], inputs[0].name
    for other in inputs[1:]:
        nodes.append(helper.make_node("Add", [value, other.name], [value + "_" + other.name]))
        value = nodes[-1].output[0]
    y = helper.make_tensor_value_info(value, TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, name, inputs, [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(m, f"{out}/{name}.onnx")


model([helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3]),
       helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
      "batch-ok")
model([helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 3]),
       helper.make_tensor_value_info("b", TensorProto.FLOAT, None),
       helper.make_tensor_value_info("c", TensorProto.FLOAT, ["N", "T"])],
      "batch-bad")
