"""sgd_step_check.py: the part the tests against PyTorch share.

tool(name) finds a graphc tool on PATH; run(cmd) runs it, exits with its
output on failure and returns its output otherwise.

check(model, x, y, out[, graphc_flags]) exports `model` to ONNX (training
mode kept, no constant folding), takes one graphc --train step (SGD, lr 1,
--return-weights, no OpenMP, and graphc_flags) on the batch (x, y) with
graph-run, and
compares graphc's gradient of every weight (initial - updated) with
PyTorch autograd's, rtol 1e-4 of the largest element. Prints one line per
weight and `N of N gradients match`, and exits non-zero on a mismatch.
"""
import os
import shutil
import subprocess
import sys

import numpy as np
from torch import nn
import torch


def tool(name):
    path = shutil.which(name)
    if not path:
        sys.exit("%s: %s is not on PATH" % (os.path.basename(sys.argv[0]), name))
    return path


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout))
    return p.stdout


def check(model, x, y, out, graphc_flags=()):
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "y.npy"), y.numpy().astype(np.int64))
    onnx_path = os.path.join(out, "model.onnx")
    torch.onnx.export(model, x, onnx_path, input_names=["x"],
                      output_names=["logits"], opset_version=13,
                      training=torch.onnx.TrainingMode.PRESERVE,
                      do_constant_folding=False)
    nn.CrossEntropyLoss()(model(x), y).backward()
    job = os.path.join(out, "step.gjob")
    run([tool("graphc"), onnx_path, "--train", "--loss=softmax_cross_entropy",
         "--labels=y", "--optimizer=sgd", "--lr=1", "--return-weights",
         "--no-openmp", "-o", job] + list(graphc_flags))
    outputs = os.path.join(out, "step.out")
    run([tool("graph-run"), "--quiet", job, "--steps", "1",
         "--input", "x=" + os.path.join(out, "x.npy"),
         "--input", "y=" + os.path.join(out, "y.npy"),
         "--output-dir", outputs])
    good = total = 0
    for name, p in model.named_parameters():
        want = p.grad.numpy()
        path = os.path.join(outputs, name + ".npy")
        got = (p.detach().numpy() - np.load(path)
               if os.path.exists(path) else np.zeros(0))
        scale = float(np.max(np.abs(want)))
        ok = got.shape == want.shape and np.allclose(
            got, want, rtol=0, atol=1e-4 * scale + 1e-7)
        err = (float(np.max(np.abs(got - want))) / scale
               if got.shape == want.shape else float("inf"))
        total += 1
        good += ok
        print("%s %s: %s (max error %.1e of the largest element)"
              % (name, "x".join(map(str, want.shape)),
                 "ok" if ok else "MISMATCH", err))
    print("%d of %d gradients match" % (good, total))
    sys.exit(0 if good == total else 1)
