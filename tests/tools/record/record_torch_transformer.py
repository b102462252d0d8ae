#!/usr/bin/env python3
"""Records a real PyTorch profiler (Kineto) trace of a small bf16 transformer.

The workload is what people profile on Hopper today: bf16 matrix products
(cuBLAS nvjet / cutlass sm90 kernels), scaled-dot-product attention (flash
kernels), a torch.compile'd block (Triton kernels), a fused AdamW step, a
single-rank NCCL all-reduce of the gradients, `loss.item()` every step (the
host blocks until the GPU drains), and a DataLoader that costs host time per
sample. Two variants make a before/after pair:

  input_bound   num_workers=0: the GPU waits for every batch
  workers       num_workers=8: the same work with the input hidden

Usage:
  record_torch_transformer.py VARIANT OUT.pt.trace.json.gz
  record_torch_transformer.py ncu-step      (one step between
      cudaProfilerStart/Stop, for `ncu --profile-from-start off`)
"""
import gzip
import os
import shutil
import sys
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

BATCH, SEQ, DIM, HEADS, LAYERS = 16, 512, 1024, 16, 4
SAMPLE_COST_S = 0.001


class Tokens(Dataset):
    """Synthetic activations; each sample costs host time, like decoding."""

    def __len__(self):
        return 64 * BATCH

    def __getitem__(self, i):
        time.sleep(SAMPLE_COST_S)
        g = torch.Generator().manual_seed(i)
        return torch.randn(SEQ, DIM, generator=g), torch.randn(SEQ, DIM, generator=g)


@torch.compile
def bias_gelu(x, b):
    return F.gelu(x + b, approximate="tanh")


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.norm2 = nn.LayerNorm(DIM)
        self.up = nn.Linear(DIM, 4 * DIM, bias=False)
        self.up_bias = nn.Parameter(torch.zeros(4 * DIM))
        self.down = nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, HEADS, DIM // HEADS).unbind(2)
        a = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                           v.transpose(1, 2), is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, DIM))
        return x + self.down(bias_gelu(self.up(self.norm2(x)), self.up_bias))


def init_comm():
    """A one-rank NCCL group, so the trace has real NCCL kernels and metadata."""
    try:
        import torch.distributed as dist
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29517")
        dist.init_process_group("nccl", rank=0, world_size=1)
        return dist
    except Exception as e:  # the trace is still useful without it
        print("no NCCL:", e)
        return None


def train(variant, steps, on_step):
    dev = torch.device("cuda")
    model = nn.Sequential(*[Block() for _ in range(LAYERS)]).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    workers = 8 if variant == "workers" else 0
    loader = DataLoader(Tokens(), batch_size=BATCH, num_workers=workers, pin_memory=True,
                        persistent_workers=workers > 0)
    dist = init_comm() if variant != "ncu-step" else None
    flat = None
    for step, (x, y) in enumerate(loader):
        if step >= steps:
            break
        x = x.to(dev, non_blocking=True)
        y = y.to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = F.mse_loss(model(x).float(), y)
        loss.backward()
        if dist is not None:
            grads = [p.grad for p in model.parameters()]
            flat = torch.cat([g.reshape(-1) for g in grads]) if flat is None else \
                torch.cat([g.reshape(-1) for g in grads], out=flat)
            dist.all_reduce(flat)
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")  # host sync, as training loops log
        on_step(step)
    if dist is not None:
        dist.destroy_process_group()


def record(variant, out):
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "trace.json")
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    sched = torch.profiler.schedule(wait=2, warmup=1, active=5, repeat=1)
    with torch.profiler.profile(activities=acts, schedule=sched,
                                on_trace_ready=lambda p: p.export_chrome_trace(path),
                                record_shapes=True, profile_memory=True,
                                with_flops=True) as prof:
        train(variant, 8, lambda step: prof.step())
    with open(path, "rb") as src, gzip.open(out, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    print("torch", torch.__version__, "wrote", out, os.path.getsize(out), "bytes")


def ncu_step():
    def on_step(step):
        torch.cuda.synchronize()
        if step == 2:
            torch.cuda.profiler.start()
        elif step == 3:
            torch.cuda.profiler.stop()
    train("ncu-step", 4, on_step)


def main():
    if sys.argv[1] == "ncu-step":
        ncu_step()
    else:
        record(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
