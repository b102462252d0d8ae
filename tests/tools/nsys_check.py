#!/usr/bin/env python3
"""Checks what gapscope-cli reads from an Nsight Systems SQLite export
(`nsys export --type sqlite`) against a reading of the rows written for this
test, with Python's sqlite3 only. Per file it computes, from the tables
themselves:

  - the slice kinds: every CUPTI_ACTIVITY_KIND_KERNEL row is a `kernel`, or a
    `comm_kernel` when its name is a collective's (docs/analyses.md: holds
    `nccl`, `rccl` or `cross_device_reduce` in any case, or starts with
    `hccl`); the name is StringIds[demangledName], else shortName, else
    mangledName (the first column that exists and resolves). Every
    CUPTI_ACTIVITY_KIND_MEMCPY row is a `memcpy`, every
    CUPTI_ACTIVITY_KIND_MEMSET row a `memset`; the device is `deviceId`.
    CUPTI_ACTIVITY_KIND_RUNTIME rows are runtime calls named
    StringIds[nameId] less a trailing `_v<digits>`, kind by name as
    docs/analyses.md says (a name starting `cuda`, `cu` or `hip`: ending in
    `Synchronize` is runtime_sync, holding `Launch` runtime_launch, holding
    `Memcpy` or `Memset` runtime_copy; anything else runtime_other).
    NVTX_EVENTS push/pop (eventType 59) and start/end (60) ranges with an
    end are `user_annotation`, or `step` when the name starts with
    `ProfilerStep#`; the name is `text`, else StringIds[textId]. Marks (34)
    and the other NVTX rows (domains, categories) are no slices. Every
    OSRT_API row is an `other` slice (the OSRT start/finish markers,
    eventClass 31/32, included: the contract says every row).
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION rows are not counted and are never
    GPU work.
  - per device, GPU busy time: the length of the union of the [start, end)
    of its kernel, memcpy and memset rows with end > start;
  - per device, the idle gaps as docs/analyses.md ("Classes of GPU
    activity", "Idle gaps") defines them over the whole trace: the maximal
    intervals between busy intervals, where a zero-duration row (end ==
    start) ran and splits idle time unless it lies inside or at the edge of
    a busy interval; a row with end < start is malformed and never activity
    (it still counts in the kinds). Gaps of at least the threshold
    (100 us) are listed; the shorter ones (> 0 ns) are totalled as short
    gaps. Nothing before a device's first or after its last activity is a
    gap.

A missing table means zero rows; columns are found with PRAGMA table_info, so
exports of different releases read alike.

Then it runs `gapscope-cli info FILE --json --no-cache` and `gapscope-cli gaps
FILE --format json --no-cache --active-span` (every device over its active
span, as above, whatever steps its NVTX ranges make) and compares: the slice_kinds counts of the
kinds computed here, busy_ns per device (both commands), the listed gaps'
(start_ns, end_ns) per device and the short gaps' count and total. When a
*gpu_trace.csv sits beside the file (pipit's test data), the kernel and
memcpy counts are also checked against its "Enter" rows. When FILE.truth.json
sits beside it (make_nsys_fixtures.py), the reference must equal the truth,
and gapscope's gap causes must equal the truth's.

Exit 1 on any difference, naming the file and the figure; one summary line per
file on success.

  nsys_check.py --cli PATH FILE.sqlite...
  nsys_check.py --print FILE.sqlite...     (the reference figures as JSON; exit 1
                                           if a truth sidecar disagrees)
"""
import argparse
import bisect
import csv
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections import Counter

GAP_THRESHOLD_NS = 100_000  # gapscope-cli gaps' default --min-gap-us 100

NVTX_PUSH_POP = 59
NVTX_START_END = 60

RUNTIME_KINDS = ("runtime_launch", "runtime_sync", "runtime_copy", "runtime_other")
COUNTED_KINDS = ("kernel", "comm_kernel", "memcpy", "memset") + RUNTIME_KINDS + (
    "user_annotation", "step", "other")


def is_collective(name):
    low = name.lower()
    return ("nccl" in low or "rccl" in low or "cross_device_reduce" in low
            or name.startswith("hccl"))


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


VERSION_SUFFIX = re.compile(r"_v\d+$")


def runtime_name(raw):
    return VERSION_SUFFIX.sub("", raw)


class Export:
    """Read-only access to one export: its tables and their columns."""

    def __init__(self, path):
        uri = "file:" + os.path.abspath(path) + "?mode=ro&immutable=1"
        self.db = sqlite3.connect(uri, uri=True)
        self.tables = {name for name, kind in self.db.execute(
            "SELECT name, type FROM sqlite_master") if kind == "table"}

    def columns(self, table):
        if table not in self.tables:
            return []
        return [row[1] for row in self.db.execute(f'PRAGMA table_info("{table}")')]

    def rows(self, table, wanted):
        """Rows of `table` as dicts of the `wanted` columns it has (absent: None)."""
        have = self.columns(table)
        if not have:
            return []
        present = [c for c in wanted if c in have]
        if not present:
            return [dict.fromkeys(wanted) for _ in self.db.execute(f'SELECT 1 FROM "{table}"')]
        sql = "SELECT " + ", ".join(f'"{c}"' for c in present) + f' FROM "{table}"'
        out = []
        for values in self.db.execute(sql):
            row = dict.fromkeys(wanted)
            row.update(zip(present, values))
            out.append(row)
        return out


def merge(intervals):
    merged = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            if e > merged[-1][1]:
                merged[-1][1] = e
        else:
            merged.append([s, e])
    return merged


def gaps_of(merged, points, threshold):
    """Listed gaps (>= threshold) and short gaps (0 < length < threshold)
    between the busy intervals `merged` and the instants `points` that lie
    outside every closed busy interval."""
    starts = [s for s, _ in merged]
    outside = set()
    for p in points:
        k = bisect.bisect_right(starts, p) - 1  # the last interval starting at or before p
        if k >= 0 and p <= merged[k][1]:
            continue  # inside or at the edge of a busy interval
        outside.add(p)
    items = sorted([tuple(i) for i in merged] + [(p, p) for p in outside])
    listed, short = [], []
    previous_end = None
    for s, e in items:
        if previous_end is not None and s > previous_end:
            (listed if s - previous_end >= threshold else short).append((previous_end, s))
        previous_end = e if previous_end is None else max(previous_end, e)
    return listed, short


def pid_of(global_id):
    """The pid in a serialized GlobalId (bits 24..47)."""
    return (global_id >> 24) & 0xFFFFFF if global_id is not None else 0


def keeps_of(x, process):
    """Which rows' processes one rank's reading holds: every process when
    `process` is None; else the ranks are the processes with a CUDA context
    (TARGET_INFO_CUDA_CONTEXT_INFO), by pid, the first of which also holds
    the processes that are no rank (a launcher)."""
    if process is None:
        return lambda pid: True
    ranks = sorted({r["processId"] for r in x.rows("TARGET_INFO_CUDA_CONTEXT_INFO",
                                                   ["processId"])})
    if process not in ranks:
        raise SystemExit(f"{process} is not one of the ranks' processes {ranks}")
    if process == ranks[0]:
        others = set(ranks[1:])
        return lambda pid: pid not in others
    return lambda pid: pid == process


def reference(path, threshold=GAP_THRESHOLD_NS, process=None):
    x = Export(path)
    strings = dict((r["id"], r["value"]) for r in x.rows("StringIds", ["id", "value"]))
    keeps = keeps_of(x, process)

    def resolve(i):
        return strings.get(i) if i is not None else None

    kinds = Counter()
    devices = {}

    def device(d):
        return devices.setdefault(d, {"kernel": 0, "comm_kernel": 0, "memcpy": 0, "memset": 0,
                                      "intervals": [], "points": [], "malformed": 0})

    def activity(dev, start, end):
        if end > start:
            dev["intervals"].append((start, end))
        elif end == start:
            dev["points"].append(start)
        else:
            dev["malformed"] += 1

    for r in x.rows("CUPTI_ACTIVITY_KIND_KERNEL",
                    ["start", "end", "deviceId", "demangledName", "shortName", "mangledName",
                     "globalPid"]):
        if not keeps(pid_of(r["globalPid"])):
            continue
        name = next((n for n in (resolve(r["demangledName"]), resolve(r["shortName"]),
                                 resolve(r["mangledName"])) if n is not None), "")
        kind = "comm_kernel" if is_collective(name) else "kernel"
        kinds[kind] += 1
        dev = device(r["deviceId"])
        dev[kind] += 1
        activity(dev, r["start"], r["end"])
    for table, kind in (("CUPTI_ACTIVITY_KIND_MEMCPY", "memcpy"),
                        ("CUPTI_ACTIVITY_KIND_MEMSET", "memset")):
        for r in x.rows(table, ["start", "end", "deviceId", "globalPid"]):
            if not keeps(pid_of(r["globalPid"])):
                continue
            kinds[kind] += 1
            dev = device(r["deviceId"])
            dev[kind] += 1
            activity(dev, r["start"], r["end"])

    for r in x.rows("CUPTI_ACTIVITY_KIND_RUNTIME", ["nameId", "globalTid"]):
        if not keeps(pid_of(r["globalTid"])):
            continue
        kinds[runtime_kind(runtime_name(resolve(r["nameId"]) or ""))] += 1

    nvtx_marks = 0
    nvtx_open = 0
    for r in x.rows("NVTX_EVENTS", ["start", "end", "eventType", "text", "textId", "globalTid"]):
        if not keeps(pid_of(r["globalTid"])):
            continue
        if r["eventType"] == 34:
            nvtx_marks += 1
            continue
        if r["eventType"] not in (NVTX_PUSH_POP, NVTX_START_END):
            continue
        if r["end"] is None:
            nvtx_open += 1
            continue
        name = r["text"] if r["text"] else (resolve(r["textId"]) or "")
        kinds["step" if name.startswith("ProfilerStep#") else "user_annotation"] += 1

    kinds["other"] += sum(1 for r in x.rows("OSRT_API", ["globalTid"])
                          if keeps(pid_of(r["globalTid"])))

    out_devices = []
    for d in sorted(devices):
        dev = devices[d]
        merged = merge(dev["intervals"])
        listed, short = gaps_of(merged, dev["points"], threshold)
        if not merged and not dev["points"] and not dev["malformed"]:
            continue
        out_devices.append({
            "device": d,
            "kernel": dev["kernel"], "comm_kernel": dev["comm_kernel"],
            "memcpy": dev["memcpy"], "memset": dev["memset"],
            "malformed": dev["malformed"],
            "busy_ns": sum(e - s for s, e in merged),
            "gaps": [[s, e] for s, e in listed],
            "short_gaps": {"count": len(short), "total_ns": sum(e - s for s, e in short)},
        })
    return {
        "file": path + (f" (process {process})" if process is not None else ""),
        "threshold_ns": threshold,
        "slice_kinds": {k: kinds.get(k, 0) for k in COUNTED_KINDS},
        "nvtx_marks": nvtx_marks,
        "nvtx_unterminated": nvtx_open,
        "devices": out_devices,
    }


def csv_counts(path):
    """Kernel and memcpy counts from a pipit-style *gpu_trace.csv beside the file."""
    found = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(path)),
                                          "*gpu_trace.csv")))
    if not found:
        return None
    kernels = memcpys = 0
    with open(found[0], newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get("Event Type") != "Enter":
                continue
            kind = row.get("type", "")
            if kind == "kernel":
                kernels += 1
            elif kind.startswith("CUDA_MEMCPY"):
                memcpys += 1
    return found[0], kernels, memcpys


def check_truth(path, ref, problems):
    """The truth sidecar of a generated fixture, after checking that this
    reading agrees with it; None when there is none."""
    truth_path = path + ".truth.json"
    if not os.path.exists(truth_path):
        return None
    with open(truth_path, encoding="utf-8") as f:
        truth = json.load(f)
    for key in ("slice_kinds", "devices"):
        mine = ref[key]
        theirs = truth[key]
        if key == "devices":
            mine = [{k: v for k, v in d.items() if k != "malformed"} for d in mine]
            theirs = [{k: v for k, v in d.items() if k != "causes"} for d in theirs]
        if mine != theirs:
            problems.append(f"{path}: reference disagrees with {truth_path} on {key}: "
                            f"{json.dumps(mine)} vs {json.dumps(theirs)}")
    return truth


def run_json(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def check(path, cli, problems, process=None):
    ref = reference(path, process=process)
    part = ["--process", str(process)] if process is not None else []

    def differ(figure, expected, actual):
        problems.append(f"{path}: {figure}: expected {expected}, gapscope says {actual}")

    truth = check_truth(path, ref, problems) if process is None else None

    counted = csv_counts(path)
    ref["cross_checked"] = (["its truth sidecar"] if truth else []) + (
        [os.path.basename(counted[0])] if counted else [])
    if counted:
        csv_path, kernels, memcpys = counted
        k = ref["slice_kinds"]["kernel"] + ref["slice_kinds"]["comm_kernel"]
        if k != kernels:
            problems.append(f"{path}: kernels: the rows say {k}, {csv_path} says {kernels}")
        if ref["slice_kinds"]["memcpy"] != memcpys:
            problems.append(f"{path}: memcpy: the rows say {ref['slice_kinds']['memcpy']}, "
                            f"{csv_path} says {memcpys}")

    try:
        info = run_json([cli, "info", path, "--format", "json", "--no-cache"] + part)
        gaps = run_json([cli, "gaps", path, "--format", "json", "--no-cache", "--active-span"]
                        + part)
    except (RuntimeError, json.JSONDecodeError) as e:
        problems.append(f"{path}: {e}")
        return None

    actual_kinds = info.get("slice_kinds", {})
    for kind in COUNTED_KINDS:
        if ref["slice_kinds"][kind] != actual_kinds.get(kind, 0):
            differ(f"slice_kinds.{kind}", ref["slice_kinds"][kind], actual_kinds.get(kind, 0))

    mine = {d["device"]: d for d in ref["devices"]}
    info_devices = {str(d.get("device")): d for d in info.get("gpus", [])}
    for d, dev in mine.items():
        got = info_devices.get(str(d))
        if got is None:
            differ(f"info gpu_devices[{d}]", "present", "absent")
        elif got.get("busy_ns") != dev["busy_ns"]:
            differ(f"info gpu_devices[{d}].busy_ns", dev["busy_ns"], got.get("busy_ns"))
    for d, got in info_devices.items():
        if not any(str(k) == d for k in mine) and got.get("busy_ns", 0):
            differ(f"info gpu_devices[{d}].busy_ns", 0, got.get("busy_ns"))

    if gaps.get("threshold_ns") != ref["threshold_ns"]:
        differ("gaps threshold_ns", ref["threshold_ns"], gaps.get("threshold_ns"))
    # The totals per device, with that device's listed gaps.
    gap_devices = {}
    for totals in gaps.get("gap_totals", []):
        d = dict(totals)
        d["gaps"] = [g for g in gaps.get("gaps", []) if g["device"] == totals["device"]]
        gap_devices[str(d.get("device"))] = d
    for d, dev in mine.items():
        got = gap_devices.get(str(d))
        if got is None:
            differ(f"gaps devices[{d}]", "present", "absent")
            continue
        if got.get("busy_ns") != dev["busy_ns"]:
            differ(f"gaps devices[{d}].busy_ns", dev["busy_ns"], got.get("busy_ns"))
        listed = [[g.get("start_ns"), g.get("end_ns")] for g in got.get("gaps", [])]
        if listed != dev["gaps"]:
            missing = [g for g in dev["gaps"] if g not in listed]
            extra = [g for g in listed if g not in dev["gaps"]]
            differ(f"gaps devices[{d}].gaps ({len(dev['gaps'])} vs {len(listed)}; "
                   f"missing {missing[:5]}, unexpected {extra[:5]})", dev["gaps"][:5], listed[:5])
        short = got.get("short_gaps", {})
        if (short.get("count"), short.get("total_ns")) != (dev["short_gaps"]["count"],
                                                           dev["short_gaps"]["total_ns"]):
            differ(f"gaps devices[{d}].short_gaps", dev["short_gaps"], short)
        if truth:
            tdev = next((t for t in truth["devices"] if str(t["device"]) == str(d)), None)
            if tdev and "causes" in tdev and listed == dev["gaps"]:
                causes = [g.get("cause") for g in got.get("gaps", [])]
                if causes != tdev["causes"]:
                    differ(f"gaps devices[{d}] causes", tdev["causes"], causes)
    for d, got in gap_devices.items():
        if not any(str(k) == d for k in mine) and (got.get("busy_ns") or got.get("gaps")):
            differ(f"gaps devices[{d}]", "absent (no activity in the rows)",
                   f"busy {got.get('busy_ns')} ns, {len(got.get('gaps', []))} gaps")
    return ref


def summary(ref):
    k = ref["slice_kinds"]
    per_device = "; ".join(
        f"GPU {d['device']}: busy {d['busy_ns']} ns, {len(d['gaps'])} gaps "
        f"({sum(e - s for s, e in d['gaps'])} ns), {d['short_gaps']['count']} short"
        for d in ref["devices"]) or "no GPU activity"
    also = ", ".join(ref.get("cross_checked", []))
    return (f"{ref['file']}: {k['kernel']} kernels, {k['comm_kernel']} comm kernels, "
            f"{k['memcpy']} memcpy, {k['memset']} memset, "
            f"{sum(k[r] for r in RUNTIME_KINDS)} runtime calls, "
            f"{k['user_annotation']} annotations, {k['step']} steps; {per_device}; "
            f"gapscope agrees" + (f" (and with {also})" if also else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", help="gapscope-cli to check")
    ap.add_argument("--print", action="store_true", dest="print_only",
                    help="print the reference figures as JSON; run no CLI")
    ap.add_argument("--process", type=int,
                    help="check the reading of this rank's process alone (--process of the CLI)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if not args.print_only and not args.cli:
        ap.error("--cli PATH is required unless --print")
    if args.print_only:
        out, problems = [], []
        for p in args.files:
            out.append(reference(p, process=args.process))
            check_truth(p, out[-1], problems)
        json.dump(out if len(out) > 1 else out[0], sys.stdout, indent=1)
        sys.stdout.write("\n")
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    failed = False
    for path in args.files:
        problems = []
        ref = check(path, args.cli, problems, args.process)
        if problems:
            failed = True
            for p in problems:
                print(p)
        else:
            print(summary(ref))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
