#!/usr/bin/env python3
"""Independent reference for Gapscope's GPU analyses (Python 3 stdlib only).

Usage: reference_gpu_analyses.py TRACE [--range START:END] [--min-gap-us US]
                                 [--out FILE]

This docstring is the specification the tests rely on.

Input
  One Chrome Trace Event Format file (JSON), optionally gzip (magic 1f 8b) or
  zstd (magic 28 b5 2f fd, decompressed with the `zstd -dcq` CLI).  Object
  form {"traceEvents": [...]} or a bare array.  Numbers are parsed as
  decimal.Decimal (never float).  ts/dur are microseconds; each converts to
  integer ns EXACTLY: ns = Decimal(v) * 1000 rounded half away from zero.
  A value is "integral" when it is a JSON number with an integral value
  (true/false and strings are not).  Events without a numeric ts, or with a
  dur that is not a number, are skipped.

GPU activity (ph "X" events with a finite numeric ts and a dur that is
missing (= 0) or a finite number; any other dur drops the event)
  D = ns(dur): D < 0 is malformed and never activity; D = 0 is a
  ZERO-DURATION activity: it ran, so it counts in every count (kernel
  statistics, launch, copies, ...) but adds nothing to any time.
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
  Busy intervals of a device: its activities with D > 0.  Its INSTANTS: the
  starts of its zero-duration activities that are neither inside nor at the
  start or end of any merged busy interval of the device (over the whole
  trace, never clipped), sorted and unique.  An instant t is inside a window
  [W0, W1) when W0 <= t < W1.

Per-device breakdown over a window [W0, W1) in ns (default: unbounded)
  Every activity interval [ts, ts+dur) is clipped to the window; empty ones
  (zero-duration activity among them) are dropped.  C = union of compute,
  M = union of comm, P = union of memcpy, A = union of all three (sets of
  nanoseconds), computed by sort-and-merge; differences / intersections by
  a sweep over merged lists.
    computation_ns    = |C|
    exposed_comm_ns   = |M - C|
    exposed_memcpy_ns = |P - C - M|
    busy_ns           = |A|
    total_ns          = last - first, over the clipped intervals' ends /
                        starts and the device's instants inside the window
    idle_ns           = total_ns - busy_ns
    total_comm_ns     = |M|,  total_memcpy_ns = |P|
    comm_overlap      = |C n M| / |M| (float), null when |M| = 0
  Asserted: computation + exposed_comm + exposed_memcpy + idle == total.
  Devices with neither an interval nor an instant inside the window are
  omitted (a device with only instants there has busy_ns 0).

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

Idle gaps and their causes (JSON key "gaps"; over the whole trace or the
--range window; --min-gap-us US, default 100, threshold_ns =
Decimal(US) * 1000 rounded half up (away from zero), via the ns rule above)
  Busy: per device, busy = union of ALL its activity intervals (compute incl.
  memset, communication, memcpy), each clipped to the window, empty ones
  dropped (the same A as busy_ns above).  Devices with neither a busy
  interval nor an instant inside the window are omitted.  Gaps = the
  intervals [s, e) between consecutive elements of the time-sorted sequence
  of the merged busy intervals and the device's instants inside the window
  (an instant t as [t, t]): s = end of one, e = start of the next; always
  e > s.  So an instant splits the gap around it in two, and one before the
  first / after the last busy interval opens a gap up to / from it; the
  window edges before the first / after the last element are NOT gaps.
  A gap with e - s >= threshold_ns is "listed"; shorter ones are only counted
  and totalled in short_gaps.
  Host slices: events with ph "X" and a numeric (Decimal, finite) ts whose dur
  is missing (= 0) or a finite number >= 0 (any other dur: skipped), that are
  not GPU activity events (as defined above) and whose pid is not a GPU pid.
  Interval [S, S + D) with S = ns(ts), D = ns(dur) (not clipped to the
  window).  GPU pids: the pid of every GPU activity event; every pid with a
  metadata event (ph "M") named "process_labels" whose args.labels is a
  string matching re.match(r"GPU \d+"), or named "process_name" whose
  args.name is a string matching re.match(r"GPU \d+") or
  re.match(r"/device:GPU:\d+").  ANY such metadata event marks the pid (no
  "last one wins" here).  pids compare as JSON values (1 != "1").
  Name classes of host slices (a slice may be in several classes):
    input:           "DataLoader" in name and "__next__" in name; or name
                     starts with "IteratorGetNext" or with "Iterator::".
    synchronization: name starts with "cuda", "cu" or "hip" and ends with
                     "Synchronize"; or name in {"cudaMemcpy", "hipMemcpy",
                     "aten::_local_scalar_dense"}.
    communication:   name starts with "nccl:" or "c10d::"; or
                     "ProcessGroupNCCL" in name; or name == "record_param_comms".
  Cover(class, G) = |union(all host slices of the class) n G| (ns).
  Blocked(s) = the synchronization host slices with start < s <= end.
  Cause of a listed gap G = [s, e): the first rule that holds:
    a. input:           Cover(input, G) * 2 >= e - s
    b. synchronization: Blocked(s) is not empty; or
                        Cover(synchronization, G) * 2 >= e - s
    c. communication:   a communication kernel of this device (zero-duration
                        ones too) has raw start ns == e; or
                        Cover(communication, G) * 2 >= e - s
    d. host:            some GPU activity event K of this device with raw
                        start ns == e has a launch call L with ns(L.ts) > s
                        (no upper bound on L.ts).
    e. other.
  Launch calls of an activity event K: (1) every host slice with cat
  "cuda_runtime", "cuda_driver" or "Runtime" (Kineto of 2021) whose args.correlation is integral and
  equal to K's integral args.correlation; (2) only if (1) gives none: flows
  with cat "ac2g" (keyed by id, compared as JSON values): every "f" event
  (ph "f", cat "ac2g") with the same pid and tid as K and ns(ts) == K's
  start gives an id; every "s" event (ph "s", cat "ac2g") with that id binds
  to every host slice (any cat) with the same pid and tid as that "s" event
  and ns(ts) == ns(s.ts); those slices are K's launch calls.  ("bp" is not
  looked at.  Old Kineto files with cat "Runtime" and flow cat "async" thus
  have no launch calls.)
  Evidence (list of {"name", "start_ns", "end_ns"}, raw unclipped
  intervals, sorted by start_ns, then name (code points), then end_ns; each
  event at most once):
    input: the host slices of that class overlapping G (start < e and
      end > s; a zero-length slice strictly inside G counts);
    synchronization: Blocked(s) plus the synchronization slices overlapping G;
    communication: the communication host slices overlapping G (also when
      the rule held by kernel) plus every communication kernel of this device
      with raw start == e;
    host: the launch calls L with ns(L.ts) > s of all activity events of
      this device starting at e, plus Work(T, G) once per thread T = (pid,
      tid) of such an L.  Depth of T's host slices: a stack walk over them
      sorted by (start, longer first, file order) pops the open slices with
      end <= the slice's start; depth = the open slices left (ProfilerStep#
      ones count).  Properly nested slices are assumed (the C++ moves one
      that overlaps without nesting to another lane; stderr warns when such
      a slice overlaps G).  Work: for depth 0, 1, ...: X = the slices of
      that depth overlapping G, less those named "ProfilerStep#...";
      X empty: stop if an answer exists, else go deeper; X one slice with
      start <= s and end >= e: it is the answer, go deeper; else: X is the
      answer unless one exists, stop.  Work = the answer ([] if none);
    other: [].
  Output: "gaps": {"threshold_ns": N, "devices": [{"device", "busy_ns",
    "gaps": [{"start_ns", "end_ns", "cause", "evidence"}] (listed gaps in
    time order), "by_cause": {"input", "synchronization", "communication",
    "host", "other"} (sum of e - s of the listed gaps per cause, all five
    keys always present), "short_gaps": {"count", "total_ns"}}]} with
    devices sorted by device.
"""
import argparse
import bisect
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


def load_document(path):
    """The whole parsed JSON document (numbers as Decimal)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    elif data[:4] == b"\x28\xb5\x2f\xfd":
        data = subprocess.run(["zstd", "-dcq", path], check=True,
                              stdout=subprocess.PIPE).stdout
    return json.loads(data.decode("utf-8"), parse_float=Decimal, parse_int=Decimal)


def document_events(doc):
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    return [e for e in events if isinstance(e, dict)]


def load_events(path):
    return document_events(load_document(path))


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
    for _, dev, kind, name, s, e in activity_events(events):
        yield dev, kind, name, s, e


def tf_metadata(events):
    """(threads, gpu_procs): {(pid, tid): last thread_name}, {pid: GPU number of
    the last process_name, only when it matches ^/device:GPU:(\\d+)}."""
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
    return threads, gpu_procs


def activity_events(events):
    """Yield (event, device, kind, name, start_ns, end_ns); end == start for
    zero-duration activity."""
    threads, gpu_procs = tf_metadata(events)
    for e in events:
        ts, dur = e.get("ts"), e.get("dur", Decimal(0))
        if e.get("ph") != "X" or not isinstance(ts, Decimal) or not isinstance(dur, Decimal):
            continue
        if not (dur.is_finite() and ts.is_finite()) or to_ns(dur) < 0:
            continue  # a negative dur is malformed, never activity
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
        yield e, dev, kind, name, s, s + to_ns(dur)


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


def device_instants(acts):
    """{device: sorted unique starts of its zero-duration activity that are
    neither inside nor at the edge of its merged busy intervals}."""
    busy, points = {}, {}
    for dev, kind, name, s, e in acts:
        if e > s:
            busy.setdefault(dev, []).append((s, e))
        else:
            points.setdefault(dev, set()).add(s)
    out = {}
    for dev, ps in points.items():
        merged = union(busy.get(dev, []))
        starts = [s for s, _ in merged]
        out[dev] = []
        for t in sorted(ps):
            i = bisect.bisect_right(starts, t) - 1  # last interval starting at or before t
            if i < 0 or t > merged[i][1]:
                out[dev].append(t)
    return out


def within(points, w0, w1):
    """The points t with w0 <= t < w1 of a sorted list."""
    return points[bisect.bisect_left(points, w0):bisect.bisect_left(points, w1)]


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


def device_breakdown(acts, instants, w0, w1):
    per = {}
    for dev, kind, name, s, e in acts:
        s, e = max(s, w0), min(e, w1)
        if s >= e:
            continue
        cls = "memcpy" if kind == "memcpy" else (
            "comm" if kind == "kernel" and is_comm(name) else "compute")
        per.setdefault(dev, {"compute": [], "comm": [], "memcpy": []})[cls].append((s, e))
    points = {dev: within(ps, w0, w1) for dev, ps in instants.items()}
    rows = []
    for dev in sorted(set(per) | {dev for dev, ps in points.items() if ps}):
        d = per.get(dev, {"compute": [], "comm": [], "memcpy": []})
        C, M, P = union(d["compute"]), union(d["comm"]), union(d["memcpy"])
        A = union(C + M + P)
        comp, tot_comm, tot_mem = measure(C), measure(M), measure(P)
        exp_comm = measure(subtract(M, C))
        exp_mem = measure(subtract(P, union(C + M)))
        busy = measure(A)
        ps = points.get(dev, [])  # instants extend the span
        starts, ends = [s for s, _ in A[:1]] + ps[:1], [e for _, e in A[-1:]] + ps[-1:]
        total = max(ends) - min(starts)
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


GPU_LABEL_RE = re.compile(r"GPU \d+")
TF_GPU_RE = re.compile(r"/device:GPU:\d+")
SYNC_NAMES = {"cudaMemcpy", "hipMemcpy", "aten::_local_scalar_dense"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver", "Runtime"}  # "Runtime": Kineto of 2021
CAUSES = ("input", "synchronization", "communication", "host", "other")
STEP_PREFIX = "ProfilerStep#"


def event_name(e):
    name = e.get("name")
    return name if isinstance(name, str) else ("" if name is None else str(name))


def host_classes(name):
    out = set()
    if ("DataLoader" in name and "__next__" in name) or name.startswith("IteratorGetNext") \
            or name.startswith("Iterator::"):
        out.add("input")
    if name in SYNC_NAMES or (name.startswith(("cuda", "cu", "hip"))
                              and name.endswith("Synchronize")):
        out.add("synchronization")
    if name.startswith("nccl:") or name.startswith("c10d::") or "ProcessGroupNCCL" in name \
            or name == "record_param_comms":
        out.add("communication")
    return out


def host_slices(events, act_events):
    """List of dicts: name, s, e, cat, args, pid, tid, ev."""
    act_ids = {id(x[0]) for x in act_events}
    gpu_pids = {key(x[0].get("pid")) for x in act_events}
    for e in events:
        if e.get("ph") != "M" or not isinstance(e.get("args"), dict):
            continue
        if e.get("name") == "process_labels":
            lab = e["args"].get("labels")
            if isinstance(lab, str) and GPU_LABEL_RE.match(lab):
                gpu_pids.add(key(e.get("pid")))
        elif e.get("name") == "process_name":
            lab = e["args"].get("name")
            if isinstance(lab, str) and (GPU_LABEL_RE.match(lab) or TF_GPU_RE.match(lab)):
                gpu_pids.add(key(e.get("pid")))
    out = []
    for e in events:
        if e.get("ph") != "X" or id(e) in act_ids:
            continue
        ts, dur = e.get("ts"), e.get("dur", Decimal(0))
        if not isinstance(ts, Decimal) or not ts.is_finite():
            continue
        if not isinstance(dur, Decimal) or not dur.is_finite() or dur < 0:
            continue
        if key(e.get("pid")) in gpu_pids:
            continue
        s = to_ns(ts)
        args = e.get("args")
        out.append({"name": event_name(e), "s": s, "e": s + to_ns(dur), "cat": e.get("cat"),
                    "args": args if isinstance(args, dict) else {},
                    "pid": key(e.get("pid")), "tid": key(e.get("tid")), "ev": e})
    return out


def cover(merged, starts, s, e):
    """|merged n [s, e)|; merged sorted disjoint, starts = their start list."""
    i = max(bisect.bisect_right(starts, s) - 1, 0)
    tot = 0
    while i < len(merged) and merged[i][0] < e:
        a, b = max(merged[i][0], s), min(merged[i][1], e)
        if a < b:
            tot += b - a
        i += 1
    return tot


class HostClass:
    def __init__(self, slices):
        self.slices = sorted(slices, key=lambda h: (h["s"], h["e"]))
        self.slice_starts = [h["s"] for h in self.slices]
        self.merged = union([(h["s"], h["e"]) for h in self.slices if h["e"] > h["s"]])
        self.merged_starts = [m[0] for m in self.merged]
        # max end over the prefix, to bound the overlap scan
        self.max_end = []
        m = -math.inf
        for h in self.slices:
            m = max(m, h["e"])
            self.max_end.append(m)

    def cover(self, s, e):
        return cover(self.merged, self.merged_starts, s, e)

    def overlapping(self, s, e):
        hi = bisect.bisect_left(self.slice_starts, e)  # start < e
        lo = bisect.bisect_right(self.max_end, s, 0, hi)  # first prefix whose max end > s
        return [h for h in self.slices[lo:hi] if h["e"] > s]

    def blocked_at(self, t):
        """The slices with start < t <= end (not returned by t)."""
        hi = bisect.bisect_left(self.slice_starts, t)  # start < t
        lo = bisect.bisect_left(self.max_end, t, 0, hi)  # first prefix whose max end >= t
        return [h for h in self.slices[lo:hi] if h["e"] >= t]


def thread_depths(slices):
    """{id(slice): depth} for the slices of one thread, by a stack walk over
    them sorted by (start, longer first, file order): pop the enclosing
    slices that end at or before the slice's start; depth = slices left.
    Also returns the slices that overlap the innermost one left without
    lying inside it (not properly nested; the reference assumes none)."""
    depth, crossing, stack = {}, [], []
    for h in sorted(slices, key=lambda h: (h["s"], h["s"] - h["e"], h["order"])):
        while stack and stack[-1] <= h["s"]:
            stack.pop()
        if stack and stack[-1] < h["e"]:
            crossing.append(h)
        depth[id(h)] = len(stack)
        stack.append(h["e"])
    return depth, crossing


class ThreadLevels:
    """One thread's host slices per nesting depth (thread_depths)."""

    def __init__(self, slices):
        depth, self.crossing = thread_depths(slices)
        per = {}
        for h in slices:
            per.setdefault(depth[id(h)], []).append(h)
        self.levels = [HostClass(per.get(d, [])) for d in range(max(per) + 1 if per else 0)]

    def work(self, s, e):
        """Work(thread, [s, e)) of the host evidence above."""
        found = []
        for level in self.levels:
            here = [h for h in level.overlapping(s, e) if not h["name"].startswith(STEP_PREFIX)]
            if not here:
                if found:
                    break
                continue
            if len(here) == 1 and here[0]["s"] <= s and here[0]["e"] >= e:
                found = here  # spans the gap: look inside it
                continue
            if not found:
                found = here
            break
        return found


def evidence_item(name, s, e):
    return {"name": name, "start_ns": s, "end_ns": e}


def launch_resolver(events, hosts):
    by_corr = {}
    for h in hosts:
        c = h["args"].get("correlation")
        if h["cat"] in LAUNCH_CATS and integral(c):
            by_corr.setdefault(int(c), []).append(h)
    by_pos = {}
    for h in hosts:
        by_pos.setdefault((h["pid"], h["tid"], h["s"]), []).append(h)
    f_ends, s_ends = {}, {}
    for e in events:
        ph = e.get("ph")
        if ph not in ("s", "f") or e.get("cat") != "ac2g":
            continue
        ts = e.get("ts")
        if not isinstance(ts, Decimal) or not ts.is_finite():
            continue
        pos = (key(e.get("pid")), key(e.get("tid")), to_ns(ts))
        if ph == "f":
            f_ends.setdefault(pos, []).append(key(e.get("id")))
        else:
            s_ends.setdefault(key(e.get("id")), []).append(pos)

    def launches(ev, start):
        args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
        c = args.get("correlation")
        if integral(c) and by_corr.get(int(c)):
            return by_corr[int(c)]
        out, seen = [], set()
        for fid in f_ends.get((key(ev.get("pid")), key(ev.get("tid")), start), []):
            for pos in s_ends.get(fid, []):
                for h in by_pos.get(pos, []):
                    if id(h) not in seen:
                        seen.add(id(h))
                        out.append(h)
        return out
    return launches


class GapCauses:
    """The cause rules a-e above, for any interval [s, e) of a device."""

    def __init__(self, events, act_events, hosts=None):
        if hosts is None:
            hosts = host_slices(events, act_events)
        classes = {c: [] for c in ("input", "synchronization", "communication")}
        for h in hosts:
            for c in host_classes(h["name"]):
                classes[c].append(h)
        self.hc = {c: HostClass(v) for c, v in classes.items()}
        self.launches = launch_resolver(events, hosts)
        self.threads = {}
        for i, h in enumerate(hosts):
            h.setdefault("order", i)
            self.threads.setdefault((h["pid"], h["tid"]), []).append(h)
        self.levels = {}
        self.crossing_warned = set()
        self.by_start = {}
        for ev, dev, kind, name, s, e in act_events:
            self.by_start.setdefault((dev, s), []).append((ev, kind, name, s, e))

    def thread_work(self, thread, s, e):
        lv = self.levels.get(thread)
        if lv is None:
            lv = self.levels[thread] = ThreadLevels(self.threads[thread])
        found = lv.work(s, e)
        cross = [h for h in lv.crossing if h["s"] < e and h["e"] > s]
        if cross and thread not in self.crossing_warned:
            self.crossing_warned.add(thread)
            sys.stderr.write("warning: thread %s/%s has slices not properly nested during the "
                             "gap [%d, %d), e.g. %r; the reference assumes nesting\n"
                             % (thread[0], thread[1], s, e, cross[0]["name"]))
        return found

    def cause(self, dev, s, e):
        """(cause, evidence) of the interval [s, e) of device dev."""
        hc, n = self.hc, e - s
        at_e = self.by_start.get((dev, e), [])
        cause, evid = "other", []
        comm_k = [x for x in at_e if x[1] == "kernel" and is_comm(x[2])]
        if hc["input"].cover(s, e) * 2 >= n:
            cause = "input"
            evid = [evidence_item(h["name"], h["s"], h["e"]) for h in hc["input"].overlapping(s, e)]
        elif hc["synchronization"].blocked_at(s) or hc["synchronization"].cover(s, e) * 2 >= n:
            cause = "synchronization"
            seen, hs = set(), []
            for h in hc["synchronization"].blocked_at(s) + hc["synchronization"].overlapping(s, e):
                if id(h) not in seen:
                    seen.add(id(h))
                    hs.append(h)
            evid = [evidence_item(h["name"], h["s"], h["e"]) for h in hs]
        elif comm_k or hc["communication"].cover(s, e) * 2 >= n:
            cause = "communication"
            evid = [evidence_item(h["name"], h["s"], h["e"])
                    for h in hc["communication"].overlapping(s, e)]
            evid += [evidence_item(x[2], x[3], x[4]) for x in comm_k]
        else:
            seen, ls = set(), []
            for ev, kind, name, ks, ke in at_e:
                for h in self.launches(ev, ks):
                    if h["s"] > s and id(h) not in seen:
                        seen.add(id(h))
                        ls.append(h)
            if ls:
                cause = "host"
                for thread in dict.fromkeys((h["pid"], h["tid"]) for h in ls):
                    for h in self.thread_work(thread, s, e):
                        if id(h) not in seen:
                            seen.add(id(h))
                            ls.append(h)
                evid = [evidence_item(h["name"], h["s"], h["e"]) for h in ls]
        evid.sort(key=lambda x: (x["start_ns"], x["name"], x["end_ns"]))
        return cause, evid


def gap_analysis(events, act_events, instants, w0, w1, threshold):
    causes = GapCauses(events, act_events)
    busy_iv = {}
    for ev, dev, kind, name, s, e in act_events:
        cs, ce = max(s, w0), min(e, w1)
        if cs < ce:
            busy_iv.setdefault(dev, []).append((cs, ce))
    points = {dev: within(ps, w0, w1) for dev, ps in instants.items()}
    rows = []
    for dev in sorted(set(busy_iv) | {dev for dev, ps in points.items() if ps}):
        busy = union(busy_iv.get(dev, []))
        # busy intervals and instants [t, t] in time order; gaps lie between them
        seq = sorted(busy + [(t, t) for t in points.get(dev, [])])
        listed, by_cause = [], {c: 0 for c in CAUSES}
        short_n = short_t = 0
        for (_, s), (e, _) in zip(seq, seq[1:]):
            n = e - s
            assert n > 0, (dev, s, e)
            if n < threshold:
                short_n += 1
                short_t += n
                continue
            cause, evid = causes.cause(dev, s, e)
            by_cause[cause] += n
            listed.append({"start_ns": s, "end_ns": e, "cause": cause, "evidence": evid})
        rows.append({"device": dev, "busy_ns": measure(busy), "gaps": listed, "by_cause": by_cause,
                     "short_gaps": {"count": short_n, "total_ns": short_t}})
    return {"threshold_ns": threshold, "devices": rows}


def parse_range(text):
    a, sep, b = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError("expected START:END")
    return (int(a) if a.strip() else -math.inf, int(b) if b.strip() else math.inf)


def parse_us(text):
    try:
        v = Decimal(text)
    except decimal.InvalidOperation:
        raise argparse.ArgumentTypeError("expected a decimal number")
    if not v.is_finite():
        raise argparse.ArgumentTypeError("expected a finite number")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--range", type=parse_range, default=(-math.inf, math.inf),
                    help="window START:END in absolute ns, [START, END)")
    ap.add_argument("--min-gap-us", type=parse_us, default=Decimal(100),
                    help="idle-gap listing threshold in us (default 100)")
    ap.add_argument("--out", help="write JSON here instead of stdout")
    a = ap.parse_args()
    events = load_events(a.trace)
    act_events = list(activity_events(events))
    acts = [x[1:] for x in act_events]
    instants = device_instants(acts)
    kernels, per_dev = kernel_stats(acts)
    result = {"devices": device_breakdown(acts, instants, *a.range), "kernels": kernels,
              "kernels_by_device": per_dev,
              "gaps": gap_analysis(events, act_events, instants, *a.range,
                                   to_ns(a.min_gap_us))}
    text = json.dumps(result, indent=1) + "\n"
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
