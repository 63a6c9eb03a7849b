#!/usr/bin/python3
"""tf_train_data.py: generated data for TensorFlow training graphs
(test/Train/tf-train-op.test), and the check that a run's loss fell.

  tf_train_data.py regression DIR   x, y (320 scalars): y = 3x + 2 + noise
  tf_train_data.py mnist DIR        640 "images" (uniform pixels) labelled by
                                    a fixed random linear map (learnable),
                                    one-hot; keep_prob 1 and the dropout
                                    uniforms graphc made an input
  tf_train_data.py fell METRICS.json RATIO
      the mean loss of the last 10 steps is below RATIO x the first step's
"""
import json
import os
import sys

import numpy as np


def main():
    cmd = sys.argv[1]
    rng = np.random.default_rng(0)
    if cmd == "regression":
        out = sys.argv[2]
        x = rng.uniform(-1, 1, 320).astype(np.float32)
        y = (3 * x + 2 + 0.01 * rng.standard_normal(320)).astype(np.float32)
        np.save(os.path.join(out, "x.npy"), x)
        np.save(os.path.join(out, "y.npy"), y)
    elif cmd == "mnist":
        out = sys.argv[2]
        x = rng.uniform(0, 1, (640, 784)).astype(np.float32)
        w = rng.standard_normal((784, 10)).astype(np.float32)
        y = np.eye(10, dtype=np.float32)[(x @ w).argmax(axis=1)]
        np.save(os.path.join(out, "images.npy"), x)
        np.save(os.path.join(out, "labels.npy"), y)
        np.save(os.path.join(out, "keep.npy"), np.array(1.0, np.float32))
        np.save(os.path.join(out, "uniform.npy"),
                rng.uniform(0, 1, (32, 500)).astype(np.float32))
    elif cmd == "fell":
        steps = json.load(open(sys.argv[2]))["per_step"]
        ratio = float(sys.argv[3])
        losses = [s["loss"] for s in steps]
        first, last = losses[0], float(np.mean(losses[-10:]))
        print("loss: first %.4g, mean of the last 10 %.4g over %d steps"
              % (first, last, len(losses)))
        if not last < ratio * first:
            sys.exit("tf_train_data.py: the loss did not fall below %g x %.4g"
                     % (ratio, first))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
