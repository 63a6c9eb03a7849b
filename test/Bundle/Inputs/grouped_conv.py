# grouped_conv.py: depthwise and grouped Conv2d layers exported from PyTorch, and their outputs as references.
"""export DIR: writes DIR/CASE.onnx for every case (static shapes, a bias).
inputs DIR CASE: writes DIR/CASE-x.npy, a random input of the case's shape.
compare DIR CASE OUT.npy: runs the PyTorch layer on DIR/CASE-x.npy and
compares (rtol 1e-5, atol 1e-5), printing "CASE: ok (shape)".
cases: prints the case names."""
import sys

import numpy as np
import torch

# name: (batch, C_in, C_out, kernel, stride, dilation, padding, groups, H, W)
CASES = {
    # MobileNet-v2's depthwise 3x3; 17 columns are a vector and a piece.
    "dw3": (1, 32, 32, 3, 1, 1, 1, 32, 17, 17),
    # Depthwise with 2 outputs per channel, stride 2, dilation 2, batch 8.
    "dw3_s2_d2_m2": (8, 24, 48, 3, 2, 2, 2, 24, 23, 29),
    # A 5x5 depthwise at stride 2 (MobileNet-v3, EfficientNet), batch 2.
    "dw5_s2": (2, 16, 16, 5, 2, 1, 2, 16, 20, 37),
    # ShuffleNet's grouped 1x1 convolutions.
    "g3_1x1": (8, 60, 60, 1, 1, 1, 0, 3, 14, 14),
    "g8_1x1": (1, 64, 128, 1, 1, 1, 0, 8, 9, 9),
    # A grouped 3x3 at stride 2, dilation 2, with padding, batch 8.
    "g4_3x3_s2_d2": (8, 16, 32, 3, 2, 2, 2, 4, 15, 13),
    # A group's im2col over the batch above convToGemm's limit (2 x 288 x
    # 2304 elements): one image at a time inside each group's loop.
    "g2_3x3_im2col": (2, 64, 64, 3, 1, 1, 1, 2, 48, 48),
    # With a batch norm and ReLU after the convolution (the export folds
    # the batch norm into the convolution's bias): the elementwise epilogue
    # of the grouped kernels. 16 groups are the tasks; the grouped 1x1 at
    # batch 2 and the grouped 3x3 at batch 1 take an epilogue over the
    # output channels after a GEMM that is parallel inside.
    "g16_3x3_bn_relu": (2, 64, 64, 3, 1, 1, 1, 16, 20, 20),
    "g3_1x1_b2_bn_relu": (2, 60, 60, 1, 1, 1, 0, 3, 14, 14),
    "g2_3x3_b1_bn_relu": (1, 32, 48, 3, 1, 1, 1, 2, 13, 13),
}


def layer(name):
    n, cin, cout, k, s, d, p, g, h, w = CASES[name]
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(cin, cout, k, stride=s, dilation=d, padding=p,
                           groups=g)
    if not name.endswith("_bn_relu"):
        return conv.eval()
    bn = torch.nn.BatchNorm2d(cout)
    with torch.no_grad():
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.normal_()
        bn.running_mean.normal_(0.0, 0.1)
        bn.running_var.uniform_(0.5, 2.0)
    return torch.nn.Sequential(conv, bn, torch.nn.ReLU()).eval()


def shape(name):
    n, cin, _, _, _, _, _, _, h, w = CASES[name]
    return (n, cin, h, w)


def main():
    cmd = sys.argv[1]
    if cmd == "cases":
        print(" ".join(CASES))
        return
    d = sys.argv[2]
    if cmd == "export":
        for name in CASES:
            torch.onnx.export(layer(name), torch.randn(*shape(name)),
                              f"{d}/{name}.onnx", input_names=["x"],
                              output_names=["y"], opset_version=13)
        return
    name = sys.argv[3]
    path = f"{d}/{name}-x.npy"
    if cmd == "inputs":
        rng = np.random.default_rng(len(name))
        np.save(path, rng.standard_normal(shape(name)).astype(np.float32))
        return
    x = np.load(path)
    with torch.no_grad():
        want = layer(name)(torch.from_numpy(x)).numpy()
    got = np.load(sys.argv[4])
    if got.shape != want.shape:
        sys.exit(f"{name}: shape {got.shape}, PyTorch {want.shape}")
    if not np.allclose(got, want, rtol=1e-5, atol=1e-5):
        sys.exit(f"{name}: max abs error {np.abs(got - want).max()}")
    print(f"{name}: ok {list(got.shape)}")


main()
