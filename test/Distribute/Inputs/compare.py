"""compare.py NAME GOT.npy SINGLE.npy REF.npy: a distributed job's output
against the single-task job's (rtol 1e-5) and PyTorch's (rtol 1e-4)."""
import sys

import numpy as np

name, got, single, ref = sys.argv[1], *(np.load(p) for p in sys.argv[2:5])
for what, want, rtol in (("single-task", single, 1e-5), ("pytorch", ref, 1e-4)):
    if got.shape != want.shape:
        sys.exit("%s: shape %s, %s has %s" % (name, got.shape, what, want.shape))
    if not np.allclose(got, want, rtol=rtol, atol=1e-6):
        sys.exit("%s: differs from %s by up to %g" % (
            name, what, float(np.max(np.abs(got - want)))))
print("%s: ok (%d elements)" % (name, got.size))
