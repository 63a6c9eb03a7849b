"""exp_ulp.py N LO STEP OUT: the error, in units in the last place of f32,
of the CPU pipeline's f32 exp (run-exp.mlir prints the result bits of
exp(LO + i * STEP), i < N, as int32) against the correctly rounded exp
computed in f64 by NumPy. Results that are f32 denormals must be off by
less than the smallest normal f32 (the approximation may flush them to 0);
the rest must be within MAX_ULP, and overflows must be inf."""
import re
import sys

import numpy as np

MAX_ULP = 1.0


def main():
    n, lo, step = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    text = open(sys.argv[4]).read()
    body = text[text.index("data =") + len("data ="):]
    bits = np.array([int(v) for v in re.findall(r"-?\d+", body)],
                    dtype=np.int64).astype(np.int32)
    if bits.size != n:
        sys.exit(f"exp_ulp.py: expected {n} values, got {bits.size}")
    got = bits.view(np.float32).astype(np.float64)
    x = (np.float32(lo) + np.arange(n).astype(np.float32) *
         np.float32(step)).astype(np.float32)
    want = np.exp(x.astype(np.float64))
    want32 = want.astype(np.float32)
    normal = np.isfinite(want32) & (want32 >= np.finfo(np.float32).tiny)
    ulp = np.abs(got[normal] - want[normal]) / np.spacing(
        want32[normal]).astype(np.float64)
    denormal = ~normal & np.isfinite(want32)
    tiny = np.finfo(np.float32).tiny
    flushed = np.abs(got[denormal] - want[denormal]) < tiny
    if not np.all(np.isfinite(ulp)) or ulp.max() > MAX_ULP:
        i = int(np.argmax(ulp))
        sys.exit(f"exp_ulp.py: exp({x[normal][i]}) = {got[normal][i]}, "
                 f"want {want[normal][i]} ({ulp[i]:.2f} ulp)")
    if not np.all(flushed):
        sys.exit("exp_ulp.py: a denormal result is off by a normal f32")
    if np.any(np.isinf(want32)) and not np.all(np.isinf(got[np.isinf(want32)])):
        sys.exit("exp_ulp.py: an overflowing exp is not inf")
    print(f"exp_ulp.py: {normal.sum()} normal results within {MAX_ULP} ulp")


if __name__ == "__main__":
    main()
