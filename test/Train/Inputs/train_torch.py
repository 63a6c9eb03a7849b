"""train_torch.py OUT MODEL: trains a PyTorch model and graphc's compiled
step the same way and compares them.

MODEL is `mlp` (16 -> 32 -> relu -> 10), `cnn` (conv 3x3 -> BatchNorm ->
relu -> max pool 2 -> conv 3x3 stride 2 -> relu -> linear, on 3x8x8 images)
or `resnet` (a ResNet stem and residual block, global average pooling, and
a head that reads its linear layer twice through gelu and sigmoid, on
3x16x16 images).
Exports it at batch 8 to ONNX from fixed initial weights (the CNN's
BatchNorm kept: exported from eval mode with training=PRESERVE and no
constant folding, which would fold it into the convolution; PyTorch then
trains it in train() mode, with batch statistics, as graphc --train does by
default), then for each optimizer (sgd lr=0.1, adam lr=0.01; the resnet: momentum 0.9
with lr 0.05):

  * PyTorch 1.13 runs 10 steps of CrossEntropyLoss on one fixed batch;
  * graphc compiles the ONNX model with --train --loss=softmax_cross_entropy
    --labels=y --optimizer=OPT --lr=LR --return-weights, and graph-run runs
    10 steps on the same batch (--steps 10 --input x=... --input y=...),
    recording the losses (--metrics: per_step loss) and writing the final
    weights (--output-dir);
  * for the MLP, 50 steps with --replicas 2, --replicas 4, --ps-tasks 2 and
    --replicas 2 --ps-tasks 2 against 50 steps of the one-task job; for the
    CNN and the resnet, 10 steps with --batch-norm=running and --replicas 2
    against 10 steps of the one-task job with --batch-norm=running (losses
    and final weights: the filter gradients' all-reduce).

Prints one line per comparison: the 10 losses and the final weights (and
running statistics) against PyTorch's (rtol 1e-4, atol 1e-6), and the
distributed runs' losses (and the CNNs' final weights) against the
one-task run's (rtol 1e-5). Exits 1 on
any mismatch.
"""
import json
import os
import sys

import numpy as np
import torch
from torch import nn

from sgd_step_check import run, tool

BATCH, STEPS = 8, 10
# The distributed runs follow the one-task run for longer.
DIST_STEPS = 50
OPTIMIZERS = {"sgd": 0.1, "adam": 0.01}
MOMENTUM = 0.9


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        # No bias before the BatchNorm (it cancels it): its gradient is zero
        # but for rounding, which Adam would blow up differently in each.
        self.conv1 = nn.Conv2d(3, 6, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        x = torch.relu(self.conv2(x))
        return self.fc(torch.flatten(x, 1))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(c)

    def forward(self, x):
        return torch.relu(x + self.b2(self.c2(torch.relu(self.b1(self.c1(x))))))


class ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.block = Block(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn(self.stem(x))))
        x = nn.functional.adaptive_avg_pool2d(self.block(x), 1).flatten(1)
        return nn.functional.gelu(self.fc(x)) * 2 + torch.sigmoid(self.fc(x))


MODELS = {"mlp": (MLP, (16,), OPTIMIZERS), "cnn": (CNN, (3, 8, 8), OPTIMIZERS),
          "resnet": (ResNet, (3, 16, 16), {"momentum": 0.05})}


def torch_train(make, initial, x, y, optimizer, lr):
    model = make()
    model.load_state_dict(initial)
    model.train()
    opt = (torch.optim.Adam(model.parameters(), lr=lr) if optimizer == "adam"
           else torch.optim.SGD(model.parameters(), lr=lr,
                                momentum=MOMENTUM if optimizer == "momentum"
                                else 0))
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    # The trained parameters and the running statistics.
    return np.array(losses), {k: v.detach().numpy()
                              for k, v in model.state_dict().items()
                              if not k.endswith("num_batches_tracked")}


def graphc_train(out, optimizer, lr, flags, tag, steps=STEPS):
    job = os.path.join(out, "%s-%s.gjob" % (optimizer, tag))
    run([tool("graphc"), os.path.join(out, "model.onnx"), "--train",
         "--loss=softmax_cross_entropy", "--labels=y",
         "--optimizer=" + optimizer, "--lr=%r" % lr,
         "--momentum=%r" % MOMENTUM, "--return-weights",
         "--no-openmp", "-o", job] + flags)
    metrics = job + ".metrics.json"
    outputs = job + ".out"
    run([tool("graph-run"), "--quiet", job, "--steps", str(steps),
         "--input", "x=" + os.path.join(out, "x.npy"),
         "--input", "y=" + os.path.join(out, "y.npy"),
         "--metrics", metrics, "--output-dir", outputs])
    losses = np.array([s["loss"] for s in json.load(open(metrics))["per_step"]])
    return losses, outputs


COUNTS = [0, 0]


def close(name, got, want, rtol, atol=1e-6):
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol)
    COUNTS[0] += ok
    COUNTS[1] += 1
    err = (np.max(np.abs(got - want) / (atol + rtol * np.abs(want)))
           if got.shape == want.shape else float("inf"))
    print("%s: %s (%d values, worst %.2f of the tolerance)"
          % (name, "ok" if ok else "MISMATCH", want.size, err))
    return ok


def follows(label, one, dist):
    """A distributed run (losses, outputs folder) against the one-task run:
    the losses and every output, rtol 1e-5; `label` % what names each."""
    ok = close(label % "losses", dist[0], one[0], 1e-5)
    for weight in sorted(os.listdir(one[1])):
        path = os.path.join(dist[1], weight)
        got = np.load(path) if os.path.exists(path) else np.zeros(0)
        ok &= close(label % weight[:-len(".npy")], got,
                    np.load(os.path.join(one[1], weight)), 1e-5)
    return ok


def pipelines(out, optimizer, lr, one, flags):
    """The 1F1B pipelines (2 stages of 4 microbatches, and 2 replicas of 2
    stages of 2 microbatches: the gradients accumulated over the
    microbatches, then all-reduced) against the one-task run `one`."""
    ok = True
    for tag, extra in (("2 stages x 4 microbatches",
                        "--pipeline-stages 2 --microbatches 4"),
                       ("2 replicas x 2 stages x 2 microbatches",
                        "--replicas 2 --pipeline-stages 2 --microbatches 2")):
        ok &= follows("%s %%s with %s" % (optimizer, tag), one,
                      graphc_train(out, optimizer, lr, flags + extra.split(),
                                   "pipe-" + extra.replace(" ", "")))
    return ok


def prepare(out, name):
    """The model `name` from fixed initial weights, one fixed batch, and its
    ONNX export: writes OUT/x.npy, OUT/y.npy and OUT/model.onnx and returns
    (initial state_dict, x, y)."""
    make, shape, _ = MODELS[name]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = make()
    # Running statistics unlike a fresh model's, so that the exporter keeps
    # them apart from the scale and bias (it merges equal initializers).
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    initial = {k: v.clone() for k, v in model.state_dict().items()}
    x = torch.randn(BATCH, *shape)
    y = torch.randint(0, 10, (BATCH,))
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "y.npy"), y.numpy().astype(np.int64))
    model.eval()
    torch.onnx.export(model, x, os.path.join(out, "model.onnx"),
                      input_names=["x"], output_names=["logits"],
                      opset_version=13,
                      training=torch.onnx.TrainingMode.PRESERVE,
                      do_constant_folding=False)
    return initial, x, y


def main():
    out, name = sys.argv[1], sys.argv[2]
    make, _, optimizers = MODELS[name]
    initial, x, y = prepare(out, name)

    ok = True
    for optimizer, lr in optimizers.items():
        want_losses, want_weights = torch_train(make, initial, x, y,
                                                optimizer, lr)
        losses, outputs = graphc_train(out, optimizer, lr, [], "1")
        ok &= close("%s losses" % optimizer, losses, want_losses, 1e-4)
        for weight, want in want_weights.items():
            path = os.path.join(outputs, weight + ".npy")
            got = np.load(path) if os.path.exists(path) else np.zeros(0)
            ok &= close("%s %s" % (optimizer, weight), got, want, 1e-4)
        if name != "mlp":
            # Synchronised batch norm: with batch statistics (PyTorch's
            # train() mode) 2 replicas all-reduce each BatchNorm's mean and
            # variance and the sums over the batch in its gradient, so
            # they follow the one-task run above, running statistics
            # included.
            ok &= follows("%s %%s with 2 replicas (batch statistics)"
                          % optimizer, (losses, outputs),
                          graphc_train(out, optimizer, lr,
                                       ["--replicas", "2"], "batch-2"))
            # With the running statistics (--batch-norm=running; scale and
            # bias still train), 2 replicas follow one task too, the
            # convolutions' filter gradients all-reduced. Over the first
            # STEPS steps: on one fixed batch these runs turn chaotic later
            # (the resnet's loss climbs back from 0.28 to 2.4 after 25
            # steps), and the all-reduce's summation order, a 1e-7
            # difference, grows past any tolerance there.
            flags = ["--batch-norm=running"]
            running = graphc_train(out, optimizer, lr, flags, "running")
            ok &= follows("%s %%s with 2 replicas (running statistics)"
                          % optimizer, running,
                          graphc_train(out, optimizer, lr,
                                       flags + ["--replicas", "2"],
                                       "running-2"))
            ok &= pipelines(out, optimizer, lr, running, flags)
        else:
            ok &= pipelines(out, optimizer, lr, (losses, outputs), [])
            losses, _ = graphc_train(out, optimizer, lr, [], "long",
                                     DIST_STEPS)
            for tag, flags in (("2 replicas", "--replicas 2"),
                               ("4 replicas", "--replicas 4"),
                               ("2 parameter servers", "--ps-tasks 2"),
                               ("2 replicas and 2 parameter servers",
                                "--replicas 2 --ps-tasks 2")):
                dist_losses, _ = graphc_train(out, optimizer, lr, flags.split(),
                                              tag.replace(" ", "-"), DIST_STEPS)
                ok &= close("%s losses with %s" % (optimizer, tag),
                            dist_losses, losses, 1e-5)
    print("train_torch: %s: %d of %d comparisons match" % (name, *COUNTS))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
