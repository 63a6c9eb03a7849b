"""two_task_reference.py: NumPy reference of Inputs/two-task.mlir over N steps.

usage: two_task_reference.py X.npy OUT_DIR STEPS
Prints `NAME: ok` per output that matches graph-run's OUT_DIR/NAME.npy, or
what differs.
"""
import sys

import numpy as np

x = np.load(sys.argv[1])
out_dir, steps = sys.argv[2], int(sys.argv[3])
w0 = np.array([[1, 2, 3, 4]], np.float32)
w1 = w0.copy()
count = np.float32(0)
for _ in range(steps):
    x0, x1 = x[0:1], x[1:2]
    bw = w0.copy()  # broadcast from worker0, before the update
    g = x0 * w0 + x1 * w1
    y = np.concatenate([g + x0, g - x1], axis=0)
    xx = np.concatenate([x1, x1], axis=0)
    ag = np.concatenate([x, xx], axis=1)
    rs = x + xx
    w0 = w0 + g
    w1 = w1 + g
    count = count + 1
expected = {"y": y, "ag": ag, "rs0": rs[:, 0:2], "rs1": rs[:, 2:4],
            "bw": bw, "count": np.array(count, np.float32),
            # row j of each member's input goes to member j
            "a2a0": np.concatenate([x[0:1], xx[0:1]], axis=0),
            "a2a1": np.concatenate([x[1:2], xx[1:2]], axis=0),
            # column block j of each member's input goes to member j,
            # stacked along rows in member order
            "a2b0": np.concatenate([x[:, 0:2], xx[:, 0:2]], axis=0),
            "a2b1": np.concatenate([x[:, 2:4], xx[:, 2:4]], axis=0)}
for name, want in expected.items():
    got = np.load(f"{out_dir}/{name}.npy")
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-6):
        print(f"{name}: MISMATCH got {got.tolist()} want {want.tolist()}")
    else:
        print(f"{name}: ok")
