#!/usr/bin/env python3
"""Trace Health against faults planted in a real Kineto trace: some kernels
dropped (as when CUPTI loses activity records: the kernel and its flow end
go), some launch calls dropped (the GPU work stays), some kernels moved to
start before their launch call (a clock converted badly), Kineto's own log lines
at the top level (as its on-demand traces carry them: "ERROR" and
"WARNING" are the profiler's messages, "INFO" is not), and the file cut
short.
The expected counts come from this script's own reading of the planted JSON:
a launch call without GPU work is a cudaLaunchKernel whose correlation no
kernel, memcpy or memset has; GPU work without a launch is the converse. It
checks `gapscope-cli health --format json` (its "health" table) and that `advice --format
json` names the steps of the lost kernels. Exit 1 on any difference.

  health_check.py --cli PATH --out DIR TRACE.json.gz
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys

GPU = {"kernel", "gpu_memcpy", "gpu_memset"}
RUNTIME = {"cuda_runtime", "cuda_driver"}


def run(cli, *args):
    r = subprocess.run([cli, *args, "--no-cache"], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def expected(events):
    """(launches without GPU work, GPU work without launch, their steps)."""
    gpu_corr = {e["args"]["correlation"] for e in events
                if e.get("cat") in GPU and "correlation" in e.get("args", {})}
    calls = [e for e in events if e.get("cat") in RUNTIME and e.get("ph") == "X"]
    call_corr = {e["args"]["correlation"] for e in calls if "correlation" in e.get("args", {})}
    idle = [e for e in calls if "Launch" in e["name"] and "HostFunc" not in e["name"]
            and e.get("args", {}).get("correlation") not in gpu_corr]
    orphans = [e for e in events if e.get("cat") in GPU
               and e.get("args", {}).get("correlation") not in call_corr]
    steps = [e for e in events if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")
             and e.get("cat") != "gpu_user_annotation"]
    in_steps = set()
    for c in idle:
        for s in steps:
            if s["ts"] <= c["ts"] < s["ts"] + s["dur"]:
                in_steps.add(int(re.search(r"\d+", s["name"]).group()))
    return len(idle), len(orphans), sorted(in_steps)


def health_of(cli, path):
    rc, out, err = run(cli, "health", path, "--format", "json")
    if rc != 0:
        sys.exit(f"{path}: health failed: {err.strip()}")
    return {c["check"]: c for c in json.loads(out)["health"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("trace")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with gzip.open(a.trace, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    # Every 40th kernel lost with its flow end; every 50th other kernel's
    # launch call lost with its flow start.
    lost = {k["args"]["correlation"] for k in kernels[::40]}
    unlaunched = {k["args"]["correlation"] for k in kernels[5::50]} - lost
    planted = []
    for e in events:
        corr = e.get("args", {}).get("correlation", e.get("id") if e.get("cat") == "ac2g" else None)
        if e.get("cat") in ("kernel",) and corr in lost:
            continue
        if e.get("cat") == "ac2g" and e.get("ph") == "f" and corr in lost:
            continue
        if e.get("cat") in RUNTIME and corr in unlaunched:
            continue
        if e.get("cat") == "ac2g" and e.get("ph") == "s" and corr in unlaunched:
            continue
        planted.append(e)
    # Every 60th remaining kernel moved to start 5 us before its launch call
    # (with its flow end), as when the GPU's clock is converted badly.
    calls = {e["args"]["correlation"]: e for e in planted
             if e.get("cat") in RUNTIME and "correlation" in e.get("args", {})}
    early = set()
    for k in [e for e in planted if e.get("cat") == "kernel"][7::60]:
        call = calls.get(k["args"].get("correlation"))
        if call is None:
            continue
        old = k["ts"]
        k["ts"] = call["ts"] - 5
        for f in planted:
            if f.get("cat") == "ac2g" and f.get("ph") == "f" and f.get("id") == \
                    k["args"]["correlation"] and f.get("ts") == old:
                f["ts"] = k["ts"]
        early.add(k["args"]["correlation"])
    doc["traceEvents"] = planted
    log = {"INFO": ["Tracing to temporary file /tmp/libkineto_activities_1.json"],
           "WARNING": ["CUPTI dropped 120 activity records", "Requested GPU activity buffer"],
           "ERROR": ["Failed to flush CUPTI activity buffers"]}
    doc.update(log)
    path = os.path.join(a.out, "planted.pt.trace.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    want_idle, want_orphans, want_steps = expected(planted)
    if want_idle < len(lost) or want_orphans < len(unlaunched):
        sys.exit("the planting did not take")
    failed = False
    health = health_of(a.cli, path)
    want_early = sum(1 for e in planted if e.get("cat") == "kernel"
                     and e["args"].get("correlation") in calls
                     and e["ts"] < calls[e["args"]["correlation"]]["ts"])
    if want_early < len(early):
        sys.exit("the early kernels were not planted")
    for check, want in (("launches_without_gpu_work", want_idle),
                        ("gpu_work_without_launch", want_orphans),
                        ("gpu_work_before_launch", want_early), ("truncated", 0)):
        got = health[check]["count"]
        sev = health[check]["severity"]
        ok = got == want and (sev == "warning") == (want > 0)
        print(f"{check}: expected {want}, gapscope {got} ({sev})" + ("" if ok else "  MISMATCH"))
        failed |= not ok
    messages = health["profiler_messages"]
    want_messages = len(log["WARNING"]) + len(log["ERROR"])
    ok = (messages["count"] == want_messages and messages["severity"] == "warning"
          and log["WARNING"][0] in (messages.get("first") or ""))
    print(f"profiler_messages: expected {want_messages} (warning, first "
          f"{log['WARNING'][0]!r}), gapscope {messages['count']} ({messages['severity']}, "
          f"{messages.get('first')!r})" + ("" if ok else "  MISMATCH"))
    failed |= not ok
    first = health["launches_without_gpu_work"]["first"]
    if first != "cudaLaunchKernel":
        print(f"first launch without GPU work is {first!r}, not cudaLaunchKernel")
        failed = True
    rc, out, err = run(a.cli, "advice", path, "--format", "json")
    findings = [f for f in json.loads(out)["findings"] if f.get("rule") == "missing-gpu-work"] \
        if rc == 0 else []
    # "… launch calls in steps 2, 3, 5 (and 1 outside steps): …": the list alone.
    listed = re.search(r" in steps? ([0-9, ]+)", findings[0]["message"]) if findings else None
    steps_named = sorted(int(n) for n in re.findall(r"\d+", listed.group(1))) if listed else None
    if steps_named != want_steps:
        print(f"advice: expected missing-gpu-work naming steps {want_steps}, got "
              f"{findings[0]['message'] if findings else 'no such finding'}")
        failed = True
    else:
        print(f"advice names steps {want_steps}")
    # The file cut in the middle: truncated, and said so.
    with open(path, "rb") as f:
        text = f.read()
    cut = os.path.join(a.out, "cut.pt.trace.json")
    with open(cut, "wb") as f:
        f.write(text[: len(text) // 2])
    got = health_of(a.cli, cut)["truncated"]
    ok = got["count"] == 1 and got["severity"] == "error"
    print(f"truncated file: {got['count']} ({got['severity']})" + ("" if ok else "  MISMATCH"))
    failed |= not ok
    rc, out, err = run(a.cli, "advice", cut, "--format", "json")
    rules = [f["rule"] for f in json.loads(out)["findings"]] if rc == 0 else []
    if "truncated-trace" not in rules:
        print(f"advice on the cut file: no truncated-trace finding ({rules})")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
