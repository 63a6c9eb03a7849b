"""conv_grads_torch.py OUT: the convolution gradients of graphc --train
against PyTorch 1.13 autograd, one SGD step at lr 1 on a fixed batch.

A small CNN whose convolutions cover what the backward lowerings
distinguish (docs/design/conv-codegen.md, "Backward convolutions"): stride
1 and 2 with padding, a 7x7 stride-2 stem, dilation 2, groups 2 and 4
(strided and not), a 1x1 stride-2 projection. Every data gradient at
stride 2 is a transposed convolution split into output phases; the 1x1
projection's filter gradient (one output pixel) takes im2col with the
images in N, the others convToGemm's per-image path. graphc's step (--optimizer=sgd --lr=1 --return-weights)
gives back w - dL/dw; its gradient (initial - updated) is compared with
PyTorch's for every weight, rtol 1e-4 of the largest element. Prints one
line per weight and `N of N gradients match`.
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import torch
from torch import nn

BATCH = 4


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 7, stride=2, padding=3)          # 24 -> 12
        self.c1 = nn.Conv2d(8, 8, 3, padding=1)                      # 12
        self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)           # 12 -> 6
        self.c3 = nn.Conv2d(16, 16, 3, padding=2, dilation=2, groups=2)  # 6
        self.c4 = nn.Conv2d(16, 16, 3, stride=2, padding=1, groups=4,
                            bias=False)                              # 6 -> 3
        self.proj = nn.Conv2d(16, 16, 1, stride=2, bias=False)       # 6 -> 3
        self.fc = nn.Linear(16 * 9, 10)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        x = torch.relu(self.c3(x))
        x = self.c4(x) + self.proj(x)
        return self.fc(torch.relu(x).flatten(1))


def tool(name):
    path = shutil.which(name)
    if not path:
        sys.exit("conv_grads_torch.py: %s is not on PATH" % name)
    return path


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Net()
    x = torch.randn(BATCH, 3, 24, 24)
    y = torch.randint(0, 10, (BATCH,))
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
         "--no-openmp", "-o", job])
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


if __name__ == "__main__":
    main()
