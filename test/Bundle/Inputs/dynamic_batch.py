# dynamic_batch.py: PyTorch models exported with a dynamic batch, and their outputs as references.
"""export DIR: writes DIR/{mlp,cnn}.onnx (dim 0 of input and output dynamic).
inputs DIR MODEL N: writes DIR/MODEL-xN.npy, a random batch of N.
compare DIR MODEL N OUT.npy: runs the PyTorch model on DIR/MODEL-xN.npy and
compares (rtol 1e-4, atol 1e-5), printing "MODEL batch N: ok (shape)"."""
import sys

import numpy as np
import torch


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 4)

    def forward(self, x):
        return torch.softmax(self.b(torch.relu(self.a(x))), -1)


class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.c(x))), 2)
        return self.fc(torch.flatten(x, 1))


SAMPLE = {"mlp": (16,), "cnn": (3, 8, 8)}


def model(name):
    torch.manual_seed(0)
    m = {"mlp": MLP, "cnn": CNN}[name]().eval()
    if name == "cnn":  # running statistics that are not the identity
        with torch.no_grad():
            m.bn.running_mean.uniform_(-0.5, 0.5)
            m.bn.running_var.uniform_(0.5, 2.0)
    return m


def main():
    cmd, d = sys.argv[1], sys.argv[2]
    if cmd == "export":
        for name in SAMPLE:
            torch.onnx.export(model(name), torch.randn(2, *SAMPLE[name]),
                              f"{d}/{name}.onnx", input_names=["x"],
                              output_names=["y"],
                              dynamic_axes={"x": {0: "N"}, "y": {0: "N"}},
                              opset_version=13)
        return
    name, n = sys.argv[3], int(sys.argv[4])
    path = f"{d}/{name}-x{n}.npy"
    if cmd == "inputs":
        rng = np.random.default_rng(n)
        np.save(path, rng.standard_normal((n, *SAMPLE[name])).astype(np.float32))
        return
    x = np.load(path)
    with torch.no_grad():
        want = model(name)(torch.from_numpy(x)).numpy()
    got = np.load(sys.argv[5])
    if got.shape != want.shape:
        sys.exit(f"{name} batch {n}: shape {got.shape}, PyTorch {want.shape}")
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        sys.exit(f"{name} batch {n}: max abs error {np.abs(got - want).max()}")
    print(f"{name} batch {n}: ok {list(got.shape)}")


main()
