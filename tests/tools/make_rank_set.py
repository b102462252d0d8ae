#!/usr/bin/env python3
"""Writes the traces of a generated distributed job for the ranks tests.

Each rank is a trace of ../shared/tools/gen_trace.py (Kineto profile), its
distributedInfo.rank set to the rank, and optionally one rank planted as the
straggler: every time of its trace shifted later by --shift-us, so that it
enters every collective last by that much (with --same-seed, when all ranks
are otherwise the same trace, each other rank then waits exactly that long
in every step).

  make_rank_set.py --gen GEN_TRACE --out DIR --ranks 4 [--steps 5]
                   [--same-seed] [--straggler 2 --shift-us 1500]
                   [--no-rank-info] [--name 'worker{r}.pt.trace.json']

Prints the files written, one per line.
"""

import argparse
import decimal
import os
import re
import subprocess
import sys

TS = re.compile(rb'"ts": (-?[0-9]+(?:\.[0-9]+)?)')
RANK = re.compile(rb'("distributedInfo": \{"backend": "nccl", "rank": )0')


def shifted(text, shift_us):
    """Every "ts" value plus `shift_us`, in exact decimal (the digits kept)."""
    shift = decimal.Decimal(shift_us)

    def add(m):
        value = decimal.Decimal(m.group(1).decode()) + shift
        return b'"ts": ' + str(value).encode()

    return TS.sub(add, text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--same-seed", action="store_true")
    ap.add_argument("--straggler", type=int)
    ap.add_argument("--shift-us", default="0")
    ap.add_argument("--no-rank-info", action="store_true",
                    help="leave distributedInfo.rank 0 in every file (ranks from the names)")
    ap.add_argument("--name", default="rank{r}.pt.trace.json")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for r in range(args.ranks):
        path = os.path.join(args.out, args.name.format(r=r))
        seed = 1 if args.same_seed else 11 + r
        subprocess.run([sys.executable, args.gen, "--profile", "kineto", "--steps",
                        str(args.steps), "--seed", str(seed), "--out", path, "--quiet"],
                       check=True)
        with open(path, "rb") as f:
            text = f.read()
        if not args.no_rank_info:
            text, n = RANK.subn(rb"\g<1>%d" % r, text, count=1)
            if n != 1:
                sys.exit("make_rank_set: no distributedInfo rank in " + path)
        if args.straggler == r:
            text = shifted(text, args.shift_us)
        with open(path, "wb") as f:
            f.write(text)
        print(path)


if __name__ == "__main__":
    main()
