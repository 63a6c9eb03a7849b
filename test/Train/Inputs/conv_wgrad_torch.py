"""conv_wgrad_torch.py OUT FLAGS...: the filter gradients of graphc --train
on the direct kernel ("wgrad" class of graphc-cpu-direct-conv, the images
moved into the output columns: docs/design/conv-codegen.md, "Filter
gradients on the direct kernel") against PyTorch 1.13 autograd, one SGD
step at lr 1 on a fixed batch; FLAGS are more graphc flags.

Output channels are multiples of 16 so that every filter gradient without
a dilation takes the kernel: a 7x7 stride-2 stem over 3 channels (21
merged columns, tiles of 7), 3x3 at stride 1 and 2, a 1x1 stride-2
projection (one tap: a 1x1 gradient, 16 merged columns), a stride-2 layer
without padding over an even input (the last row never read: graph-autodiff
cuts it from x) and a dilated one (left to im2col + GEMM: its merged
columns would not step by 1). Prints one line per weight and `N of N
gradients match` (sgd_step_check.py).
"""
import os
import sys

import torch
from torch import nn

import sgd_step_check

BATCH = 4


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 7, stride=2, padding=3)         # 23 -> 12
        self.c1 = nn.Conv2d(16, 16, 3, padding=1)                    # 12
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)          # 12 -> 6
        self.proj = nn.Conv2d(16, 32, 1, stride=2, bias=False)       # 12 -> 6
        self.c3 = nn.Conv2d(32, 32, 3, padding=2, dilation=2)        # 6
        self.c4 = nn.Conv2d(32, 16, 3, stride=2, bias=False)         # 6 -> 2
        self.fc = nn.Linear(16 * 4, 10)

    def forward(self, x):
        x = torch.relu(self.stem(x))
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x) + self.proj(x))
        x = torch.relu(self.c3(x))
        return self.fc(torch.relu(self.c4(x)).flatten(1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Net()
    x = torch.randn(BATCH, 3, 23, 23)
    y = torch.randint(0, 10, (BATCH,))
    sgd_step_check.check(model, x, y, out, sys.argv[2:])


if __name__ == "__main__":
    main()
