"""NumPy reference for small frozen TensorFlow graphs (MLPs, autoencoders).

  tf_reference.py GRAPH.pb INPUT_NAME X.npy OUTPUT_NAME OUT.npy

Parses the GraphDef with a hand-written protobuf wire reader (no TensorFlow
here) and evaluates Const, Placeholder, Identity, MatMul, BiasAdd, Add,
AddV2, Relu, Sigmoid and Tanh with NumPy; independent of graphc's importer.
"""
import sys

import numpy as np


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


def varint(buf, pos):
    v = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos


def tensor(buf):
    dims, content, floats = [], b"", []
    for num, wire, val in fields(buf):
        if num == 1:
            assert val == 1, f"dtype {val}: only DT_FLOAT"
        elif num == 2:
            for n, _, d in fields(val):
                if n == 2:
                    dims += [s for k, _, s in fields(d) if k == 1]
        elif num == 4:
            content = val
        elif num == 5:
            floats += list(np.frombuffer(val, "<f4"))
    if content:
        return np.frombuffer(content, "<f4").reshape(dims)
    # A single float_val is a splat.
    return np.broadcast_to(np.array(floats, np.float32), dims).copy()


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
                node["attr"][entry[1].decode()] = entry.get(2, b"")
        yield node


def main():
    graph_path, in_name, x_path, out_name, out_path = sys.argv[1:]
    graph = {n["name"]: n for n in nodes(open(graph_path, "rb").read())}
    values = {in_name: np.load(x_path)}

    def value(name):
        name = name.split(":")[0].lstrip("^")
        if name in values:
            return values[name]
        n = graph[name]
        args = [value(i) for i in n["input"] if not i.startswith("^")]
        op = n["op"]
        if op == "Const":
            attr = dict((k, x) for k, _, x in fields(n["attr"]["value"]))
            r = tensor(attr[8])
        elif op == "Identity":
            r = args[0]
        elif op == "MatMul":
            r = args[0] @ args[1]
        elif op in ("BiasAdd", "Add", "AddV2"):
            r = args[0] + args[1]
        elif op == "Relu":
            r = np.maximum(args[0], 0)
        elif op == "Sigmoid":
            r = 1 / (1 + np.exp(-args[0]))
        elif op == "Tanh":
            r = np.tanh(args[0])
        else:
            raise NotImplementedError(op)
        values[name] = r.astype(np.float32)
        return values[name]

    np.save(out_path, value(out_name))


main()
