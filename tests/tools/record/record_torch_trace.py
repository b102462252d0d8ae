#!/usr/bin/env python3
"""Records a small, real PyTorch profiler (Kineto) trace on a CUDA GPU.

The workload is a tiny convolutional network trained on synthetic images fed
by a DataLoader whose workers are deliberately slow, so the GPU shows real
idle gaps while it waits for input: exactly what Gapscope must make obvious.
A second CUDA stream copies a buffer to the device to give a multi-stream
picture. Usage: record_torch_trace.py OUT.pt.trace.json.gz
"""
import gzip
import os
import shutil
import sys
import tempfile
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class SlowImages(Dataset):
    """Synthetic images; every 8th sample costs extra host time (decode stall)."""

    def __len__(self):
        return 4096

    def __getitem__(self, i):
        if i % 8 == 0:
            time.sleep(0.002)
        g = torch.Generator().manual_seed(i)
        return torch.randn(3, 64, 64, generator=g), i % 10


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10),
    )


def main():
    out = sys.argv[1]
    dev = torch.device("cuda")
    model = make_model().to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    loader = DataLoader(SlowImages(), batch_size=64, num_workers=0, pin_memory=True)
    side = torch.cuda.Stream()
    staging = torch.randn(1 << 20, pin_memory=True)

    sched = torch.profiler.schedule(wait=1, warmup=1, active=4, repeat=1)
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "trace.json")

    def on_ready(prof):
        prof.export_chrome_trace(path)

    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, schedule=sched, on_trace_ready=on_ready,
                                record_shapes=True, profile_memory=True) as prof:
        for step, (x, y) in enumerate(loader):
            if step >= 6:
                break
            x = x.to(dev, non_blocking=True)
            y = y.to(dev, non_blocking=True)
            with torch.cuda.stream(side):
                staged = staging.to(dev, non_blocking=True)
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            torch.cuda.current_stream().wait_stream(side)
            staged.add_(1.0)
            loss.item()  # host sync, as real training loops do for logging
            prof.step()

    with open(path, "rb") as src, gzip.open(out, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    print("torch", torch.__version__, "wrote", out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
