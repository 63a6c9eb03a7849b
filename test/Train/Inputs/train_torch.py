"""train_torch.py OUT: trains a PyTorch MLP and graphc's compiled step the
same way and compares them.

Exports an MLP (16 -> 32 -> relu -> 10) at batch 8 to ONNX from fixed
initial weights, then for each optimizer (sgd lr=0.1, adam lr=0.01):

  * PyTorch 1.13 runs 10 steps of CrossEntropyLoss on one fixed batch;
  * graphc compiles the ONNX model with --train --loss=softmax_cross_entropy
    --labels=y --optimizer=OPT --lr=LR --return-weights, and graph-run runs
    10 steps on the same batch (--steps 10 --input x=... --input y=...),
    recording the losses (--metrics: per_step loss) and writing the final
    weights (--output-dir);
  * the same with --replicas 2.

Prints one line per comparison: the 10 losses and the final weights against
PyTorch's (rtol 1e-4, atol 1e-6), and the 2-replica losses against the
1-replica run's (rtol 1e-5). Exits 1 on any mismatch.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import torch
from torch import nn

BATCH, STEPS = 8, 10
OPTIMIZERS = {"sgd": 0.1, "adam": 0.01}


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def tool(name):
    path = shutil.which(name)
    if not path:
        sys.exit("train_torch.py: %s is not on PATH" % name)
    return path


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stdout))
    return p.stdout


def torch_train(initial, x, y, optimizer, lr):
    model = MLP()
    model.load_state_dict(initial)
    opt = (torch.optim.SGD(model.parameters(), lr=lr) if optimizer == "sgd"
           else torch.optim.Adam(model.parameters(), lr=lr))
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses), {k: v.detach().numpy()
                              for k, v in model.state_dict().items()}


def graphc_train(out, optimizer, lr, flags, tag):
    job = os.path.join(out, "%s-%s.gjob" % (optimizer, tag))
    run([tool("graphc"), os.path.join(out, "mlp.onnx"), "--train",
         "--loss=softmax_cross_entropy", "--labels=y",
         "--optimizer=" + optimizer, "--lr=%r" % lr, "--return-weights",
         "--no-openmp", "-o", job] + flags)
    metrics = job + ".metrics.json"
    outputs = job + ".out"
    run([tool("graph-run"), "--quiet", job, "--steps", str(STEPS),
         "--input", "x=" + os.path.join(out, "x.npy"),
         "--input", "y=" + os.path.join(out, "y.npy"),
         "--metrics", metrics, "--output-dir", outputs])
    losses = np.array([s["loss"] for s in json.load(open(metrics))["per_step"]])
    return losses, outputs


def close(name, got, want, rtol, atol=1e-6):
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol)
    err = (np.max(np.abs(got - want) / (atol + rtol * np.abs(want)))
           if got.shape == want.shape else float("inf"))
    print("%s: %s (%d values, worst %.2f of the tolerance)"
          % (name, "ok" if ok else "MISMATCH", want.size, err))
    return ok


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = MLP()
    initial = {k: v.clone() for k, v in model.state_dict().items()}
    x = torch.randn(BATCH, 16)
    y = torch.randint(0, 10, (BATCH,))
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "y.npy"), y.numpy().astype(np.int64))
    model.eval()
    torch.onnx.export(model, x, os.path.join(out, "mlp.onnx"),
                      input_names=["x"], output_names=["logits"],
                      opset_version=13)

    ok = True
    for optimizer, lr in OPTIMIZERS.items():
        want_losses, want_weights = torch_train(initial, x, y, optimizer, lr)
        losses, outputs = graphc_train(out, optimizer, lr, [], "1")
        ok &= close("%s losses" % optimizer, losses, want_losses, 1e-4)
        for name, want in want_weights.items():
            path = os.path.join(outputs, name + ".npy")
            got = np.load(path) if os.path.exists(path) else np.zeros(0)
            ok &= close("%s %s" % (optimizer, name), got, want, 1e-4)
        replica_losses, _ = graphc_train(out, optimizer, lr,
                                         ["--replicas", "2"], "2")
        ok &= close("%s losses with 2 replicas" % optimizer, replica_losses,
                    losses, 1e-5)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
