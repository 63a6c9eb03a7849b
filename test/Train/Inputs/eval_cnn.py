"""eval_cnn.py DIR: DIR/cnn.onnx (a 3x3 convolution of 16 to 32 channels,
ReLU and a linear classifier, batch 8, input x) and DIR/x.npy, DIR/y.npy (64
examples of 10 classes) for prepare-eval.test."""
import sys

import numpy as np
import torch
import torch.nn as nn

d = sys.argv[1]
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.Flatten(),
                      nn.Linear(32 * 8 * 8, 10))
torch.onnx.export(model, (torch.randn(8, 16, 8, 8),), d + "/cnn.onnx",
                  input_names=["x"], output_names=["y"])
r = np.random.RandomState(1)
np.save(d + "/x.npy", r.randn(64, 16, 8, 8).astype(np.float32))
np.save(d + "/y.npy", r.randint(0, 10, 64).astype(np.int64))
