#!/usr/bin/env python3
"""Writes a job of N ranks with planted slow ranks, one Kineto trace per rank.

  make_planted_job.py OUT_DIR [--ranks 1024] [--slow 17,800]

The shape of tests/support/planted_job.cpp's plantedRankOfLargeJob: three
steps of 1000 µs; in each a gemm from +20 µs for 300 + (rank % 7) µs (700
on a slow rank), then the all-reduce from the gemm's end to +770 µs on every
rank. The other ranks wait about 400 µs per step for the slow ones, whose
wait (0) stands apart. For screenshots and by-hand checks of many ranks.
"""

import argparse
import json
import pathlib


def rank_trace(rank, ranks, slow):
    events = []
    for step in (1, 2, 3):
        base = (step - 1) * 1000
        gemm = 700 if slow else 300 + rank % 7
        entry, end = base + 20 + gemm, base + 770
        gemm_call, nccl_call = 2 * step - 1, 2 * step
        events += [
            {"ph": "X", "cat": "user_annotation", "pid": 1, "tid": 1,
             "name": "ProfilerStep#%d" % step, "ts": base, "dur": 1000},
            {"ph": "X", "cat": "cuda_runtime", "pid": 1, "tid": 1, "name": "cudaLaunchKernel",
             "ts": base + 10, "dur": 4, "args": {"correlation": gemm_call}},
            {"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "name": "gemm", "ts": base + 20,
             "dur": gemm, "args": {"device": 0, "stream": 7, "correlation": gemm_call}},
            {"ph": "X", "cat": "cuda_runtime", "pid": 1, "tid": 1, "name": "cudaLaunchKernel",
             "ts": base + 15, "dur": 4, "args": {"correlation": nccl_call}},
            {"ph": "X", "cat": "kernel", "pid": 0, "tid": 20,
             "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ts": entry, "dur": end - entry,
             "args": {"device": 0, "stream": 20, "correlation": nccl_call}},
        ]
    return {"distributedInfo": {"backend": "nccl", "rank": rank, "world_size": ranks},
            "traceEvents": events}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=pathlib.Path)
    p.add_argument("--ranks", type=int, default=1024)
    p.add_argument("--slow", default="17,800")
    args = p.parse_args()
    slow = {int(s) for s in args.slow.split(",") if s}
    args.out.mkdir(parents=True, exist_ok=True)
    for r in range(args.ranks):
        with open(args.out / ("rank%d.pt.trace.json" % r), "w") as f:
            json.dump(rank_trace(r, args.ranks, r in slow), f)


if __name__ == "__main__":
    main()
