#!/usr/bin/env python3
"""Writes the planted memory traces of tests/core/tst_memory.cpp (tests/fixtures/memory/).

planted.json (Kineto's [memory] events on GPU 0 of an 80 GiB device, every
event with Total Reserved 32 MiB): 2 MiB allocated before the trace began;
four steps (ProfilerStep#k over [1000k, 1000k + 1000) µs), each on the main
thread a module frame "nn.Module: Net_0" [S+50, S+330) around aten::linear ->
aten::empty allocating 1 MiB at 0x7000000 (S+115) and aten::cat allocating
64 KiB at 0x8000000 + k*0x10000 (S+322, never freed: the leak); on the
backward thread autograd's MmBackward0 [S+500, S+700) with aten::mm
allocating 512 KiB at 0xA000000 (S+515) and the 1 MiB freed (S+600); the
optimizer's step [S+800, S+900), the 512 KiB freed (S+850). Step 3 adds
aten::zeros allocating 8 MiB at 0x9000000 (S+345), freed at S+360: the peak.
Step 4 frees the 2 MiB from before the trace (0xB000000, S+950) and the
512 KiB again (S+960: a double free, its Total Allocated left as it was).

hostile.json: one thread, no steps: an address allocated twice while alive,
a free of another size, an event without an address, sizes at the edges of
int64, addresses that are none.

Usage: make_planted_memory.py OUT_DIR
"""
import json
import pathlib
import sys
MiB = 1 << 20
KiB = 1 << 10
ev = []
def X(name, tid, ts, dur, cat="cpu_op"):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur})
mem = []
def M(tid, ts, nbytes, addr, total=None):
    mem.append([tid, ts, nbytes, addr, total])
for k in range(1, 5):
    S = 1000 * k
    X("ProfilerStep#%d" % k, 1, S, 1000, "user_annotation")
    X("nn.Module: Net_0", 1, S + 50, 280, "python_function")
    X("aten::linear", 1, S + 100, 200)
    X("aten::empty", 1, S + 110, 10)
    M(1, S + 115, MiB, 0x7000000)
    X("aten::cat", 1, S + 320, 5)
    M(1, S + 322, 64 * KiB, 0x8000000 + k * 0x10000)
    if k == 3:
        X("aten::zeros", 1, S + 340, 10)
        M(1, S + 345, 8 * MiB, 0x9000000)
        M(1, S + 360, -8 * MiB, 0x9000000)
    X("autograd::engine::evaluate_function: MmBackward0", 2, S + 500, 200)
    X("aten::mm", 2, S + 510, 10)
    M(2, S + 515, 512 * KiB, 0xA000000)
    M(2, S + 600, -MiB, 0x7000000)
    X("Optimizer.step#SGD.step", 1, S + 800, 100, "user_annotation")
    X("aten::add_", 1, S + 810, 10)
    M(1, S + 850, -512 * KiB, 0xA000000)
    if k == 4:
        M(1, S + 950, -2 * MiB, 0xB000000)
        M(1, S + 960, -512 * KiB, 0xA000000, "same")
mem.sort(key=lambda m: m[1])
total = 2 * MiB
for tid, ts, nbytes, addr, t in mem:
    if t != "same":
        total += nbytes
    ev.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": tid,
               "ts": ts, "args": {"Total Reserved": 32 * MiB, "Total Allocated": total, "Bytes": nbytes,
                                  "Addr": addr, "Device Id": 0, "Device Type": 1}})
doc = {"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 80 * 1024 * MiB, "numSms": 132}],
       "traceEvents": ev}


def dump(d):
    """One event per line: a reviewable diff."""
    events = d.pop("traceEvents")
    head = json.dumps(d)[:-1]
    body = ",\n".join(json.dumps(e) for e in events)
    return (head + (", " if d else "") + '"traceEvents": [\n' + body + "\n]}\n")


planted = dump(doc)
hev = []
def H(ts, nbytes, addr=None, total=None):
    a = {"Bytes": nbytes, "Device Id": 0, "Device Type": 1}
    if addr is not None: a["Addr"] = addr
    if total is not None: a["Total Allocated"] = total
    hev.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 7, "ts": ts, "args": a})
hev.append({"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 7, "tid": 7, "ts": 0, "dur": 100})
H(10, 4096, 0x1000)              # alive
H(20, 8192, 0x1000)              # the same address again while alive
H(30, -100, 0x1000)              # freed with another size
H(40, 512)                       # no address
H(50, 9223372036854775807, 0x2000)  # INT64_MAX bytes
H(60, 9223372036854775807, 0x3000)  # and again: the running total saturates
H(70, -9223372036854775808, 0x2000) # INT64_MIN: no positive twin
H(80, -5, -1)                    # a negative address: none
H(90, 1, 18446744073709551615)   # beyond int64: none
hostile = dump({"traceEvents": hev})

out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
(out / "planted.json").write_text(planted)
(out / "hostile.json").write_text(hostile)
