"""PyTorch models the benchmarks export to ONNX: ResNet-18/50 and
DenseNet-121 written with torch.nn (torchvision is not installed; the layout
follows torchvision's resnet18/resnet50/densenet121: same layers, channels
and parameter counts) and a transformer encoder layer. Every model is put in eval mode with randomised
batch-norm statistics, so folding BN into the convolutions changes the numbers.
"""
import torch
from torch import nn


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * self.expansion
        self.conv1 = nn.Conv2d(cin, width, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (x if self.down is None else self.down(x)))


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * self.expansion
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, cout, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return torch.relu(y + (x if self.down is None else self.down(x)))


class ResNet(nn.Module):
    def __init__(self, block, layers, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(),
                                  nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], 64
        for i, n in enumerate(layers):
            width = 64 << i
            for j in range(n):
                blocks.append(block(cin, width, 2 if (j == 0 and i > 0) else 1))
                cin = width * block.expansion
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(torch.flatten(torch.mean(x, dim=(2, 3)), 1))


def randomise_bn(model, seed=0):
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            n = m.num_features
            m.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(n, generator=g) + 0.5)
            m.weight.data.copy_(torch.rand(n, generator=g) + 0.5)
            m.bias.data.copy_(torch.randn(n, generator=g) * 0.1)
    return model.eval()


def resnet18():
    torch.manual_seed(0)
    return randomise_bn(ResNet(BasicBlock, [2, 2, 2, 2]))


def resnet50():
    torch.manual_seed(0)
    return randomise_bn(ResNet(Bottleneck, [3, 4, 6, 3]))


class DenseLayer(nn.Module):
    """BN-ReLU-1x1 conv to 4*growth channels, BN-ReLU-3x3 conv to growth;
    the output is the input with the new channels appended."""

    def __init__(self, cin, growth):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, 4 * growth, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(4 * growth)
        self.conv2 = nn.Conv2d(4 * growth, growth, 3, 1, 1, bias=False)

    def forward(self, x):
        y = self.conv1(torch.relu(self.bn1(x)))
        y = self.conv2(torch.relu(self.bn2(y)))
        return torch.cat([x, y], 1)


class DenseNet(nn.Module):
    def __init__(self, layers=(6, 12, 24, 16), growth=32, classes=1000):
        super().__init__()
        cin = 2 * growth
        mods = [nn.Conv2d(3, cin, 7, 2, 3, bias=False), nn.BatchNorm2d(cin),
                nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
        for i, n in enumerate(layers):
            for _ in range(n):
                mods.append(DenseLayer(cin, growth))
                cin += growth
            if i < len(layers) - 1:
                # Transition: halve the channels and the resolution.
                mods += [nn.BatchNorm2d(cin), nn.ReLU(),
                         nn.Conv2d(cin, cin // 2, 1, bias=False),
                         nn.AvgPool2d(2, 2)]
                cin //= 2
        mods += [nn.BatchNorm2d(cin), nn.ReLU()]
        self.features = nn.Sequential(*mods)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(torch.flatten(torch.mean(x, dim=(2, 3)), 1))


def densenet121():
    torch.manual_seed(0)
    return randomise_bn(DenseNet())


def mlp(sizes=(784, 512, 512, 10)):
    """Linear layers with ReLU between them, PyTorch's default init."""
    torch.manual_seed(0)
    layers = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers += [nn.Linear(a, b)] + ([nn.ReLU()] if i < len(sizes) - 2 else [])
    return nn.Sequential(*layers)


def encoder_layer(d_model):
    torch.manual_seed(0)
    return nn.TransformerEncoderLayer(d_model, nhead=8,
                                      dim_feedforward=4 * d_model,
                                      dropout=0.0, batch_first=True).eval()


def export(model, example, path, dynamic_batch=True, keep_batch_norm=False):
    """torch.onnx.export with input `x`, output `y`, the batch dimension
    dynamic (graphc fixes it with --input-shape).

    keep_batch_norm: export as the model is (PRESERVE) without constant
    folding, so BatchNormalization stays a node with its own scale and bias
    (a model to train) instead of being folded into the convolutions.

    Exported with autograd on: under no_grad, nn.TransformerEncoderLayer
    takes its fused inference path (aten::_transformer_encoder_layer_fwd),
    which has no ONNX export; eager timing keeps that path (no_grad)."""
    axes = {"x": {0: "batch"}, "y": {0: "batch"}} if dynamic_batch else None
    mode = (torch.onnx.TrainingMode.PRESERVE if keep_batch_norm
            else torch.onnx.TrainingMode.EVAL)
    torch.onnx.export(model, (example,), path, input_names=["x"],
                      output_names=["y"], dynamic_axes=axes,
                      opset_version=13, training=mode,
                      do_constant_folding=not keep_batch_norm)


def params(model):
    return sum(p.numel() for p in model.parameters())
