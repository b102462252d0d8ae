#!/usr/bin/env python3
"""Independent reference for `gapscope-cli memory --leaks` (allocation pairing).

Recomputes, from a PyTorch profiler (Kineto) Chrome trace, straight from the
definition and with the Python standard library only:

  * per allocator (pid, Device Type, Device Id; Id forced to -1 on the host):
    events, allocations, peak allocated and its time, reserved at the peak,
    unused at the peak, what is alive at the peak (known bytes), allocated at
    the peak, before-trace bytes, events without address, unknown frees,
    frees of an already freed address, allocations over a live address, size
    mismatches and totals that disagree with the Bytes changes;
  * every allocation alive at each allocator's peak;
  * per ProfilerStep#N: allocations made in the step and what of them is
    still alive after the next step ends;
  * allocations never freed (count and bytes per device),

then runs the CLI and compares every figure exactly.

Usage:
  python3 tests/tools/memory_reference.py --cli build/dev/app/cli/gapscope-cli TRACE [TRACE...]
  python3 tests/tools/memory_reference.py --self-test
  python3 tests/tools/memory_reference.py --cli PATH --edge-cases [TRACE...]

--edge-cases also writes a small generated trace of edge cases (double free,
reuse of a live address, size mismatch, totals that disagree, no address,
equal times, two pids' host allocators) to a temporary folder and compares
the CLI on it. A step with no allocation of an allocator has an empty row in
the reference; the CLI may leave such rows out of left_per_step.

Exit codes: 0 all agree, 1 a difference (or a CLI failure), 77 every TRACE
missing (ctest skip), 2 usage.
"""

from __future__ import annotations

import argparse
import collections
import decimal
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from decimal import Decimal

SKIP_CODE = 77

# ---------------------------------------------------------------------------
# Reading


def load_trace_events(path):
    """The traceEvents list of a Chrome trace JSON (plain or .gz)."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw.decode("utf-8"), parse_float=Decimal)
    if isinstance(doc, dict):
        events = doc.get("traceEvents", [])
    elif isinstance(doc, list):
        events = doc
    else:
        events = []
    return [e for e in events if isinstance(e, dict)]


def to_ns(us):
    """Microseconds (int, Decimal or text) to integer ns, exactly."""
    return int(Decimal(str(us)) * 1000)


def as_int(v):
    """An integer argument (JSON int, or a Decimal like 12.0); None otherwise."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, Decimal):
        return int(v)
    if isinstance(v, str):
        try:
            return int(Decimal(v))
        except (decimal.InvalidOperation, ValueError):
            return None
    if isinstance(v, float):
        return int(v)
    return None


def device_label(dev_type, dev_id):
    if dev_type == 0:
        return "host"
    if dev_type == 1:
        return f"GPU {dev_id}"
    return f"device type {dev_type}, {dev_id}"


# ---------------------------------------------------------------------------
# The model


@dataclass
class MemEvent:
    index: int          # global index in the time order of all memory events
    ns: int
    bytes: int
    addr: int | None    # None: no address (missing or negative)
    total_allocated: int | None
    total_reserved: int | None


@dataclass
class Allocation:
    address: int
    size: int
    alloc_index: int
    alloc_ns: int
    end_index: int | None = None   # freed, or replaced by an allocation at its address
    end_ns: int | None = None


@dataclass
class Allocator:
    key: tuple                       # (pid, device type, device id)
    events: list = field(default_factory=list)
    allocations: list = field(default_factory=list)
    # figures
    totals_recorded: bool = False
    reserved_recorded: bool = False
    before: int = 0
    totals_disagree: int = 0
    peak_allocated: int = 0
    peak_ns: int = 0
    peak_index: int = 0
    reserved_at_peak: int | None = None
    without_address: int = 0
    unknown_frees: int = 0
    freed_again: int = 0
    allocated_while_alive: int = 0
    size_mismatches: int = 0
    alive_at_peak: list = field(default_factory=list)
    alive_known_bytes: int = 0
    allocated_at: int = 0
    before_trace: int = 0

    @property
    def label(self):
        return device_label(self.key[1], self.key[2])


def memory_events(events):
    """[(allocator key, MemEvent)] in time order (stable over file order)."""
    rows = []
    for file_pos, e in enumerate(events):
        if e.get("name") != "[memory]":
            continue
        args = e.get("args")
        if not isinstance(args, dict):
            continue
        dev_type = as_int(args.get("Device Type"))
        nbytes = as_int(args.get("Bytes"))
        if dev_type is None or nbytes is None:
            continue
        dev_id = as_int(args.get("Device Id"))
        if dev_type == 0 or dev_id is None:
            dev_id = -1
        addr = as_int(args.get("Addr"))
        if addr is not None and addr < 0:
            addr = None
        key = (e.get("pid"), dev_type, dev_id)
        ev = MemEvent(index=-1, ns=to_ns(e.get("ts", 0)), bytes=nbytes, addr=addr,
                      total_allocated=as_int(args.get("Total Allocated")),
                      total_reserved=as_int(args.get("Total Reserved")))
        rows.append((file_pos, key, ev))
    rows.sort(key=lambda r: r[2].ns)   # stable: file order between equal times
    out = []
    for i, (_, key, ev) in enumerate(rows):
        ev.index = i
        out.append((key, ev))
    return out


def recorded(values):
    return all(v is not None and v >= 0 for v in values) and any(v > 0 for v in values)


def analyse_allocator(alloc):
    evs = alloc.events
    alloc.totals_recorded = recorded([e.total_allocated for e in evs])
    alloc.reserved_recorded = recorded([e.total_reserved for e in evs])

    # Allocated total after each event.
    totals = []
    if alloc.totals_recorded:
        alloc.before = evs[0].total_allocated - evs[0].bytes
        for i, e in enumerate(evs):
            if i > 0 and totals[-1] + e.bytes != e.total_allocated:
                alloc.totals_disagree += 1
            totals.append(e.total_allocated)
    else:
        alloc.before = 0
        running = 0
        for e in evs:
            running += e.bytes
            totals.append(running)

    # Peak: the first event with the largest total.
    best = 0
    for i in range(1, len(evs)):
        if totals[i] > totals[best]:
            best = i
    alloc.peak_allocated = totals[best]
    alloc.peak_ns = evs[best].ns
    alloc.peak_index = evs[best].index
    alloc.reserved_at_peak = evs[best].total_reserved if alloc.reserved_recorded else None
    alloc.allocated_at = totals[best]

    # Pairing.
    live = {}       # address -> Allocation
    freed = set()   # addresses whose state is "freed"
    for e in evs:
        if e.bytes == 0:
            continue
        if e.addr is None:
            alloc.without_address += 1
            continue
        a = e.addr
        if e.bytes > 0:
            old = live.get(a)
            if old is not None:
                alloc.allocated_while_alive += 1
                old.end_index, old.end_ns = e.index, e.ns
            new = Allocation(address=a, size=e.bytes, alloc_index=e.index, alloc_ns=e.ns)
            alloc.allocations.append(new)
            live[a] = new
            freed.discard(a)
        else:
            old = live.pop(a, None)
            if old is not None:
                old.end_index, old.end_ns = e.index, e.ns
                if -e.bytes != old.size:
                    alloc.size_mismatches += 1
                freed.add(a)
            else:
                alloc.unknown_frees += 1
                if a in freed:
                    alloc.freed_again += 1

    p = alloc.peak_index
    alloc.alive_at_peak = [x for x in alloc.allocations
                           if x.alloc_index <= p and (x.end_index is None or x.end_index > p)]
    alloc.alive_known_bytes = sum(x.size for x in alloc.alive_at_peak)
    alloc.before_trace = alloc.allocated_at - alloc.alive_known_bytes
    return alloc


def profiler_steps(events):
    """[(number, start_ns, end_ns)] of the CPU-side ProfilerStep#N slices, by start."""
    steps = []
    for e in events:
        if e.get("ph") != "X":
            continue
        name = e.get("name")
        if not isinstance(name, str) or not name.startswith("ProfilerStep#"):
            continue
        cat = str(e.get("cat", ""))
        if cat.lower().startswith("gpu_") or cat.lower() in ("kernel", "memcpy", "memset"):
            continue
        try:
            number = int(name[len("ProfilerStep#"):])
        except ValueError:
            continue
        start = to_ns(e.get("ts", 0))
        end = start + to_ns(e.get("dur", 0))
        steps.append((number, start, end))
    steps.sort(key=lambda s: (s[1], s[0]))
    return steps


@dataclass
class Reference:
    allocators: list
    steps: list
    left_per_step: list   # dicts like the CLI's rows
    alive: list           # tuples (device, address, bytes, allocated_ns, freed_ns)
    never_freed: dict     # device -> (count, bytes)


def compute(events):
    by_key = collections.OrderedDict()
    for key, ev in memory_events(events):
        by_key.setdefault(key, Allocator(key=key)).events.append(ev)
    allocators = [analyse_allocator(a) for a in by_key.values()]

    alive = []
    never = collections.defaultdict(lambda: [0, 0])
    for a in allocators:
        for x in a.alive_at_peak:
            alive.append((a.label, x.address, x.size, x.alloc_ns, x.end_ns))
        for x in a.allocations:
            if x.end_index is None:
                never[a.label][0] += 1
                never[a.label][1] += x.size

    steps = profiler_steps(events)
    left = []
    for k, (number, start, end) in enumerate(steps):
        last = k == len(steps) - 1
        next_end = None if last else steps[k + 1][2]
        for a in allocators:
            made = [x for x in a.allocations if start <= x.alloc_ns < end]
            row = {"number": number, "device": a.label,
                   "allocations": len(made), "bytes": sum(x.size for x in made),
                   "left": None, "left_bytes": None}
            if not last:
                kept = [x for x in made if x.end_ns is None or x.end_ns > next_end]
                row["left"] = len(kept)
                row["left_bytes"] = sum(x.size for x in kept)
            left.append(row)
    return Reference(allocators=allocators, steps=steps, left_per_step=left, alive=alive,
                     never_freed={k: tuple(v) for k, v in never.items()})


def allocator_row(a):
    """The reference's figures, under the CLI's JSON keys."""
    return {
        "device": a.label,
        "events": len(a.events),
        "allocations": len(a.allocations),
        "peak_allocated_bytes": a.peak_allocated,
        "peak_time_ns": a.peak_ns,
        "reserved_at_peak_bytes": a.reserved_at_peak,
        "unused_at_peak_bytes": (None if a.reserved_at_peak is None
                                 else a.reserved_at_peak - a.peak_allocated),
        "alive_known_bytes": a.alive_known_bytes,
        "allocated_at_bytes": a.allocated_at,
        "before_trace_bytes": a.before_trace,
        "without_address": a.without_address,
        "unknown_frees": a.unknown_frees,
        "freed_again": a.freed_again,
        "allocated_while_alive": a.allocated_while_alive,
        "size_mismatches": a.size_mismatches,
        "totals_disagree": a.totals_disagree,
        "at_ns": a.peak_ns,
    }


ALLOCATOR_KEYS = ["device", "events", "allocations", "peak_allocated_bytes", "peak_time_ns",
                   "reserved_at_peak_bytes", "unused_at_peak_bytes", "alive_known_bytes",
                   "allocated_at_bytes", "before_trace_bytes", "without_address",
                   "unknown_frees", "freed_again", "allocated_while_alive",
                   "size_mismatches", "totals_disagree", "at_ns"]

# ---------------------------------------------------------------------------
# Running the CLI


def run_cli(cli, trace):
    """The CLI's JSON (every allocation alive at the peak: a --top above any
    count); raises RuntimeError with a message on failure."""
    cmd = [cli, "memory", trace, "--no-cache", "--format", "json", "--leaks",
           "--top", "1000000000"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        raise RuntimeError(f"CLI exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    try:
        return json.loads(proc.stdout), []
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"CLI output is not JSON: {exc}")


# ---------------------------------------------------------------------------
# Comparing


def compare(ref, out, name):
    """A list of difference messages (empty when all agree)."""
    diffs = []

    def diff(msg):
        diffs.append(f"{name}: {msg}")

    # Allocators, matched per device label, sorted by (events, allocations).
    mine = collections.defaultdict(list)
    for a in ref.allocators:
        mine[a.label].append(allocator_row(a))
    theirs = collections.defaultdict(list)
    for r in out.get("allocators") or []:
        theirs[r.get("device")].append(r)
    for dev in sorted(set(mine) | set(theirs), key=str):
        m = sorted(mine.get(dev, []), key=lambda r: (r["events"], r["allocations"]))
        t = sorted(theirs.get(dev, []), key=lambda r: (r.get("events") or 0, r.get("allocations") or 0))
        if len(m) != len(t):
            diff(f"allocators on {dev}: reference {len(m)}, CLI {len(t)}")
            continue
        for i, (mr, tr) in enumerate(zip(m, t)):
            which = dev if len(m) == 1 else f"{dev} #{i} (events {mr['events']})"
            for k in ALLOCATOR_KEYS:
                if k not in tr:
                    diff(f"allocator {which}: {k} missing from the CLI's row")
                elif tr[k] != mr[k]:
                    diff(f"allocator {which}: {k} reference {mr[k]} CLI {tr[k]}")

    # Alive at the peak, as multisets.
    m_alive = collections.Counter(ref.alive)
    t_alive = collections.Counter(
        (r.get("device"), r.get("address"), r.get("bytes"), r.get("allocated_ns"), r.get("freed_ns"))
        for r in out.get("alive") or [])
    if m_alive != t_alive:
        only_m = list((m_alive - t_alive).elements())
        only_t = list((t_alive - m_alive).elements())
        diff(f"alive at peak: reference {sum(m_alive.values())} rows, CLI {sum(t_alive.values())}; "
             f"{len(only_m)} only in the reference, {len(only_t)} only in the CLI")
        for row in sorted(only_m, key=str)[:5]:
            diff(f"  only reference (device, address, bytes, allocated_ns, freed_ns) {row}")
        for row in sorted(only_t, key=str)[:5]:
            diff(f"  only CLI (device, address, bytes, allocated_ns, freed_ns) {row}")

    # Left per step, as multisets of full rows. A (step, allocator) with no
    # allocation made in the step has nothing to report: the CLI leaves such
    # rows out, so the reference's empty rows (allocations 0) are optional;
    # every other row must be there, and every CLI row must be a reference row.
    keys = ("number", "device", "allocations", "bytes", "left", "left_bytes")
    m_all = collections.Counter(tuple(r[k] for k in keys) for r in ref.left_per_step)
    m_need = collections.Counter(tuple(r[k] for k in keys) for r in ref.left_per_step
                                 if r["allocations"] != 0)
    t_left = collections.Counter(tuple(r.get(k) for k in keys) for r in out.get("left_per_step") or [])
    missing = m_need - t_left
    extra = t_left - m_all
    if missing or extra:
        diff(f"left_per_step: reference {sum(m_need.values())} rows with allocations "
             f"(+{sum(m_all.values()) - sum(m_need.values())} empty), CLI {sum(t_left.values())}")
        for row in sorted(missing.elements(), key=str)[:8]:
            diff(f"  only reference {dict(zip(keys, row))}")
        for row in sorted(extra.elements(), key=str)[:8]:
            diff(f"  only CLI {dict(zip(keys, row))}")

    # Never freed: count and bytes per device.
    t_never = collections.defaultdict(lambda: [0, 0])
    for r in out.get("never_freed") or []:
        t_never[r.get("device")][0] += r.get("allocations") or 0
        t_never[r.get("device")][1] += r.get("bytes") or 0
    for dev in sorted(set(ref.never_freed) | set(t_never), key=str):
        m = ref.never_freed.get(dev, (0, 0))
        t = tuple(t_never.get(dev, (0, 0)))
        if m != t:
            diff(f"never_freed on {dev}: reference {m[0]} allocations {m[1]} bytes, "
                 f"CLI {t[0]} allocations {t[1]} bytes")
    return diffs


def summary(ref):
    n_alloc = sum(len(a.allocations) for a in ref.allocators)
    never = sum(v[0] for v in ref.never_freed.values())
    parts = []
    for a in ref.allocators:
        parts.append(f"{a.label} pid {a.key[0]}: {len(a.events)} events, {len(a.allocations)} "
                     f"allocations, peak {a.peak_allocated} at {a.peak_ns}, "
                     f"{len(a.alive_at_peak)} alive ({a.alive_known_bytes} B), "
                     f"unknown frees {a.unknown_frees}, without address {a.without_address}")
    return (f"{len(ref.allocators)} allocators, {n_alloc} allocations, {len(ref.alive)} alive at "
            f"peak, {never} never freed, {len(ref.steps)} steps\n    " + "\n    ".join(parts))


# ---------------------------------------------------------------------------
# Self-test: tiny hand-made traces with hand-computed answers


def _mem(ts, nbytes, addr=None, ta=None, tr=None, dev_type=1, dev_id=0, pid=1):
    args = {"Device Type": dev_type, "Device Id": dev_id, "Bytes": nbytes}
    if addr is not None:
        args["Addr"] = addr
    if ta is not None:
        args["Total Allocated"] = ta
    if tr is not None:
        args["Total Reserved"] = tr
    return {"ph": "i", "name": "[memory]", "pid": pid, "tid": pid, "ts": ts, "args": args}


def _step(n, ts, dur, pid=1):
    return {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n}", "pid": pid,
            "tid": pid, "ts": ts, "dur": dur}


def _to_json_text(events):
    """A trace's JSON text; Decimal values are written as bare numbers."""
    def conv(x):   # Decimal -> a marker replaced by the bare number below
        if isinstance(x, Decimal):
            return f"@DEC@{x}@"
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        if isinstance(x, list):
            return [conv(v) for v in x]
        return x

    return re.sub(r'"@DEC@([-+0-9.eE]+)@"', r"\1", json.dumps({"traceEvents": conv(events)}))


def _roundtrip(events):
    """Through JSON text, as a trace would be read (Decimal times)."""
    return json.loads(_to_json_text(events), parse_float=Decimal)["traceEvents"]


def self_test():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    # 1. Double free, reuse of a live address, size mismatch, never freed,
    #    totals recorded and consistent; plus an event with Bytes 0 and one
    #    without Device Type (both ignored by the pairing; the latter entirely).
    ev = _roundtrip([
        _mem(1.5, 100, addr=10, ta=1100, tr=4000),   # 0: alloc A(10,100); before = 1000
        _mem(2, 50, addr=20, ta=1150, tr=4000),      # 1: alloc B(20,50)
        _mem(3, -100, addr=10, ta=1050, tr=4000),    # 2: free A
        _mem(4, -100, addr=10, ta=950, tr=4000),     # 3: double free: unknown + freed again
        _mem(5, 70, addr=20, ta=1020, tr=4000),      # 4: B ends (alive), C(20,70) starts
        _mem(6, -60, addr=20, ta=960, tr=4000),      # 5: free C, size mismatch
        _mem(7, 0, addr=30, ta=960, tr=4000),        # 6: Bytes 0: nothing
        _mem(8, 30, addr=40, ta=990, tr=4000),       # 7: D(40,30) never freed
        {"ph": "i", "name": "[memory]", "pid": 1, "ts": 9, "args": {"Bytes": 5, "Addr": 1}},
        _mem(10, -7, addr=99, ta=983, tr=4000),      # 8: unknown free, never seen before
    ])
    ref = compute(ev)
    check("1 allocators", len(ref.allocators), 1)
    a = ref.allocators[0]
    check("1 events", len(a.events), 9)
    check("1 totals_recorded", a.totals_recorded, True)
    check("1 reserved_recorded", a.reserved_recorded, True)
    check("1 before", a.before, 1000)
    check("1 totals_disagree", a.totals_disagree, 0)
    check("1 peak", (a.peak_allocated, a.peak_ns), (1150, 2000))
    check("1 reserved_at_peak", a.reserved_at_peak, 4000)
    check("1 allocations", len(a.allocations), 4)
    check("1 unknown_frees", a.unknown_frees, 2)
    check("1 freed_again", a.freed_again, 1)
    check("1 allocated_while_alive", a.allocated_while_alive, 1)
    check("1 size_mismatches", a.size_mismatches, 1)
    check("1 without_address", a.without_address, 0)
    check("1 alive at peak", sorted((x.address, x.size) for x in a.alive_at_peak),
          [(10, 100), (20, 50)])
    check("1 alive_known", a.alive_known_bytes, 150)
    check("1 before_trace", a.before_trace, 1000)
    check("1 B ended at", a.allocations[1].end_ns, 5000)
    check("1 never freed", ref.never_freed, {"GPU 0": (1, 30)})
    row = allocator_row(a)
    check("1 unused_at_peak", row["unused_at_peak_bytes"], 4000 - 1150)
    check("1 alive rows", sorted(ref.alive, key=str),
          sorted([("GPU 0", 10, 100, 1500, 3000), ("GPU 0", 20, 50, 2000, 5000)], key=str))

    # 2. No addresses, no totals (2021 Kineto): running sum, everything
    #    without address; host Device Id forced to -1.
    ev = _roundtrip([
        _mem(1, 40, dev_type=0, dev_id=3),
        _mem(2, 60, dev_type=0, dev_id=3),
        _mem(3, -40, dev_type=0, dev_id=-1),
        _mem(4, 40, dev_type=0, dev_id=-1),   # running 100 again: tie, earliest wins
        _mem(5, 0, dev_type=0),               # Bytes 0: not without_address
    ])
    ref = compute(ev)
    check("2 allocators", [x.key for x in ref.allocators], [(1, 0, -1)])
    a = ref.allocators[0]
    check("2 label", a.label, "host")
    check("2 totals_recorded", a.totals_recorded, False)
    check("2 before", a.before, 0)
    check("2 peak", (a.peak_allocated, a.peak_ns), (100, 2000))
    check("2 reserved_at_peak", a.reserved_at_peak, None)
    check("2 without_address", a.without_address, 4)
    check("2 allocations", len(a.allocations), 0)
    check("2 before_trace", a.before_trace, 100)
    check("2 totals_disagree", a.totals_disagree, 0)

    # 3. Totals that disagree with the Bytes; one Total Allocated of 0 does
    #    not stop totals from being recorded; Total Reserved all 0 is not
    #    recorded.
    ev = _roundtrip([
        _mem(1, 10, addr=1, ta=10, tr=0),
        _mem(2, 10, addr=2, ta=25, tr=0),     # 10 + 10 != 25: disagree
        _mem(3, -10, addr=1, ta=15, tr=0),    # 25 - 10 == 15: agree
        _mem(4, -10, addr=2, ta=0, tr=0),     # 15 - 10 != 0: disagree
    ])
    a = compute(ev).allocators[0]
    check("3 totals_recorded", a.totals_recorded, True)
    check("3 reserved_recorded", a.reserved_recorded, False)
    check("3 totals_disagree", a.totals_disagree, 2)
    check("3 peak", (a.peak_allocated, a.peak_ns), (25, 2000))
    check("3 alive_known/before_trace", (a.alive_known_bytes, a.before_trace), (20, 5))
    check("3 unused", allocator_row(a)["unused_at_peak_bytes"], None)

    # 4. A missing Total Allocated on one event: not recorded, running sum.
    ev = _roundtrip([_mem(1, 10, addr=1, ta=10), _mem(2, 5, addr=2)])
    a = compute(ev).allocators[0]
    check("4 totals_recorded", a.totals_recorded, False)
    check("4 peak", a.peak_allocated, 15)

    # 5. Time order (stable), fractional microseconds, two allocators, steps.
    ev = _roundtrip([
        _step(1, 0, 10), _step(2, 10, 10), _step(3, 20, 10),
        {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7,
         "ts": 0, "dur": 100},
        _mem(Decimal("12.001"), 8, addr=3, ta=None),        # in step 2, freed at 25: not left
        _mem(Decimal("1.25"), 4, addr=1),                   # step 1, freed at 15: not left
        _mem(Decimal("1.25"), 6, addr=2),                   # step 1, same time, after: never freed
        _mem(15, -4, addr=1),
        _mem(13, 16, addr=4),                               # step 2, freed at 30.5 > end 30: left
        _mem(25, -8, addr=3),
        _mem(Decimal("30.5"), -16, addr=4),
        _mem(2, 32, addr=5, dev_id=1),                      # GPU 1, step 1, freed at 20 (end of 2): not left
        _mem(20, -32, addr=5, dev_id=1),
    ])
    ref = compute(ev)
    check("5 steps", ref.steps, [(1, 0, 10000), (2, 10000, 20000), (3, 20000, 30000)])
    g0 = [x for x in ref.allocators if x.label == "GPU 0"][0]
    check("5 order", [(x.ns, x.bytes) for x in g0.events][:2], [(1250, 4), (1250, 6)])
    check("5 peak", (g0.peak_allocated, g0.peak_ns), (34, 13000))
    check("5 alive at peak", sorted(x.address for x in g0.alive_at_peak), [1, 2, 3, 4])
    rows = {(r["number"], r["device"]): (r["allocations"], r["bytes"], r["left"], r["left_bytes"])
            for r in ref.left_per_step}
    check("5 left step1 GPU0", rows[(1, "GPU 0")], (2, 10, 1, 6))
    check("5 left step2 GPU0", rows[(2, "GPU 0")], (2, 24, 1, 16))
    check("5 left step3 GPU0", rows[(3, "GPU 0")], (0, 0, None, None))
    check("5 left step1 GPU1", rows[(1, "GPU 1")], (1, 32, 0, 0))
    check("5 never freed", ref.never_freed, {"GPU 0": (1, 6)})

    # 6. ts exactness: 5203219863253.29 us -> ns.
    check("6 ns", to_ns(Decimal("5203219863253.29")), 5203219863253290)

    # 7. The generated edge-case trace (--edge-cases): its documented answers.
    ref = compute(edge_case_trace())
    rows = collections.defaultdict(list)
    for a in ref.allocators:
        rows[a.label].append(allocator_row(a))
    g0 = rows["GPU 0"][0]
    check("7 GPU 0", {k: g0[k] for k in ALLOCATOR_KEYS[1:]},
          {"events": 14, "allocations": 5, "peak_allocated_bytes": 1150, "peak_time_ns": 1002000,
           "reserved_at_peak_bytes": 4000, "unused_at_peak_bytes": 2850,
           "alive_known_bytes": 150, "allocated_at_bytes": 1150, "before_trace_bytes": 1000,
           "without_address": 1, "unknown_frees": 4, "freed_again": 1,
           "allocated_while_alive": 1, "size_mismatches": 1, "totals_disagree": 2,
           "at_ns": 1002000})
    hosts = sorted(rows["host"], key=lambda r: (r["events"], r["allocations"]))
    check("7 hosts", [(r["events"], r["allocations"], r["peak_allocated_bytes"], r["peak_time_ns"],
                       r["without_address"], r["before_trace_bytes"]) for r in hosts],
          [(4, 0, 100, 2002000, 4, 100), (5, 3, 26, 1012000, 0, 0)])
    check("7 never freed", ref.never_freed, {"GPU 0": (1, 30), "host": (1, 6)})
    check("7 steps", [s[0] for s in ref.steps], [1, 2, 3])

    if failures:
        for f in failures:
            print("SELF-TEST FAIL:", f)
        return 1
    print("self-test: all checks pass")
    return 0


def edge_case_trace():
    """A small Kineto-like trace with every case the recorded traces lack
    (double free, reuse of a live address, size mismatch, totals that
    disagree, an event without address, Bytes 0, equal times, fractional
    microseconds, two processes' host allocators, a peak tie), for --edge-cases.

    Hand-computed: GPU 0 (pid 1): 14 events, 5 allocations, peak 1150 at
    1002000 ns, reserved 4000, 2 alive (150 B), before trace 1000, without
    address 1, unknown frees 4, freed again 1, allocated while alive 1, size
    mismatches 1, totals disagree 2. Host pid 2: running sum, peak 100 at
    2002000 ns (tie at 2004000), 4 without address."""
    def mem(ts, b, addr=None, ta=None, tr=None, dt=1, di=0, pid=1):
        e = _mem(ts, b, addr, ta, tr, dt, di, pid)
        e["cat"] = "cpu_instant_event"
        e["s"] = "t"
        return e
    ev = [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "worker"}},
        _step(1, 1000, 10), _step(2, 1010, 10), _step(3, 1020, 10),
        {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#2", "pid": 0, "tid": 7,
         "ts": 1000, "dur": 100},
        {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1,
         "ts": Decimal("1000.5"), "dur": 25},
        mem(Decimal("1001.5"), 100, 10, 1100, 4000), mem(1002, 50, 20, 1150, 4000),
        mem(1003, -100, 10, 1050, 4000), mem(1004, -100, 10, 950, 4000),
        mem(1005, 70, 20, 1020, 4000), mem(1006, -60, 20, 960, 4000),
        mem(1007, 0, 30, 960, 4000), mem(1008, 30, 40, 991, 4000), mem(1009, -7, 99, 983, 4000),
        mem(1011, 5, None, 988, 4000), mem(1012, -5, 50, 983, 4000),
        mem(1012, -5, 50, 978, 4000), mem(1013, 8, 60, 986, 4000),
        mem(1025, -8, 60, 978, 4000),
        mem(1001, 4, 1, dt=0, di=-1), mem(1001, 6, 2, dt=0, di=-1), mem(1015, -4, 1, dt=0, di=-1),
        mem(1012, 16, 4, dt=0, di=-1), mem(Decimal("1030.5"), -16, 4, dt=0, di=-1),
        mem(1002, 32, 5, 32, 64, 1, 1), mem(1020, -32, 5, 0, 64, 1, 1),
        mem(2000, 40, dt=0, pid=2), mem(2002, 60, dt=0, pid=2), mem(2003, -40, dt=0, pid=2),
        mem(2004, 40, dt=0, pid=2),
    ]
    return _roundtrip(ev)


def _write_edge_case_trace(path):
    with open(path, "w") as f:
        f.write(_to_json_text(edge_case_trace()))


# ---------------------------------------------------------------------------


def compare_trace(cli, trace, label=None):
    """Compute, run, compare, print; True when all agree."""
    ref = compute(load_trace_events(trace))
    try:
        out, notes = run_cli(cli, trace)
    except RuntimeError as exc:
        print(f"FAIL {label or trace}: {exc}")
        return False
    for n in notes:
        print(f"  {n}")
    diffs = compare(ref, out, label or os.path.basename(trace))
    status = "OK  " if not diffs else "FAIL"
    print(f"{status} {label or trace}: {summary(ref)}\n    mismatches: {len(diffs)}")
    for d in diffs:
        print("    " + d)
    return not diffs


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cli", help="path to gapscope-cli")
    p.add_argument("--self-test", action="store_true", help="check the reference on hand-made traces")
    p.add_argument("--edge-cases", action="store_true",
                   help="also compare the CLI on a generated trace of edge cases")
    p.add_argument("traces", nargs="*")
    args = p.parse_args(argv)

    if args.self_test:
        rc = self_test()
        if rc or (not args.traces and not args.edge_cases):
            return rc
    if not args.traces and not args.edge_cases:
        p.error("give TRACE paths (or --self-test, --edge-cases)")
    if not args.cli:
        p.error("--cli PATH is needed to compare with traces")

    failed = False
    if args.edge_cases:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "edge_cases.pt.trace.json")
            _write_edge_case_trace(path)
            failed = not compare_trace(args.cli, path, "edge cases (generated)")
        if not args.traces:
            return 1 if failed else 0
    missing = 0
    for trace in args.traces:
        if not os.path.exists(trace):
            print(f"SKIP: {trace} missing")
            missing += 1
            continue
        failed = (not compare_trace(args.cli, trace)) or failed
    if args.traces and missing == len(args.traces) and not args.edge_cases:
        return SKIP_CODE
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
