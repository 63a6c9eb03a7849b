"""eval_agrees.py: graph-run --eval's last scoring against the saved weights' logits."""
import json
import sys

import numpy as np


def main(metrics, logits, labels):
    scorings = json.load(open(metrics))["eval"]
    last = scorings[-1]
    z = np.load(logits).astype(np.float64)
    y = np.load(labels)
    correct = int((z.argmax(axis=1) == y).sum())
    top = z.max(axis=1, keepdims=True)
    loss = float(np.mean(top[:, 0] + np.log(np.exp(z - top).sum(axis=1)) - z[np.arange(len(y)), y]))
    if last["examples"] != len(y):
        sys.exit("--eval scored %d examples, the test set has %d" % (last["examples"], len(y)))
    if round(last["accuracy"] * len(y)) != correct:
        sys.exit("--eval counts %.0f correct, the saved weights %d"
                 % (last["accuracy"] * len(y), correct))
    if abs(last["loss"] - loss) > 1e-4 * max(1.0, abs(loss)):
        sys.exit("--eval's loss %.6f, the saved weights' %.6f" % (last["loss"], loss))
    print("--eval agrees with the saved weights: %d scorings, the last %d of %d"
          % (len(scorings), correct, len(y)))


if __name__ == "__main__":
    main(*sys.argv[1:4])
