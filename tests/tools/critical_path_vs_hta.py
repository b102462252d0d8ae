#!/usr/bin/env python3
"""Our critical path against Holistic Trace Analysis's (HTA 0.5.0, run beside
us by tests/tools/hta_critical_path.py) on HTA's own critical-path traces:
the path's length, its composition by what bounded it (HTA's bound_by) and
the events on it (those HTA's overlaid trace marks "critical": 1) must be
equal. Each case clips to the window HTA uses for its test's annotation and
instance (`gapscope-cli critical-path --slices --range` of the same bounds).

Usage: critical_path_vs_hta.py --cli GAPSCOPE_CLI [--hta DIR] TRACES_DIR

TRACES_DIR is ../shared/traces/hta/tests/data. Exits 0 when every case
agrees, 1 otherwise (each difference printed), 77 when HTA or its Python
packages are missing (1 with GAPSCOPE_REQUIRE_INPUTS=1).
"""

import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ALEXNET_FORWARD = "[param|pytorch.model.alex_net|0|0|0|measure|forward]"
# (folder, annotation, instance) as HTA's tests pass them.
CASES = [
    ("critical_path/simple_add", ALEXNET_FORWARD, "1"),
    ("critical_path/alexnet", ALEXNET_FORWARD, "1"),
    ("critical_path/cuda_event_sync", "ProfilerStep", "0"),
    ("critical_path/cuda_event_sync_multi_stream", "", "none"),
    ("critical_path/end_to_end/simple_add/input", "", "0"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--hta", default=None)
    ap.add_argument("traces")
    args = ap.parse_args()
    require = os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"

    def unavailable(msg):
        print("critical_path_vs_hta: %s%s" % (
            msg, " (GAPSCOPE_REQUIRE_INPUTS is set)" if require else "; skipped"), file=sys.stderr)
        sys.exit(1 if require else 77)

    # (CI names a missing ../shared by GAPSCOPE_SHARED_DIR, as a person's
    # clone without it would be.)
    env_shared = os.environ.get("GAPSCOPE_SHARED_DIR")
    if env_shared and not os.path.isdir(env_shared):
        unavailable("../shared is absent (GAPSCOPE_SHARED_DIR=%s)" % env_shared)
    if not os.path.isdir(args.traces):
        unavailable("no HTA test traces at %s" % args.traces)
    try:
        import networkx  # noqa: F401  (HTA's dependencies)
        import pandas  # noqa: F401
    except ImportError as exc:
        unavailable("HTA needs %s" % exc.name)

    failures = 0
    for folder, annotation, instance in CASES:
        path = os.path.join(args.traces, folder)
        hta_cmd = [sys.executable, os.path.join(HERE, "hta_critical_path.py"),
                   "--annotation", annotation, "--instance", instance]
        if args.hta:
            hta_cmd += ["--hta", args.hta]
        run = subprocess.run(hta_cmd + [path], capture_output=True, text=True)
        if run.returncode != 0:
            # (HTA's absence skips, but only at the first case: a difference
            # found earlier is never hidden.)
            last = (run.stderr.strip().splitlines() or [""])[-1]
            if folder == CASES[0][0] and ("source is absent" in last or "dependencies" in last):
                unavailable(last)
            print("%s: HTA failed:\n%s" % (folder, run.stderr[-2000:]))
            failures += 1
            continue
        hta = json.loads(run.stdout)
        trace = sorted(glob.glob(os.path.join(path, "*.json*")))[0]
        ours_cmd = [args.cli, "critical-path", trace, "--slices", "--format", "json"]
        if hta.get("window_abs_ns"):
            ours_cmd += ["--range", "%d:%d" % tuple(hta["window_abs_ns"])]
        ours = json.loads(subprocess.run(ours_cmd, capture_output=True, text=True,
                                         check=True).stdout)

        problems = []
        if ours["path_ns"] != hta["path_ns"]:
            problems.append("path %s ns, HTA's %s ns" % (ours["path_ns"], hta["path_ns"]))
        ours_by = {r["bound_by"]: r["ns"] for r in ours["composition"] if r["ns"]}
        hta_by = {k: v for k, v in hta["by_bound_by"].items() if k and v}
        if ours_by != hta_by:
            problems.append("composition %s, HTA's %s" % (ours_by, hta_by))
        # HTA's events: [index, name, ts µs, dur µs] of a µs-integer trace.
        hta_events = {(e[1], int(round(e[2] * 1000)), int(round(e[3] * 1000)))
                      for e in hta["events_on_path"]}
        ours_events = {(r["name"], r["start_ns"], r["duration_ns"]) for r in ours["path_slices"]}
        if ours_events != hta_events:
            only_ours = sorted(ours_events - hta_events, key=lambda e: e[1])[:5]
            only_hta = sorted(hta_events - ours_events, key=lambda e: e[1])[:5]
            problems.append("events on the path: %d ours, %d HTA's; only ours %s, only HTA's %s" % (
                len(ours_events), len(hta_events), only_ours, only_hta))
        print("%-50s path %12d ns  %4d events  %s" % (
            folder, ours["path_ns"], len(ours_events), "agrees" if not problems else "DIFFERS"))
        for p in problems:
            print("    " + p)
        failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
