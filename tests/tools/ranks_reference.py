#!/usr/bin/env python3
"""Independent reference for `gapscope-cli ranks` (Python 3 stdlib only).

Usage: ranks_reference.py [--align-step N] FILE...

Every FILE is a Chrome-trace JSON (PyTorch profiler / Kineto) file, plain or
gzip, holding one rank of a distributed job.  Prints one JSON object.

Times
  Numbers are parsed as decimal.Decimal.  start ns = int(ts * 1000),
  end ns = int((ts + dur) * 1000), computed in Decimal.  Only "ph": "X"
  events of `traceEvents` (or of a top-level array) are used.

GPU activity
  X events with dur > 0 and cat in {kernel, Kernel} (kernel),
  {gpu_memcpy, Memcpy} (memcpy), {gpu_memset, Memset} (memset).
  Device = args.device when it is an integer, else pid when an integer.
  communication = kernels whose name matches re.search("nccl|rccl|
  cross_device_reduce", I) or starts with "hccl" (case-insensitive);
  compute = other kernels + memsets.  All activity = comm + compute + memcpy.
  Only for the steps' GPU work below, dur == 0 activity counts as well.

Launch call of an activity K (its start L): the first X event in file order
  with cat in {cuda_runtime, cuda_driver, Runtime} whose integer
  args.correlation equals K's; if there is none, by "ac2g" flows: for the
  "f" events at K's pid, tid and start ns, then the "s" events of the same
  id (each in file order; pid, tid, id compared as JSON values), the first
  X event (not GPU activity, not gpu_user_annotation; file order) at an
  "s" event's pid, tid and ts ns.  Else K has none.

Steps
  X events named ProfilerStep#N whose cat is not gpu_user_annotation; span
  [start, end); ordered by start (file order on ties).  A step's GPU work on
  device d = [min start, max end] of the gpu_user_annotation X events of
  the same name on d where there is any, else of d's activity K whose
  launch call L lies in the step: the last step in that order with
  start <= L, when L < its end.  The step's window on d: if no step has GPU
  work on d, the span; else, in step order, end = its GPU work's end (the
  span's end without work), start = the previous step's window end (the
  first step: min(span start, its work's start)), end = max(end, start).
  (The windows tile d's time; gapscope's steps analysis uses the same.)

Unions merge overlapping and touching intervals; |X| is total length.

Rank device: the device with the largest sum over steps of
  |union(activity) n the step's window on it| (lowest device on ties);
  without steps the device with the largest |union(activity)|.  Only
  devices with activity count.

Per step on that device, W = its window there
  busy_ns = |A n W|, idle_ns = |W| - busy_ns, comm_ns = |M n W|,
  exposed_comm_ns = |(M - C) n W| (A all, M comm, C compute unions).
  start_ns / end_ns / duration_ns stay the span's.
  collectives = every comm kernel on the device with start s,
  W.start <= s < W.end, ordered by (s, file order): {name, enter_ns = s,
  end_ns, work_before}, work_before = longest work (below) in
  [max(W.start, ends of the earlier collectives of the list), max(that, s)).
  collective / collective_enter_ns / collective_end_ns = the first one's
  name / enter / end, longest_work_before its work_before (null, null, null
  and the longest work over W without collectives) until the stragglers
  below pick another.

Longest work in an interval I (null when I is empty)
  The rank's device busy for at least half of I (2 |A n I| >= |I|): the
  device's activity event (kernel, memcpy, memset) with the longest part
  inside I, "where": "gpu"; else (and always without a device) the CPU slice
  one level below the step's slice on its (pid, tid), with the longest part
  inside I, "where": "cpu".  Ties: the earlier part start, then file order;
  a part of 0 ns is none.  {name, where, start_ns / end_ns of the part, ns}.
  CPU slices: the thread's X events that are not GPU activity nor
  gpu_user_annotation, laid out as a flame chart: ordered by (start, longer
  first, file order); a slice is the child of the innermost open slice that
  contains it (one that ends at or before its start is closed); a slice
  that overlaps an open slice without lying in it leaves that lane (and is
  no candidate); depth = the number of its open ancestors.  A step slice
  outside lane 0 has no CPU candidates.

Rank number
  distributedInfo.rank (integer) if present; else the first
  (?<![A-Za-z])(worker|rank)[-_]?([0-9]{1,9})(?![0-9]) (case-insensitive)
  in the file's base name; else its 0-based argument position.  Assigned in
  that order of sources (argument order within each); a taken rank becomes
  (largest rank taken so far) + 1.

Alignment (--align-step N)
  Ranks in rank order; reference = step N's start on the first rank having
  step N; each rank with step N gets offset = reference - its step N start,
  added to step start/end, collective enter/end, each collective's
  enter/end and every work's start/end.  Ranks without step N keep offset 0
  and are listed in unaligned_ranks.

Stragglers
  Per step number (ascending), each rank's first step of that number with
  collectives.  Matches: the k-th collective of a name in each rank's step
  (key (name, k), k from 0).  Among matches of >= 2 ranks, the step's
  collective is the one with the largest total wait (sum over members of
  last entry - entry); ties: the earlier last entry, then the smallest key.
  No such match: no straggler, wait_ns / transfer_ns stay null.  Straggler =
  the member with the latest entry (lowest rank on ties); each member's step
  takes its matched collective as collective / collective_enter_ns /
  collective_end_ns / longest_work_before, wait_ns = straggler enter - its
  enter, transfer_ns = max(0, its end - straggler enter).  others_wait_ns =
  sum over the other members, waiting_ranks = their count,
  longest_wait_ns / longest_wait_rank = their largest wait (lowest rank on
  ties); instead = the straggler's matched collective's work_before.  Ranks
  outside the match keep their first collective and null wait / transfer.

Outliers (after the stragglers' waits)
  Per rank with steps: mean step time (sum of durations / steps), busy
  share (sum busy_ns / sum (busy_ns + idle_ns); none when 0) and mean wait
  (over its steps whose wait_ns is not null; none without any).  For each
  figure over the ranks that have it (at least 4, else none), Iglewicz and
  Hoaglin's modified z: 0.6745 (x - median) / MAD; MAD 0: (x - median) /
  (1.253314 mean absolute deviation); both 0: 0.  It stands apart in the
  figure when |z| > 3.5 and |x - median| >= max(5 % of |median|, 10000 ns,
  or 0.01 for the busy share).  A rank's score: of the figures it stands
  apart in, the furthest from 0, else the furthest of all (the first of
  step time, busy, wait on ties); "figure" only when it stands apart.
"""

import argparse
import bisect
import decimal
import gzip
import json
import os
import re
import sys

KERNEL_CATS = {"kernel", "Kernel"}
MEMCPY_CATS = {"gpu_memcpy", "Memcpy"}
MEMSET_CATS = {"gpu_memset", "Memset"}
GPU_ANNOTATION_CAT = "gpu_user_annotation"
LAUNCH_CATS = {"cuda_runtime", "cuda_driver", "Runtime"}
COMM_RE = re.compile(r"nccl|rccl|cross_device_reduce", re.IGNORECASE)
HCCL_RE = re.compile(r"hccl", re.IGNORECASE)
STEP_RE = re.compile(r"ProfilerStep#([0-9]+)")
FILE_RANK_RE = re.compile(r"(?<![A-Za-z])(?:worker|rank)[-_]?([0-9]{1,9})(?![0-9])",
                          re.IGNORECASE)


# ---------------------------------------------------------------- loading

def load_json(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data.decode("utf-8"), parse_float=decimal.Decimal,
                      parse_int=decimal.Decimal)


def as_int(value):
    """The integer value of a JSON integer (Decimal), else None."""
    if isinstance(value, decimal.Decimal) and value.is_finite() \
            and value == value.to_integral_value():
        return int(value)
    return None


def is_number(value):
    return isinstance(value, decimal.Decimal) and value.is_finite()


def event_times(ev):
    ts, dur = ev.get("ts"), ev.get("dur")
    if not (is_number(ts) and is_number(dur)):
        return None
    return int(ts * 1000), int((ts + dur) * 1000), dur


def event_device(ev):
    args = ev.get("args")
    if isinstance(args, dict) and "device" in args:
        dev = as_int(args["device"])
        if dev is not None:
            return dev
    return as_int(ev.get("pid"))


def key(value):
    """A JSON value as a dict key (lists and objects by their repr)."""
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


def is_comm_kernel(name):
    return bool(COMM_RE.search(name) or HCCL_RE.match(name))


# ---------------------------------------------------------------- intervals

def union(intervals):
    """Sorted, merged list of [start, end) (touching intervals merge)."""
    out = []
    for s, e in sorted(intervals):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [tuple(iv) for iv in out]


def subtract(a, b):
    """Merged a minus merged b."""
    out = []
    j = 0
    for s, e in a:
        cur = s
        while j < len(b) and b[j][1] <= cur:
            j += 1
        k = j
        while k < len(b) and b[k][0] < e:
            if b[k][0] > cur:
                out.append((cur, b[k][0]))
            cur = max(cur, b[k][1])
            if cur >= e:
                break
            k += 1
        if cur < e:
            out.append((cur, e))
    return out


def length_within(merged, lo, hi):
    return sum(max(0, min(e, hi) - max(s, lo)) for s, e in merged)


# ---------------------------------------------------------------- one rank

def parse_trace(doc):
    if isinstance(doc, list):
        return doc, None
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else []
    info = doc.get("distributedInfo") if isinstance(doc, dict) else None
    rank = None
    if isinstance(info, dict):
        rank = as_int(info.get("rank"))
    return (events if isinstance(events, list) else []), rank


def collect(events):
    """Activity per device, CPU steps, GPU step annotations and launch calls."""
    activity = {}   # device -> {"all": [...], "comm": [...], "compute": [...]}
    comm_kernels = {}  # device -> [(start, end, file index, name)]
    gpu_events = {}  # device -> [(start, end, file index, name)] of its activity, dur > 0
    threads = {}    # (pid, tid) -> [(start, end, file index, name)] of its CPU slices
    launched = []   # (device, start, end, event) of all activity, zero-duration included
    steps = []
    annotations = {}  # (name, device) -> [start, end]
    by_corr = {}    # correlation -> start of the first launch call in file order
    by_pos = set()  # (pid, tid, start) of the host X events
    for index, ev in enumerate(events):
        if not isinstance(ev, dict) or ev.get("ph") != "X":
            continue
        times = event_times(ev)
        if times is None:
            continue
        start, end, dur = times
        cat = ev.get("cat")
        name = ev.get("name")
        name = name if isinstance(name, str) else ""
        if cat in KERNEL_CATS or cat in MEMCPY_CATS or cat in MEMSET_CATS:
            dev = event_device(ev)
            if dur < 0 or dev is None:
                continue
            launched.append((dev, start, end, ev))
            if dur == 0:
                continue
            acts = activity.setdefault(dev, {"all": [], "comm": [], "compute": []})
            acts["all"].append((start, end))
            gpu_events.setdefault(dev, []).append((start, end, index, name))
            if cat in KERNEL_CATS and is_comm_kernel(name):
                acts["comm"].append((start, end))
                comm_kernels.setdefault(dev, []).append((start, end, index, name))
            elif cat in KERNEL_CATS or cat in MEMSET_CATS:
                acts["compute"].append((start, end))
            continue
        if cat != GPU_ANNOTATION_CAT:
            thread = (key(ev.get("pid")), key(ev.get("tid")))
            by_pos.add(thread + (start,))
            if dur >= 0:
                threads.setdefault(thread, []).append((start, end, index, name))
            args = ev.get("args")
            corr = as_int(args.get("correlation")) if isinstance(args, dict) else None
            if cat in LAUNCH_CATS and corr is not None:
                by_corr.setdefault(corr, start)
        match = STEP_RE.fullmatch(name)
        if not match:
            continue
        if cat == GPU_ANNOTATION_CAT:
            dev = event_device(ev)
            window = annotations.setdefault((name, dev), [start, end])
            window[0] = min(window[0], start)
            window[1] = max(window[1], end)
        else:
            steps.append({"name": name, "number": int(match.group(1)),
                          "start": start, "end": end, "index": index,
                          "thread": (key(ev.get("pid")), key(ev.get("tid")))})
    steps.sort(key=lambda st: (st["start"], st["index"]))
    unions = {dev: {k: union(v) for k, v in acts.items()}
              for dev, acts in activity.items()}
    flows = flow_ends(events)
    work = [{} for _ in steps]  # step index -> {device: [start, end]}
    starts = [st["start"] for st in steps]
    for dev, start, end, ev in launched:
        at = launch_start(ev, start, by_corr, by_pos, flows)
        i = bisect.bisect_right(starts, at) - 1 if at is not None else -1
        if i < 0 or at >= steps[i]["end"]:
            continue
        w = work[i].setdefault(dev, [start, end])
        w[0], w[1] = min(w[0], start), max(w[1], end)
    for i, st in enumerate(steps):  # the annotation, where there is one, wins
        for (name, dev), w in annotations.items():
            if name == st["name"]:
                work[i][dev] = w
    return (unions, comm_kernels, gpu_events, threads, steps,
            windows_of(steps, work, unions))


def flow_ends(events):
    """ac2g flows: ids by the (pid, tid, ns) of their "f", "s" positions by id."""
    f_ends, s_ends = {}, {}
    for ev in events:
        if not isinstance(ev, dict) or ev.get("ph") not in ("s", "f") \
                or ev.get("cat") != "ac2g" or not is_number(ev.get("ts")):
            continue
        pos = (key(ev.get("pid")), key(ev.get("tid")), int(ev["ts"] * 1000))
        if ev["ph"] == "f":
            f_ends.setdefault(pos, []).append(key(ev.get("id")))
        else:
            s_ends.setdefault(key(ev.get("id")), []).append(pos)
    return f_ends, s_ends


def launch_start(ev, start, by_corr, by_pos, flows):
    """Start of the activity's first launch call (correlation, else flow), or None."""
    args = ev.get("args")
    corr = as_int(args.get("correlation")) if isinstance(args, dict) else None
    if corr is not None and corr in by_corr:
        return by_corr[corr]
    f_ends, s_ends = flows
    for fid in f_ends.get((key(ev.get("pid")), key(ev.get("tid")), start), []):
        for pos in s_ends.get(fid, []):
            if pos in by_pos:
                return pos[2]
    return None


def windows_of(steps, work, unions):
    """{device: [(start, end) per step]} for every device with activity."""
    out = {}
    for dev in unions:
        known = any(dev in w for w in work)
        prev, wins = None, []
        for st, w in zip(steps, work):
            if not known:
                wins.append((st["start"], st["end"]))
                continue
            x = w.get(dev)
            start = prev if prev is not None else min(st["start"], x[0]) if x else st["start"]
            end = max(x[1] if x else st["end"], start)
            wins.append((start, end))
            prev = end
        out[dev] = wins
    return out


def pick_device(unions, steps, windows):
    best, best_busy = None, None
    for dev in sorted(unions):
        busy_all = unions[dev]["all"]
        if steps:
            busy = sum(length_within(busy_all, lo, hi) for lo, hi in windows[dev])
        else:
            busy = sum(e - s for s, e in busy_all)
        if best is None or busy > best_busy:
            best, best_busy = dev, busy
    return best


def collectives_in(kernels, lo, hi):
    """The comm kernels starting in [lo, hi), by (start, file order)."""
    return sorted((k for k in kernels if lo <= k[0] < hi), key=lambda k: (k[0], k[2]))


def depths(slices):
    """{file index: depth} of the slices of one thread that lie in lane 0."""
    out, open_ = {}, []  # open_: ends of the open slices, outermost first
    for start, end, index, _ in sorted(slices, key=lambda x: (x[0], x[0] - x[1], x[2])):
        while open_ and open_[-1] <= start:
            open_.pop()
        if open_ and end > open_[-1]:
            continue  # overlaps an open slice without lying in it: another lane
        out[index] = len(open_)
        open_.append(end)
    return out


def work(candidates, lo, hi, where):
    """The candidate (start, end, index, name) with the longest part in [lo, hi)."""
    best = None
    for start, end, index, name in candidates:
        s, e = max(start, lo), min(end, hi)
        if e - s <= 0:
            continue
        order = (-(e - s), s, index)
        if best is None or order < best[0]:
            best = (order, {"name": name, "where": where, "start_ns": s, "end_ns": e,
                           "ns": e - s})
    return best[1] if best else None


class Rank:
    """One rank's data for the longest-work rule."""

    def __init__(self, device, dev_all, gpu_events, threads):
        self.device, self.dev_all = device, dev_all
        self.gpu_events = gpu_events.get(device, [])
        self.threads, self.layouts = threads, {}

    def cpu_children(self, step):
        """The CPU slices one level below the step's slice on its thread."""
        thread = step["thread"]
        if thread not in self.layouts:
            self.layouts[thread] = depths(self.threads.get(thread, []))
        depth = self.layouts[thread]
        if step["index"] not in depth:
            return []
        below = depth[step["index"]] + 1
        return [x for x in self.threads.get(thread, []) if depth.get(x[2]) == below]

    def longest_work(self, step, lo, hi):
        if hi <= lo:
            return None
        if self.device is not None and 2 * length_within(self.dev_all, lo, hi) >= hi - lo:
            return work(self.gpu_events, lo, hi, "gpu")
        return work(self.cpu_children(step), lo, hi, "cpu")


def pick(st, c):
    """Makes collective c (a dict of st["collectives"]) the step's collective."""
    st["collective"] = c["name"]
    st["collective_enter_ns"] = c["enter_ns"]
    st["collective_end_ns"] = c["end_ns"]
    st["longest_work_before"] = dict(c["work_before"]) if c["work_before"] else None


def analyse_rank(events):
    unions, comm_kernels, gpu_events, threads, steps, windows = collect(events)
    device = pick_device(unions, steps, windows)
    dev_unions = unions.get(device, {"all": [], "comm": [], "compute": []})
    exposed = subtract(dev_unions["comm"], dev_unions["compute"])
    rank = Rank(device, dev_unions["all"], gpu_events, threads)
    out = []
    for i, st in enumerate(steps):
        lo, hi = windows[device][i] if device is not None else (st["start"], st["end"])
        busy = length_within(dev_unions["all"], lo, hi)
        colls, since = [], lo
        for start, end, _, name in collectives_in(comm_kernels.get(device, []), lo, hi):
            colls.append({"name": name, "enter_ns": start, "end_ns": end,
                          "work_before": rank.longest_work(st, since, max(since, start))})
            since = max(since, end)
        step = {
            "name": st["name"], "number": st["number"],
            "start_ns": st["start"], "end_ns": st["end"], "duration_ns": st["end"] - st["start"],
            "busy_ns": busy, "idle_ns": hi - lo - busy,
            "comm_ns": length_within(dev_unions["comm"], lo, hi),
            "exposed_comm_ns": length_within(exposed, lo, hi),
            "collective": None,
            "collective_enter_ns": None,
            "collective_end_ns": None,
            "wait_ns": None,
            "transfer_ns": None,
            "longest_work_before": None,
            "collectives": colls,
        }
        if colls:
            pick(step, colls[0])
        else:
            step["longest_work_before"] = rank.longest_work(st, lo, hi)
        out.append(step)
    return device, out


# ---------------------------------------------------------------- the job

def file_rank(path):
    match = FILE_RANK_RE.search(os.path.basename(path))
    return int(match.group(1)) if match else None


def assign_ranks(files, info_ranks):
    """Rank per argument index: distributedInfo, then file name, then position."""
    candidates = [(i, info_ranks[i]) for i in range(len(files))
                  if info_ranks[i] is not None]
    named = [(i, file_rank(files[i])) for i in range(len(files))
             if info_ranks[i] is None]
    candidates += [(i, r) for i, r in named if r is not None]
    candidates += [(i, i) for i, r in named if r is None]
    taken, ranks = set(), {}
    for index, wanted in candidates:
        rank = wanted if wanted not in taken else max(taken) + 1
        taken.add(rank)
        ranks[index] = rank
    return ranks


def align(ranks, step_number):
    reference, unaligned = None, []
    for rk in ranks:
        start = first_step_start(rk["steps"], step_number)
        if start is None:
            unaligned.append(rk["rank"])
            continue
        if reference is None:
            reference = start
        rk["offset_ns"] = reference - start
        by = rk["offset_ns"]
        for st in rk["steps"]:
            shift(st, ("start_ns", "end_ns", "collective_enter_ns", "collective_end_ns"), by)
            shift(st["longest_work_before"], ("start_ns", "end_ns"), by)
            for c in st["collectives"]:
                shift(c, ("enter_ns", "end_ns"), by)
                shift(c["work_before"], ("start_ns", "end_ns"), by)
    return unaligned


def shift(obj, keys, by):
    if obj is None:
        return
    for k in keys:
        if obj[k] is not None:
            obj[k] += by


def first_step_start(steps, number):
    for st in steps:
        if st["number"] == number:
            return st["start_ns"]
    return None


def stragglers(ranks):
    entered = {}  # step number -> [(rank, step dict)] in rank order
    for rk in ranks:
        seen = set()
        for st in rk["steps"]:
            if not st["collectives"] or st["number"] in seen:
                continue
            seen.add(st["number"])
            entered.setdefault(st["number"], []).append((rk["rank"], st))
    out = []
    for number in sorted(entered):
        matches = {}  # (name, occurrence) -> [(rank, step, collective)]
        for rank, st in sorted(entered[number], key=lambda e: e[0]):
            count = {}
            for c in st["collectives"]:
                k = count.get(c["name"], 0)
                count[c["name"]] = k + 1
                matches.setdefault((c["name"], k), []).append((rank, st, c))
        best = None
        for match_key, members in matches.items():
            if len(members) < 2:
                continue
            last = max(c["enter_ns"] for _, _, c in members)
            total = sum(last - c["enter_ns"] for _, _, c in members)
            order = (-total, last, match_key)
            if best is None or order < best[0]:
                best = (order, members)
        if best is None:
            continue
        members = best[1]
        s_rank, s_step, s_coll = members[0]
        for rank, st, c in members[1:]:
            if c["enter_ns"] > s_coll["enter_ns"]:
                s_rank, s_step, s_coll = rank, st, c
        enter = s_coll["enter_ns"]
        total, longest, longest_rank, waiting = 0, None, None, 0
        for rank, st, c in members:
            pick(st, c)
            st["wait_ns"] = enter - c["enter_ns"]
            st["transfer_ns"] = max(0, c["end_ns"] - enter)
            if rank == s_rank:
                continue
            waiting += 1
            total += st["wait_ns"]
            if longest is None or st["wait_ns"] > longest:
                longest, longest_rank = st["wait_ns"], rank
        instead = s_coll["work_before"]
        out.append({"step": number, "name": s_step["name"], "rank": s_rank,
                    "entered_ns": enter, "others_wait_ns": total, "waiting_ranks": waiting,
                    "longest_wait_ns": longest, "longest_wait_rank": longest_rank,
                    "instead": dict(instead) if instead else None})
    return out


def modified_z(values):
    """Iglewicz and Hoaglin's modified z-scores of the non-None values."""
    present = [v for v in values if v is not None]
    if len(present) < 4:
        return [None] * len(values)

    def median(xs):
        xs = sorted(xs)
        n = len(xs)
        return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

    m = median(present)
    mad = median([abs(v - m) for v in present])
    mean_ad = sum(abs(v - m) for v in present) / len(present)
    out = []
    for v in values:
        if v is None:
            out.append(None)
        elif mad > 0:
            out.append(0.6745 * (v - m) / mad)
        elif mean_ad > 0:
            out.append((v - m) / (1.253314 * mean_ad))
        else:
            out.append(0.0)
    return out


def outliers(ranks):
    """Per rank: whether it stands apart, its score and the figure."""
    values = [[], [], []]  # step time, busy share, wait
    for rk in ranks:
        steps = rk["steps"]
        if not steps:
            for v in values:
                v.append(None)
            continue
        n = len(steps)
        values[0].append(sum(s["end_ns"] - s["start_ns"] for s in steps) / n)
        window = sum(s["busy_ns"] + s["idle_ns"] for s in steps)
        values[1].append(sum(s["busy_ns"] for s in steps) / window if window > 0 else None)
        waits = [s["wait_ns"] for s in steps if s["wait_ns"] is not None]
        values[2].append(sum(waits) / len(waits) if waits else None)
    figures = ("step_time", "busy_share", "wait")
    out = [{"rank": rk["rank"], "figure": None, "score": None, "outlier": False} for rk in ranks]
    best = [None] * len(ranks)  # (apart, |z|, z, figure)
    for f, name in enumerate(figures):
        zs = modified_z(values[f])
        present = sorted(v for v in values[f] if v is not None)
        if not present:
            continue
        n = len(present)
        m = present[n // 2] if n % 2 else (present[n // 2 - 1] + present[n // 2]) / 2
        floor = max(0.05 * abs(m), 0.01 if name == "busy_share" else 10000)
        for i, z in enumerate(zs):
            if z is None:
                continue
            apart = abs(z) > 3.5 and abs(values[f][i] - m) >= floor
            b = best[i]
            # Where it stands apart (the furthest), else the furthest score;
            # the first figure on a tie.
            if b is None or (apart and not b[0]) or (apart == b[0] and abs(z) > b[1]):
                best[i] = (apart, abs(z), z, name)
    for i, b in enumerate(best):
        if b is not None:
            out[i]["score"] = b[2]
            out[i]["outlier"] = b[0]
            out[i]["figure"] = b[3] if b[0] else None
    return out


def main(argv):
    parser = argparse.ArgumentParser(description="Reference for gapscope-cli ranks")
    parser.add_argument("--align-step", type=int, default=None)
    parser.add_argument("files", nargs="+")
    opts = parser.parse_args(argv)

    analysed, info_ranks = [], []
    for path in opts.files:
        events, info_rank = parse_trace(load_json(path))
        info_ranks.append(info_rank)
        analysed.append(analyse_rank(events))
    numbers = assign_ranks(opts.files, info_ranks)
    ranks = []
    for index, path in enumerate(opts.files):
        device, steps = analysed[index]
        ranks.append({"rank": numbers[index], "file": path, "device": device,
                      "offset_ns": 0, "steps": steps})
    ranks.sort(key=lambda rk: rk["rank"])
    unaligned = align(ranks, opts.align_step) if opts.align_step is not None else []
    straggling = stragglers(ranks)
    result = {"aligned_on_step": opts.align_step, "unaligned_ranks": unaligned,
              "ranks": ranks, "stragglers": straggling, "outliers": outliers(ranks)}
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
