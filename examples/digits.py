#!/usr/bin/python3
"""digits.py: data and models for the README's training run (scripts/demo.sh).

The data are scikit-learn's handwritten digits (1797 8x8 images, 10
classes), read at run time from Debian's python3-sklearn package
(sklearn/datasets/data/digits.csv.gz), never copied into the repository.

  digits.py prepare DIR [--batch B]
      Splits the digits (seed 0) into 1437 training and 360 test examples,
      scales pixels to [0, 1], and writes DIR/train_x.npy, train_y.npy,
      test_x.npy, test_y.npy. Writes the untrained classifier, a PyTorch MLP
      64 -> 128 -> 10 (seeded initial weights), as DIR/digits.onnx with batch
      B (default 64): the model graphc --train turns into a training step.
  digits.py test-model DIR WEIGHTS.safetensors
      Writes DIR/digits-test.onnx: the same classifier with the trained
      weights graph-run --save wrote (looked up by their ONNX initializer
      names) and a batch of the whole test set.
  digits.py accuracy DIR LOGITS.npy [--min A]
      Prints the test accuracy of the logits graphc's test model computed,
      and exits 1 when it is below A (default 0.95).
"""
import json
import os
import struct
import sys

import numpy as np

TRAIN = 1437


def digits_csv():
    for base in ("/usr/lib/python3/dist-packages", "/usr/local/lib/python3/dist-packages"):
        path = os.path.join(base, "sklearn/datasets/data/digits.csv.gz")
        if os.path.exists(path):
            return path
    sys.exit("digits.py: digits.csv.gz not found; install Debian's python3-sklearn "
             "(scripts/setup.sh does)")


def prepare(out, batch):
    import torch

    data = np.loadtxt(digits_csv(), delimiter=",", dtype=np.float32)
    x, y = data[:, :64] / 16.0, data[:, 64].astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    x, y = x[order], y[order]
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "train_x.npy"), x[:TRAIN])
    np.save(os.path.join(out, "train_y.npy"), y[:TRAIN])
    np.save(os.path.join(out, "test_x.npy"), x[TRAIN:])
    np.save(os.path.join(out, "test_y.npy"), y[TRAIN:])

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 10))
    torch.onnx.export(model, torch.zeros(batch, 64),
                      os.path.join(out, "digits.onnx"), input_names=["x"],
                      output_names=["logits"], do_constant_folding=False,
                      opset_version=13)
    print("digits.py: %d training and %d test examples, a 64-128-10 MLP at batch %d"
          % (TRAIN, len(x) - TRAIN, batch))


def read_safetensors(path):
    """The tensors of a safetensors file, parsed by hand (no extra package)."""
    blob = open(path, "rb").read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    dtypes = {"F32": np.float32, "F64": np.float64, "I64": np.int64, "I32": np.int32}
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        tensors[name] = np.frombuffer(blob[8 + n + begin:8 + n + end],
                                      dtype=dtypes[info["dtype"]]).reshape(info["shape"])
    return tensors


def test_model(out, weights):
    import onnx
    from onnx import numpy_helper

    model = onnx.load(os.path.join(out, "digits.onnx"))
    trained = read_safetensors(weights)
    names = {init.name for init in model.graph.initializer}
    missing = names - set(trained)
    if missing:
        sys.exit("digits.py: %s lacks weights %s" % (weights, sorted(missing)))
    for i, init in enumerate(model.graph.initializer):
        model.graph.initializer[i].CopyFrom(numpy_helper.from_array(
            trained[init.name].astype(numpy_helper.to_array(init).dtype), init.name))
    tests = len(np.load(os.path.join(out, "test_x.npy")))
    for value in list(model.graph.input) + list(model.graph.output):
        value.type.tensor_type.shape.dim[0].dim_value = tests
    onnx.save(model, os.path.join(out, "digits-test.onnx"))
    print("digits.py: the trained classifier at batch %d (%d weights from %s)"
          % (tests, len(names), os.path.basename(weights)))


def accuracy(out, logits, minimum):
    y = np.load(os.path.join(out, "test_y.npy"))
    pred = np.load(logits).argmax(axis=1)
    acc = float((pred == y).mean())
    print("test accuracy: %.2f%% (%d of %d held-out digits)"
          % (100 * acc, int((pred == y).sum()), len(y)))
    if acc < minimum:
        sys.exit("digits.py: accuracy %.4f is below %.2f" % (acc, minimum))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, out = argv[1], argv[2]
    if cmd == "prepare":
        batch = int(argv[argv.index("--batch") + 1]) if "--batch" in argv else 64
        prepare(out, batch)
    elif cmd == "test-model" and len(argv) == 4:
        test_model(out, argv[3])
    elif cmd == "accuracy" and len(argv) >= 4:
        minimum = float(argv[argv.index("--min") + 1]) if "--min" in argv else 0.95
        accuracy(out, argv[3], minimum)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
