#!/usr/bin/env python3
# Independent check (ONNX's own shape inference) of why
# onnxmltools_conv_bn_prelu_convtranspose.onnx cannot import: sort the nodes
# (onnx.checker rejects the file as stored: not topologically sorted), fix
# the batch to 1 and the two batch-derived Reshape shapes ([N,-1,4,64],
# [N,-1,256]) to constants, then infer shapes in strict mode.
import onnx, numpy as np
from onnx import shape_inference, numpy_helper
import sys
m = onnx.load(sys.argv[1])
g = m.graph
try:
    onnx.checker.check_model(m)
except Exception as e:
    print("checker (as stored):", str(e).splitlines()[0])
avail = set(i.name for i in g.input) | set(t.name for t in g.initializer)
nodes, out = list(g.node), []
while nodes:
    rest = []
    for n in nodes:
        if all(x in avail or x == '' for x in n.input):
            out.append(n); avail |= set(n.output)
        else:
            rest.append(n)
    assert len(rest) < len(nodes)
    nodes = rest
del g.node[:]; g.node.extend(out)
g.input[0].type.tensor_type.shape.dim[0].dim_value = 1
g.initializer.append(numpy_helper.from_array(np.array([1, -1, 4, 64], np.int64), "fixed_shape3"))
g.initializer.append(numpy_helper.from_array(np.array([1, -1, 256], np.int64), "fixed_shape2"))
for n in g.node:
    if n.name == "Test/reshape_3_reshape": n.input[1] = "fixed_shape3"
    if n.name == "Test/reshape_2_reshape": n.input[1] = "fixed_shape2"
onnx.checker.check_model(m)
print("checker (sorted): ok")
for strict in (False, True):
    try:
        mi = shape_inference.infer_shapes(m, strict_mode=strict)
    except Exception as e:
        print("strict shape inference:", str(e).splitlines()[0][:400]); continue
    vi = {v.name: [x.dim_value if x.HasField('dim_value') else '?' for x in v.type.tensor_type.shape.dim]
          for v in mi.graph.value_info}
    for k in ['convolution_output3', 'Test/deconv2d_7/strided_slice_1:0',
              'Test/deconv2d_7/Tanh:0', 'Test/conv2d_6/activation_2/Tanh:0']:
        print(k, vi.get(k))
