#!/usr/bin/env python3
"""Independent reference for Gapscope's GPU analyses (Python 3 stdlib only).

Usage: reference_gpu_analyses.py TRACE [--range START:END] [--out FILE]

This docstring is the specification the tests rely on.

Input
  One Chrome Trace Event Format file (JSON), optionally gzip (magic 1f 8b) or
  zstd (magic 28 b5 2f fd, decompressed with the `zstd -dcq` CLI).  Object
  form {"traceEvents": [...]} or a bare array.  Numbers are parsed as
  decimal.Decimal (never float).  ts/dur are microseconds; each converts to
  integer ns EXACTLY: ns = Decimal(v) * 1000 rounded half away from zero.
  A value is "integral" when it is a JSON number with an integral value
  (true/false and strings are not).  Events without numeric ts/dur are skipped.

GPU activity (only ph "X" events with dur > 0, dur tested as the raw decimal)
  Kineto style (checked first): cat in {"kernel","Kernel"} = kernel,
  {"gpu_memcpy","Memcpy"} = memcpy, {"gpu_memset","Memset"} = memset.
  device = int(args["device"]) when args.device is integral, else the pid
  when integral, else the event is skipped.  ("gpu_user_annotation" is never
  activity.)
  TensorFlow style: events on a thread whose thread_name metadata (ph "M",
  name "thread_name", args.name; the last one for a (pid, tid) wins) starts
  with "Stream #", in a process whose process_name metadata (args.name;
  the last one for a pid wins) matches ^/device:GPU:(\\d+) ; device = that
  number.  A stream whose thread name contains "memcpy" (case-insensitive;
  covers MemcpyHtoD, MemcpyDtoH, MemcpyDtoD, MemcpyPtoP) is a copy stream:
  all its events are memcpy.  On other streams, events whose name contains
  "memset" (case-insensitive) are memset, all others are kernels.
  Classes per device: communication = kernels whose name matches
  re.search("nccl|rccl|cross_device_reduce", IGNORECASE) or re.match("hccl")
  (case-sensitive); compute = all other kernels plus all memsets;
  memcpy = memcpy events.

Per-device breakdown over a window [W0, W1) in ns (default: unbounded)
  Every activity interval [ts, ts+dur) is clipped to the window; empty ones
  are dropped.  C = union of compute, M = union of comm, P = union of memcpy,
  A = union of all three (sets of nanoseconds), computed by sort-and-merge;
  differences / intersections by a sweep over merged lists.
    computation_ns    = |C|
    exposed_comm_ns   = |M - C|
    exposed_memcpy_ns = |P - C - M|
    busy_ns           = |A|
    total_ns          = last clipped end - first clipped start (that device)
    idle_ns           = total_ns - busy_ns
    total_comm_ns     = |M|,  total_memcpy_ns = |P|
    comm_overlap      = |C n M| / |M| (float), null when |M| = 0
  Asserted: computation + exposed_comm + exposed_memcpy + idle == total.
  Devices with no activity inside the window are omitted.

Kernel statistics (kernels only = compute + communication kernels, not
memcpy/memset; raw unclipped durations over the whole trace, --range is
ignored), per name over all devices and per (device, name):
  count, total_ns, min_ns, max_ns, mean_ns = total/count (float),
  median_ns = middle value (even count: mean of the two middle values rounded
  down), p95_ns = nearest rank: the ceil(0.95*count)-th smallest (1-based),
  stddev_ns = sample standard deviation (n-1), float; null when count == 1.

Output (JSON, stdout or --out FILE)
  {"devices": [{"device", "computation_ns", "exposed_comm_ns",
   "exposed_memcpy_ns", "busy_ns", "idle_ns", "total_ns", "total_comm_ns",
   "total_memcpy_ns", "comm_overlap"}], "kernels": [{"name", "count",
   "total_ns", "min_ns", "max_ns", "mean_ns", "median_ns", "p95_ns",
   "stddev_ns"}], "kernels_by_device": [{"device", "name", ...}]}
  devices sorted by device; kernels by total_ns descending, then name
  (code-point order); kernels_by_device by device, then as kernels.
  --range START:END gives the window in absolute integer ns (either side may
  be empty = unbounded).
"""
import argparse
import decimal
import gzip
import json
import math
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

decimal.getcontext().prec = 60
KINETO = {"kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "memcpy",
          "Memcpy": "memcpy", "gpu_memset": "memset", "Memset": "memset"}
COMM_RE = re.compile(r"nccl|rccl|cross_device_reduce", re.IGNORECASE)
HCCL_RE = re.compile(r"hccl")
GPU_PROC_RE = re.compile(r"/device:GPU:(\d+)")


def load_events(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:4] == b"\x28\xb5\x2f\xfd":
        data = subprocess.run(["zstd", "-dcq", path], check=True,
                              stdout=subprocess.PIPE).stdout
    doc = json.loads(data.decode("utf-8"), parse_float=Decimal, parse_int=Decimal)
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    return [e for e in events if isinstance(e, dict)]


def integral(v):
    return isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value()


def to_ns(v):
    q = (abs(v) * 1000).quantize(Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(q) if v >= 0 else -int(q)


def key(v):
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def activities(events):
    """Yield (device, kind, name, start_ns, end_ns); kind in kernel/memcpy/memset."""
    threads, gpu_procs = {}, {}
    for e in events:
        if e.get("ph") != "M" or not isinstance(e.get("args"), dict):
            continue
        label = e["args"].get("name")
        if not isinstance(label, str):
            continue
        if e.get("name") == "thread_name":
            threads[(key(e.get("pid")), key(e.get("tid")))] = label
        elif e.get("name") == "process_name":
            m = GPU_PROC_RE.match(label)
            if m:
                gpu_procs[key(e.get("pid"))] = int(m.group(1))
            else:
                gpu_procs.pop(key(e.get("pid")), None)
    for e in events:
        ts, dur = e.get("ts"), e.get("dur")
        if e.get("ph") != "X" or not isinstance(ts, Decimal) or not isinstance(dur, Decimal):
            continue
        if not (dur.is_finite() and ts.is_finite()) or dur <= 0:
            continue
        name = e.get("name")
        name = name if isinstance(name, str) else ("" if name is None else str(name))
        cat, args = e.get("cat"), e.get("args")
        args = args if isinstance(args, dict) else {}
        if isinstance(cat, str) and cat in KINETO:
            kind = KINETO[cat]
            if integral(args.get("device")):
                dev = int(args["device"])
            elif integral(e.get("pid")):
                dev = int(e["pid"])
            else:
                continue
        else:
            pid = key(e.get("pid"))
            tname = threads.get((pid, key(e.get("tid"))))
            if pid not in gpu_procs or tname is None or not tname.startswith("Stream #"):
                continue
            dev = gpu_procs[pid]
            if "memcpy" in tname.lower():
                kind = "memcpy"
            elif "memset" in name.lower():
                kind = "memset"
            else:
                kind = "kernel"
        s = to_ns(ts)
        yield dev, kind, name, s, s + to_ns(dur)


def is_comm(name):
    return bool(COMM_RE.search(name) or HCCL_RE.match(name))


def union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [tuple(x) for x in out]


def measure(u):
    return sum(e - s for s, e in u)


def subtract(a, b):
    """a - b for merged (sorted, disjoint) interval lists."""
    out, j = [], 0
    for s, e in a:
        while j < len(b) and b[j][1] <= s:
            j += 1
        k, cur = j, s
        while k < len(b) and b[k][0] < e:
            if b[k][0] > cur:
                out.append((cur, b[k][0]))
            cur = max(cur, b[k][1])
            k += 1
        if cur < e:
            out.append((cur, e))
    return out


def intersect(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append((s, e))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def device_breakdown(acts, w0, w1):
    per = {}
    for dev, kind, name, s, e in acts:
        s, e = max(s, w0), min(e, w1)
        if s >= e:
            continue
        cls = "memcpy" if kind == "memcpy" else (
            "comm" if kind == "kernel" and is_comm(name) else "compute")
        per.setdefault(dev, {"compute": [], "comm": [], "memcpy": []})[cls].append((s, e))
    rows = []
    for dev in sorted(per):
        d = per[dev]
        C, M, P = union(d["compute"]), union(d["comm"]), union(d["memcpy"])
        A = union(C + M + P)
        comp, tot_comm, tot_mem = measure(C), measure(M), measure(P)
        exp_comm = measure(subtract(M, C))
        exp_mem = measure(subtract(P, union(C + M)))
        busy = measure(A)
        total = A[-1][1] - A[0][0]
        idle = total - busy
        assert comp + exp_comm + exp_mem + idle == total, dev
        overlap = measure(intersect(C, M))
        assert overlap == comp + tot_comm - measure(union(C + M)), dev
        rows.append({"device": dev, "computation_ns": comp, "exposed_comm_ns": exp_comm,
                     "exposed_memcpy_ns": exp_mem, "busy_ns": busy, "idle_ns": idle,
                     "total_ns": total, "total_comm_ns": tot_comm,
                     "total_memcpy_ns": tot_mem,
                     "comm_overlap": overlap / tot_comm if tot_comm else None})
    return rows


def stats(durs):
    d = sorted(durs)
    n, tot = len(d), sum(d)
    median = d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) // 2
    rank = (95 * n + 99) // 100  # ceil(0.95 * n), exact
    std = None
    if n > 1:
        var = Fraction(n * sum(x * x for x in d) - tot * tot, n * (n - 1))
        std = math.sqrt(var)
    return {"count": n, "total_ns": tot, "min_ns": d[0], "max_ns": d[-1],
            "mean_ns": tot / n, "median_ns": median, "p95_ns": d[rank - 1],
            "stddev_ns": std}


def kernel_stats(acts):
    by_name, by_dev = {}, {}
    for dev, kind, name, s, e in acts:
        if kind == "kernel":
            by_name.setdefault(name, []).append(e - s)
            by_dev.setdefault((dev, name), []).append(e - s)
    kernels = [dict(name=n, **stats(v)) for n, v in by_name.items()]
    kernels.sort(key=lambda r: (-r["total_ns"], r["name"]))
    per_dev = [dict(device=k[0], name=k[1], **stats(v)) for k, v in by_dev.items()]
    per_dev.sort(key=lambda r: (r["device"], -r["total_ns"], r["name"]))
    return kernels, per_dev


def parse_range(text):
    a, sep, b = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError("expected START:END")
    return (int(a) if a.strip() else -math.inf, int(b) if b.strip() else math.inf)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--range", type=parse_range, default=(-math.inf, math.inf),
                    help="window START:END in absolute ns, [START, END)")
    ap.add_argument("--out", help="write JSON here instead of stdout")
    a = ap.parse_args()
    acts = list(activities(load_events(a.trace)))
    kernels, per_dev = kernel_stats(acts)
    result = {"devices": device_breakdown(acts, *a.range), "kernels": kernels,
              "kernels_by_device": per_dev}
    text = json.dumps(result, indent=1) + "\n"
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
