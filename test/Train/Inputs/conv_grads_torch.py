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
import sys

import torch
from torch import nn

import sgd_step_check

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


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Net()
    x = torch.randn(BATCH, 3, 24, 24)
    y = torch.randint(0, 10, (BATCH,))
    sgd_step_check.check(model, x, y, out)


if __name__ == "__main__":
    main()
