"""torch_export.py OUT: exports an MLP, a CNN and a transformer encoder layer
from PyTorch to ONNX at batch 8.

Writes OUT/mlp.onnx, OUT/cnn.onnx, OUT/encoder.onnx, their inputs (x_mlp.npy,
...) and PyTorch's outputs (ref_mlp.npy, ...) as the independent reference.
Weights come from a fixed seed, so every run writes the same files.
"""
import os
import sys

import numpy as np
import torch
from torch import nn

BATCH = 8


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 10)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        return torch.softmax(self.fc3(x), dim=1)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = self.pool(torch.relu(self.conv2(x)))
        return self.fc(torch.flatten(x, 1))


def encoder():
    # d_model 64 in 4 heads of 16, feed-forward 128, no dropout: what
    # tensor parallelism splits (heads, then the feed-forward's columns).
    return nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                      dropout=0.0, batch_first=True)


def export(model, x, name, out):
    model.eval()
    # Give the batch-norm statistics values a fresh model would not have.
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, x, os.path.join(out, name + ".onnx"),
                      input_names=["x"], output_names=["y"], opset_version=13)
    np.save(os.path.join(out, "x_%s.npy" % name), x.numpy())
    np.save(os.path.join(out, "ref_%s.npy" % name), y.numpy())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    export(MLP(), torch.randn(BATCH, 64), "mlp", out)
    export(CNN(), torch.randn(BATCH, 3, 16, 16), "cnn", out)
    export(encoder(), torch.randn(BATCH, 10, 64), "encoder", out)


if __name__ == "__main__":
    main()
