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
    autocast reference, losses rtol 1e-2 (f16 keeps 11 bits).

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
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = train_torch.MLP()
    initial = {k: v.clone() for k, v in model.state_dict().items()}
    x = torch.randn(train_torch.BATCH, 16)
    y = torch.randint(0, 10, (train_torch.BATCH,))
    np.save(os.path.join(out, "x.npy"), x.numpy())
    np.save(os.path.join(out, "y.npy"), y.numpy().astype(np.int64))
    model.eval()
    torch.onnx.export(model, x, os.path.join(out, "model.onnx"),
                      input_names=["x"], output_names=["logits"],
                      opset_version=13)

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
    print("train_mixed: %d of %d comparisons match" % tuple(train_torch.COUNTS))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
