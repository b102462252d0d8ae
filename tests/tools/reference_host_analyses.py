#!/usr/bin/env python3
"""Independent reference for Gapscope's host-side analyses (Python 3 stdlib only).

Usage: reference_host_analyses.py TRACE [--step-regex RE] [--min-gap-us US]
                                  [--out FILE]

This docstring is the specification the tests rely on.  Trace loading, GPU
activity events (kernel / memcpy / memset per device), communication kernels,
host slices, host name classes, launch calls and the idle-gap cause rules are
those of reference_gpu_analyses.py (imported as g; its docstring is part of
this specification and is not restated).  So zero-duration GPU activity
counts wherever GPU activity is counted below (kernels, copies, launches,
launchers) and adds 0 ns wherever its duration is added; a device's
INSTANTS are g's.  All times are integer ns; every interval is half-open
[s, e); |X| is the number of ns in a set X.  "Slice" below (outside host
slices) means an event with ph "X", a finite numeric ts and a dur that is
missing (= 0) or finite and >= 0, as for host slices.  Regular expressions:
\\d means ASCII [0-9], "$" means the end of the string, "decimal digits"
are ASCII 0-9.  Floats are plain JSON numbers (Python's repr of
float(exact Fraction)).  Output: one JSON object with keys "steps",
"broken_step_annotations", "memory", "account", "pipeline", "ops",
"kernel_launchers", "launch", "memcpy" (stdout or --out FILE).
threshold_ns = g's rule applied to --min-gap-us US (default 100).

1. STEPS
  Candidates; the first rule that yields at least one step wins ("source"):
   a. "regex" (--step-regex RE): host slices whose name matches
      re.search(RE); number = int(first run of [0-9]+ in the name), else the
      ordinal.
   b. "ProfilerStep": host slices whose name matches ^ProfilerStep#([0-9]+)$
      (whole name); number = that integer.
   c. "train/test": host slices named exactly "train" or "test" whose
      args.step_num is integral or a string of [0-9]+; number =
      int(step_num).
   d. "Steps line": slices with raw dur > 0 on a thread whose thread_name
      (last one for the (pid, tid)) is exactly "Steps", in a process whose
      process_name (last one for the pid) matches ^/device:GPU:([0-9]+).
      The slices of the LOWEST GPU number that yields at least one step are
      taken (all pids with that number together); number = int(name) if the
      name is [0-9]+, else the ordinal.
  A step needs end_ns > start_ns (a zero-length slice is never a step; it
  is dropped before ordinals are given).  Ordinal = 0-based index of the
  candidate of that rule in (start, end, file order) order.  No candidate in
  any rule: "source" null, no steps.  Steps are sorted by (start, end,
  number).  Span [s, e) of the slice; duration_ns = e - s.
  GPU work of a step on device d (every device with GPU activity; any
  source):
    L = [min start, max end] of d's GPU activity K (zero-duration included)
      with a launch call (L_K = the first one g's resolver returns) whose
      L_K.s lies in the step: the last step (in step order) with
      start <= L_K.s, when L_K.s < its end;
    A = [min start, max end] of the slices with cat "gpu_user_annotation"
      and name == the step's name (so steps sharing a name share it) on d
      (device = int(args.device) if integral, else the pid if integral,
      else ignored).
    work = A ("work_from" "annotation") when A exists and either L does not
    exist or A holds L (A.start <= L.start and L.end <= A.end); else L
    ("launched") when L exists; else none.  An A that exists while L
    exists and A does not hold L is BROKEN: it is listed in the top-level
    "broken_step_annotations": [{"step": the step's number, "device": d,
    "annotation": {"start_ns", "end_ns"} (A), "launched": {"start_ns",
    "end_ns"} (L)}] sorted by (step start, device), ties in step order
    ([] without steps).  Work (and so BROKEN) is defined whatever the
    source, but only the other sources below read it.
  Devices of a step, and per listed (step, device) its window W = [w0, w1)
  ("gpu_window"), its lead-in [l0, w0) ("lead_in") and "window_from":
    source "Steps line": each device n of a process that has a thread
      whose thread_name (last one for the (pid, tid)) is exactly "Steps"
      and whose process_name (last one for the pid) matches
      ^/device:GPU:([0-9]+) (n = that number, as in step rule d; with or
      without GPU activity) has its OWN line: the slices of rule d on its
      Steps thread(s), each numbered as rule d numbers them (int(name), else
      its ordinal on this device's line in (start, end, file order)); the
      first in that order of each number is kept.  A step numbered k lists
      device n when n's own line has a slice numbered k, with [a, b) that
      slice's span: in step order, with prev = the previous listed step's
      w1 on n, W = [max(a, prev), max(b, prev)) (W = [a, b) for its first),
      lead-in [w0, w0) (empty), "span".  Other devices are in no step.
    other sources: every device that has any GPU activity (zero-duration
      included) anywhere in the trace, ascending; every step lists them
      all.  A device on which no step has work: in step order, with prev
      as above, W = [max(s, prev), max(e, prev)) ([s, e) for the first),
      lead-in [w0, w0), "span" (overlapping steps do not overlap on the
      GPU).  A device on which some step has work, in step order, with
      prev = the previous step's w1 on d: l0 = prev, for the first step
      l0 = min(s, its work start) (s when it has no work); with work:
      W = [max(work start, l0), max(work end, l0)), "window_from" =
      work_from; without: W = [p, p) with p = max(e, l0), "cpu".  So the
      lead-ins and windows of such a device tile [first l0, last w1)
      without overlap.
  Busy sets of a device: C, M, P = unions of its compute (non-comm kernels
  + memsets), communication-kernel and memcpy intervals with D > 0 (whole
  trace, unclipped); A = C u M u P.
  GAPS of a device listed by some step: its FRAME = the union of its tiles
  (the lead-ins and windows of every step listing it); the maximal
  intervals of FRAME - A, each cut at the device's instants t strictly
  inside it (a < t < b), are its GAPS G = [a, b).  b - a < threshold_ns:
  G is short, cause "short"; otherwise cause = g's rules a-e applied to G
  itself, the whole gap (so "starts at the end" means raw activity start
  == b, zero-duration activity included).  A gap's cause is decided once:
  a gap that crosses a step boundary or the lead-in / window boundary is
  split between them with that one cause.
  Breakdown over an interval X (X = W: "breakdown"; X = the lead-in:
  "lead_in_breakdown"; both with these keys):
    compute_ns        = |C n X|
    exposed_comm_ns   = |(M n X) - C|
    exposed_memcpy_ns = |(P n X) - C - M|
    memcpy_by_direction {"HtoD","DtoH","DtoD","PtoP","other"}: direction of a
      memcpy event = the first of HtoD, DtoH, DtoD, PtoP contained in its name
      (Kineto: cat in g.KINETO) or in its thread_name (TensorFlow copy
      streams), else "other"; part_d = |(P_d n X) - C - M - (union of P_d' of
      the directions d' listed before d)|; the parts sum to exposed_memcpy.
    idle_ns           = |X| - |A n X|
    idle_by_cause {"input","synchronization","communication","host",
      "other","short"}: every GAP G of the device adds |G n X| to its cause
      (X lies in the FRAME, so X - A is the union of the G n X).
  Asserted for both intervals: compute + exposed_comm + exposed_memcpy +
  idle == |X| and every split sums to its total.
  median_duration_ns = middle duration (even count: floor of the mean of the
  two middle ones), null without steps.  slow = 2*duration > 3*median.
  Parts of a step "compute","exposed_comm","exposed_memcpy","idle_input",
  "idle_synchronization","idle_communication","idle_host","idle_other",
  "idle_short": the FIRST (lowest) listed device's breakdown value plus its
  lead_in_breakdown value (idle_X = idle_by_cause.X).  For a slow step
  that lists a device: growth(part) = value - median over all steps of that
  part's value (same median rule; a step that lists no device counts 0);
  slower_because = the part with the
  largest growth (ties: the first in that list), grew_by_ns = its growth;
  but when 2 * that growth < duration - median_duration (the GPU time
  explains less than half of it, the time went on the host):
  slower_because "cpu", grew_by_ns = duration - median_duration.  A slow
  step that lists no device: slower_because "cpu", grew_by_ns = duration -
  median_duration.  Non-slow steps: both null.
  "steps": {"source", "median_duration_ns", "steps": [{"name", "number",
   "start_ns", "end_ns", "duration_ns", "slow", "slower_because",
   "grew_by_ns", "devices": [{"device", "gpu_window": {"start_ns",
   "end_ns"}, "lead_in": {"start_ns", "end_ns"}, "window_from",
   "breakdown": {"compute_ns", "exposed_comm_ns", "exposed_memcpy_ns",
   "memcpy_by_direction", "idle_ns", "idle_by_cause"},
   "lead_in_breakdown": {the same keys}}]}]}

2. MEMORY (device key ("GPU", n) or ("CPU", -1))
  a. Kineto: events named "[memory]" (any ph) with a finite numeric ts and
     args with integral "Device Type" and "Device Id"; type 0 = CPU (-1
     whatever Device Id says), any type > 0 = GPU Device Id (types of one
     Device Id share a curve), negative types ignored.  A device
     with at least one event with integral "Total Allocated" is absolute:
     one point per such event (allocated = Total Allocated, reserved = Total
     Reserved if integral else none); its other events are ignored.  Else,
     if some of its events have integral "Bytes", it is RELATIVE: the events
     with integral Bytes, stable-sorted by ts ns (ties in file order), give
     one point each with allocated = running sum of Bytes from 0 (including
     that event); reserved none.
  b. TensorFlow: events with ph "C" named "Memory Usage" with a finite
     numeric ts in a process whose process_name (last one) matches
     ^/device:GPU:([0-9]+); allocated = args.bytes_in_use (must be integral,
     else the event is skipped), reserved = args.bytes_reserved if integral.
     Only for a GPU that has no Kineto points (Kineto wins per device).
  Points are stable-sorted by ts.  A device without points is not listed.
  Per device: {"device": n (-1 for CPU), "kind": "gpu"|"cpu", "relative",
   "peak_allocated_bytes" (max allocated), "peak_time_ns" (ts of the FIRST
   point reaching it), "peak_reserved_bytes" (max over points that have a
   reserved value, else null), "device_memory_bytes" (GPU: top-level
   "deviceProperties" entry (the first) whose integral "id" == n: its
   integral totalGlobalMem; when that is missing or not integral, and the
   integral totalGlobalMem values of all entries are one value, that value;
   else null; CPU: null), "peak_share" (peak /
   device memory as float; null when device memory is null or 0),
   "per_step_peak": [per step in step order: max of the allocated values of
   the points with ts in [s, e) and of the value in effect at s (the last
   point in sorted order with ts <= s); null when neither exists],
   "growth_bytes_per_step"}.  Growth: the steps with a non-null peak, x =
   the step's 0-based index in the step list, y = its peak; with >= 4 of
   them, least squares slope b = Sxy/Sxx and R^2 = Sxy^2/(Sxx*Syy) (=
   1 - SSres/SStot), exact Fractions; growth = float(b) when b > 0 and
   R^2 >= 9/10 (Syy = 0: null), else null.
  A process that sees one GPU: when the trace has exactly one device with
  GPU activity (1's devices) D and the Kineto GPU curves (a) all name one
  Device Id M != D, they are D's (n = D).
  "memory": {"devices": [...]}, GPUs by n, then CPU.

3. PIPELINE
  Nesting (used here and in 4): per (pid, tid), the slices considered are
  sorted by (start asc, end desc, file order) and pushed on a stack; before
  pushing X, the stack is popped while its top's end < X's end; the top left
  (if any) is X's parent.  (Identical intervals: the one first in file order
  is the parent.)
  Stages: host slices whose name starts with "Iterator::", nested among
  themselves only (other slices are ignored for this nesting).  Per full
  name: calls, inclusive_ns = sum dur, self_ns = sum (dur - sum dur of its
  children), share = self_ns / sum of all stages' self_ns (float; null if
  that sum is 0).  Sorted by self_ns desc, then name.
  get_next_ns = sum dur of host slices whose name starts with
  "IteratorGetNext".
  checks (null without stages; components = name.split("::")):
  "missing_prefetch" = no stage has a component == "Prefetch";
  "sequential_map" = some stage's last component == "Map"; "no_cache" = no
  component of any stage contains "Cache".
  dataloader slices = host slices whose name contains "DataLoader" and
  "__next__".  "dataloader": null without them, else {"calls", "total_ns"
  (sum dur), "kind": "single-process" if some name contains
  "_SingleProcessDataLoaderIter", else "worker processes" if some contains
  "_MultiProcessingDataLoaderIter", else null, "pin_memory_thread": some
  thread_name metadata (any, not only the last) args.name contains
  "pin_memory" (case-insensitive)}.
  wait = union of the dataloader and IteratorGetNext* slices.
  per_step: [{"number", "host_wait_ns": |wait n [s, e)|, "host_share": that /
  duration (float)}].
  Host figures: with steps, host_wait_ns = sum per step, host_time_ns = sum
  of durations.  Without: S = [min start, max end) over all host slices and
  GPU activity (a zero-duration one at its start, so instants extend S);
  host_wait_ns = |wait n S|, host_time_ns = |S| (0 when there is nothing).
  The verdict reads GPU time (as TensorBoard's input-pipeline analyser):
  when the account (7) lists a device, "from" "gpu": input_wait_ns = sum
  over its devices of idle_by_cause.input, time_ns = sum of their time_ns,
  denominator = the account's ("step time and active spans" when its
  devices' denominators differ).  Else "from" "host": input_wait_ns =
  host_wait_ns, time_ns = host_time_ns, denominator "step time" with steps,
  else "active span".  input_share = input_wait_ns / time_ns (float; null
  when time_ns = 0); verdict (exact integers; null when time_ns = 0):
  5*wait >= time "highly input-bound", 20*wait >= time "moderately
  input-bound", else "not input-bound".
  "pipeline": {"verdict", "input_share", "input_wait_ns", "time_ns",
   "denominator", "from", "host_wait_ns", "host_time_ns",
   "stages": [{"name", "calls", "inclusive_ns", "self_ns", "share"}],
   "get_next_ns", "checks", "dataloader", "per_step"}

4. OPS
  Host ops = host slices with cat "cpu_op" or "Operator" whose name does not
  start with "ProfilerStep#".  Their children: nesting as in 3 over ALL host
  slices of the (pid, tid) (any cat); self = dur - sum dur of children.
  TensorFlow device ops = slices on a thread named exactly "TensorFlow Ops"
  (last thread_name) of a process whose last process_name matches
  ^/device:GPU:([0-9]+); self = gpu = dur.
  GPU time of host ops: every GPU activity event K (any kind) with at least
  one launch call (g's resolver; L = the first one it returns) adds K's raw
  duration to EVERY host op instance on L's (pid, tid) with op.s <= L.s and
  L.e <= op.e (so to all enclosing ops; recursion counts twice).
  Per name (host and TF ops together): count, inclusive_ns, self_ns, gpu_ns
  (sums over instances), share_of_step_time = inclusive_ns / sum of step
  durations (float; null without steps).  Sorted by gpu_ns desc, self_ns
  desc, name.  "ops": [{"name", "count", "inclusive_ns", "self_ns",
  "gpu_ns", "share_of_step_time"}].
  "kernel_launchers" (top-level key next to "ops"): for each kernel name
  (kind "kernel"), over its instances with a launch call: the innermost host
  op containing L as above (smallest dur; ties: latest start; then latest in
  file order); launched_by = the most frequent such op name (ties: smallest
  name), null when no instance has one.  [{"name", "launched_by"}] sorted by
  name, every kernel name listed.

5. LAUNCH
  Kernels (kind "kernel") with a launch call, L = the first: delay = max(0,
  K.s - L.e), launch = L.e - L.s.  {"kernels": all kernel events,
  "kernels_with_launch", "delay_ns" and "launch_ns": {"mean" (float),
  "median", "p95", "max"} (median / p95 as g's kernel statistics; null when
  kernels_with_launch = 0), "short_kernels": {"count": kernels with dur <
  10000, "share": count / kernels, "time_share": their dur / all kernels'
  dur (floats; null when the denominator is 0)}, "histogram": [{"from_ns", "to_ns"
  (null = infinity), "count"}] of the delays over [0,1e3), [1e3,1e4),
  [1e4,1e5), [1e5,1e6), [1e6,1e7), [1e7,inf), "by_name": [{"name", "count",
  "mean_delay_ns", "max_delay_ns", "mean_launch_ns"}] over kernels with a
  launch, sorted by mean delay desc (exact), then name}.

6. MEMCPY
  GPU activity of kind memcpy or memset grouped by (device, kind, name):
  {"device", "kind", "name", "direction" (memcpy: as in 1, of the group's
  first event in file order; memset: null), "memory": "pageable" if
  "Pageable" in name, else "pinned" if "Pinned" in name, else null, "count",
  "total_ns", "bytes": sum of args.bytes (TensorFlow: the size:N or
  num_bytes:N of args.memcpy_details and the other *_details texts) when it is
  integral on EVERY event
  of the group, else null, "bandwidth_gbps": bytes / total_ns (float) when
  bytes is not null and total_ns > 0, else null}.  Sorted by total_ns desc,
  then device, kind, name.

7. ACCOUNT (the GPUs' time over the whole trace)
  Each device listed by some step (1): "denominator" "step time";
  time_ns = sum over the steps listing it of |W| + |lead-in|;
  computation_ns / exposed_comm_ns / exposed_memcpy_ns = sums of compute /
  exposed_comm / exposed_memcpy over their breakdown and lead_in_breakdown;
  idle_by_cause = the per-cause sums (the five causes) over both; short_ns =
  the sum of their "short"; "gaps" = the device's GAPS (1) with length >=
  threshold_ns, in time order, [{"start_ns", "end_ns", "cause"}];
  "short_count" = the number of its short GAPS.
  Every other device with GPU activity (D > 0 or zero-duration) in the
  trace: "denominator" "active span"; from g's whole-trace breakdown (no
  window) and g's whole-trace gaps at threshold_ns: time_ns = total_ns and
  its computation / exposed_comm / exposed_memcpy; idle_by_cause =
  by_cause; short_ns = short_gaps.total_ns; "gaps" = g's listed gaps as
  {"start_ns", "end_ns", "cause"} (no evidence); short_count =
  short_gaps.count.
  Top level: "denominator" = "step time" when some device has it, else
  "active span"; "steps" = the number of steps when the denominator is
  "step time", else 0.
  Asserted per device: computation + exposed_comm + exposed_memcpy +
  sum(idle_by_cause) + short == time; the listed gaps' lengths summed per
  cause == idle_by_cause; the short GAPS' total == short_ns.  (For a step
  time device the last two only when its tiles do not overlap, i.e. the sum
  of their lengths == |FRAME|; they can overlap only on a "span" device
  whose steps overlap, where time_ns counts shared time once per step.)
  "account": {"denominator", "steps", "devices": [{"device", "denominator",
   "time_ns", "computation_ns", "exposed_comm_ns", "exposed_memcpy_ns",
   "idle_by_cause": {"input", "synchronization", "communication", "host",
   "other"}, "short_ns", "gaps": [{"start_ns", "end_ns", "cause"}],
   "short_count"}]} sorted by device.
"""
import argparse
import bisect
import heapq
import json
import math
import os
import re
import sys
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_gpu_analyses as g  # noqa: E402

DIRECTIONS = ("HtoD", "DtoH", "DtoD", "PtoP")
DIR_KEYS = DIRECTIONS + ("other",)
IDLE_KEYS = ("input", "synchronization", "communication", "host", "other", "short")
PARTS = ("compute", "exposed_comm", "exposed_memcpy", "idle_input", "idle_synchronization",
         "idle_communication", "idle_host", "idle_other", "idle_short")
PROFILER_STEP_RE = re.compile(r"ProfilerStep#([0-9]+)")
DIGITS_RE = re.compile(r"[0-9]+")
GPU_PROC_RE = re.compile(r"/device:GPU:([0-9]+)")
HIST_EDGES = (0, 1000, 10000, 100000, 1000000, 10000000, None)


# ---------------------------------------------------------------- helpers
def slice_interval(e):
    """(s, e) ns of a slice (ph X, finite ts, dur missing or finite >= 0), else None."""
    if e.get("ph") != "X":
        return None
    ts, dur = e.get("ts"), e.get("dur", Decimal(0))
    if not isinstance(ts, Decimal) or not ts.is_finite():
        return None
    if not isinstance(dur, Decimal) or not dur.is_finite() or dur < 0:
        return None
    s = g.to_ns(ts)
    return s, s + g.to_ns(dur)


def median(values):
    d = sorted(values)
    n = len(d)
    return d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) // 2


class Measure:
    """A merged interval list with fast |X n [w0, w1)| and clipping."""

    def __init__(self, merged):
        self.m = merged
        self.ends = [b for _, b in merged]

    def clip(self, w0, w1):
        out = []
        i = bisect.bisect_right(self.ends, w0)
        while i < len(self.m) and self.m[i][0] < w1:
            a, b = max(self.m[i][0], w0), min(self.m[i][1], w1)
            if a < b:
                out.append((a, b))
            i += 1
        return out

    def cover(self, w0, w1):
        return g.measure(self.clip(w0, w1))


def nest_parents(items):
    """items: list of (s, e, order, payload). Returns {order: parent payload or None}."""
    stack, parent = [], {}
    for s, e, order, p in sorted(items, key=lambda x: (x[0], -x[1], x[2])):
        while stack and stack[-1][1] < e:
            stack.pop()
        parent[order] = stack[-1][3] if stack else None
        stack.append((s, e, order, p))
    return parent


def direction_of(ev, name, threads):
    if isinstance(ev.get("cat"), str) and ev.get("cat") in g.KINETO:
        text = name
    else:
        text = threads.get((g.key(ev.get("pid")), g.key(ev.get("tid"))), "") or ""
    for d in DIRECTIONS:
        if d in text:
            return d
    return "other"


def fl(fr):
    return float(fr) if fr is not None else None


# ---------------------------------------------------------------- context
class Ctx:
    def __init__(self, doc, step_regex, threshold):
        self.doc = doc
        self.events = g.document_events(doc)
        self.threshold = threshold
        self.step_regex = step_regex
        self.threads, self.gpu_procs = g.tf_metadata(self.events)
        self.act = list(g.activity_events(self.events))
        self.instants = g.device_instants([x[1:] for x in self.act])
        self.hosts = g.host_slices(self.events, self.act)
        for i, h in enumerate(self.hosts):
            h["order"] = i
        self.causes = g.GapCauses(self.events, self.act, self.hosts)
        self.devices = sorted({x[1] for x in self.act})
        self._first_launch = {}

    def first_launch(self, act):
        ev, s = act[0], act[4]
        k = id(ev)
        if k not in self._first_launch:
            ls = self.causes.launches(ev, s)
            self._first_launch[k] = ls[0] if ls else None
        return self._first_launch[k]


# ---------------------------------------------------------------- 1. steps
def steps_line_slices(ctx):
    """{device: [(start, end, file order, name)]}: the slices of step rule d
    (raw dur > 0) on each GPU's thread(s) named exactly "Steps", in file order."""
    per = {}
    for i, e in enumerate(ctx.events):
        pid = g.key(e.get("pid"))
        if pid not in ctx.gpu_procs or ctx.threads.get((pid, g.key(e.get("tid")))) != "Steps":
            continue
        iv, dur = slice_interval(e), e.get("dur")
        if iv is None or not isinstance(dur, Decimal) or not dur > 0:
            continue
        per.setdefault(ctx.gpu_procs[pid], []).append((iv[0], iv[1], i, g.event_name(e)))
    return per


def find_steps(ctx):
    def finish(cands, source):
        # cands: (name, s, e, order, number or None)
        cands = [c for c in cands if c[2] > c[1]]
        if not cands:
            return None
        cands.sort(key=lambda c: (c[1], c[2], c[3]))
        steps = [{"name": c[0], "number": c[4] if c[4] is not None else i,
                  "start_ns": c[1], "end_ns": c[2]} for i, c in enumerate(cands)]
        steps.sort(key=lambda st: (st["start_ns"], st["end_ns"], st["number"]))
        return source, steps

    hosts = ctx.hosts
    if ctx.step_regex is not None:
        rx = re.compile(ctx.step_regex)
        cands = []
        for h in hosts:
            if rx.search(h["name"]):
                m = DIGITS_RE.search(h["name"])
                cands.append((h["name"], h["s"], h["e"], h["order"],
                              int(m.group(0)) if m else None))
        r = finish(cands, "regex")
        if r:
            return r
    cands = []
    for h in hosts:
        m = PROFILER_STEP_RE.fullmatch(h["name"])
        if m:
            cands.append((h["name"], h["s"], h["e"], h["order"], int(m.group(1))))
    r = finish(cands, "ProfilerStep")
    if r:
        return r
    cands = []
    for h in hosts:
        if h["name"] in ("train", "test"):
            sn = h["args"].get("step_num")
            if g.integral(sn):
                cands.append((h["name"], h["s"], h["e"], h["order"], int(sn)))
            elif isinstance(sn, str) and DIGITS_RE.fullmatch(sn):
                cands.append((h["name"], h["s"], h["e"], h["order"], int(sn)))
    r = finish(cands, "train/test")
    if r:
        return r
    per_gpu = {}
    for d, sl in steps_line_slices(ctx).items():
        per_gpu[d] = [(name, a, b, i, int(name) if DIGITS_RE.fullmatch(name) else None)
                      for a, b, i, name in sl]
    for n in sorted(per_gpu):
        r = finish(per_gpu[n], "Steps line")
        if r:
            return r
    return None, []


class DeviceSets:
    def __init__(self, ctx, dev):
        comp, comm, mem, by_dir = [], [], [], {d: [] for d in DIR_KEYS}
        for ev, d, kind, name, s, e in ctx.act:
            if d != dev or e == s:  # zero-duration activity adds no time
                continue
            if kind == "memcpy":
                mem.append((s, e))
                by_dir[direction_of(ev, name, ctx.threads)].append((s, e))
            elif kind == "kernel" and g.is_comm(name):
                comm.append((s, e))
            else:
                comp.append((s, e))
        C, M, P = g.union(comp), g.union(comm), g.union(mem)
        CM = g.union(C + M)
        self.C = Measure(C)
        self.xM = Measure(g.subtract(M, C))
        self.xP = Measure(g.subtract(P, CM))
        self.A = Measure(g.union(C + M + P))
        self.xdir, earlier = {}, CM
        for d in DIR_KEYS:
            Pd = g.union(by_dir[d])
            self.xdir[d] = Measure(g.subtract(Pd, earlier))
            earlier = g.union(earlier + Pd)


def device_gaps(ctx, dev, ds, tiles):
    """The GAPS of a device (1): [(a, b, cause)] in time order, from the
    maximal intervals of FRAME - A (FRAME = union of the tiles), each cut at
    the device's instants strictly inside it; cause decided once per gap."""
    frame = g.union([iv for iv in tiles if iv[1] > iv[0]])
    out = []
    for a, b in split_at(g.subtract(frame, ds.A.m), ctx.instants.get(dev, [])):
        cause = "short" if b - a < ctx.threshold else ctx.causes.cause(dev, a, b)[0]
        out.append((a, b, cause))
    return frame, out


def breakdown(ds, gaps, gap_ends, w0, w1):
    """Breakdown over [w0, w1) (a subset of the device's FRAME); gaps as
    device_gaps returns them, gap_ends their ends."""
    comp = ds.C.cover(w0, w1)
    xcomm = ds.xM.cover(w0, w1)
    xmem = ds.xP.cover(w0, w1)
    by_dir = {d: ds.xdir[d].cover(w0, w1) for d in DIR_KEYS}
    idle = (w1 - w0) - ds.A.cover(w0, w1)
    by_cause = {k: 0 for k in IDLE_KEYS}
    i = bisect.bisect_right(gap_ends, w0)  # the first gap ending after w0
    while i < len(gaps) and gaps[i][0] < w1:
        a, b, cause = gaps[i]
        by_cause[cause] += max(0, min(b, w1) - max(a, w0))
        i += 1
    assert comp + xcomm + xmem + idle == w1 - w0, (w0, w1)
    assert sum(by_dir.values()) == xmem, (w0, w1)
    assert sum(by_cause.values()) == idle, (w0, w1)
    return {"compute_ns": comp, "exposed_comm_ns": xcomm, "exposed_memcpy_ns": xmem,
            "memcpy_by_direction": by_dir, "idle_ns": idle, "idle_by_cause": by_cause}


def split_at(pieces, points):
    """Each piece [a, b) cut at the sorted points strictly inside it."""
    out = []
    for a, b in pieces:
        for t in points[bisect.bisect_right(points, a):bisect.bisect_left(points, b)]:
            out.append((a, t))
            a = t
        out.append((a, b))
    return out


def part_value(bd, part):
    if part.startswith("idle_"):
        return bd["idle_by_cause"][part[5:]]
    return bd[part + "_ns"]


def annotation_windows(ctx):
    """{(name, device): (min start, max end)} of the gpu_user_annotation slices."""
    windows = {}
    for e in ctx.events:
        if e.get("cat") != "gpu_user_annotation":
            continue
        iv = slice_interval(e)
        if iv is None:
            continue
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        if g.integral(args.get("device")):
            dev = int(args["device"])
        elif g.integral(e.get("pid")):
            dev = int(e["pid"])
        else:
            continue
        k = (g.event_name(e), dev)
        w = windows.get(k)
        windows[k] = iv if w is None else (min(w[0], iv[0]), max(w[1], iv[1]))
    return windows


def step_work(ctx, steps):
    """([{device: ((start, end), work_from)}] per step, broken annotations)."""
    annotated = annotation_windows(ctx)
    starts = [st["start_ns"] for st in steps]
    launched = [{} for _ in steps]  # step index -> {device: (min start, max end)}
    for a in ctx.act:
        L = ctx.first_launch(a)
        if L is None:
            continue
        i = bisect.bisect_right(starts, L["s"]) - 1  # the last step starting at or before
        if i < 0 or L["s"] >= steps[i]["end_ns"]:
            continue
        w = launched[i].get(a[1])
        launched[i][a[1]] = (a[4], a[5]) if w is None else (min(w[0], a[4]), max(w[1], a[5]))
    work, broken = [], []
    for i, st in enumerate(steps):
        wk = {}
        for d in ctx.devices:
            A, L = annotated.get((st["name"], d)), launched[i].get(d)
            if A is not None and (L is None or (A[0] <= L[0] and L[1] <= A[1])):
                wk[d] = (A, "annotation")
            elif L is not None:
                wk[d] = (L, "launched")
                if A is not None:  # an annotation that does not hold what the step launched
                    broken.append({"i": i, "step": st["number"], "device": d,
                                   "annotation": {"start_ns": A[0], "end_ns": A[1]},
                                   "launched": {"start_ns": L[0], "end_ns": L[1]}})
        work.append(wk)
    broken.sort(key=lambda b: (starts[b["i"]], b["device"], b["i"]))
    for b in broken:
        del b["i"]
    return work, broken


def steps_line_devices(ctx):
    """The GPU numbers of the processes with a thread named exactly "Steps"."""
    return sorted({ctx.gpu_procs[pid] for (pid, _), name in ctx.threads.items()
                   if name == "Steps" and pid in ctx.gpu_procs})


def own_steps_lines(ctx):
    """{device: {number: (start, end)}}: each GPU's own Steps line, numbered
    as rule d numbers the slices (int(name), else the ordinal on that line in
    (start, end, file order)); the first of each number kept."""
    out = {}
    for d, sl in steps_line_slices(ctx).items():
        sl = sorted(sl)
        nums = {}
        for k, (a, b, _, name) in enumerate(sl):
            num = int(name) if DIGITS_RE.fullmatch(name) else k
            nums.setdefault(num, (a, b))
        out[d] = nums
    return out


def step_tiles(ctx, source, steps, work):
    """[{device: (l0, w0, w1, window_from)}] per step: lead-in [l0, w0),
    window [w0, w1)."""
    out = [{} for _ in steps]
    def span_tile(a, b, prev):  # a span as a window, never before the previous one's end
        w0 = a if prev is None else max(a, prev)
        return (w0, w0, max(b, w0), "span")
    if source == "Steps line":
        lines = own_steps_lines(ctx)
        for d in steps_line_devices(ctx):
            prev = None
            for i, st in enumerate(steps):
                sp = lines.get(d, {}).get(st["number"])
                if sp is None:
                    continue
                out[i][d] = span_tile(sp[0], sp[1], prev)
                prev = out[i][d][2]
        return out
    for d in ctx.devices:
        known = any(d in wk for wk in work)
        prev = None
        for i, st in enumerate(steps):
            s, e = st["start_ns"], st["end_ns"]
            if not known:
                out[i][d] = span_tile(s, e, prev)
                prev = out[i][d][2]
                continue
            x = work[i].get(d)
            if prev is not None:
                l0 = prev
            else:
                l0 = min(s, x[0][0]) if x else s
            if x:
                w0, w1, frm = max(x[0][0], l0), max(x[0][1], l0), x[1]
            else:
                w0 = w1 = max(e, l0)
                frm = "cpu"
            out[i][d] = (l0, w0, w1, frm)
            prev = w1
    return out


def steps_section(ctx):
    """(steps output, broken annotations, {device: (frame, gaps)})."""
    source, steps = find_steps(ctx)
    work, broken = step_work(ctx, steps)
    tiles = step_tiles(ctx, source, steps, work)
    listed = sorted({d for t in tiles for d in t})
    dsets = {d: DeviceSets(ctx, d) for d in listed}
    frames = {}
    for d in listed:
        ivs = []
        for t in tiles:
            if d in t:
                l0, w0, w1, _ = t[d]
                ivs += [(l0, w0), (w0, w1)]
        frame, gaps = device_gaps(ctx, d, dsets[d], ivs)
        frames[d] = (frame, gaps, sum(b - a for a, b in ivs))
    for i, st in enumerate(steps):
        st["duration_ns"] = st["end_ns"] - st["start_ns"]
        st["devices"] = []
        for d in sorted(tiles[i]):
            l0, w0, w1, frm = tiles[i][d]
            gaps = frames[d][1]
            ends = [b for _, b, _ in gaps]
            st["devices"].append({
                "device": d, "gpu_window": {"start_ns": w0, "end_ns": w1},
                "lead_in": {"start_ns": l0, "end_ns": w0}, "window_from": frm,
                "breakdown": breakdown(dsets[d], gaps, ends, w0, w1),
                "lead_in_breakdown": breakdown(dsets[d], gaps, ends, l0, w0)})
    med = median([st["duration_ns"] for st in steps]) if steps else None

    def parts(st):
        d = st["devices"][0]
        return {p: part_value(d["breakdown"], p) + part_value(d["lead_in_breakdown"], p)
                for p in PARTS}
    # The medians over every step, a step that lists no device counting 0
    # for each part (a Steps line's step some GPU's own line lacks).
    part_med = None
    if any(st["devices"] for st in steps):
        values = [parts(st) if st["devices"] else {p: 0 for p in PARTS} for st in steps]
        part_med = {p: median([v[p] for v in values]) for p in PARTS}
    out = []
    for st in steps:
        slow = 2 * st["duration_ns"] > 3 * med
        because = grew = None
        if slow:
            if st["devices"]:
                pv = parts(st)
                for p in PARTS:
                    gr = pv[p] - part_med[p]
                    if grew is None or gr > grew:
                        because, grew = p, gr
                excess = st["duration_ns"] - med
                if 2 * grew < excess:  # the GPU time explains less than half
                    because, grew = "cpu", excess
            else:
                because, grew = "cpu", st["duration_ns"] - med
        out.append({"name": st["name"], "number": st["number"], "start_ns": st["start_ns"],
                    "end_ns": st["end_ns"], "duration_ns": st["duration_ns"], "slow": slow,
                    "slower_because": because, "grew_by_ns": grew, "devices": st["devices"]})
    return {"source": source, "median_duration_ns": med, "steps": out}, broken, frames


# ---------------------------------------------------------------- 2. memory
def memory_section(ctx, steps):
    kin = {}  # devkey -> list of (ts, order, args)
    for i, e in enumerate(ctx.events):
        if e.get("name") != "[memory]":
            continue
        ts, args = e.get("ts"), e.get("args")
        if not isinstance(ts, Decimal) or not ts.is_finite() or not isinstance(args, dict):
            continue
        dt, di = args.get("Device Type"), args.get("Device Id")
        if not (g.integral(dt) and g.integral(di)):
            continue
        if dt == 0:
            dk = ("CPU", -1)
        elif dt > 0:
            dk = ("GPU", int(di))  # every other type is device memory (CUDA 1, others)
        else:
            continue
        kin.setdefault(dk, []).append((g.to_ns(ts), i, args))
    gpu_keys = {dk for dk in kin if dk[0] == "GPU"}
    if len(ctx.devices) == 1 and len(gpu_keys) == 1:
        (_, m), = gpu_keys
        if m != ctx.devices[0]:  # one GPU, its curves under the process's own ordinal
            kin[("GPU", ctx.devices[0])] = kin.pop(("GPU", m))
    curves = {}  # devkey -> (relative, [(ts, alloc, reserved or None)])
    for dk, evs in kin.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        absolute = [x for x in evs if g.integral(x[2].get("Total Allocated"))]
        if absolute:
            pts = []
            for ts, _, a in absolute:
                r = a.get("Total Reserved")
                pts.append((ts, int(a["Total Allocated"]), int(r) if g.integral(r) else None))
            curves[dk] = (False, pts)
        else:
            rel = [x for x in evs if g.integral(x[2].get("Bytes"))]
            if rel:
                pts, tot = [], 0
                for ts, _, a in rel:
                    tot += int(a["Bytes"])
                    pts.append((ts, tot, None))
                curves[dk] = (True, pts)
    tf = {}
    for i, e in enumerate(ctx.events):
        if e.get("ph") != "C" or e.get("name") != "Memory Usage":
            continue
        pid = g.key(e.get("pid"))
        if pid not in ctx.gpu_procs:
            continue
        ts, args = e.get("ts"), e.get("args")
        if not isinstance(ts, Decimal) or not ts.is_finite() or not isinstance(args, dict):
            continue
        a, r = args.get("bytes_in_use"), args.get("bytes_reserved")
        if not g.integral(a):
            continue
        tf.setdefault(("GPU", ctx.gpu_procs[pid]), []).append(
            (g.to_ns(ts), i, int(a), int(r) if g.integral(r) else None))
    for dk, pts in tf.items():
        if dk not in curves:
            pts.sort(key=lambda x: (x[0], x[1]))
            curves[dk] = (False, [(t, a, r) for t, _, a, r in pts])
    props = {}
    dp = ctx.doc.get("deviceProperties") if isinstance(ctx.doc, dict) else None
    if isinstance(dp, list):
        for p in dp:
            if isinstance(p, dict) and g.integral(p.get("id")) and int(p["id"]) not in props:
                tg = p.get("totalGlobalMem")
                props[int(p["id"])] = int(tg) if g.integral(tg) else None
    rows = []
    for dk in sorted(curves, key=lambda k: (k[0] != "GPU", k[1])):
        relative, pts = curves[dk]
        ts_list = [p[0] for p in pts]
        peak = max(p[1] for p in pts)
        peak_t = next(p[0] for p in pts if p[1] == peak)
        res = [p[2] for p in pts if p[2] is not None]
        devmem = props.get(dk[1]) if dk[0] == "GPU" else None
        shared = {v for v in props.values() if v is not None}
        if dk[0] == "GPU" and devmem is None and len(shared) == 1:
            devmem = next(iter(shared))
        per_step = []
        for st in steps:
            s, e = st["start_ns"], st["end_ns"]
            vals = [p[1] for p in pts[bisect.bisect_left(ts_list, s):bisect.bisect_left(ts_list, e)]]
            i0 = bisect.bisect_right(ts_list, s) - 1
            if i0 >= 0:
                vals.append(pts[i0][1])
            per_step.append(max(vals) if vals else None)
        rows.append({"device": dk[1], "kind": "gpu" if dk[0] == "GPU" else "cpu",
                     "relative": relative, "peak_allocated_bytes": peak, "peak_time_ns": peak_t,
                     "peak_reserved_bytes": max(res) if res else None,
                     "device_memory_bytes": devmem,
                     "peak_share": float(Fraction(peak, devmem)) if devmem else None,
                     "per_step_peak": per_step, "growth_bytes_per_step": growth(per_step)})
    return {"devices": rows}


def growth(per_step):
    xy = [(i, y) for i, y in enumerate(per_step) if y is not None]
    n = len(xy)
    if n < 4:
        return None
    mx = Fraction(sum(x for x, _ in xy), n)
    my = Fraction(sum(y for _, y in xy), n)
    sxx = sum((x - mx) ** 2 for x, _ in xy)
    sxy = sum((x - mx) * (y - my) for x, y in xy)
    syy = sum((y - my) ** 2 for _, y in xy)
    if syy == 0:
        return None
    b = sxy / sxx
    r2 = sxy * sxy / (sxx * syy)
    return float(b) if b > 0 and r2 >= Fraction(9, 10) else None


# ---------------------------------------------------------------- 3. pipeline
def pipeline_section(ctx, steps, account):
    by_thread = {}
    for h in ctx.hosts:
        if h["name"].startswith("Iterator::"):
            by_thread.setdefault((h["pid"], h["tid"]), []).append(h)
    stages = {}
    for hs in by_thread.values():
        parent = nest_parents([(h["s"], h["e"], h["order"], h) for h in hs])
        child_sum = {}
        for h in hs:
            p = parent[h["order"]]
            if p is not None:
                child_sum[p["order"]] = child_sum.get(p["order"], 0) + (h["e"] - h["s"])
        for h in hs:
            st = stages.setdefault(h["name"], [0, 0, 0])
            st[0] += 1
            st[1] += h["e"] - h["s"]
            st[2] += (h["e"] - h["s"]) - child_sum.get(h["order"], 0)
    tot_self = sum(v[2] for v in stages.values())
    stage_rows = [{"name": n, "calls": v[0], "inclusive_ns": v[1], "self_ns": v[2],
                   "share": float(Fraction(v[2], tot_self)) if tot_self else None}
                  for n, v in stages.items()]
    stage_rows.sort(key=lambda r: (-r["self_ns"], r["name"]))
    checks = None
    if stages:
        comps = [n.split("::") for n in stages]
        checks = {"missing_prefetch": not any("Prefetch" in c for c in comps),
                  "sequential_map": any(c[-1] == "Map" for c in comps),
                  "no_cache": not any("Cache" in x for c in comps for x in c)}
    get_next = [h for h in ctx.hosts if h["name"].startswith("IteratorGetNext")]
    dls = [h for h in ctx.hosts if "DataLoader" in h["name"] and "__next__" in h["name"]]
    dataloader = None
    if dls:
        names = [h["name"] for h in dls]
        kind = None
        if any("_SingleProcessDataLoaderIter" in n for n in names):
            kind = "single-process"
        elif any("_MultiProcessingDataLoaderIter" in n for n in names):
            kind = "worker processes"
        pin = any(e.get("ph") == "M" and e.get("name") == "thread_name"
                  and isinstance(e.get("args"), dict) and isinstance(e["args"].get("name"), str)
                  and "pin_memory" in e["args"]["name"].lower() for e in ctx.events)
        dataloader = {"calls": len(dls), "total_ns": sum(h["e"] - h["s"] for h in dls),
                      "kind": kind, "pin_memory_thread": pin}
    wait = Measure(g.union([(h["s"], h["e"]) for h in dls + get_next if h["e"] > h["s"]]))
    per_step = []
    for st in steps:
        w = wait.cover(st["start_ns"], st["end_ns"])
        per_step.append({"number": st["number"], "host_wait_ns": w,
                         "host_share": float(Fraction(w, st["duration_ns"]))})
    if steps:
        host_wait = sum(p["host_wait_ns"] for p in per_step)
        host_time = sum(st["duration_ns"] for st in steps)
    else:
        starts = [h["s"] for h in ctx.hosts] + [x[4] for x in ctx.act]
        ends = [h["e"] for h in ctx.hosts] + [x[5] for x in ctx.act]
        if starts:
            s0, s1 = min(starts), max(ends)
            host_time, host_wait = s1 - s0, wait.cover(s0, s1)
        else:
            host_time = host_wait = 0
    if account["devices"]:
        source, denominator = "gpu", account["denominator"]
        if len({d["denominator"] for d in account["devices"]}) > 1:
            denominator = "step time and active spans"  # summed over GPUs of both kinds
        wait_ns = sum(d["idle_by_cause"]["input"] for d in account["devices"])
        time_ns = sum(d["time_ns"] for d in account["devices"])
    else:
        source, denominator = "host", "step time" if steps else "active span"
        wait_ns, time_ns = host_wait, host_time
    share = Fraction(wait_ns, time_ns) if time_ns > 0 else None
    verdict = None
    if time_ns > 0:
        verdict = ("highly input-bound" if 5 * wait_ns >= time_ns else
                   "moderately input-bound" if 20 * wait_ns >= time_ns else "not input-bound")
    return {"verdict": verdict, "input_share": fl(share), "input_wait_ns": wait_ns,
            "time_ns": time_ns, "denominator": denominator, "from": source,
            "host_wait_ns": host_wait, "host_time_ns": host_time, "stages": stage_rows,
            "get_next_ns": sum(h["e"] - h["s"] for h in get_next), "checks": checks,
            "dataloader": dataloader, "per_step": per_step}


# ---------------------------------------------------------------- 4. ops
def ops_section(ctx, steps):
    by_thread = {}
    for h in ctx.hosts:
        by_thread.setdefault((h["pid"], h["tid"]), []).append(h)
    ops = [h for h in ctx.hosts if h["cat"] in ("cpu_op", "Operator")
           and not h["name"].startswith("ProfilerStep#")]
    op_ids = {h["order"] for h in ops}
    child_sum = {}
    for hs in by_thread.values():
        parent = nest_parents([(h["s"], h["e"], h["order"], h) for h in hs])
        for h in hs:
            p = parent[h["order"]]
            if p is not None and p["order"] in op_ids:
                child_sum[p["order"]] = child_sum.get(p["order"], 0) + (h["e"] - h["s"])
    # every GPU activity with a launch call: find host ops containing L
    queries = {}  # thread -> list of (L.s, L.e, act index)
    for i, a in enumerate(ctx.act):
        L = ctx.first_launch(a)
        if L is not None:
            queries.setdefault((L["pid"], L["tid"]), []).append((L["s"], L["e"], i))
    ops_by_thread = {}
    for h in ops:
        ops_by_thread.setdefault((h["pid"], h["tid"]), []).append(h)
    gpu = {}          # op order -> gpu ns
    innermost = {}    # act index -> op
    for th, qs in queries.items():
        tops = sorted(ops_by_thread.get(th, []), key=lambda h: (h["s"], h["order"]))
        qs.sort()
        heap, j = [], 0
        for ls, le, i in qs:
            while j < len(tops) and tops[j]["s"] <= ls:
                heapq.heappush(heap, (tops[j]["e"], tops[j]["order"], tops[j]))
                j += 1
            while heap and heap[0][0] < ls:
                heapq.heappop(heap)
            a = ctx.act[i]
            best = None
            for oe, _, op in heap:
                if oe >= le:
                    gpu[op["order"]] = gpu.get(op["order"], 0) + (a[5] - a[4])
                    k = (op["e"] - op["s"], -op["s"], -op["order"])
                    if best is None or k < best[0]:
                        best = (k, op)
            if best is not None:
                innermost[i] = best[1]
    agg = {}
    for h in ops:
        r = agg.setdefault(h["name"], [0, 0, 0, 0])
        d = h["e"] - h["s"]
        r[0] += 1
        r[1] += d
        r[2] += d - child_sum.get(h["order"], 0)
        r[3] += gpu.get(h["order"], 0)
    for e in ctx.events:
        pid = g.key(e.get("pid"))
        if pid not in ctx.gpu_procs or \
                ctx.threads.get((pid, g.key(e.get("tid")))) != "TensorFlow Ops":
            continue
        iv = slice_interval(e)
        if iv is None:
            continue
        d = iv[1] - iv[0]
        r = agg.setdefault(g.event_name(e), [0, 0, 0, 0])
        r[0] += 1
        r[1] += d
        r[2] += d
        r[3] += d
    step_total = sum(st["duration_ns"] for st in steps)
    rows = [{"name": n, "count": v[0], "inclusive_ns": v[1], "self_ns": v[2], "gpu_ns": v[3],
             "share_of_step_time": float(Fraction(v[1], step_total)) if step_total else None}
            for n, v in agg.items()]
    rows.sort(key=lambda r: (-r["gpu_ns"], -r["self_ns"], r["name"]))
    counts = {}
    for i, a in enumerate(ctx.act):
        if a[2] != "kernel":
            continue
        c = counts.setdefault(a[3], {})
        if i in innermost:
            n = innermost[i]["name"]
            c[n] = c.get(n, 0) + 1
    launchers = []
    for kname in sorted(counts):
        c = counts[kname]
        best = min(c.items(), key=lambda x: (-x[1], x[0]))[0] if c else None
        launchers.append({"name": kname, "launched_by": best})
    return rows, launchers


# ---------------------------------------------------------------- 5. launch
def launch_section(ctx):
    kernels = [a for a in ctx.act if a[2] == "kernel"]
    delays, launches, by_name = [], [], {}
    for a in kernels:
        L = ctx.first_launch(a)
        if L is None:
            continue
        d, ld = max(0, a[4] - L["e"]), L["e"] - L["s"]
        delays.append(d)
        launches.append(ld)
        by_name.setdefault(a[3], []).append((d, ld))

    def summary(v):
        if not v:
            return None
        st = g.stats(v)
        return {"mean": st["mean_ns"], "median": st["median_ns"], "p95": st["p95_ns"],
                "max": st["max_ns"]}
    n = len(kernels)
    short = [a[5] - a[4] for a in kernels if a[5] - a[4] < 10000]
    total = sum(a[5] - a[4] for a in kernels)
    hist = []
    for lo, hi in zip(HIST_EDGES, HIST_EDGES[1:]):
        hist.append({"from_ns": lo, "to_ns": hi,
                     "count": sum(1 for d in delays if d >= lo and (hi is None or d < hi))})
    names = []
    for name, v in by_name.items():
        md = Fraction(sum(x[0] for x in v), len(v))
        names.append((-md, name, {"name": name, "count": len(v), "mean_delay_ns": float(md),
                                  "max_delay_ns": max(x[0] for x in v),
                                  "mean_launch_ns": float(Fraction(sum(x[1] for x in v), len(v)))}))
    names.sort(key=lambda x: (x[0], x[1]))
    return {"kernels": n, "kernels_with_launch": len(delays), "delay_ns": summary(delays),
            "launch_ns": summary(launches),
            "short_kernels": {"count": len(short),
                              "share": float(Fraction(len(short), n)) if n else None,
                              "time_share": float(Fraction(sum(short), total)) if total else None},
            "histogram": hist, "by_name": [x[2] for x in names]}


# ---------------------------------------------------------------- 6. memcpy
TF_DETAILS = ("memcpy_details", "memset_details", "Memset_details", "memalloc_details")


def tensorflow_detail_bytes(args):
    """TensorFlow's trace-viewer JSON states a copy's size in a details text:
    "kind_src:pinned kind_dst:device size:4816896 ..." (or num_bytes:N)."""
    for key in TF_DETAILS:
        text = args.get(key)
        if not isinstance(text, str):
            continue
        fields = dict(tok.split(":", 1) for tok in text.split(" ") if ":" in tok)
        for name in ("size", "num_bytes"):
            value = fields.get(name, "")
            if re.fullmatch(r"-?[0-9]+", value):
                return Decimal(value)
        return None
    return None


def memcpy_section(ctx):
    groups = {}
    for ev, dev, kind, name, s, e in ctx.act:
        if kind not in ("memcpy", "memset"):
            continue
        gr = groups.get((dev, kind, name))
        if gr is None:
            gr = groups[(dev, kind, name)] = {
                "direction": direction_of(ev, name, ctx.threads) if kind == "memcpy" else None,
                "count": 0, "total": 0, "bytes": 0}
        gr["count"] += 1
        gr["total"] += e - s
        args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
        b = args.get("bytes")
        if b is None:
            b = tensorflow_detail_bytes(args)
        if gr["bytes"] is not None and g.integral(b):
            gr["bytes"] += int(b)
        else:
            gr["bytes"] = None
    rows = []
    for (dev, kind, name), gr in groups.items():
        mem = "pageable" if "Pageable" in name else "pinned" if "Pinned" in name else None
        bw = float(Fraction(gr["bytes"], gr["total"])) \
            if gr["bytes"] is not None and gr["total"] > 0 else None
        rows.append({"device": dev, "kind": kind, "name": name, "direction": gr["direction"],
                     "memory": mem, "count": gr["count"], "total_ns": gr["total"],
                     "bytes": gr["bytes"], "bandwidth_gbps": bw})
    rows.sort(key=lambda r: (-r["total_ns"], r["device"], r["kind"], r["name"]))
    return rows


# ---------------------------------------------------------------- 7. account
def account_section(ctx, steps, frames):
    per = {}  # device -> row
    for st in steps:
        for d in st["devices"]:
            r = per.setdefault(d["device"], {
                "device": d["device"], "denominator": "step time", "time_ns": 0,
                "computation_ns": 0, "exposed_comm_ns": 0, "exposed_memcpy_ns": 0,
                "idle_by_cause": {c: 0 for c in g.CAUSES}, "short_ns": 0})
            r["time_ns"] += d["gpu_window"]["end_ns"] - d["lead_in"]["start_ns"]
            for bd in (d["lead_in_breakdown"], d["breakdown"]):
                r["computation_ns"] += bd["compute_ns"]
                r["exposed_comm_ns"] += bd["exposed_comm_ns"]
                r["exposed_memcpy_ns"] += bd["exposed_memcpy_ns"]
                for c in g.CAUSES:
                    r["idle_by_cause"][c] += bd["idle_by_cause"][c]
                r["short_ns"] += bd["idle_by_cause"]["short"]
    checked = set()
    for dev, r in per.items():
        frame, gaps, tiles_len = frames[dev]
        r["gaps"] = [{"start_ns": a, "end_ns": b, "cause": c} for a, b, c in gaps if c != "short"]
        r["short_count"] = sum(1 for _, _, c in gaps if c == "short")
        if tiles_len == g.measure(frame):  # the tiles do not overlap
            checked.add(dev)
            assert sum(b - a for a, b, c in gaps if c == "short") == r["short_ns"], dev
    rest = [d for d in ctx.devices if d not in per]
    if rest:
        acts = [x[1:] for x in ctx.act]
        whole = {b["device"]: b for b in g.device_breakdown(acts, ctx.instants, -math.inf, math.inf)}
        gaps = {r["device"]: r for r in g.gap_analysis(
            ctx.events, ctx.act, ctx.instants, -math.inf, math.inf, ctx.threshold)["devices"]}
        assert sorted(gaps) == sorted(whole) == ctx.devices
        for dev in rest:
            b, gp = whole[dev], gaps[dev]
            per[dev] = {
                "device": dev, "denominator": "active span", "time_ns": b["total_ns"],
                "computation_ns": b["computation_ns"], "exposed_comm_ns": b["exposed_comm_ns"],
                "exposed_memcpy_ns": b["exposed_memcpy_ns"],
                "idle_by_cause": {c: gp["by_cause"][c] for c in g.CAUSES},
                "short_ns": gp["short_gaps"]["total_ns"],
                "gaps": [{"start_ns": x["start_ns"], "end_ns": x["end_ns"], "cause": x["cause"]}
                         for x in gp["gaps"]],
                "short_count": gp["short_gaps"]["count"]}
            checked.add(dev)
    rows = [per[d] for d in sorted(per)]
    for r in rows:
        assert r["computation_ns"] + r["exposed_comm_ns"] + r["exposed_memcpy_ns"] + \
            sum(r["idle_by_cause"].values()) + r["short_ns"] == r["time_ns"], r["device"]
        if r["device"] in checked:
            listed = {c: 0 for c in g.CAUSES}
            for x in r["gaps"]:
                assert x["end_ns"] - x["start_ns"] >= ctx.threshold, r["device"]
                listed[x["cause"]] += x["end_ns"] - x["start_ns"]
            assert listed == r["idle_by_cause"], r["device"]
    denominator = "step time" if any(r["denominator"] == "step time" for r in rows) \
        else "active span"
    return {"denominator": denominator,
            "steps": len(steps) if denominator == "step time" else 0, "devices": rows}


def analyse(doc, step_regex=None, threshold=100000):
    ctx = Ctx(doc, step_regex, threshold)
    steps, broken, frames = steps_section(ctx)
    st = steps["steps"]
    ops, launchers = ops_section(ctx, st)
    account = account_section(ctx, st, frames)
    return {"steps": steps, "broken_step_annotations": broken,
            "memory": memory_section(ctx, st), "account": account,
            "pipeline": pipeline_section(ctx, st, account), "ops": ops,
            "kernel_launchers": launchers, "launch": launch_section(ctx),
            "memcpy": memcpy_section(ctx)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--step-regex", help="host slices matching re.search(RE) are steps")
    ap.add_argument("--min-gap-us", type=g.parse_us, default=Decimal(100),
                    help="idle intervals shorter than this (us) are 'short' (default 100)")
    ap.add_argument("--out", help="write JSON here instead of stdout")
    a = ap.parse_args()
    if a.step_regex is not None:
        try:
            re.compile(a.step_regex)
        except re.error as exc:
            ap.error("--step-regex: %s" % exc)
    result = analyse(g.load_document(a.trace), a.step_regex, g.to_ns(a.min_gap_us))
    text = json.dumps(result, indent=1) + "\n"
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
