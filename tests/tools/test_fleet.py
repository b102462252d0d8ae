#!/usr/bin/env python3
"""The fleet summary on a real Dask LocalCluster of 2 worker processes
(CTest `fleet_local_cluster`), over a generated job with a planted straggler:

  - the fleet table equals the one `gapscope-cli ranks` computes file by
    file on one machine (every rank, step and straggler);
  - a worker killed in the middle of a task loses no trace: the task runs
    again on a worker that lives (the CLI given to the workers is a wrapper
    that kills the worker running it, once);
  - a trace that fails is listed with the CLI's error and does not stop the
    rest;
  - `gapscope-fleet reduce` over summaries the CLI wrote one by one (the
    Slurm job-array way) gives the same table.

Needs Debian's python3-dask and python3-distributed: exit 77 (skipped) when
they are missing, unless GAPSCOPE_REQUIRE_INPUTS=1 (CI), where it fails.

  test_fleet.py --source DIR --cli GAPSCOPE_CLI --shared DIR
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

WRAPPER = """#!/bin/sh
# Kills the Dask worker that runs it, the first time it is asked for {victim}.
for a in "$@"; do
  if [ "$a" = "{victim}" ] && [ ! -e "{marker}" ]; then
    : > "{marker}"
    kill -9 "$PPID"
    exit 99
  fi
done
exec "{cli}" "$@"
"""


def fail(why):
    print("test_fleet: FAIL: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    required = os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"
    try:
        import distributed  # noqa: F401
    except ImportError:
        if required:
            fail("python3-distributed is missing (packaging/install-deps.sh installs it)")
        print("test_fleet: skipped: no python3-dask / python3-distributed")
        sys.exit(77)
    gen = os.path.join(args.shared, "tools", "gen_trace.py")
    if not os.path.exists(gen):
        if required:
            fail("../shared is absent")
        print("test_fleet: skipped: ../shared is absent")
        sys.exit(77)

    with tempfile.TemporaryDirectory() as tmp:
        job = os.path.join(tmp, "job")
        made = subprocess.run(
            [sys.executable, os.path.join(args.source, "tests", "tools", "make_rank_set.py"),
             "--gen", gen, "--out", job, "--ranks", "4", "--steps", "4", "--straggler", "3",
             "--shift-us", "800"], capture_output=True, text=True, check=True)
        traces = made.stdout.split()
        broken = os.path.join(job, "rank9.pt.trace.json")
        with open(broken, "w") as f:
            f.write('{"traceEvents": [{"ph": "X", "ts": ')
        traces.append(broken)
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))

        # File by file on one machine.
        direct = subprocess.run([args.cli, "ranks", "--format", "json"] + traces,
                                capture_output=True, text=True, env=env)
        if direct.returncode != 0:
            fail("gapscope-cli ranks: exit %d: %s" % (direct.returncode, direct.stderr))
        want = json.loads(direct.stdout)

        # On the cluster, one worker killed mid-task.
        victim = traces[1]
        marker = os.path.join(tmp, "killed-once")
        wrapper = os.path.join(tmp, "gapscope-cli-killing")
        with open(wrapper, "w") as f:
            f.write(WRAPPER.format(victim=victim, marker=marker, cli=args.cli))
        os.chmod(wrapper, 0o755)
        out = os.path.join(tmp, "job.fleet.json")
        fleet_tool = os.path.join(args.source, "tools", "fleet", "gapscope-fleet")
        run = subprocess.run([sys.executable, fleet_tool, "summarize", "--local", "2",
                              "--cli", wrapper, "--out", out] + traces,
                             capture_output=True, text=True, env=env, timeout=600)
        if run.returncode != 0:
            fail("gapscope-fleet: exit %d: %s" % (run.returncode, run.stderr))
        with open(out) as f:
            got = json.load(f)

        if not os.path.exists(marker):
            fail("the wrapper never killed a worker: the test proved nothing")
        loaded = [r for r in want["ranks"] if "error" not in r]
        if len(loaded) != 4 or len(got["ranks"]) != 4:
            fail("expected 4 ranks each, got %d file by file and %d on the cluster"
                 % (len(loaded), len(got["ranks"])))
        for w, g in zip(loaded, got["ranks"]):
            if w != g:
                fail("rank %s differs:\n file by file: %s\n fleet:        %s"
                     % (w["rank"], json.dumps(w)[:2000], json.dumps(g)[:2000]))
        for key in ("stragglers", "aligned_on_step", "unaligned_ranks"):
            if want[key] != got[key]:
                fail("%s differ: %s vs %s" % (key, want[key], got[key]))
        if not got["stragglers"] or any(s["rank"] != 3 for s in got["stragglers"]):
            fail("the planted straggler (rank 3) is not every step's: %s" % got["stragglers"])
        failed = got["fleet"]["failed"]
        if len(failed) != 1 or failed[0]["file"] != broken or "rank9" not in failed[0]["error"]:
            fail("the broken trace is not listed with its error: %s" % failed)
        if got["fleet"]["traces"] != 5 or got["fleet"]["summarized"] != 4:
            fail("fleet counts: %s" % got["fleet"])

        # The Slurm way: one summary per trace written by the CLI, then reduce.
        summaries = []
        for i, t in enumerate(traces[:4]):
            path = os.path.join(tmp, "summary-%d.json" % i)
            with open(path, "w") as f:
                subprocess.run([args.cli, "summary", t, "--format", "json"], stdout=f,
                               env=env, check=True)
            summaries.append(path)
        reduced_out = os.path.join(tmp, "reduced.fleet.json")
        subprocess.run([sys.executable, fleet_tool, "reduce", "--out", reduced_out] + summaries,
                       capture_output=True, check=True)
        with open(reduced_out) as f:
            reduced = json.load(f)
        for key in ("ranks", "stragglers"):
            if reduced[key] != got[key]:
                fail("reduce of the summaries differs from the cluster's %s" % key)
    print("test_fleet: ok (4 ranks, %d stragglers, a worker killed and its trace redone, "
          "1 failed trace listed)" % len(got["stragglers"]))


if __name__ == "__main__":
    main()
