#!/usr/bin/env python3
"""The flow steps and ends of a Chrome-format trace whose flow has no start
(`s`) in the file, the earliest first, one per line: "TS_NS PID TID", the
time in integer ns (the trace's us times times 1000, rounded). What Trace
Health's orphan_flow_events instances are read against, by the format's
definition (flows are grouped by category and id, or id2).

  orphan_flows.py TRACE[.gz] [--first N]
"""
import argparse
import gzip
import json
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--first", type=int, default=5)
    a = ap.parse_args()
    opener = gzip.open if a.trace.endswith(".gz") else open
    with opener(a.trace, "rt") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    flows = defaultdict(list)
    for e in events:
        if e.get("ph") in ("s", "t", "f"):
            key = (e.get("cat"), json.dumps(e.get("id")), json.dumps(e.get("id2")))
            flows[key].append(e)
    orphans = [e for group in flows.values() if not any(x["ph"] == "s" for x in group)
               for e in group]
    orphans.sort(key=lambda e: float(e["ts"]))
    for e in orphans[:a.first]:
        print(round(float(e["ts"]) * 1000), e["pid"], e["tid"])


if __name__ == "__main__":
    main()
