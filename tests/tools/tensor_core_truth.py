#!/usr/bin/env python3
"""Checks Gapscope's Tensor Core column against hardware counters.

The truth is Nsight Compute's count of tensor-pipe instructions for each
kernel of one training step of the recorded bf16 transformer
(tests/data/recorded/h200_transformer_tensor_ops.ncu.csv.gz, recorded by
tests/tools/record/record_transformer.sh on an H200): a kernel used Tensor
Cores when it executed warpgroup MMA (gmma) or warp MMA (hmma other than the
HFMA2 that also issue to that pipe), integer (imma) or FP64 (dmma)
instructions. The kernels of the profiled steps (the Kineto traces of the
same program) must then read:

  used Tensor Cores  -> "yes" (these names all show it: nvjet, wgmma, flash)
  did not            -> "no" or unknown, never "yes"

ncu and Kineto demangle differently (`at::<unnamed>::` against
`at::native::(anonymous namespace)::`, `0` against `false`), so a C++ kernel
is matched by its function identifier; plain names match exactly.

Usage: tensor_core_truth.py --cli GAPSCOPE_CLI --ncu CSV.gz TRACE...
"""
import argparse
import csv
import gzip
import json
import re
import subprocess
import sys

MMA_METRICS = {
    "sm__inst_executed_pipe_tensor_op_gmma.sum": 1,
    "sm__inst_executed_pipe_tensor_op_hmma.sum": 1,
    "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum": -1,
    "sm__inst_executed_pipe_tensor_op_imma.sum": 1,
    "sm__inst_executed_pipe_tensor_op_dmma.sum": 1,
}


def identifier(name):
    """The kernel's function identifier: `nvjet_x` or, for a C++ signature,
    the last name before the template arguments or the parameter list (the
    anonymous namespace, written `<unnamed>` or `(anonymous namespace)`, is
    no part of it). "" when there is none: the caller refuses it."""
    if "(" not in name and "<" not in name:
        return name.strip()
    name = re.sub(r"\(anonymous namespace\)::|<unnamed>::", "", name)
    head = name[5:] if name.startswith("void ") else name
    depth, cut = 0, len(head)
    for i, c in enumerate(head):
        if c in "<(" and depth == 0:
            cut = i
            break
    head = head[:cut]
    return re.split(r"::", head)[-1].strip()


def truth_of(path):
    per_launch = {}
    with gzip.open(path, "rt") as f:
        lines = [line for line in f if not line.startswith("==")]
    for row in csv.DictReader(lines):
        weight = MMA_METRICS.get(row["Metric Name"])
        if weight is None:
            continue
        key = (row["ID"], row["Kernel Name"])
        value = float(row["Metric Value"].replace(",", "") or 0)
        per_launch[key] = per_launch.get(key, 0.0) + weight * value
    truth = {}
    for (_, name), mma in per_launch.items():
        ident = identifier(name)
        if not ident:
            fail(f"no function identifier in ncu's kernel name {name[:100]}")
        truth.setdefault(ident, set()).add(mma > 0)
    return truth


def fail(why):
    print("tensor_core_truth: FAIL: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--ncu", required=True)
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    truth = truth_of(args.ncu)
    used = sorted(k for k, v in truth.items() if v == {True})
    if not used:
        fail("the counters show no kernel on Tensor Cores: wrong file?")
    for k, v in truth.items():
        if len(v) > 1:
            fail(f"{k}: launches disagree; the identifier cannot decide")
    checked = 0
    for trace in args.traces:
        out = subprocess.run([args.cli, "kernels", trace, "--format", "json"],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            fail(f"{args.cli} kernels {trace}: {out.stderr.strip()}")
        kernels = json.loads(out.stdout)["kernels"]
        total = sum(k["total_ns"] for k in kernels)
        matched = 0
        seen = set()
        for k in kernels:
            ident = identifier(k["name"])
            if not ident:
                fail(f"{trace}: no function identifier in {k['name'][:100]}")
            if ident not in truth:
                continue
            seen.add(ident)
            matched += k["total_ns"]
            want = truth[ident] == {True}
            got = k.get("tensor_cores")
            if want and got is not True:
                fail(f"{trace}: {k['name'][:100]} used Tensor Cores (ncu) but reads {got}")
            if not want and got is True:
                fail(f"{trace}: {k['name'][:100]} used no Tensor Cores (ncu) but reads yes")
            checked += 1
        # The step ncu saw runs the same kernels as the profiled steps.
        if total <= 0 or not seen:
            fail(f"{trace}: no kernel time to check")
        missing = [u for u in used if u not in seen]
        if missing:
            fail(f"{trace}: kernels on Tensor Cores by the counters are not in the trace: "
                 + ", ".join(m[:60] for m in missing))
        if matched < 0.95 * total:
            fail(f"{trace}: only {matched} of {total} ns of kernel time found in the counters")
    print(f"tensor_core_truth: ok ({checked} kernel rows; {len(used)} kernels on Tensor Cores "
          f"by the counters: {', '.join(u[:40] for u in used[:4])}, ...)")


if __name__ == "__main__":
    main()
