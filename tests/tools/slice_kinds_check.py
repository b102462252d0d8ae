#!/usr/bin/env python3
"""Checks the slice kinds gapscope-cli info --json reports against a reading
of the raw trace JSON written for this test: each complete event's kind from
its category as the Kineto and TensorFlow exports name them, refined by its
name as docs/analyses.md ("What a slice is") defines it. Exit 1 on any
difference, naming the trace and the kind.

  slice_kinds_check.py --cli PATH TRACE.json[.gz]...
"""
import argparse
import gzip
import json
import subprocess
import sys
from collections import Counter

CATEGORIES = {
    # Kineto (CUDA and ROCm)
    "kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset", "cpu_op": "cpu_op",
    "cuda_runtime": "runtime_other", "cuda_driver": "runtime_other",
    "user_annotation": "user_annotation", "gpu_user_annotation": "gpu_annotation",
    # TensorFlow's trace-viewer JSON
    "Kernel": "kernel", "Memcpy": "memcpy", "Memset": "memset", "Operator": "cpu_op",
    "Runtime": "runtime_other",
}


def is_collective(name):
    low = name.lower()
    return "nccl" in low or "rccl" in low or "cross_device_reduce" in low or name.startswith("hccl")


def runtime_kind(name):
    if not (name.startswith("cuda") or name.startswith("cu") or name.startswith("hip")):
        return "runtime_other"
    if name.endswith("Synchronize"):
        return "runtime_sync"
    if "Launch" in name:
        return "runtime_launch"
    if "Memcpy" in name or "Memset" in name:
        return "runtime_copy"
    return "runtime_other"


GPU_KINDS = ("kernel", "memcpy", "memset")


def kind_of(event, stream_line):
    kind = CATEGORIES.get(event.get("cat", ""), "other")
    name = event.get("name", "")
    # TensorFlow / JAX GPU planes: every event of a "Stream #N(...)" line is
    # GPU work; copy streams name themselves, memsets are named.
    if stream_line is not None and kind not in GPU_KINDS:
        kind = ("memcpy" if "memcpy" in stream_line.lower()
                else "memset" if "memset" in name.lower() else "kernel")
    if kind == "kernel" and is_collective(name):
        return "comm_kernel"
    if kind == "runtime_other":
        return runtime_kind(name)
    if kind in ("cpu_op", "user_annotation", "other") and name.startswith("ProfilerStep#"):
        return "step"
    return kind


def expected_kinds(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    phases = Counter(e.get("ph") for e in events)
    if phases.get("B") or phases.get("b"):
        raise SystemExit(f"{path}: begin/end events; this reading counts complete events only")
    processes, threads = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            processes[e.get("pid")] = e.get("args", {}).get("name", "")
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            threads[(e.get("pid"), e.get("tid"))] = e.get("args", {}).get("name", "")

    def stream_line(e):
        line = threads.get((e.get("pid"), e.get("tid")), "")
        gpu = "/device:GPU:" in processes.get(e.get("pid"), "")
        return line if gpu and line.startswith("Stream #") else None

    return Counter(kind_of(e, stream_line(e)) for e in events if e.get("ph") == "X")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    failed = False
    for path in args.traces:
        expected = expected_kinds(path)
        out = subprocess.run([args.cli, "info", path, "--format", "json", "--no-cache"], check=True,
                             capture_output=True, text=True).stdout
        actual = {k: v for k, v in json.loads(out)["slice_kinds"].items() if v}
        if dict(expected) != actual:
            failed = True
            for k in sorted(set(expected) | set(actual)):
                if expected.get(k, 0) != actual.get(k, 0):
                    print(f"{path}: {k}: expected {expected.get(k, 0)}, gapscope says "
                          f"{actual.get(k, 0)}")
        else:
            print(f"{path}: {sum(expected.values())} slices, kinds agree: {dict(expected)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
