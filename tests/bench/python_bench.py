#!/usr/bin/env python3
"""The Python module's costs, as ratios against the load timed in the same run.

  PYTHONPATH=build/release/python /usr/bin/python3 tests/bench/python_bench.py TRACE [--runs N]

Times (best of N, default 3): gapscope.open without the index cache (the
reference), the reopen from the cache, Trace.slices() as a DataFrame of
every slice, slices of one kind, and a few analyses' DataFrames, each
computed once (the first builds the analysis index) and asked again. Prints one Markdown table for
docs/performance.md ("The Python module"). Use a Release build: the
machines are shared and noisy, so compare ratios, not seconds.
"""

import argparse
import os
import sys
import tempfile
import time

import gapscope


def best(runs, work):
    times = []
    value = None
    for _ in range(runs):
        started = time.perf_counter()
        value = work()
        times.append(time.perf_counter() - started)
    return min(times), value


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trace")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        load, trace = best(args.runs, lambda: gapscope.open(args.trace, cache=False))
        gapscope.open(args.trace, cache_dir=cache)  # writes the entry
        reopen, _ = best(args.runs, lambda: gapscope.open(args.trace, cache_dir=cache))
        rows.append(("open (parse; the reference)", load, None))
        rows.append(("open again (index cache)", reopen, None))
        seconds, frame = best(args.runs, trace.slices)
        rows.append(("slices(): %d slices" % len(frame.index), seconds, None))
        seconds, kernels = best(args.runs, lambda: trace.slices(kind="kernel"))
        rows.append(("slices(kind='kernel'): %d" % len(kernels.index), seconds, None))
        seconds, _ = best(1, lambda: trace._native.slice_count and trace.info())
        rows.append(("info() first (the analysis index built)", seconds, None))
        for name in ("account", "gaps", "steps", "kernels", "ops"):
            seconds, frame = best(1, getattr(trace, name))
            rows.append(("%s(): %d rows, computed" % (name, len(frame.index)), seconds, None))
            seconds, frame = best(args.runs, getattr(trace, name))
            rows.append(("%s() again (the result remembered)" % name, seconds, None))
    size = os.path.getsize(args.trace)
    print("%s, %.0f MB, best of %d\n" % (os.path.basename(args.trace), size / 1e6, args.runs))
    print("| what | s | / load |")
    print("|---|---|---|")
    for what, seconds, _ in rows:
        print("| %s | %.3f | %.1f %% |" % (what, seconds, 100 * seconds / load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
