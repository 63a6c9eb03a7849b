"""train_mixed.py OUT: mixed-precision training of the MLP against PyTorch.

The MLP of train_torch.py (16 -> 32 -> relu -> 10, batch 8, the same
initial weights, batch and ONNX export) trains for 10 steps with
`graphc --train --mixed-precision=bf16` (sgd lr 0.1, adam lr 0.01), and
PyTorch 1.13 trains it the same way: f32 parameters and optimizer, the
forward pass under `torch.autocast('cpu', dtype=torch.bfloat16)` (linear
layers and relu in bf16, cross-entropy in f32), backward outside it.

Checks, one line each:
  * the 10 losses against PyTorch's, rtol 1e-2 (bf16 keeps 8 bits: one
    rounding is up to 2^-9 relative, and graphc and PyTorch sum the
    matrix products in different orders before rounding, so single
    roundings may differ by one bf16 step);
  * the final weights against PyTorch's, rtol 2e-2 with atol 2e-3 (the
    weight updates are lr times bf16-rounded gradients); for Adam, 95% of
    each weight's elements within that tolerance (see mostly_close);
  * the losses differ from the f32 run's (the step really computes in bf16:
    a test that would pass on f32 arithmetic would prove nothing);
  * every weight graph-run writes (--return-weights) is float32: the master
    weights stay f32;
  * --replicas 2 follows the one-task bf16 run over 10 steps: losses rtol
    1e-2 (each replica rounds its half of the batch's gradient sums to bf16
    before the f32 all-reduce, the one task rounds the whole sum);
  * --mixed-precision=f16 (static loss scale 1024) against the same
    autocast reference, losses rtol 1e-2 (f16 keeps 11 bits);
  * the CNN of train_torch.py (convolutions, BatchNorm with batch
    statistics, max pooling) in bf16 against PyTorch rounding where graphc
    rounds (cnn_reference), losses rtol 2e-3; different from the f32 run;
    --replicas 2 (synchronised BatchNorm, in f32) following one task,
    rtol 1e-2.

Exits 1 on any mismatch.
"""
import os
import sys

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_torch  # noqa: E402  (the MLP, the export and the helpers)

STEPS = 10
OPTIMIZERS = {"sgd": 0.1, "adam": 0.01}


def torch_autocast(initial, x, y, optimizer, lr):
    model = train_torch.MLP()
    model.load_state_dict(initial)
    opt = (torch.optim.Adam(model.parameters(), lr=lr) if optimizer == "adam"
           else torch.optim.SGD(model.parameters(), lr=lr))
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y)
        assert loss.dtype == torch.float32
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses), {k: v.detach().numpy()
                              for k, v in model.state_dict().items()}


def cnn_reference(initial, x, y, optimizer, lr):
    """The CNN of train_torch.py with graph-mixed-precision's policy spelled
    out in f32 PyTorch: `rb` rounds to bf16 and back, where graphc's CPU
    target rounds (graph-mixed-precision's emulate): the operands and the
    result of each convolution and matrix product, and of the bias add and
    relu that follow them in bf16; BatchNorm, the relu and max pool after it
    (their input is f32) and the loss in f32. Autograd differentiates
    through the roundings, as graph-autodiff differentiates through the
    casts, so the gradients are rounded where graphc rounds them. (PyTorch's
    own bf16 kernels are not the reference here: autocast runs BatchNorm in
    bf16, and its CPU bf16 convolution gradients land 1e-2 from both this
    reference and the f32 run after 10 steps, so no tolerance tight enough
    to tell bf16 from f32 would hold against them.)"""
    model = train_torch.CNN()
    model.load_state_dict(initial)
    model.train()
    opt = (torch.optim.Adam(model.parameters(), lr=lr) if optimizer == "adam"
           else torch.optim.SGD(model.parameters(), lr=lr))
    f = nn.functional

    def rb(t):
        return t.to(torch.bfloat16).float()

    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        h = rb(f.conv2d(rb(x), rb(model.conv1.weight), padding=1))
        h = f.max_pool2d(torch.relu(model.bn1(h)), 2)
        h = rb(f.conv2d(rb(h), rb(model.conv2.weight), rb(model.conv2.bias),
                        stride=2, padding=1))
        h = torch.relu(h).flatten(1)
        logits = rb(rb(h @ rb(model.fc.weight).t()) + rb(model.fc.bias))
        loss = f.cross_entropy(logits, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return np.array(losses)


def train_cnn(out):
    """The CNN (convolutions, BatchNorm with batch statistics) in bf16
    against cnn_reference: losses rtol 2e-3; different from the f32 run;
    --replicas 2 (synchronised BatchNorm, in f32) following one task,
    rtol 1e-2."""
    out = os.path.join(out, "cnn")
    initial, x, y = train_torch.prepare(out, "cnn")
    ok = True
    for optimizer, lr in OPTIMIZERS.items():
        want = cnn_reference(initial, x, y, optimizer, lr)
        losses, _ = train_torch.graphc_train(out, optimizer, lr,
                                             ["--mixed-precision=bf16"],
                                             "bf16")
        ok &= train_torch.close("cnn %s bf16 losses" % optimizer, losses,
                                want, 2e-3)
        f32_losses, _ = train_torch.graphc_train(out, optimizer, lr, [],
                                                 "f32")
        differs = not np.array_equal(f32_losses, losses)
        print("cnn %s bf16 losses differ from f32: %s (largest difference "
              "%.2e)" % (optimizer, "yes" if differs else "NO",
                         np.max(np.abs(f32_losses - losses))))
        ok &= differs
        replica_losses, _ = train_torch.graphc_train(
            out, optimizer, lr, ["--mixed-precision=bf16", "--replicas", "2"],
            "bf16-2")
        ok &= train_torch.close("cnn %s bf16 losses with 2 replicas"
                                % optimizer, replica_losses, losses, 1e-2)
    return ok


def mostly_close(name, got, want, rtol, atol, share=0.95):
    """Adam's weights: at least `share` of the elements within the
    tolerance. Adam divides each gradient by its own running magnitude, so
    an element whose gradient is near zero (a unit relu leaves dead for most
    of the batch) moves by about lr a step whatever its size, and its sign
    there is decided by bf16 roundings that graphc and PyTorch make in
    different orders: a few elements end several lr steps apart."""
    good = (got.shape == want.shape and
            np.mean(np.abs(got - want) <= atol + rtol * np.abs(want)))
    ok = bool(good) and good >= share
    train_torch.COUNTS[0] += ok
    train_torch.COUNTS[1] += 1
    print("%s: %s (%d values, %.1f%% within the tolerance)"
          % (name, "ok" if ok else "MISMATCH", want.size, 100 * good))
    return ok


def main():
    out = sys.argv[1]
    initial, x, y = train_torch.prepare(out, "mlp")

    close = train_torch.close
    train = train_torch.graphc_train
    ok = True
    for optimizer, lr in OPTIMIZERS.items():
        want_losses, want_weights = torch_autocast(initial, x, y, optimizer,
                                                   lr)
        losses, outputs = train(out, optimizer, lr,
                                ["--mixed-precision=bf16"], "bf16")
        ok &= close("%s bf16 losses" % optimizer, losses, want_losses, 1e-2)
        for name, want in want_weights.items():
            path = os.path.join(outputs, name + ".npy")
            got = np.load(path) if os.path.exists(path) else np.zeros(0)
            dtype_ok = got.dtype == np.float32
            print("%s bf16 %s: dtype %s" % (optimizer, name, got.dtype))
            ok &= dtype_ok
            if optimizer == "sgd":
                ok &= close("%s bf16 %s" % (optimizer, name), got, want,
                            2e-2, 2e-3)
            else:
                ok &= mostly_close("%s bf16 %s" % (optimizer, name), got,
                                   want, 2e-2, 2e-3)
        f32_losses, _ = train(out, optimizer, lr, [], "f32")
        differs = not np.array_equal(f32_losses, losses)
        print("%s bf16 losses differ from f32: %s (largest difference %.2e)"
              % (optimizer, "yes" if differs else "NO",
                 np.max(np.abs(f32_losses - losses))))
        ok &= differs
        replica_losses, _ = train(out, optimizer, lr,
                                  ["--mixed-precision=bf16", "--replicas",
                                   "2"], "bf16-2")
        ok &= close("%s bf16 losses with 2 replicas" % optimizer,
                    replica_losses, losses, 1e-2)
        f16_losses, _ = train(out, optimizer, lr, ["--mixed-precision=f16"],
                              "f16")
        ok &= close("%s f16 losses" % optimizer, f16_losses, want_losses,
                    1e-2)
    ok &= train_cnn(out)
    print("train_mixed: %d of %d comparisons match" % tuple(train_torch.COUNTS))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
