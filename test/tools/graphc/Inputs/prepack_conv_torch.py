"""prepack_conv_torch.py OUT FLAGS...: a CNN whose convolution filters are
constant weights, compiled by graphc (FLAGS: more graphc flags) and run by
graph-run, against PyTorch 1.13 eager on the same input.

graphc stores the constant filters of the direct kernel's convolutions in
its packed layout ([F/fb, C, KH, KW, fb]; graphc-cpu-prepack-conv-filters,
docs/design/conv-codegen.md, "Filters packed at compile time"), so the
bundle's weight variables have that shape; the script prints every
variable's shape, then the largest error of the output against PyTorch's
and `ok` or `MISMATCH`. The layers cover every channel block: 64 output
channels (blocks of 32 with 16 lanes), 48 (16), 24 (8), a 1x1 pointwise
layer (8), a 3x3 stride-2 layer, a 1x1 stride-2 projection, a grouped
layer (not the kernel's: its filter stays as it is) and a layer of 12
output channels (no block divides it: kept). The model is exported with a
dynamic batch and run at batch 3: the bundle's entry and its one-sample
body share each filter's bytes.
"""
import json
import os
import subprocess
import sys

import numpy as np
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 64, 3, padding=1)                     # 14
        self.c2 = nn.Conv2d(64, 48, 3, padding=1)                    # 14
        self.c3 = nn.Conv2d(48, 24, 3, stride=2, padding=1)          # 7
        self.proj = nn.Conv2d(48, 24, 1, stride=2, bias=False)       # 7
        self.pw = nn.Conv2d(24, 64, 1)                               # 7
        self.grouped = nn.Conv2d(64, 32, 3, padding=1, groups=2)     # 7
        self.narrow = nn.Conv2d(32, 12, 3, padding=1)                # 7

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        x = torch.relu(self.c3(x) + self.proj(x))
        x = torch.relu(self.pw(x))
        x = torch.relu(self.grouped(x))
        return self.narrow(x)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Net().eval()
    x = torch.randn(3, 3, 14, 14)
    onnx_path = os.path.join(out, "model.onnx")
    torch.onnx.export(model, x[:1], onnx_path, input_names=["x"],
                      output_names=["y"], opset_version=13,
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
    job = os.path.join(out, "model.gjob")
    run(["graphc", onnx_path, "-o", job] + sys.argv[2:])
    manifest = json.load(open(os.path.join(job, "manifest.json")))
    shapes = sorted("x".join(str(d) for d in v["shape"])
                    for v in manifest["tasks"][0].get("variables", []))
    for s in shapes:
        print("variable", s)
    np.save(os.path.join(out, "x.npy"), x.numpy())
    outputs = os.path.join(out, "out")
    run(["graph-run", "--quiet", job, "--input",
         "x=" + os.path.join(out, "x.npy"), "--output-dir", outputs])
    got = np.load(os.path.join(outputs, "y.npy"))
    with torch.no_grad():
        want = model(x).numpy()
    scale = float(np.max(np.abs(want)))
    err = (float(np.max(np.abs(got - want))) / scale
           if got.shape == want.shape else float("inf"))
    ok = err <= 1e-5
    print("output %s: %s (max error %.1e of the largest element)"
          % ("x".join(map(str, got.shape)), "ok" if ok else "MISMATCH", err))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
