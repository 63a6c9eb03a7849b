#!/usr/bin/env python3
"""fuzz-seeds.py: writes the seed inputs of the runtime's fuzz targets.

  fuzz-seeds.py TARGET DIR            # seeds for TARGET into DIR
  fuzz-seeds.py fixture-bundle DIR LIBDIR  # DIR/feed.gjob for worker-rpc

scripts/fuzz.sh calls this at run time (seeds live in the build folder, never
in the repository). Model targets get their seeds from ../shared/testdata in
fuzz.sh; this adds the formats the shared data has none of (.npy, .csv,
safetensors, manifest.json) and the structured inputs of the worker-RPC and
data-plane fuzzers. Uses NumPy and test/runtime/Inputs/graphrt_test.py.
"""
import json
import os
import shutil
import struct
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "runtime", "Inputs"))
import graphrt_test  # noqa: E402


def put(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# Protocol buffer wire format, enough for worker_fuzz.proto's messages.
def varint(n):
    n &= (1 << 64) - 1
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def vi(field, n):
    return varint(field << 3) + varint(n)


def ld(field, data):
    data = data.encode() if isinstance(data, str) else data
    return varint(field << 3 | 2) + varint(len(data)) + data


def tensor(name, dtype, shape, array):
    packed = b"".join(varint(d) for d in shape)
    return ld(1, name) + ld(2, dtype) + ld(3, packed) + ld(4, array.tobytes())


def call(field, body):
    return ld(1, ld(field, body))  # WorkerSession.calls[i].<field>


def manifests():
    """The manifests of the runtime tests' bundles (pair, feed, collectives),
    written by graphrt_test.py with its file copying left out."""
    out = []

    def record(_dir, manifest, files):
        manifest["files"] = [{"path": p, "sha256": "0" * 64, "size": 1}
                             for p in sorted(files)]
        out.append(json.dumps(manifest, indent=1))

    real, graphrt_test.write_bundle = graphrt_test.write_bundle, record
    saved = os.getcwd()
    tmp = os.path.join("/tmp", "graphc-fuzz-seeds-%d" % os.getpid())
    os.makedirs(tmp, exist_ok=True)
    try:
        graphrt_test.pair_bundle(tmp, "/nonexistent")
        graphrt_test.feed_bundle(tmp, "/nonexistent", 4)
        graphrt_test.coll_bundle(3, tmp, "/nonexistent")
    finally:
        graphrt_test.write_bundle = real
        os.chdir(saved)
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def seeds(target, d):
    if target == "manifest":
        for i, m in enumerate(manifests()):
            put(d, "manifest-%d" % i, m)
    elif target == "npy":
        arrays = [np.arange(12, dtype=np.float32).reshape(3, 4),
                  np.array([1, -2, 3], np.int64), np.zeros((2, 0, 3), np.int8),
                  np.array(3.5, np.float64), np.array([True, False]),
                  np.arange(6, dtype=np.float16).reshape(2, 3),
                  np.arange(4, dtype=np.uint16)]
        for i, a in enumerate(arrays):
            path = os.path.join(d, "npy-%d.npy" % i)
            np.save(path, a)
            os.rename(path, path[:-4])
    elif target == "csv":
        texts = [(3, 0, "a,b,c\n1,2,3\n4.5,-6,7e3\n"), (1, 5, "1\n2\n\n3\n"),
                 (2, 7, "1,0\n0,1\n"), (4, 1, "0.1,0.2,0.3,0.4\r\n"),
                 (2, 2, "-128,127\n"), (2, 8, "1.5,nan\ninf,-0\n")]
        for i, (cols, dtype, text) in enumerate(texts):
            put(d, "csv-%d" % i, bytes([cols - 1, dtype]) + text.encode())
    elif target == "safetensors":
        for i, tensors in enumerate([
                {"w": ("F32", [2, 2], np.arange(4, dtype=np.float32))},
                {"a": ("I64", [3], np.arange(3, dtype=np.int64)),
                 "b": ("BF16", [1], np.zeros(1, np.uint16)),
                 "__metadata__": {"step": "7"}},
                {"e": ("U8", [0], np.zeros(0, np.uint8))}]):
            header, data = {}, b""
            for name, value in tensors.items():
                if name == "__metadata__":
                    header[name] = value
                    continue
                dtype, shape, array = value
                header[name] = {"dtype": dtype, "shape": shape,
                                "data_offsets": [len(data),
                                                 len(data) + array.nbytes]}
                data += array.tobytes()
            h = json.dumps(header).encode()
            h += b" " * (-len(h) % 8)
            put(d, "st-%d" % i, struct.pack("<Q", len(h)) + h + data)
    elif target == "tensorproto":
        from onnx import numpy_helper
        for i, a in enumerate([np.arange(6, dtype=np.float32).reshape(2, 3),
                               np.array([1, 2], np.int64),
                               np.array([True], np.bool_),
                               np.arange(4, dtype=np.float64)]):
            put(d, "tp-%d" % i, numpy_helper.from_array(a).SerializeToString())
    elif target == "data-plane":
        def frame(key, payload):
            return (struct.pack("<IIQ", 0x4D445247, len(key), len(payload)) +
                    key.encode() + payload)
        x = np.arange(3, dtype=np.float32).tobytes()
        put(d, "dp-0", bytes([3]) + frame("g", x) + frame("h", b""))
        put(d, "dp-1", bytes([1]) + frame("g", x))
        put(d, "dp-2", bytes([2]) + struct.pack("<I", 0x31445247) + b"0" * 64 +
            struct.pack("<I", 3) + b"src")
        put(d, "dp-3", bytes([3]) + frame("g", x) + frame("g", x))
    elif target == "worker-rpc":
        b, log = graphrt_test.FEED_BATCH, graphrt_test.FEED_LOG
        load = lambda task: call(1, ld(1, "bundle") + ld(2, task) +
                                 vi(4, 20) + ld(6, "grpc"))
        x = np.arange(3 * b, dtype=np.float32)
        y = np.arange(b, dtype=np.int64)
        step = call(2, vi(1, 0) + ld(2, tensor("x", "f32", [b, 3], x)) +
                    ld(2, tensor("y", "i64", [b], y)) + vi(3, 1) + vi(4, 1))
        w = np.ones(3, np.float32)
        write = call(6, ld(1, tensor("w", "f32", [3], w)))
        health = call(3, b"")
        chunk = ld(1, ld(1, "g") + ld(2, "reader") + vi(3, 12) + vi(4, 0) +
                   ld(5, w.tobytes()))
        sessions = [
            load("ps") + health + call(5, b"") + write + call(5, b"") +
            call(4, ld(1, "stop")) + health,
            load("reader") + step + health + call(8, ld(1, "ps")) + step,
            load("ps") + call(9, chunk) + step + call(7, b""),
            health + step + write + call(9, chunk + chunk),
            load("nope") + load("") + call(1, ld(6, "carrier-pigeon")),
        ]
        for i, s in enumerate(sessions):
            put(d, "rpc-%d" % i, s)


def main():
    if sys.argv[1] == "fixture-bundle":
        graphrt_test.feed_bundle(sys.argv[2], sys.argv[3], 4)
        return
    seeds(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
