#!/usr/bin/env python3
"""Checks that Gapscope demangles kernel names as binutils' c++filt does.

For each trace: the kernel names as the file writes them (Python's json
module; events of category kernel / Kernel), each put through `c++filt`
(which leaves a name it cannot demangle as it is), must be exactly the set
of names `gapscope-cli kernels --format json` reports, with the same count
per name.

Usage: demangle_check.py --cli GAPSCOPE_CLI TRACE...   (exit 77: no c++filt)
"""
import argparse
import collections
import gzip
import json
import shutil
import subprocess
import sys


def fail(why):
    print("demangle_check: FAIL: " + why, file=sys.stderr)
    sys.exit(1)


def raw_kernels(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return collections.Counter(e["name"] for e in events
                               if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel"))


def cxxfilt(names):
    # One name per line in, one per line out, in order.
    out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return dict(zip(names, out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    if not shutil.which("c++filt"):
        print("demangle_check: skipped: no c++filt (binutils)")
        sys.exit(77)
    demangled_any = 0
    for trace in args.traces:
        raw = raw_kernels(trace)
        names = sorted(raw)
        readable = cxxfilt(names)
        want = collections.Counter()
        for n in names:
            want[readable[n]] += raw[n]
            demangled_any += readable[n] != n
        out = subprocess.run([args.cli, "kernels", trace, "--format", "json", "--no-cache"],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            fail(f"{args.cli} kernels {trace}: {out.stderr.strip()}")
        got = collections.Counter({k["name"]: k["count"]
                                   for k in json.loads(out.stdout)["kernels"]})
        if got != want:
            extra = sorted(set(got) - set(want))[:3]
            missing = sorted(set(want) - set(got))[:3]
            fail(f"{trace}: names differ from c++filt's; only ours: {extra}; only c++filt's: "
                 f"{missing}")
    if demangled_any == 0:
        fail("no name of these traces demangles: nothing was checked")
    print(f"demangle_check: ok ({len(args.traces)} traces, {demangled_any} names demangled)")


if __name__ == "__main__":
    main()
