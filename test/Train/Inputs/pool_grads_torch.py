"""pool_grads_torch.py OUT: the pooling gradients of graphc --train against
PyTorch 1.13 autograd, one SGD step at lr 1 on a fixed batch.

graph-autodiff's pooling adjoint adds each window's gradient at its first
maximum's input cell (graph.scatter_elements), or spreads it over the
window for an average (graph.col2im; docs/design/training.md). The first convolution has small integer
weights on an integer image, so its outputs tie in most max-pooling windows
and its filter gradient shows which tied element got the window's gradient
(PyTorch's: the first, row-major). Pools: 3x3 stride 2 padding 1 (ResNet's
stem), 2x2 stride 2 with ceil_mode over an odd size, 3x3 stride 2 average
without the padding in its divisor, and a 1-D max pool. graphc's step
(--optimizer=sgd --lr=1 --return-weights) gives back w - dL/dw; its
gradient (initial - updated) is compared with PyTorch's for every weight,
rtol 1e-4 of the largest element. Prints one line per weight and `N of N
gradients match`.
"""
import os
import sys

import torch
from torch import nn

import sgd_step_check

BATCH = 2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 4, 3, padding=1, bias=False)          # 14
        self.p1 = nn.MaxPool2d(3, stride=2, padding=1)               # 14 -> 7
        self.c2 = nn.Conv2d(4, 6, 3, padding=1)                      # 7
        self.p2 = nn.MaxPool2d(2, stride=2, ceil_mode=True)          # 7 -> 4
        self.c3 = nn.Conv2d(6, 6, 3, padding=1)                      # 4
        self.p3 = nn.AvgPool2d(3, stride=2, padding=1,
                               count_include_pad=False)              # 4 -> 2
        self.c4 = nn.Conv1d(6, 4, 3, padding=1)                      # 4
        self.p4 = nn.MaxPool1d(2, stride=2)                          # 4 -> 2
        self.fc = nn.Linear(4 * 2, 5)

    def forward(self, x):
        x = self.p1(self.c1(x))
        x = self.p2(torch.relu(self.c2(x)))
        x = self.p3(torch.relu(self.c3(x)))
        x = self.p4(self.c4(x.flatten(2)))
        return self.fc(x.flatten(1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = Net()
    with torch.no_grad():
        model.c1.weight.copy_(torch.randint(-1, 2, model.c1.weight.shape))
    x = torch.randint(0, 3, (BATCH, 3, 14, 14)).float()
    y = torch.randint(0, 5, (BATCH,))
    c1 = model.c1(x)
    windows = nn.functional.unfold(c1.flatten(0, 1).unsqueeze(1), 3,
                                   padding=1, stride=2)
    tied = int(((windows == windows.max(1, keepdim=True).values).sum(1) > 1)
               .sum())
    print("max-pool windows of c1 with a tie: %d of %d"
          % (tied, windows.shape[0] * windows.shape[2]))
    sgd_step_check.check(model, x, y, out)


if __name__ == "__main__":
    main()
