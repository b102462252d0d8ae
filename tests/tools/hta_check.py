#!/usr/bin/env python3
"""Holistic Trace Analysis (HTA 0.5.0) run beside Gapscope as an oracle
(CTest `hta_agrees`).

Usage: hta_check.py --cli GAPSCOPE_CLI --out WORKDIR [--hta DIR] [--verbose]
                    TRACE_OR_DIR...

Each input is a Kineto (PyTorch profiler) trace file, linked alone into a
folder under WORKDIR so that HTA reads it as one rank, or a folder of rank
files (HTA's `TraceAnalysis(trace_dir=...)` reads every *.json(.gz) in it,
one rank each, numbered by its distributedInfo). HTA runs in this process
(its source: --hta, default $GAPSCOPE_SHARED_DIR or ../shared beside the
checkout, then peers/hta) with HTA_DISABLE_NS_ROUNDING=1 and
include_last_profiler_step=True. When GAPSCOPE_SHARED_DIR is set, an input
path holding "/traces/" and an --hta path holding "/peers/" are read under
it (as the suites find ../shared). Gapscope runs as `gapscope-cli
timeline|kernels|gaps FILE --format json` (`gaps` with --active-span) on each rank's file (index cache
in WORKDIR/cache), beside HTA's parsing.

Figures compared, per rank (times in ns; HTA's microseconds x 1000, exactly)
  temporal  HTA get_temporal_breakdown against `timeline` (the active span,
            also for a trace with ProfilerSteps): idle = idle_ns, compute =
            computation_ns, non_compute = exposed_comm_ns + exposed_memcpy_ns
            (busy - computation), span (HTA's kernel_time) = total_ns. Only
            for a rank whose GPU work is on one device (HTA adds a rank's
            devices together; Gapscope gives one row per device).
  overlap   HTA get_comm_comp_overlap (the ratio it computes, not the
            percentage it rounds to 2 decimals for display) against
            `timeline`'s comm_overlap, where either side has communication.
  idle      HTA get_idle_time_breakdown (its default kernel-wait threshold 30
            in the trace's unit, i.e. 30 us) against `gaps --min-gap-us 0
            --active-span`:
            host_wait against the gaps whose cause is `host`, other (HTA's
            kernel wait + other) against the other causes, total against all
            gaps. Only where the device has a single stream (HTA splits by
            stream, Gapscope by device).
  kernel    HTA get_gpu_kernel_breakdown (every name, no "others" row)
            against `kernels`, per name: count (HTA's sum / mean), sum, min,
            max, mean, std (sample). HTA groups by the name as written,
            Gapscope by the demangled name: mangled names are demangled with
            c++filt here (not compared without it). Names only HTA lists (its
            memcpy and memset rows, cuda_sync records) are counted in a note,
            not compared: Gapscope's kernels are kernels (its `memcpy` lists
            the rest). By default the table prints the kernel figures that do
            not simply agree and a count of those that do (--verbose: all).
  rows      the records this script expects in HTA's table for the rank (those
            with a stream, and each one's index_correlation) against HTA's
            table: the shares below are only as good as this reading of HTA,
            so it is checked, not assumed.

Named differences. The script reads each trace itself (decimal.Decimal, exact
ns), builds the records as Gapscope defines them (docs/analyses.md) and turns
them, one named difference at a time, into the records HTA uses; a figure's
change at each step is that difference's share, recomputed on every trace,
never a blanket skip. A figure passes when HTA - Gapscope - (sum of shares)
is within the tolerance below; else it DIFFERs (exit 1).
  memset      definition   memsets are computation in Gapscope (as TraceLens
                           counts them), memory (non-compute) in HTA
                           (docs/analyses.md, GPU time breakdown)
  name_class  definition   HTA classes GPU records by name alone:
                           communication ^nccl.*Kernel, memory ^Memcpy|^Memset
                           |^dma, not compute a name containing Memcpy or
                           Sync, and its kernel table leaves the latter out;
                           Gapscope classes by category, communication by
                           nccl/rccl/cross_device_reduce anywhere or hccl first
  cuda_sync   HTA fault    cuda_sync records that carry a stream (Stream Sync,
                           Stream Wait Event, ...) are GPU work for HTA,
                           "Stream Wait Event" even computation and a kernel
  stream_arg  HTA fault    host records that carry a stream argument (the
                           cpu_op of torch.compile's Triton launch) are GPU
                           work, and kernels, for HTA
  no_stream   definition   GPU records without an integer stream argument are
                           not GPU work for HTA
  step_filter HTA choice   with two or more ProfilerStep names HTA keeps a GPU
                           record once per CPU record that shares its
                           correlation id and starts by the last step's end
                           (HTA 0.5.0 compares the aligned start with the
                           unaligned "end" column, so every CPU record
                           qualifies): GPU records without a launch call (the
                           work in flight when the profiler started) are
                           dropped
  cause_order definition   Gapscope gives a gap the first cause that holds,
                           input, synchronization and communication before
                           host (docs/analyses.md, Idle gaps); HTA's host wait
                           is any gap whose next record was launched after the
                           gap began
  no_launch   HTA fault    HTA joins a GPU record without a launch call to the
                           first row of its table, whose start is then taken
                           for its launch time
  sequence    definition   HTA measures a stream's idle time from each
                           record's predecessor in start order; Gapscope
                           between the busy intervals of the device's union
  step_time   definition   where the trace has steps Gapscope's gaps are those
                           of its GPU time account's step time (the steps'
                           lead-ins and GPU windows), HTA's those of the active
                           span; the script asks for `gaps --active-span`
                           (HTA's time), so this share is 0 unless that flag
                           stops working
  float_us    HTA precision HTA keeps the trace's microseconds as float64: a
                           timestamp with decimals is off by up to half an ulp
                           (about 0.5 ns near 4e12 us, 125 ns near 1.7e15 us).
                           The share is HTA's figure computed here with HTA's
                           float64 operations minus the exact one; 0 on traces
                           with integer microseconds
Tolerance: only the float64 rounding of HTA's sums, whose order (numpy's)
the script does not copy: none where every term is a multiple of 2^-k and
every partial sum fits 53 bits (integer microseconds; timestamps at their
own ulp), else (terms + 2) x 2^-53 x the sum of their magnitudes; the mean
and the overlap ratio a few ulps for the division and the JSON; the sample
standard deviation 1e-9 relative. Shares under 0.5 ns (1e-9 of a ratio) are
not listed: the verdict then reads "agree (HTA's float64: ...)". A 1 ns
change of any Gapscope figure fails.

HTA's display rounding is bypassed, not its arithmetic: the overlap is read
with communication_analysis.round made the identity, the idle breakdown from
_analyze_idle_time_for_stream's result (HTA rounds both for display).

Output: per input a table (trace, rank, figure, HTA, Gapscope, HTA-Gapscope,
verdict) with every excused share and every difference, notes on what was
not compared and why, HTA's time; WORKDIR/hta_check.tsv holds every row.
Exit 0 when every compared figure agrees or differs only by named shares; 1
on any other difference, a Gapscope or HTA failure or a failed rows check;
77 when an input, HTA's source or HTA's dependencies (Debian:
python3-pandas python3-numpy python3-plotly python3-networkx python3-ijson
python3-yaml python3-psutil) are absent, unless GAPSCOPE_REQUIRE_INPUTS=1
(then 1).
"""
import argparse
import bisect
import collections
import decimal
import gzip
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from decimal import Decimal

decimal.getcontext().prec = 80

CAUSES = collections.OrderedDict([
    ("memset", ("definition", "memsets are computation in Gapscope, memory in HTA")),
    ("name_class", ("definition", "HTA classes GPU records by name alone")),
    ("cuda_sync", ("HTA fault", "cuda_sync records with a stream are GPU work for HTA")),
    ("stream_arg", ("HTA fault", "host records with a stream argument are GPU work for HTA")),
    ("no_stream", ("definition", "GPU records without an integer stream are not GPU work for HTA")),
    ("step_filter", ("HTA choice", "GPU records kept once per CPU record sharing the correlation")),
    ("cause_order", ("definition", "Gapscope tests input, synchronization, communication before host")),
    ("no_launch", ("HTA fault", "a record without a launch call joined to the table's first row")),
    ("sequence", ("definition", "HTA's per-record intervals on a stream vs the union's gaps")),
    ("step_time", ("definition", "Gapscope's gaps are of the step time where there are steps")),
    ("float_us", ("HTA precision", "HTA's microseconds are float64")),
])

GS_KERNEL_CATS = {"kernel", "Kernel"}
GS_MEMCPY_CATS = {"gpu_memcpy", "Memcpy"}
GS_MEMSET_CATS = {"gpu_memset", "Memset"}
HTA_IDLE_CATS = {"kernel", "Kernel", "gpu_memset", "Memset", "gpu_memcpy", "Memcpy", "mtia_ccp_events"}
HTA_COMM_RE = re.compile(r"^nccl.*Kernel")
HTA_MEMORY_RE = re.compile(r"(^Memcpy)|(^Memset)|(^dma)")
HTA_NOT_COMPUTE_RE = re.compile(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)")
GS_COMM_RE = re.compile(r"nccl|rccl|cross_device_reduce", re.IGNORECASE)
IDLE_CAPTURE = []  # HTA's per-stream idle figures, before its display rounding
KERNEL_WAIT_US = 30  # HTA's consecutive_kernel_delay default, in the trace's unit (us)
EPS = 2.0 ** -53
GS_CLASS = {"kernel": "comp", "memset": "comp", "comm": "comm", "memcpy": "other"}
HTA_CLASS = {"COMPUTATION": "comp", "COMMUNICATION": "comm", "MEMORY": "other", "OTHER": "other"}


def gaps_by_device(doc):
    """`gapscope-cli gaps --format json` per device: its totals row with the
    listed gaps of that device as "gaps" (the JSON holds them as two tables)."""
    out = []
    for totals in doc["gap_totals"]:
        d = dict(totals)
        d["gaps"] = [g for g in doc["gaps"] if g["device"] == totals["device"]]
        out.append(d)
    return out


def gs_is_comm(name):
    return bool(GS_COMM_RE.search(name)) or name.lower().startswith("hccl")


def hta_type(name):
    """HTA's get_kernel_type."""
    if HTA_COMM_RE.match(name):
        return "COMMUNICATION"
    if HTA_MEMORY_RE.match(name):
        return "MEMORY"
    if not HTA_NOT_COMPUTE_RE.match(name):
        return "COMPUTATION"
    return "OTHER"


def hta_int(v):
    """HTA's normalize_gpu_stream_numbers: int(value), else -1."""
    if v is None or isinstance(v, (dict, list, bool)):
        return -1
    try:
        return int(v)
    except (ValueError, TypeError, ArithmeticError):
        return -1


def ns_of(us):
    v = us * 1000
    if isinstance(v, int):
        return v
    return int(v) if v == v.to_integral_value() else v


def dec(v):
    """Exact Decimal of an int, Decimal or float (a float's exact binary value)."""
    return v if isinstance(v, Decimal) else Decimal(v)


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, (float, Decimal)):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if abs(f) < 10 and f != int(f):
            return "%.9f" % f
        r = round(f, 3)
        return ("%d" % r) if r == int(r) else ("%.3f" % r)
    return str(v)


# --------------------------------------------------------------------------
# The trace as this script reads it

class Row:
    __slots__ = ("idx", "cat", "name", "s", "e", "d", "tsf", "durf", "stream", "corr",
                 "dev", "gs", "is_gpu", "ic", "hta_t", "launch")


def read_rows(path, skip_python_function):
    """Every record HTA keeps (dur and cat present, cat != Trace), numbered as
    HTA numbers its rows, with Gapscope's class where it is GPU activity."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data.decode("utf-8"), parse_float=Decimal)
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    rows = []
    idx = -1
    for ev in events:
        if not isinstance(ev, dict):
            continue
        cat = ev.get("cat")
        if skip_python_function and cat == "python_function":
            continue  # HTA's ijson parser skips them before numbering
        idx += 1
        dur = ev.get("dur")
        ts = ev.get("ts")
        if cat is None or cat == "Trace" or not isinstance(ts, (int, Decimal)) \
                or not isinstance(dur, (int, Decimal)) or isinstance(ts, bool) or isinstance(dur, bool):
            continue
        r = Row()
        r.idx = idx
        r.cat = cat
        name = ev.get("name")
        r.name = name if isinstance(name, str) else str(name)
        r.s = ns_of(ts)
        r.d = ns_of(dur)
        r.e = r.s + r.d
        r.tsf = float(ts)
        r.durf = float(dur)
        args = ev.get("args")
        args = args if isinstance(args, dict) else {}
        r.stream = hta_int(args.get("stream", -1))
        c = args.get("correlation", -1)
        r.corr = c if isinstance(c, int) and not isinstance(c, bool) else hta_int(c)
        r.dev = args.get("device", ev.get("pid"))
        r.gs = None
        if ev.get("ph") == "X" and r.d >= 0:
            if cat in GS_KERNEL_CATS:
                r.gs = "comm" if gs_is_comm(r.name) else "kernel"
            elif cat in GS_MEMSET_CATS:
                r.gs = "memset"
            elif cat in GS_MEMCPY_CATS:
                r.gs = "memcpy"
        r.is_gpu = (r.stream >= 0 and r.corr >= 0) or r.name in ("Event Sync", "Context Sync")
        r.hta_t = hta_type(r.name)
        r.ic = None
        rows.append(r)
    # HTA's index_correlation (transform_correlation_to_index): the last CPU
    # record sharing the correlation id, else min(correlation, 0).
    last_cpu = {}
    for r in rows:
        if not r.is_gpu and r.corr != -1:
            last_cpu[r.corr] = r.idx
    for r in rows:
        r.launch = r.corr != -1 and r.corr in last_cpu
        if r.is_gpu:
            r.ic = last_cpu.get(r.corr, min(r.corr, 0)) if r.corr != -1 else -1
    return rows


# --------------------------------------------------------------------------
# Figures, exact and as HTA's float64 arithmetic gives them

def merge(intervals):
    """HTA's merge_kernel_intervals: by start; a record starting after the
    running maximum end opens a new interval."""
    out = []
    for s, e in sorted(intervals, key=lambda x: x[0]):
        if out and not s > out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def sum_with_bound(values):
    """Exact float sum, and the worst-case rounding of numpy summing them: 0
    when every value is a multiple of 2^-k and every partial sum stays within
    53 bits (integer microseconds, or a timestamp's own ulp), since then each
    float64 addition is exact; else (n + 2) x 2^-53 x the sum of magnitudes."""
    mag = math.fsum(abs(v) for v in values)
    for k in range(0, 31):
        if all(math.ldexp(v, k).is_integer() for v in values):
            if math.ldexp(mag, k) < 2.0 ** 53:
                return math.fsum(values), 0.0
            break
    return math.fsum(values), (len(values) + 2) * EPS * mag


def intersections(a, b):
    i = j = 0
    out = []
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if hi > lo:
            out.append(hi - lo)
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def timeline_figures(view):
    """view: [(row, class)] -> exact figures (ns; overlap a ratio)."""
    allm = merge([(r.s, r.e) for r, _ in view])
    if not allm:
        return None
    comp = merge([(r.s, r.e) for r, c in view if c == "comp"])
    comm = merge([(r.s, r.e) for r, c in view if c == "comm"])
    busy = sum(e - s for s, e in allm)
    span = allm[-1][1] - allm[0][0]
    compute = sum(e - s for s, e in comp)
    comm_len = sum(e - s for s, e in comm)
    over = sum(intersections(comp, comm))
    return {"idle": span - busy, "compute": compute, "non_compute": busy - compute, "span": span,
            "overlap": (Decimal(over) / Decimal(comm_len)) if comm_len else None}


def timeline_float(view, min_f):
    """The same figures with HTA's operations on float64 microseconds (us),
    and the rounding bound of its sums (us; ratio for the overlap)."""
    def mrg(cls):
        return merge([((r.tsf - min_f), (r.tsf - min_f) + r.durf) for r, c in view
                      if cls is None or c == cls])
    allm, comp, comm = mrg(None), mrg("comp"), mrg("comm")
    if not allm:
        return None, None
    e_all, be = sum_with_bound([e for _, e in allm])
    s_all, bs = sum_with_bound([s for s, _ in allm])
    kernel_time = allm[-1][1] - allm[0][0]
    idle = kernel_time - (e_all - s_all)
    e_c, bec = sum_with_bound([e for _, e in comp])
    s_c, bsc = sum_with_bound([s for s, _ in comp])
    compute = e_c - s_c
    f = {"idle": idle, "compute": compute, "non_compute": kernel_time - compute - idle,
         "span": kernel_time, "overlap": None}
    b = {"idle": be + bs, "compute": bec + bsc, "non_compute": be + bs + bec + bsc, "span": 0.0,
         "overlap": 0.0}
    if comm:
        over, bo = sum_with_bound(intersections(comp, comm))
        den, bd = sum_with_bound([e - s for s, e in comm])
        f["overlap"] = over / den
        b["overlap"] = (bo + (over / den) * bd) / den + 4 * EPS
    return f, b


def kernel_figures(rows_mult):
    """[(row, multiplicity)] -> count, sum, min, max, mean, std (sample), exact ns."""
    durs = []
    for r, m in rows_mult:
        durs.extend([r.d] * m)
    if not durs:
        return None
    n = len(durs)
    total = sum(durs)
    mean = Decimal(total) / n
    std = None
    if n > 1:
        std = (sum((Decimal(x) - mean) ** 2 for x in durs) / (n - 1)).sqrt()
    return {"count": n, "sum": total, "min": min(durs), "max": max(durs), "mean": mean, "std": std}


def kernel_float(rows_mult):
    durs = []
    for r, m in rows_mult:
        durs.extend([r.durf] * m)
    if not durs:
        return None, None
    total, bound = sum_with_bound(durs)
    n = len(durs)
    return ({"count": n, "sum": total, "min": min(durs), "max": max(durs), "mean": total / n, "std": None},
            {"count": 0.0, "sum": bound, "min": 0.0, "max": 0.0, "mean": bound / n + 2 * EPS * abs(total / n),
             "std": None})


def hta_idle_sim(seq_rows, by_idx, min_f):
    """HTA's _analyze_idle_time_for_stream on [(row, multiplicity)] of one
    stream: per category the exact ns and the float64 us totals (and the
    float rounding bound), and {(prev_end, start): (host as HTA decides it,
    host in exact ns, no launch call)} for every positive interval."""
    seq = []
    for r, m in seq_rows:
        seq.extend([r] * m)
    seq.sort(key=lambda r: (r.tsf, r.idx))
    exact = {"host_wait": 0, "kernel_wait": 0, "other": 0}
    floats = {"host_wait": [], "kernel_wait": [], "other": []}
    gaps = {}
    prev = None
    for r in seq:
        if prev is not None:
            prev_end_f = (prev.tsf - min_f) + prev.durf
            ts_f = r.tsf - min_f
            rt = by_idx.get(r.ic)
            host = rt is not None and (rt.tsf - min_f) > prev_end_f
            cat = "host_wait" if host else ("kernel_wait" if (ts_f - prev_end_f) < KERNEL_WAIT_US else "other")
            exact[cat] += r.s - prev.e
            floats[cat].append(ts_f - prev_end_f)
            if r.s > prev.e:
                # HTA's verdict in its float64 and the same rule in exact ns
                gaps[(prev.e, r.s)] = (host, rt is not None and rt.s > prev.e, not r.launch)
        prev = r
    fl, bound = {}, 0.0
    for k, v in floats.items():
        fl[k], b = sum_with_bound(v)
        bound += b
    return exact, fl, bound, gaps


def idle_shares(g, gs_rows, seq_gaps, tot_u, tot_f):
    """Splits HTA's host wait and idle total minus Gapscope's into named
    shares. g: Gapscope's `gaps` entry of the device; seq_gaps: HTA's positive
    intervals on the stream (unfiltered) with its host-wait verdict; tot_u,
    tot_f: HTA's exact category totals without and with the step filter. The
    gaps of the device's union (its active span) are the script's own."""
    merged = merge([(r.s, r.e) for r in gs_rows])
    ugaps = [(merged[i][1], merged[i + 1][0]) for i in range(len(merged) - 1)
             if merged[i + 1][0] > merged[i][1]]
    a0, a1 = merged[0][0], merged[-1][1]
    sh = collections.Counter()
    st = collections.Counter()
    unexplained = []
    pieces = collections.defaultdict(list)  # union gap -> [(length, cause)]
    starts = [u[0] for u in ugaps]
    for x in g["gaps"]:
        s, e, c = x["start_ns"], x["end_ns"], x["cause"]
        inside = max(0, min(e, a1) - max(s, a0))
        outside = (e - s) - inside
        st["step_time"] -= outside
        if c == "host":
            sh["step_time"] -= outside
        if inside <= 0:
            continue
        s, e = max(s, a0), min(e, a1)
        covered = 0
        i = max(bisect.bisect_right(starts, s) - 1, 0)
        while i < len(ugaps) and ugaps[i][0] < e:
            lo, hi = max(s, ugaps[i][0]), min(e, ugaps[i][1])
            if hi > lo:
                pieces[ugaps[i]].append((hi - lo, c))
                covered += hi - lo
            i += 1
        if covered < e - s:
            unexplained.append((s, e, c + " over busy time", None))
    for u in ugaps:
        ln = u[1] - u[0]
        hit = seq_gaps.get(u)
        covered = sum(p for p, _ in pieces.get(u, []))
        st["step_time"] += ln - covered
        if hit is None:  # HTA has no interval exactly here: all in `sequence`
            sh["sequence"] -= sum(p for p, c in pieces.get(u, []) if c == "host")
            continue
        host_f, host, no_launch = hit
        if host_f:
            sh["step_time"] += ln - covered
        if host_f != host:  # HTA's float64 decides the launch came after (or not)
            sh["float_us"] += (covered if host_f else -covered)
        for p, c in pieces.get(u, []):
            if c == "host" and host:
                continue
            if c in ("input", "synchronization", "communication") and host:
                sh["cause_order"] += p
            elif c == "host" and not host and no_launch:
                sh["no_launch"] -= p
            elif c == "host" or host:
                unexplained.append((u[0], u[1], c, host))
    sh["sequence"] += tot_u["host_wait"] - sum(u[1] - u[0] for u in ugaps if seq_gaps.get(u, (False,))[0])
    sh["step_filter"] += tot_f["host_wait"] - tot_u["host_wait"]
    st["sequence"] += sum(tot_u.values()) - sum(u[1] - u[0] for u in ugaps)
    st["step_filter"] += sum(tot_f.values()) - sum(tot_u.values())
    return sh, st, unexplained


def chain_shares(figs, key):
    """figs: [(step name, figures or None)] -> {step: change of figure key}."""
    shares = {}
    for i in range(1, len(figs)):
        a, b = figs[i - 1][1], figs[i][1]
        if a and b and a[key] is not None and b[key] is not None:
            shares[figs[i][0]] = b[key] - a[key]
    return shares


# --------------------------------------------------------------------------

class Checker:
    def __init__(self, cli, out, verbose):
        self.cli = cli
        self.out = out
        self.verbose = verbose
        self.results = []
        self.failures = 0
        self.demangled = {}

    def gs(self, cmd, path, *extra):
        p = subprocess.run([self.cli, cmd, path, "--format", "json", "--cache-dir",
                            os.path.join(self.out, "cache"), *extra], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("gapscope-cli %s %s: exit %d: %s" % (cmd, path, p.returncode, p.stderr.strip()))
        return json.loads(p.stdout)

    def demangle(self, names):
        todo = [n for n in names if n.startswith("_Z") and n not in self.demangled]
        if todo:
            exe = shutil.which("c++filt")
            if exe is None:
                for n in todo:
                    self.demangled[n] = None
            else:
                p = subprocess.run([exe], input="\n".join(todo) + "\n", capture_output=True, text=True)
                for n, o in zip(todo, p.stdout.split("\n")):
                    self.demangled[n] = o
        return {n: (self.demangled[n] if n.startswith("_Z") else n) for n in names}

    def add(self, trace, rank, figure, hta, gsv, shares, tol, detail=""):
        """hta: HTA's figure (ns or a ratio, exact Decimal of its float); gsv:
        Gapscope's; shares: {named difference: its share}; tol: the float
        rounding allowed."""
        shares = {k: v for k, v in shares.items() if v}
        if hta is None or gsv is None:
            missing = shares.get("_missing")
            verdict = "excused: %s" % missing if missing else "DIFFER (one side has no value)"
            if not missing:
                self.failures += 1
            self.results.append(dict(trace=trace, rank=rank, figure=figure, hta=hta, gs=gsv, diff=None,
                                     verdict=verdict, detail=detail))
            return
        diff = dec(hta) - dec(gsv)
        named = sum((dec(v) for v in shares.values()), Decimal(0))
        residual = diff - named
        listed = ", ".join("%s %s" % (k, fmt(v)) for k, v in shares.items())
        # shares below half a ns (1e-9 of a ratio) are float64 noise, not a difference
        sig = Decimal("1e-9") if figure.startswith("overlap") else Decimal("0.5")
        significant = ", ".join("%s %s" % (k, fmt(v)) for k, v in shares.items() if abs(dec(v)) >= sig)
        if abs(residual) <= Decimal(tol) + Decimal("1e-12"):
            if significant:
                verdict = "excused: " + significant
            else:
                verdict = "agree" if diff == 0 else "agree (HTA's float64: %s)" % fmt(diff)
        else:
            verdict = "DIFFER by %s%s" % (fmt(residual), (" beyond " + listed) if shares else "")
            self.failures += 1
        self.results.append(dict(trace=trace, rank=rank, figure=figure, hta=hta, gs=gsv, diff=diff,
                                 verdict=verdict, detail=detail))

    def note(self, trace, rank, figure, text, fail=False):
        if fail:
            self.failures += 1
        self.results.append(dict(trace=trace, rank=rank, figure=figure, hta=None, gs=None, diff=None,
                                 verdict=("FAIL: " if fail else "") + text, detail=""))


def hta_ns(us):
    """HTA's float microseconds as exact ns."""
    return Decimal(float(us)) * 1000


def float_share(exact_ns, float_us):
    """float_us: HTA's float figure computed here, minus the exact one."""
    if exact_ns is None or float_us is None:
        return 0
    return Decimal(float_us) * 1000 - dec(exact_ns)


def start_gapscope(chk, paths):
    """Gapscope's runs for every file of an input, on a thread beside HTA."""
    res = {}

    def work():
        for p in paths:
            out = {}
            for cmd, extra in (("timeline", ()), ("kernels", ()), ("gaps", ("--min-gap-us", "0", "--active-span"))):
                try:
                    out[cmd] = chk.gs(cmd, p, *extra)
                except Exception as exc:
                    out[cmd] = exc
            res[os.path.realpath(p)] = out
    th = threading.Thread(target=work)
    th.start()
    return th, res


def check_input(chk, inp, TraceAnalysis, label_of, timings, skip_pf):
    name = label_of(inp)
    if os.path.isdir(inp):
        tdir = inp
        files = [os.path.join(inp, f) for f in sorted(os.listdir(inp)) if f.endswith((".json", ".gz"))]
    else:
        tdir = os.path.join(chk.out, "inputs", re.sub(r"[^A-Za-z0-9_.-]+", "_", name))
        shutil.rmtree(tdir, ignore_errors=True)
        os.makedirs(tdir)
        os.symlink(os.path.abspath(inp), os.path.join(tdir, os.path.basename(inp)))
        files = [inp]
    th, gs_res = start_gapscope(chk, files)
    t0 = time.perf_counter()
    try:
        ta = TraceAnalysis(trace_dir=tdir, include_last_profiler_step=True)
    except Exception as exc:
        th.join()
        chk.note(name, "-", "load", "HTA could not read it: %r" % exc, fail=True)
        return
    t_load = time.perf_counter() - t0
    t1 = time.perf_counter()
    hta_out = {}
    for key, fn in (("temporal", lambda: ta.get_temporal_breakdown(visualize=False)),
                    ("overlap", lambda: ta.get_comm_comp_overlap(visualize=False)),
                    ("kernels", lambda: ta.get_gpu_kernel_breakdown(
                        visualize=False, num_kernels=1 << 62, duration_ratio=1.0,
                        include_memory_kernels=True))):
        try:
            hta_out[key] = fn()
        except Exception as exc:
            hta_out[key] = exc
    t_an = time.perf_counter() - t1
    ranks = sorted(ta.t.trace_files.keys())

    rows_of = {rank: read_rows(ta.t.trace_files[rank], skip_pf) for rank in ranks}
    min_f = min(r.tsf for rows in rows_of.values() for r in rows)
    symbols = set()
    for rows in rows_of.values():
        for r in rows:
            symbols.add(r.cat)
            symbols.add(r.name)
    filter_on = len([s for s in symbols if "ProfilerStep" in str(s)]) >= 2
    th.join()

    t_idle = 0.0
    for rank in ranks:
        path = ta.t.trace_files[rank]
        rows = rows_of[rank]
        by_idx = {r.idx: r for r in rows}
        label = name if len(ranks) == 1 else "%s/%s" % (name, os.path.basename(path))
        # step_filter: how many times HTA's table holds each record
        mult = {}
        if filter_on:
            cpu = [r for r in rows if not r.is_gpu]
            steps = [r for r in cpu if "ProfilerStep" in r.name]
            if steps:
                # HTA 0.5.0 aligns ts but not the "end" column: compare as it does
                last_end = max(r.tsf + r.durf for r in steps)
                kept_cpu = [r for r in cpu if (r.tsf - min_f) <= last_end]
            else:
                kept_cpu = []
            n_corr = collections.Counter(r.corr for r in kept_cpu)
            kept_ids = {r.idx for r in kept_cpu}
            for r in rows:
                mult[r.idx] = n_corr.get(r.corr, 0) if r.is_gpu else (1 if r.idx in kept_ids else 0)
        else:
            for r in rows:
                mult[r.idx] = 1
        by_idx_kept = {i: r for i, r in by_idx.items() if mult[i] > 0}

        # ---------------- rows: this script's reading of HTA's table
        want = collections.Counter()
        want_ic = {}
        for r in rows:
            if r.stream != -1 and mult[r.idx] > 0:
                want[r.idx] += mult[r.idx]
                if r.is_gpu:
                    want_ic[r.idx] = r.ic
        try:
            df = ta.t.get_trace(rank)
            sel = df.loc[df["stream"].ne(-1)]
            got = collections.Counter(int(i) for i in sel["index"].tolist())
            got_ic = {int(i): int(c) for i, c in zip(sel["index"].tolist(), sel["index_correlation"].tolist())}
        except Exception as exc:
            chk.note(label, rank, "rows", "HTA's table unreadable: %r" % exc, fail=True)
            got, got_ic = None, None
        if got is not None:
            bad_ic = [(i, want_ic[i], got_ic.get(i)) for i in want_ic if got_ic.get(i) != want_ic[i]]
            if got != want or bad_ic:
                chk.note(label, rank, "rows", "this script's reading of HTA's records is wrong: HTA holds "
                         "%d records with a stream, the script expects %d (extra %s, missing %s, "
                         "index_correlation differs %s)" % (sum(got.values()), sum(want.values()),
                                                            sorted((got - want).items())[:5],
                                                            sorted((want - got).items())[:5], bad_ic[:5]),
                         fail=True)
            else:
                chk.results.append(dict(trace=label, rank=rank, figure="rows", hta=sum(got.values()), gs=None,
                                        diff=None, verdict="the script's reading = HTA's table (%d records "
                                        "with a stream%s)" % (sum(got.values()),
                                                              "; step filter on" if filter_on else ""),
                                        detail=""))

        gs_rows = [r for r in rows if r.gs is not None]
        devices = sorted({str(r.dev) for r in gs_rows})
        gsr = gs_res.get(os.path.realpath(path), {})
        bad = [v for v in gsr.values() if isinstance(v, Exception)] if gsr else [RuntimeError("not run")]
        if bad:
            chk.note(label, rank, "gapscope", str(bad[0]), fail=True)
            continue
        gs_tl = gsr["timeline"]["timeline"]
        gs_k = gsr["kernels"]["kernels"]
        if len(gs_tl) != len(devices):
            chk.note(label, rank, "devices", "Gapscope's timeline has %d devices, the trace's GPU records "
                     "name %d (%s)" % (len(gs_tl), len(devices), ", ".join(devices)), fail=True)
            continue

        # ---------------- temporal breakdown and overlap: the chain of views
        if len(devices) == 1:
            h_stream = [r for r in rows if r.stream != -1]
            views = []
            v = [(r, GS_CLASS[r.gs]) for r in gs_rows]
            views.append(("gapscope", v))
            v = [(r, HTA_CLASS[r.hta_t] if r.gs == "memset" else c) for r, c in v]
            views.append(("memset", v))
            v = [(r, HTA_CLASS[r.hta_t]) for r, c in v]
            views.append(("name_class", v))
            v = v + [(r, HTA_CLASS[r.hta_t]) for r in h_stream if r.gs is None and r.cat == "cuda_sync"]
            views.append(("cuda_sync", v))
            v = v + [(r, HTA_CLASS[r.hta_t]) for r in h_stream if r.gs is None and r.cat != "cuda_sync"]
            views.append(("stream_arg", v))
            v = [(r, c) for r, c in v if r.stream != -1]
            views.append(("no_stream", v))
            v = [(r, c) for r, c in v if mult[r.idx] > 0]
            views.append(("step_filter", v))
            figs = [(nm, timeline_figures(vw)) for nm, vw in views]
            ffig, fbound = timeline_float(v, min_f)
            final = figs[-1][1]
            g = gs_tl[0]
            gs_vals = {"idle": g["idle_ns"], "compute": g["computation_ns"],
                       "non_compute": g["exposed_comm_ns"] + g["exposed_memcpy_ns"], "span": g["total_ns"],
                       "overlap": g.get("comm_overlap")}
            tb = hta_out["temporal"]
            if isinstance(tb, Exception):
                chk.note(label, rank, "temporal", "HTA failed: %r" % tb, fail=True)
            else:
                trow = tb[tb["rank"] == rank]
                cols = {"idle": "idle_time(us)", "compute": "compute_time(us)",
                        "non_compute": "non_compute_time(us)", "span": "kernel_time(us)"}
                for key, col in cols.items():
                    h = hta_ns(trow[col].iloc[0]) if len(trow) else None
                    shares = chain_shares(figs, key)
                    shares["float_us"] = float_share(final and final[key], ffig and ffig[key])
                    chk.add(label, rank, "temporal." + key, h, gs_vals[key], shares,
                            1000 * fbound[key] if fbound else 0)
            ov = hta_out["overlap"]
            hta_has = final is not None and final["overlap"] is not None
            if gs_vals["overlap"] is not None or hta_has:
                if isinstance(ov, Exception):
                    chk.note(label, rank, "overlap", "HTA failed: %r" % ov, fail=True)
                else:
                    orow = ov[ov["rank"] == rank]["comp_comm_overlap_pctg"]
                    h = float(orow.iloc[0]) / 100 if len(orow) else None
                    h = None if h is None or math.isnan(h) else Decimal(h)
                    if gs_vals["overlap"] is not None and hta_has:
                        shares = chain_shares(figs, "overlap")
                        shares["float_us"] = Decimal(ffig["overlap"]) - final["overlap"]
                        chk.add(label, rank, "overlap.ratio", h, Decimal(repr(gs_vals["overlap"])), shares,
                                fbound["overlap"] + 1e-15)
                    else:
                        why = [nm for (nm, f), (_, f0) in zip(figs[1:], figs[:-1])
                               if f0 and f and (f0["overlap"] is None) != (f["overlap"] is None)]
                        chk.add(label, rank, "overlap.ratio", h,
                                None if gs_vals["overlap"] is None else Decimal(repr(gs_vals["overlap"])),
                                {"_missing": ("one side has no communication (%s)" % ", ".join(why))
                                 if why and (h is None) == (not hta_has) else None}, 0)
        else:
            chk.note(label, rank, "temporal/overlap/idle", "not compared: GPU work on %d devices (HTA "
                     "adds a rank's devices together)" % len(devices))

        # ---------------- idle-time breakdown (a single stream)
        streams = sorted({r.stream for r in gs_rows})
        if len(devices) == 1 and len(streams) == 1 and streams[0] != -1:
            ti = time.perf_counter()
            del IDLE_CAPTURE[:]
            try:
                ta.get_idle_time_breakdown(ranks=[rank], visualize=False)
                idle_df = IDLE_CAPTURE[0] if len(IDLE_CAPTURE) == 1 else RuntimeError(
                    "HTA analysed %d streams" % len(IDLE_CAPTURE))
            except Exception as exc:
                idle_df = exc
            t_idle += time.perf_counter() - ti
            if isinstance(idle_df, Exception):
                chk.note(label, rank, "idle", "HTA failed: %r" % idle_df, fail=True)
            else:
                sel_u = [(r, 1) for r in rows if r.stream != -1 and r.cat in HTA_IDLE_CATS]
                sel_f = [(r, mult[r.idx]) for r, _ in sel_u if mult[r.idx] > 0]
                tot_u, _, _, gaps_u = hta_idle_sim(sel_u, by_idx, min_f)
                tot_f, flt_f, bound, _ = hta_idle_sim(sel_f, by_idx_kept, min_f)
                names = {0: "host_wait", 1: "kernel_wait", 2: "other"}  # HTA's IdleTimeType
                cat_of = {names[int(k)]: float(v) for k, v in zip(idle_df.index.tolist(),
                                                                  idle_df["idle_time"].tolist())}
                h_host = hta_ns(cat_of.get("host_wait", 0.0))
                h_total = sum((hta_ns(x) for x in cat_of.values()), Decimal(0))
                g = gaps_by_device(gsr["gaps"])[0]
                gs_host = g["by_cause"]["host"]
                gs_total = sum(x["end_ns"] - x["start_ns"] for x in g["gaps"]) + g["short_gaps"]["total_ns"]
                sh, st, unexplained = idle_shares(g, gs_rows, gaps_u, tot_u, tot_f)
                sh["float_us"] += float_share(tot_f["host_wait"], flt_f["host_wait"])
                st["float_us"] += float_share(sum(tot_f.values()), math.fsum(flt_f.values()))
                detail = ""
                if g.get("denominator") not in (None, "active span"):
                    detail = "Gapscope's gaps are of its %s (%s ns), HTA's of the active span. " % (
                        g.get("denominator"), g.get("time_ns"))
                if unexplained:
                    detail += "Gaps where Gapscope's cause and HTA's host-wait rule disagree: " + "; ".join(
                        "[%d, %d) Gapscope %s, HTA %s" % (a, b, c, "-" if h is None else
                                                          ("host wait" if h else "not host wait"))
                        for a, b, c, h in unexplained[:10])
                tol = 1000 * bound
                chk.add(label, rank, "idle.total", h_total, gs_total, dict(st), tol)
                chk.add(label, rank, "idle.host_wait", h_host, gs_host, dict(sh), tol, detail)
                so = {k: st.get(k, 0) - sh.get(k, 0) for k in set(st) | set(sh)}
                chk.add(label, rank, "idle.other", h_total - h_host, gs_total - gs_host, so, tol)
        elif len(devices) == 1:
            chk.note(label, rank, "idle", "not compared: %d streams on the device" % len(streams))

        # ---------------- kernels
        kb = hta_out["kernels"]
        if isinstance(kb, Exception):
            chk.note(label, rank, "kernels", "HTA failed: %r" % kb, fail=True)
            continue
        kdf = kb[1]
        kdf = kdf[kdf["rank"] == rank]
        hta_k = collections.defaultdict(list)
        for kr in kdf.to_dict("records"):
            hta_k[kr["name"]].append(kr)
        rows_by_name = collections.defaultdict(list)
        for r in rows:
            rows_by_name[r.name].append(r)
        kern_names = {r.name for r in rows if r.gs in ("kernel", "comm")}
        gsname = chk.demangle(sorted(kern_names | set(hta_k)))
        raws_of = collections.defaultdict(set)
        for raw in kern_names:
            raws_of[gsname[raw]].add(raw)
        gs_by_name = {k["name"]: k for k in gs_k}
        agree_k = 0
        n_names = 0
        for n_gs in sorted(set(raws_of) | set(gs_by_name), key=lambda x: (x is None, x or "")):
            raws = raws_of.get(n_gs, set())
            if n_gs is None:
                chk.note(label, rank, "kernels", "not compared: %d mangled names (no c++filt)" % len(raws))
                continue
            n_names += 1
            rs = [r for raw in sorted(raws) for r in rows_by_name[raw]]
            steps = []
            v = [(r, 1) for r in rs if r.gs in ("kernel", "comm")]
            steps.append(("gapscope", v))
            v = v + [(r, 1) for r in rs if r.cat == "cuda_sync" and r.stream != -1]
            steps.append(("cuda_sync", v))
            v = v + [(r, 1) for r in rs if r.gs is None and r.cat != "cuda_sync" and r.stream != -1]
            steps.append(("stream_arg", v))
            v = [(r, m) for r, m in v if r.stream != -1]
            steps.append(("no_stream", v))
            v = [(r, mult[r.idx]) for r, m in v if mult[r.idx] > 0]
            steps.append(("step_filter", v))
            v = [(r, m) for r, m in v if r.hta_t != "OTHER"]
            steps.append(("name_class", v))
            kf = [(nm, kernel_figures(vw)) for nm, vw in steps]
            kflt, kbound = kernel_float(v)
            final = kf[-1][1]
            hrows = [kr for raw in sorted(raws) for kr in hta_k.get(raw, [])]
            hv = None
            if hrows:
                sums = [float(kr["sum (us)"]) for kr in hrows]
                cnt = 0
                for kr, sm in zip(hrows, sums):
                    mean = float(kr["mean (us)"])
                    cnt = None if cnt is None or not mean else cnt + round(sm / mean)
                h_sum = sum((hta_ns(x) for x in sums), Decimal(0))
                hv = {"count": cnt, "sum": h_sum,
                      "min": min(hta_ns(kr["min (us)"]) for kr in hrows),
                      "max": max(hta_ns(kr["max (us)"]) for kr in hrows),
                      "mean": hta_ns(hrows[0]["mean (us)"]) if len(hrows) == 1 else
                      (h_sum / cnt if cnt else None),
                      "std": hta_ns(hrows[0]["stddev"]) if len(hrows) == 1 and final and final["count"] > 1
                      else None}
            gk = gs_by_name.get(n_gs)
            gv = None
            if gk is not None:
                gv = {"count": gk["count"], "sum": gk["total_ns"], "min": gk["min_ns"], "max": gk["max_ns"],
                      "mean": Decimal(repr(gk["mean_ns"])),
                      "std": Decimal(repr(gk["stddev_ns"])) if gk.get("stddev_ns") is not None else None}
            short = n_gs if len(n_gs) <= 60 else n_gs[:57] + "..."
            if hv is None or gv is None:
                why = [nm for (nm, f), (_, f0) in zip(kf[1:], kf[:-1]) if f0 and not f]
                ok = hv is None and final is None and gv is not None and why
                chk.add(label, rank, "kernel.present " + short, None if hv is None else 1,
                        None if gv is None else 1,
                        {"_missing": "HTA has no row (%s)" % ", ".join(why) if ok else None}, 0)
                continue
            n0 = len(chk.results)
            for key in ("count", "sum", "min", "max", "mean", "std"):
                h, gsv = hv[key], gv[key]
                if h is None or gsv is None:
                    continue
                shares = chain_shares(kf, key)
                if key == "std":
                    # pandas' float64 two-pass variance: relative rounding only
                    tol = float(abs(gsv)) * 1e-9 + 1e-6
                else:
                    shares["float_us"] = (float_share(final[key], kflt[key]) if key != "count" else 0)
                    tol = 1000 * kbound[key] + (float(abs(gsv)) * 4 * EPS if key == "mean" else 0)
                chk.add(label, rank, "kernel.%s %s" % (key, short), h, gsv, shares, tol)
            if all(x["verdict"].startswith("agree") for x in chk.results[n0:]):
                agree_k += 1
                if not chk.verbose:
                    del chk.results[n0:]
        if not chk.verbose:
            chk.results.append(dict(trace=label, rank=rank, figure="kernel.*", hta=None, gs=None, diff=None,
                                    verdict="%d of %d names agree in every figure (count, sum, min, max, mean, "
                                    "std); the others are listed" % (agree_k, n_names),
                                    detail=""))
        hta_only = [raw for raw in hta_k if raw not in kern_names]
        if hta_only:
            cats = collections.Counter(r.cat for raw in hta_only for r in rows_by_name[raw] if r.stream != -1)
            bad = [raw for raw in hta_only if any(r.gs in ("kernel", "comm") for r in rows_by_name[raw])]
            if bad:
                chk.note(label, rank, "kernels", "HTA lists kernels Gapscope does not: %s" % bad[:5], fail=True)
            else:
                chk.note(label, rank, "kernels", "not compared: %d names only HTA lists (their records: %s; "
                         "Gapscope's kernels are kernels)" % (len(hta_only), ", ".join(
                             "%s %d" % kv for kv in sorted(cats.items()))))
    timings.append((name, len(ranks), t_load, t_an + t_idle))


def print_table(results):
    w = [max([len(str(r["trace"])) for r in results] + [5]), 4,
         max([len(r["figure"]) for r in results] + [6]), 20, 20, 16]
    print("%-*s %-*s %-*s %*s %*s %*s  %s" % (w[0], "trace", w[1], "rank", w[2], "figure", w[3], "HTA",
                                             w[4], "Gapscope", w[5], "HTA-Gapscope", "verdict"))
    for r in results:
        print("%-*s %-*s %-*s %*s %*s %*s  %s" % (w[0], r["trace"], w[1], r["rank"], w[2], r["figure"],
                                                 w[3], fmt(r["hta"]), w[4], fmt(r["gs"]), w[5], fmt(r["diff"]),
                                                 r["verdict"]))
        if r["detail"]:
            print("    " + r["detail"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--hta", default=None, help="HTA's source (the folder holding hta/)")
    ap.add_argument("--verbose", action="store_true", help="print every kernel figure")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    require = os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"

    def unavailable(msg):
        print("hta_check: %s%s" % (msg, " (GAPSCOPE_REQUIRE_INPUTS is set)" if require else "; skipped"),
              file=sys.stderr)
        sys.exit(1 if require else 77)

    here = os.path.dirname(os.path.abspath(__file__))
    env_shared = os.environ.get("GAPSCOPE_SHARED_DIR")
    shared = env_shared or os.path.join(here, "..", "..", "..", "shared")
    hta_dir = args.hta or os.path.join(shared, "peers", "hta")
    if env_shared:
        # The shared folder as the suites find it: $GAPSCOPE_SHARED_DIR first.
        args.inputs = [os.path.join(env_shared, "traces", p.split("/traces/", 1)[-1])
                       if "/traces/" in p else p for p in args.inputs]
        if "/peers/" in hta_dir:
            hta_dir = os.path.join(env_shared, "peers", hta_dir.split("/peers/", 1)[-1])
    missing = [p for p in args.inputs if not os.path.exists(p)]
    if missing:
        unavailable("%s is absent (no ../shared)" % missing[0])
    if not os.path.isfile(os.path.join(hta_dir, "hta", "trace_analysis.py")):
        unavailable("HTA's source is absent: %s" % hta_dir)
    os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"
    sys.path.insert(0, os.path.abspath(hta_dir))
    try:
        import pandas  # noqa: F401
        import numpy  # noqa: F401
        import plotly  # noqa: F401
        import networkx  # noqa: F401
        import yaml  # noqa: F401
        import psutil  # noqa: F401
        from hta.trace_analysis import TraceAnalysis
        import hta.analyzers.communication_analysis as comm_analysis
        from hta.analyzers.breakdown_analysis import BreakdownAnalysis
        from hta.common.trace_parser import get_default_trace_parsing_backend
        from hta.configs.parser_config import ParserBackend
    except ImportError as exc:
        unavailable("HTA's dependencies are missing for %s (%s; packaging/install-deps.sh installs them "
                    "for Debian's python3)" % (sys.executable, exc))
    logging.disable(logging.WARNING)
    import warnings
    warnings.simplefilter("ignore")  # pandas' and numpy's on HTA's behalf (0/0 without communication)
    # HTA rounds the overlap percentage to 2 decimals and the idle-time
    # breakdown to 0.01 us for display; compare the figures it computes.
    comm_analysis.round = lambda x, n=None: x
    original = BreakdownAnalysis._analyze_idle_time_for_stream.__func__

    def capture(cls, *a, **k):
        res = original(cls, *a, **k)
        IDLE_CAPTURE.append(res[0])
        return res
    BreakdownAnalysis._analyze_idle_time_for_stream = classmethod(capture)
    skip_pf = get_default_trace_parsing_backend() != ParserBackend.JSON

    if not os.path.isfile(args.cli) or not os.access(args.cli, os.X_OK):
        print("hta_check: %s is not an executable" % args.cli, file=sys.stderr)
        sys.exit(1)
    os.makedirs(args.out, exist_ok=True)
    chk = Checker(os.path.abspath(args.cli), os.path.abspath(args.out), args.verbose)
    traces_root = os.path.join(os.path.abspath(shared), "traces") + os.sep

    def label_of(p):
        a = os.path.abspath(p)
        return a[len(traces_root):] if a.startswith(traces_root) else os.path.basename(a.rstrip(os.sep))

    timings = []
    t0 = time.perf_counter()
    for inp in args.inputs:
        n0, f0 = len(chk.results), chk.failures
        try:
            check_input(chk, inp, TraceAnalysis, label_of, timings, skip_pf)
        except Exception as exc:
            import traceback
            traceback.print_exc()
            chk.note(label_of(inp), "-", "check", "crashed: %r" % exc, fail=True)
        print_table(chk.results[n0:])
        print("  -> %s: %d rows, %d failing\n" % (label_of(inp), len(chk.results) - n0, chk.failures - f0))
        sys.stdout.flush()
    total = time.perf_counter() - t0

    with open(os.path.join(args.out, "hta_check.tsv"), "w") as f:
        f.write("trace\trank\tfigure\thta\tgapscope\thta_minus_gapscope\tverdict\tdetail\n")
        for r in chk.results:
            f.write("\t".join(str(x) for x in (r["trace"], r["rank"], r["figure"], fmt(r["hta"]), fmt(r["gs"]),
                                               fmt(r["diff"]), r["verdict"], r["detail"])) + "\n")
    counts = collections.Counter()
    for r in chk.results:
        v = r["verdict"]
        counts["agree" if v.startswith("agree") else "excused" if v.startswith("excused")
               else "differ" if v.startswith(("DIFFER", "FAIL")) else "note"] += 1
    print("HTA's time (load: parse, align, filter; analyses: the four analyses):")
    for nm, n, tl, tan in timings:
        print("  %-75s %d rank(s)  load %5.2f s  analyses %5.2f s" % (nm, n, tl, tan))
    print("HTA in all: %.1f s; this check in all: %.1f s" % (sum(t[2] + t[3] for t in timings), total))
    print("rows: %d agree, %d excused by named differences, %d differ or fail, %d notes%s"
          % (counts["agree"], counts["excused"], counts["differ"], counts["note"],
             "" if args.verbose else " (kernel names agreeing in every figure counted in notes)"))
    print("named differences:")
    for k, (kind, text) in CAUSES.items():
        print("  %-12s %-13s %s" % (k, kind, text))
    sys.exit(1 if chk.failures else 0)


if __name__ == "__main__":
    main()
