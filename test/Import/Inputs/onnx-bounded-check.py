#!/usr/bin/env python3
"""onnx-bounded-check.py DIR: inputs for the models of onnx-gen-bounded.py
and NumPy references (ONNX Runtime's algorithms: np.unique, greedy NMS,
RoiAlign's bilinear samples) as DIR/NAME-INPUT.npy and DIR/NAME-ref/*.npy.
onnx-bounded-check.py --compare REF OUT: compares graph-run's outputs in
OUT with REF, a bounded output (with OUT/NAME:valid_count.npy) on its valid
prefix along its first axis longer than the reference; prints "ok" or the
first difference."""
import math
import os
import sys

import numpy as np


def compare(ref_dir, out_dir):
    for f in sorted(os.listdir(ref_dir)):
        want = np.load(os.path.join(ref_dir, f))
        got = np.load(os.path.join(out_dir, f))
        count_path = os.path.join(out_dir, f[:-4] + ":valid_count.npy")
        if os.path.exists(count_path):
            count = int(np.load(count_path))
            longer = [d for d in range(got.ndim)
                      if got.shape[d] != want.shape[d]]
            axis = longer[0] if longer else 0
            if count != want.shape[axis]:
                return f"{f}: valid_count {count}, expected {want.shape[axis]}"
            rest = np.take(got, np.arange(count, got.shape[axis]), axis=axis)
            if rest.any():
                return f"{f}: padding after the valid entries is not zero"
            got = np.take(got, np.arange(count), axis=axis)
        if got.shape != want.shape or not np.allclose(got, want, 1e-4, 1e-5):
            return f"{f}: got {got.tolist()}, expected {want.tolist()}"
    return "ok"


def unique_ref(x, axis):
    y, idx, inv, cnt = np.unique(x, axis=axis, return_index=True,
                                 return_inverse=True, return_counts=True)
    order = np.argsort(idx, kind="stable")
    y = np.take(y, order, axis=axis) if axis is not None else y[order]
    rank = np.argsort(order)
    return y, idx[order], rank[inv.reshape(-1)], cnt[order]


def iou_over(a, b, threshold):
    ymin = lambda c: min(c[0], c[2])
    xmin = lambda c: min(c[1], c[3])
    ymax = lambda c: max(c[0], c[2])
    xmax = lambda c: max(c[1], c[3])
    h = np.float32(min(ymax(a), ymax(b)) - max(ymin(a), ymin(b)))
    w = np.float32(min(xmax(a), xmax(b)) - max(xmin(a), xmin(b)))
    if h <= 0 or w <= 0:
        return False
    inter = h * w
    area_a = np.float32((ymax(a) - ymin(a)) * (xmax(a) - xmin(a)))
    area_b = np.float32((ymax(b) - ymin(b)) * (xmax(b) - xmin(b)))
    union = area_a + area_b - inter
    if area_a <= 0 or area_b <= 0 or union <= 0:
        return False
    return inter / union > threshold


def nms_ref(boxes, scores, max_out, iou, score):
    # Centre boxes (x, y, w, h) as corners (y1, x1, y2, x2).
    x, y, w, h = (boxes[..., k] for k in range(4))
    corners = np.stack([y - h / 2, x - w / 2, y + h / 2, x + w / 2], -1)
    rows = []
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            s = scores[b, c]
            cand = sorted((i for i in range(len(s)) if s[i] > score),
                          key=lambda i: (-s[i], i))
            taken = []
            for i in cand:
                if len(taken) == max_out:
                    break
                if not any(iou_over(corners[b, j], corners[b, i], iou)
                           for j in taken):
                    taken.append(i)
            rows += [[b, c, i] for i in taken]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def roi_align_ref(x, rois, batch, oh, ow, ratio, scale, half_pixel, mode):
    """ONNX Runtime's RoiAlign (roialign.cc), in float32."""
    f = np.float32
    n, c, hh, ww = x.shape
    y = np.zeros((len(rois), c, oh, ow), np.float32)
    off = f(0.5) if half_pixel else f(0)
    for r, roi in enumerate(rois):
        x1, y1, x2, y2 = (f(v) * f(scale) - off for v in roi)
        rw, rh = x2 - x1, y2 - y1
        if not half_pixel:
            rw, rh = max(rw, f(1)), max(rh, f(1))
        bh, bw = rh / f(oh), rw / f(ow)
        gh = ratio if ratio > 0 else int(math.ceil(rh / f(oh)))
        gw = ratio if ratio > 0 else int(math.ceil(rw / f(ow)))
        count = max(gh * gw, 1)
        for ph in range(oh):
            for pw in range(ow):
                vals = []
                for iy in range(gh):
                    yy = y1 + f(ph) * bh + f(iy + 0.5) * bh / f(gh)
                    for ix in range(gw):
                        xx = x1 + f(pw) * bw + f(ix + 0.5) * bw / f(gw)
                        vals.append(sample(x[batch[r]], yy, xx, hh, ww))
                for ch in range(c):
                    terms = [[w * fm[ch] for w, fm in v] for v in vals]
                    if mode == "avg":
                        y[r, ch, ph, pw] = sum(sum(t) for t in terms) / count
                    elif terms:
                        y[r, ch, ph, pw] = max(max(t) for t in terms)
    return y


def sample(fm, yy, xx, hh, ww):
    """The four (weight, pixel) neighbours of one sample point."""
    f = np.float32
    if yy < -1 or yy > hh or xx < -1 or xx > ww:
        return [(f(0), fm[:, 0, 0])] * 4
    yy, xx = max(yy, f(0)), max(xx, f(0))
    yl, xl = int(yy), int(xx)
    if yl >= hh - 1:
        yh = yl = hh - 1
        yy = f(yl)
    else:
        yh = yl + 1
    if xl >= ww - 1:
        xh = xl = ww - 1
        xx = f(xl)
    else:
        xh = xl + 1
    ly, lx = yy - f(yl), xx - f(xl)
    hy, hx = f(1) - ly, f(1) - lx
    return [(hy * hx, fm[:, yl, xl]), (hy * lx, fm[:, yl, xh]),
            (ly * hx, fm[:, yh, xl]), (ly * lx, fm[:, yh, xh])]


def write(d, name, inputs, refs):
    os.makedirs(os.path.join(d, name + "-ref"), exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(d, f"{name}-{k}.npy"), v)
    for k, v in refs.items():
        np.save(os.path.join(d, name + "-ref", k + ".npy"), v)


def main(d):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 2, (2, 5)).astype(np.float32)
    x[:, 3] = x[:, 0]
    write(d, "unique_axis", {"x": x}, dict(zip(
        ["y", "indices", "inverse", "counts"], unique_ref(x, 1))))
    xi = np.array([[3, 1, 3], [7, 1, 0]], np.int64)
    y, _, _, cnt = np.unique(xi, return_index=True, return_inverse=True,
                             return_counts=True)
    write(d, "unique_flat", {"x": xi}, {"y": y, "counts": cnt})

    boxes = np.concatenate([rng.uniform(0, 2, (2, 5, 2)),
                            rng.uniform(0.5, 1.5, (2, 5, 2))], -1)
    boxes[:, 2] = boxes[:, 0] + [0.05, 0.05, 0, 0]  # box 2 overlaps box 0
    boxes = boxes.astype(np.float32)
    scores = rng.uniform(0, 1, (2, 3, 5)).astype(np.float32)
    scores[0, 0, 1] = scores[0, 0, 3]  # a tie: the lower index first
    write(d, "nms", {"boxes": boxes, "scores": scores},
          {"selected": nms_ref(boxes, scores, 5, np.float32(0.3),
                               np.float32(0.1))})

    fm = rng.uniform(-1, 1, (2, 3, 6, 8)).astype(np.float32)
    rois = np.array([[0, 0, 7, 5], [2, 1, 14, 11], [-4, -3, 3, 2],
                     [10, 8, 20, 16]], np.float32)
    batch = np.array([0, 1, 1, 0], np.int64)
    write(d, "roialign", {"x": fm, "rois": rois, "batch": batch},
          {"y": roi_align_ref(fm, rois, batch, 2, 3, 2, 0.5, True, "avg")})
    fm = rng.uniform(-1, 1, (1, 2, 6, 8)).astype(np.float32)
    rois = np.array([[0, 0, 6, 4], [1, 1, 4, 3]], np.float32)
    batch = np.array([0, 0], np.int64)
    write(d, "roialign_adaptive", {"x": fm, "batch": batch},
          {"y": roi_align_ref(fm, rois, batch, 2, 3, 0, 1.0, False, "max")})


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        print(compare(sys.argv[2], sys.argv[3]))
    else:
        main(sys.argv[1])
