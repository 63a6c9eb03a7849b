"""NumPy reference for frozen TensorFlow inference graphs.

  tf_reference.py GRAPH.pb OUTPUT_NAME OUT.npy NAME=FILE.npy...

Parses the GraphDef with a hand-written protobuf wire reader (no TensorFlow
here, and nothing of graphc) and evaluates the output node with NumPy,
following TensorFlow's op definitions. Every NAME=FILE.npy feeds a node by
name: Placeholders, and random ops (RandomUniform), whose values graphc
also takes as inputs. Covers the MLPs, autoencoder, unrolled LSTM/GRU and
the "hey snips" dilated CNN of shared/testdata/tf-graphs, and the
hand-written NHWC convolution graph of test/Import/Inputs.
"""
import sys

import numpy as np

# TensorFlow DataType -> NumPy dtype (the ones these graphs use).
DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 9: np.int64, 10: np.bool_}


def varint(buf, pos):
    v = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = varint(buf, pos)
        elif wire == 1:
            val, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"wire type {wire}")
        yield num, wire, val


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def varints(wire, val):
    """A repeated integer field: one varint, or a packed run of them."""
    if wire == 0:
        return [signed(val)]
    out, pos = [], 0
    while pos < len(val):
        v, pos = varint(val, pos)
        out.append(signed(v))
    return out


def shape_proto(buf):
    """TensorShapeProto -> list of dims (None for an unknown rank)."""
    dims = []
    for num, _, val in fields(buf):
        if num == 2:
            dims.append(signed(dict((k, x) for k, _, x in fields(val)).get(1, 0)))
        elif num == 3 and val:
            return None
    return dims


def tensor(buf):
    dtype, dims, content, values = 1, [], b"", []
    for num, wire, val in fields(buf):
        if num == 1:
            dtype = val
        elif num == 2:
            dims = shape_proto(val)
        elif num == 4:
            content = val
        elif num == 5:  # float_val
            values += list(np.frombuffer(val, "<f4"))
        elif num == 6:  # double_val
            values += list(np.frombuffer(val, "<f8"))
        elif num in (7, 10, 11):  # int_val, int64_val, bool_val
            values += varints(wire, val)
    if dtype not in DTYPES:
        raise NotImplementedError(f"tensor dtype {dtype}")
    np_type = DTYPES[dtype]
    if content:
        return np.frombuffer(content, np.dtype(np_type).newbyteorder("<")) \
                 .astype(np_type).reshape(dims)
    count = int(np.prod(dims))
    if not values:
        values = [0]
    # TensorFlow repeats the last value to fill the shape.
    values = values[:count] + [values[-1]] * (count - len(values))
    return np.array(values, np_type).reshape(dims)


def attr_value(buf):
    """AttrValue -> Python value (list, bytes, int, float, bool, dtype, ...)."""
    for num, wire, val in fields(buf):
        if num == 1:  # list
            out = []
            for n, w, v in fields(val):
                if n == 2:
                    out.append(v)
                elif n in (3, 6):
                    out += varints(w, v)
                elif n == 4:
                    out += list(np.frombuffer(v, "<f4"))
                elif n == 7:
                    out.append(shape_proto(v))
            return out
        if num == 2:
            return val
        if num in (3, 6):
            return signed(val)
        if num == 4:
            return float(np.frombuffer(val, "<f4")[0])
        if num == 5:
            return bool(val)
        if num == 7:
            return shape_proto(val)
        if num == 8:
            return tensor(val)
    return None


def nodes(graph):
    for num, _, val in fields(graph):
        if num != 1:
            continue
        node = {"input": [], "attr": {}}
        for n, _, v in fields(val):
            if n == 1:
                node["name"] = v.decode()
            elif n == 2:
                node["op"] = v.decode()
            elif n == 3:
                node["input"].append(v.decode())
            elif n == 5:
                entry = dict((k, x) for k, _, x in fields(v))
                node["attr"][entry[1].decode()] = attr_value(entry.get(2, b""))
        yield node


def same_padding(size, window, stride, dilation):
    out = -(-size // stride)
    total = max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def conv2d(x, w, strides, dilations, padding):
    """NHWC input, HWIO filter (TensorFlow's Conv2D)."""
    kh, kw = w.shape[:2]
    pads = [(0, 0), (0, 0)]
    if padding == b"SAME":
        pads = [same_padding(x.shape[1 + i], w.shape[i], strides[i],
                             dilations[i]) for i in range(2)]
    x = np.pad(x, [(0, 0), pads[0], pads[1], (0, 0)])
    oh = (x.shape[1] - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (x.shape[2] - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    y = np.zeros((x.shape[0], oh, ow, w.shape[3]), np.float64)
    for i in range(kh):
        for j in range(kw):
            h0, w0 = i * dilations[0], j * dilations[1]
            patch = x[:, h0:h0 + (oh - 1) * strides[0] + 1:strides[0],
                      w0:w0 + (ow - 1) * strides[1] + 1:strides[1], :]
            y += patch.astype(np.float64) @ w[i, j].astype(np.float64)
    return y.astype(np.float32)


def max_pool(x, ksize, strides, padding):
    """NHWC max pooling; SAME padding never wins the max."""
    pads = [(0, 0), (0, 0)]
    if padding == b"SAME":
        pads = [same_padding(x.shape[1 + i], ksize[i], strides[i], 1)
                for i in range(2)]
    x = np.pad(x, [(0, 0), pads[0], pads[1], (0, 0)], constant_values=-np.inf)
    oh = (x.shape[1] - ksize[0]) // strides[0] + 1
    ow = (x.shape[2] - ksize[1]) // strides[1] + 1
    y = np.full((x.shape[0], oh, ow, x.shape[3]), -np.inf, np.float32)
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            y = np.maximum(y, x[:, i:i + (oh - 1) * strides[0] + 1:strides[0],
                                j:j + (ow - 1) * strides[1] + 1:strides[1], :])
    return y


def avg_pool(x, ksize, strides, padding):
    """NHWC average pooling; SAME padding is not counted (TensorFlow)."""
    pads = [(0, 0), (0, 0)]
    if padding == b"SAME":
        pads = [same_padding(x.shape[1 + i], ksize[i], strides[i], 1)
                for i in range(2)]
    ones = np.pad(np.ones(x.shape[1:3], np.float64), pads)
    x = np.pad(x.astype(np.float64), [(0, 0), pads[0], pads[1], (0, 0)])
    oh = (x.shape[1] - ksize[0]) // strides[0] + 1
    ow = (x.shape[2] - ksize[1]) // strides[1] + 1
    total = np.zeros((x.shape[0], oh, ow, x.shape[3]))
    count = np.zeros((oh, ow))
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            rows = slice(i, i + (oh - 1) * strides[0] + 1, strides[0])
            cols = slice(j, j + (ow - 1) * strides[1] + 1, strides[1])
            total += x[:, rows, cols, :]
            count += ones[rows, cols]
    return (total / count[None, :, :, None]).astype(np.float32)


def depthwise_conv2d(x, w, strides, padding):
    """NHWC input, [H, W, C, M] filter: output channel c * M + m."""
    c, m = w.shape[2:]
    outs = [conv2d(x[..., k:k + 1], w[:, :, k:k + 1, :], strides, [1, 1],
                   padding) for k in range(c)]
    return np.concatenate(outs, axis=3)


def space_to_batch(x, block, pads):
    """SpaceToBatchND for NHWC with a 2-d block (TensorFlow's definition)."""
    x = np.pad(x, [(0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)])
    n, h, w, c = x.shape
    b0, b1 = block
    x = x.reshape(n, h // b0, b0, w // b1, b1, c).transpose(2, 4, 0, 1, 3, 5)
    return x.reshape(b0 * b1 * n, h // b0, w // b1, c)


def batch_to_space(x, block, crops):
    b0, b1 = block
    nb, h, w, c = x.shape
    n = nb // (b0 * b1)
    x = x.reshape(b0, b1, n, h, w, c).transpose(2, 3, 0, 4, 1, 5)
    x = x.reshape(n, h * b0, w * b1, c)
    return x[:, crops[0][0]:h * b0 - crops[0][1],
             crops[1][0]:w * b1 - crops[1][1], :]


def strided_slice(x, begin, end, strides, a):
    """TensorFlow's StridedSlice with its five masks."""
    index, dim = [], 0
    ellipsis = a.get("ellipsis_mask", 0)
    real = sum(1 for i in range(len(begin))
               if not (ellipsis >> i) & 1 and not (a.get("new_axis_mask", 0) >> i) & 1)
    for i in range(len(begin)):
        if (ellipsis >> i) & 1:
            index.append(Ellipsis)
            dim += x.ndim - real
        elif (a.get("new_axis_mask", 0) >> i) & 1:
            index.append(np.newaxis)
        elif (a.get("shrink_axis_mask", 0) >> i) & 1:
            index.append(int(begin[i]))
            dim += 1
        else:
            b = None if (a.get("begin_mask", 0) >> i) & 1 else int(begin[i])
            e = None if (a.get("end_mask", 0) >> i) & 1 else int(end[i])
            index.append(slice(b, e, int(strides[i])))
            dim += 1
    return x[tuple(index)]


def evaluate(node, args):
    op, a = node["op"], node["attr"]
    if op == "Const":
        return a["value"]
    if op in ("Identity", "StopGradient"):
        return args[0]
    if op == "MatMul":
        x = args[0].T if a.get("transpose_a") else args[0]
        y = args[1].T if a.get("transpose_b") else args[1]
        return (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)
    if op in ("BiasAdd", "Add", "AddV2"):
        return args[0] + args[1]
    if op == "Sub":
        return args[0] - args[1]
    if op == "Mul":
        return args[0] * args[1]
    if op == "RealDiv":
        return args[0] / args[1]
    if op == "FloorMod":
        return np.mod(args[0], args[1])
    if op == "Floor":
        return np.floor(args[0])
    if op == "Relu":
        return np.maximum(args[0], 0)
    if op == "Sigmoid":
        return 1 / (1 + np.exp(-args[0]))
    if op == "Tanh":
        return np.tanh(args[0])
    if op == "Shape":
        return np.array(args[0].shape, np.int32)
    if op == "StridedSlice":
        return strided_slice(args[0], args[1], args[2], args[3], a)
    if op == "Pack":
        return np.stack(args, axis=a.get("axis", 0))
    if op == "Unpack":
        axis = a.get("axis", 0)
        return [np.take(args[0], i, axis=axis) for i in range(args[0].shape[axis])]
    if op == "ExpandDims":
        return np.expand_dims(args[0], int(args[1]))
    if op == "Squeeze":
        dims = a.get("squeeze_dims") or [i for i, d in enumerate(args[0].shape) if d == 1]
        return np.squeeze(args[0], axis=tuple(dims))
    if op == "Reshape":
        return args[0].reshape(args[1])
    if op == "Fill":
        return np.full(args[0], args[1], args[1].dtype)
    if op == "ConcatV2":
        return np.concatenate(args[:-1], axis=int(args[-1]))
    if op == "Split":
        return np.split(args[1], a["num_split"], axis=int(args[0]))
    if op == "Conv2D":
        assert a.get("data_format", b"NHWC") == b"NHWC"
        dil = a.get("dilations", [1, 1, 1, 1])
        return conv2d(args[0], args[1], a["strides"][1:3], dil[1:3], a["padding"])
    if op == "MaxPool":
        assert a.get("data_format", b"NHWC") == b"NHWC"
        return max_pool(args[0], a["ksize"][1:3], a["strides"][1:3], a["padding"])
    if op == "AvgPool":
        assert a.get("data_format", b"NHWC") == b"NHWC"
        return avg_pool(args[0], a["ksize"][1:3], a["strides"][1:3], a["padding"])
    if op == "DepthwiseConv2dNative":
        assert a.get("data_format", b"NHWC") == b"NHWC"
        return depthwise_conv2d(args[0], args[1], a["strides"][1:3], a["padding"])
    if op == "SpaceToBatchND":
        return space_to_batch(args[0], args[1], args[2])
    if op == "BatchToSpaceND":
        return batch_to_space(args[0], args[1], args[2])
    raise NotImplementedError(op)


def main():
    graph_path, out_name, out_path = sys.argv[1:4]
    graph = {n["name"]: n for n in nodes(open(graph_path, "rb").read())}
    values = {}
    for feed in sys.argv[4:]:
        name, path = feed.split("=", 1)
        values[name] = [np.load(path)]

    def producer(spelling):
        name, _, index = spelling.lstrip("^").partition(":")
        return name, int(index or 0)

    # Depth-first without recursion: an unrolled RNN is hundreds deep.
    stack = [producer(out_name)[0]]
    while stack:
        name = stack[-1]
        if name in values:
            stack.pop()
            continue
        node = graph[name]
        missing = [producer(i)[0] for i in node["input"]
                   if producer(i)[0] not in values]
        if missing:
            stack += missing
            continue
        args = [np.asarray(values[n][k]) for i in node["input"]
                if not i.startswith("^") for n, k in [producer(i)]]
        r = evaluate(node, args)
        values[name] = r if isinstance(r, list) else [r]
        stack.pop()
    name, index = producer(out_name)
    np.save(out_path, np.asarray(values[name][index]))


main()
