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
  exposed_comm_ns = |(M - C) n W| (A all, M comm, C compute unions);
  collective_enter_ns = smallest start s of a comm kernel on the device with
  W.start <= s < W.end (null if none); collective_end_ns = that kernel's
  end (first in file order among equal starts).  start_ns / end_ns /
  duration_ns stay the span's.

Rank number
  distributedInfo.rank (integer) if present; else the first
  (?<![A-Za-z])(worker|rank)[-_]?([0-9]{1,9})(?![0-9]) (case-insensitive)
  in the file's base name; else its 0-based argument position.  Assigned in
  that order of sources (argument order within each); a taken rank becomes
  (largest rank taken so far) + 1.

Alignment (--align-step N)
  Ranks in rank order; reference = step N's start on the first rank having
  step N; each rank with step N gets offset = reference - its step N start,
  added to step start/end and collective enter/end.  Ranks without step N keep
  offset 0 and are listed in unaligned_ranks.

Stragglers
  Per step number (ascending) with >= 2 ranks having a collective_enter_ns:
  straggler = largest enter (lowest rank on ties); wait_ns = straggler enter -
  rank enter; others_wait_ns = sum over the others, waiting_ranks = their
  count, longest_wait_ns / longest_wait_rank = their largest wait (lowest rank
  on ties).  transfer_ns = max(0, rank's collective end - straggler enter):
  the collective's own time once every rank is in.  Steps without a
  collective (or without a straggler entry) have wait_ns and transfer_ns
  null.
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
    comm_kernels = {}  # device -> [(start, end, file index)]
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
            if cat in KERNEL_CATS and is_comm_kernel(name):
                acts["comm"].append((start, end))
                comm_kernels.setdefault(dev, []).append((start, end, index))
            elif cat in KERNEL_CATS or cat in MEMSET_CATS:
                acts["compute"].append((start, end))
            continue
        if cat != GPU_ANNOTATION_CAT:
            by_pos.add((key(ev.get("pid")), key(ev.get("tid")), start))
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
                          "start": start, "end": end, "index": index})
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
    return unions, comm_kernels, steps, windows_of(steps, work, unions)


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


def collective(kernels, lo, hi):
    best = None
    for start, end, index in kernels:
        if lo <= start < hi and (best is None or start < best[0]):
            best = (start, end)
    return best


def analyse_rank(events):
    unions, comm_kernels, steps, windows = collect(events)
    device = pick_device(unions, steps, windows)
    dev_unions = unions.get(device, {"all": [], "comm": [], "compute": []})
    exposed = subtract(dev_unions["comm"], dev_unions["compute"])
    out = []
    for i, st in enumerate(steps):
        lo, hi = windows[device][i] if device is not None else (st["start"], st["end"])
        busy = length_within(dev_unions["all"], lo, hi)
        coll = collective(comm_kernels.get(device, []), lo, hi)
        out.append({
            "name": st["name"], "number": st["number"],
            "start_ns": st["start"], "end_ns": st["end"], "duration_ns": st["end"] - st["start"],
            "busy_ns": busy, "idle_ns": hi - lo - busy,
            "comm_ns": length_within(dev_unions["comm"], lo, hi),
            "exposed_comm_ns": length_within(exposed, lo, hi),
            "collective_enter_ns": coll[0] if coll else None,
            "collective_end_ns": coll[1] if coll else None,
            "wait_ns": None,
            "transfer_ns": None,
        })
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
        for st in rk["steps"]:
            for key in ("start_ns", "end_ns", "collective_enter_ns", "collective_end_ns"):
                if st[key] is not None:
                    st[key] += rk["offset_ns"]
    return unaligned


def first_step_start(steps, number):
    for st in steps:
        if st["number"] == number:
            return st["start_ns"]
    return None


def stragglers(ranks):
    entered = {}  # step number -> [(rank, step dict)]
    for rk in ranks:
        seen = set()
        for st in rk["steps"]:
            if st["collective_enter_ns"] is None or st["number"] in seen:
                continue
            seen.add(st["number"])
            entered.setdefault(st["number"], []).append((rk["rank"], st))
    out = []
    for number in sorted(entered):
        entries = sorted(entered[number], key=lambda e: e[0])
        if len(entries) < 2:
            continue
        s_rank, s_step = entries[0]
        for rank, st in entries[1:]:
            if st["collective_enter_ns"] > s_step["collective_enter_ns"]:
                s_rank, s_step = rank, st
        enter = s_step["collective_enter_ns"]
        total, longest, longest_rank, waiting = 0, None, None, 0
        for rank, st in entries:
            st["wait_ns"] = enter - st["collective_enter_ns"]
            st["transfer_ns"] = max(0, st["collective_end_ns"] - enter)
            if rank == s_rank:
                continue
            waiting += 1
            total += st["wait_ns"]
            if longest is None or st["wait_ns"] > longest:
                longest, longest_rank = st["wait_ns"], rank
        out.append({"step": number, "rank": s_rank, "entered_ns": enter,
                    "others_wait_ns": total, "waiting_ranks": waiting,
                    "longest_wait_ns": longest, "longest_wait_rank": longest_rank})
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
    result = {"aligned_on_step": opts.align_step, "unaligned_ranks": unaligned,
              "ranks": ranks, "stragglers": stragglers(ranks)}
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
