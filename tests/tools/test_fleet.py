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
  - summaries written before steps listed their collectives, aligned on a
    step, move once (a small job compared in this process);
  - `gapscope-fleet reduce` over summaries the CLI wrote one by one (the
    Slurm job-array way) gives the same table;
  - a job array (tools/fleet/summarize-array.sbatch run task by task) over
    traces that state no rank, one of which fails: `reduce --traces` gives
    the table `summarize` gives (the ranks numbered over the whole list,
    the failed trace listed with the task's .error), and a task that left
    nothing is listed as failed without shifting any rank.

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


def fleet_of(path):
    with open(path) as f:
        fleet = json.load(f)
    fleet["fleet"].pop("scheduler")
    return fleet


def flat_of_fleet(doc):
    """A fleet table (nested: ranks, their steps, the stragglers) as the
    rows `gapscope-cli ranks --format json` writes, to compare the two."""
    ranks = [(r["rank"], r["file"], r["origin"]) for r in doc["ranks"] if "error" not in r]
    steps = [(r["rank"], s["number"], s["start_ns"], s["end_ns"] - s["start_ns"], s["busy_ns"],
              s["idle_ns"], s["comm_ns"], s["exposed_comm_ns"], s["collective_enter_ns"],
              s["wait_ns"], s["transfer_ns"])
             for r in doc["ranks"] if "error" not in r for s in r["steps"]]
    stragglers = [(s["step"], s["rank"], s["collective"], s["entered_ns"], s["others_wait_ns"],
                   s["waiting_ranks"], s["longest_wait_ns"], s["longest_wait_rank"])
                  for s in doc["stragglers"]]
    collectives = [(r["rank"], s["number"], c["name"], c["enter_ns"], c["end_ns"], c["work_before"])
                   for r in doc["ranks"] if "error" not in r for s in r["steps"]
                   for c in s["collectives"]]
    return {"ranks": ranks, "steps": steps, "stragglers": stragglers,
            "collectives": collectives, "aligned_on_step": doc["aligned_on_step"],
            "unaligned_ranks": doc["unaligned_ranks"] if doc["aligned_on_step"] is not None
            else None}


def flat_of_ranks(doc):
    """`gapscope-cli ranks --format json` in the shape of flat_of_fleet."""
    ranks = [(r["rank"], r["file"], r["origin"]) for r in doc["ranks"] if r["error"] is None]
    steps = [(s["rank"], s["step"], s["start_ns"], s["duration_ns"], s["busy_ns"], s["idle_ns"],
              s["comm_ns"], s["exposed_comm_ns"], s["entered_ns"], s["wait_ns"],
              s["transfer_ns"])
             for s in doc["rank_steps"] if s["error"] is None]
    stragglers = [(s["step"], s["rank"], s["collective"], s["entered_ns"], s["others_wait_ns"],
                   s["waiting_ranks"], s["longest_wait_ns"], s["longest_wait_rank"])
                  for s in doc["stragglers"]]
    collectives = [(c["rank"], c["step"], c["collective"], c["enter_ns"], c["end_ns"],
                    c["work_before"]) for c in doc["collectives"]]
    aligned = doc["aligned_on_step"] is not None
    unaligned = [r["rank"] for r in doc["ranks"] if r["aligned"] is False] if aligned else None
    return {"ranks": ranks, "steps": steps, "stragglers": stragglers,
            "collectives": collectives, "aligned_on_step": doc["aligned_on_step"],
            "unaligned_ranks": unaligned}


def make_anonymous_job(args, gen, job):
    """Traces whose rank only their place in the list says (no rank in their
    names nor in their distributedInfo), a broken one second: every later
    rank is right only if the failed trace is counted."""
    made = subprocess.run(
        [sys.executable, os.path.join(args.source, "tests", "tools", "make_rank_set.py"),
         "--gen", gen, "--out", job, "--ranks", "4", "--steps", "3", "--straggler", "2",
         "--shift-us", "800", "--no-rank-info", "--name", "host-{r}.pt.trace.json"],
        capture_output=True, text=True, check=True)
    traces = made.stdout.split()
    stated = b'"distributedInfo": {"backend": "nccl", "rank": 0, '
    for t in traces:
        with open(t, "rb") as f:
            text = f.read()
        if text.count(stated) != 1:
            fail("%s: no distributedInfo rank to take out" % t)
        with open(t, "wb") as f:
            f.write(text.replace(stated, b'"distributedInfo": {"backend": "nccl", '))
    broken = os.path.join(job, "host-x.pt.trace.json")
    with open(broken, "w") as f:
        f.write('{"traceEvents": [{"ph": "X", "ts": ')
    return traces[:1] + [broken] + traces[1:]


def run_array(args, traces, tmp, env):
    """Runs summarize-array.sbatch once per task, as Slurm would: the
    summaries folder it leaves."""
    listing = os.path.join(tmp, "traces.txt")
    with open(listing, "w") as f:
        f.write("".join(t + "\n" for t in traces))
    bin_dir = os.path.join(tmp, "bin")
    os.makedirs(bin_dir)
    os.symlink(os.path.abspath(args.cli), os.path.join(bin_dir, "gapscope-cli"))
    script = os.path.join(args.source, "tools", "fleet", "summarize-array.sbatch")
    out = os.path.join(tmp, "summaries")
    for task, t in enumerate(traces):
        task_env = dict(env, SLURM_ARRAY_TASK_ID=str(task),
                        PATH=bin_dir + os.pathsep + env.get("PATH", ""))
        done = subprocess.run(["bash", script, listing, out], capture_output=True, text=True,
                              env=task_env)
        if (done.returncode == 0) != (task != 1):
            fail("array task %d (%s): exit %d: %s" % (task, t, done.returncode, done.stderr))
    left = sorted(os.listdir(out))
    want = sorted(["%d.json" % i for i in range(len(traces)) if i != 1] + ["1.error"])
    if left != want:
        fail("the array left %s in its folder, not %s" % (left, want))
    return listing, out


def reduce_array(fleet_tool, listing, summaries, out, check=True):
    done = subprocess.run([sys.executable, fleet_tool, "reduce", "--traces", listing, summaries,
                           "--out", out], capture_output=True, text=True)
    if check and done.returncode != 0:
        fail("reduce --traces: exit %d: %s" % (done.returncode, done.stderr))
    return done


def check_array(args, gen, tmp, env, fleet_tool):
    """The job array's reduce against `summarize` over the same list."""
    traces = make_anonymous_job(args, gen, os.path.join(tmp, "anonymous"))
    out = os.path.join(tmp, "anonymous.fleet.json")
    run = subprocess.run([sys.executable, fleet_tool, "summarize", "--local", "2", "--cli",
                          args.cli, "--out", out] + traces,
                         capture_output=True, text=True, env=env, timeout=600)
    if run.returncode != 0:
        fail("gapscope-fleet summarize: exit %d: %s" % (run.returncode, run.stderr))
    want = fleet_of(out)
    numbered = [(r["file"], r["rank"], r["origin"]) for r in want["ranks"]]
    if numbered != [(t, i, "order") for i, t in enumerate(traces) if i != 1]:
        fail("summarize did not number the ranks by their place in the list: %s" % numbered)
    if [f["file"] for f in want["fleet"]["failed"]] != [traces[1]]:
        fail("summarize did not list the broken trace: %s" % want["fleet"]["failed"])
    direct = subprocess.run([args.cli, "ranks", "--format", "json"] + traces,
                            capture_output=True, text=True, env=env)
    if flat_of_ranks(json.loads(direct.stdout))["ranks"] != flat_of_fleet(want)["ranks"]:
        fail("gapscope-cli ranks and summarize number the ranks of the list differently")

    listing, summaries = run_array(args, traces, tmp, env)
    reduced = os.path.join(tmp, "array.fleet.json")
    reduce_array(fleet_tool, listing, summaries, reduced)
    got = fleet_of(reduced)
    if got != want:
        fail("reduce --traces differs from summarize:\n summarize: %s\n reduce:    %s"
             % (json.dumps(want)[:3000], json.dumps(got)[:3000]))

    # The task killed before it wrote anything: the same ranks, and its trace
    # listed with a pointer to its log.
    os.remove(os.path.join(summaries, "1.error"))
    reduce_array(fleet_tool, listing, summaries, reduced)
    got = fleet_of(reduced)
    missing = {"file": traces[1],
               "error": "no summary written by array task 1 (see its Slurm log)"}
    if got["ranks"] != want["ranks"] or got["fleet"]["failed"] != [missing]:
        fail("reduce --traces without 1.error: ranks %s, failed %s"
             % ([(r["file"], r["rank"]) for r in got["ranks"]], got["fleet"]["failed"]))

    # A good trace's task lost as well: the others keep their ranks.
    os.remove(os.path.join(summaries, "3.json"))
    reduce_array(fleet_tool, listing, summaries, reduced)
    got = fleet_of(reduced)
    kept = [(r["file"], r["rank"], r["origin"]) for r in got["ranks"]]
    if kept != [n for n in numbered if n[0] != traces[3]]:
        fail("a lost task shifted the ranks: %s, not %s" % (kept, numbered))
    lost = {"file": traces[3], "error": "no summary written by array task 3 (see its Slurm log)"}
    if got["fleet"]["failed"] != [missing, lost] or got["fleet"]["traces"] != len(traces):
        fail("reduce --traces with two tasks lost: %s" % got["fleet"])

    # Another job's summary in the folder: refused, not mixed in.
    with open(os.path.join(summaries, "0.json")) as f:
        other = json.load(f)
    for r in other["ranks"]:
        r["file"] = os.path.join(tmp, "elsewhere", "host-9.pt.trace.json")
    with open(os.path.join(summaries, "9.json"), "w") as f:
        json.dump(other, f)
    done = reduce_array(fleet_tool, listing, summaries, reduced, check=False)
    if done.returncode == 0 or "9.json" not in done.stderr or "not in" not in done.stderr:
        fail("reduce --traces took another job's summary: exit %d: %s"
             % (done.returncode, done.stderr))


def check_old_summaries_aligned(source):
    """Summaries written before steps listed their collectives, aligned on a
    step: each time moves once (rank 1's step starts 1000 ns later and it
    enters 1060 ns after; aligned, it enters at 60, 10 ns after rank 0)."""
    sys.path.insert(0, os.path.join(source, "tools", "fleet"))
    import gapscope_fleet

    def rank(r, start, enter):
        step = {"number": 1, "name": "ProfilerStep#1", "start_ns": start,
                "end_ns": start + 500, "collective": "ncclAllReduce",
                "collective_enter_ns": enter, "collective_end_ns": enter + 100,
                "wait_ns": None, "transfer_ns": None,
                "longest_work_before": {"name": "fwd", "where": "cpu", "start_ns": start,
                                        "end_ns": enter, "ns": enter - start}}
        return {"rank": r, "steps": [step], "totals": {}}

    ranks = [rank(0, 0, 50), rank(1, 1000, 1060)]
    c = gapscope_fleet.compare(ranks, align_step=1)
    s1 = ranks[1]["steps"][0]
    if s1["collective_enter_ns"] != 60 or s1["longest_work_before"]["start_ns"] != 0:
        fail("an old summary moved twice when aligned: %s" % s1)
    if [(x["rank"], x["others_wait_ns"]) for x in c["stragglers"]] != [(1, 10)]:
        fail("old summaries, aligned: stragglers %s" % c["stragglers"])


def check_read_back(source, path, tmp):
    """A file of `gapscope-cli ranks --format json` read back: its rank
    nested from the tables; the earlier summary's "rank" object read as it
    was; a file damaged in any of the ways below is refused with its name
    and why, never a traceback."""
    sys.path.insert(0, os.path.join(source, "tools", "fleet"))
    import gapscope_fleet

    with open(path) as f:
        doc = json.load(f)
    trace, ranks, error = gapscope_fleet.read_summary(path)
    if error or len(ranks) != 1 or trace != doc["ranks"][0]["file"]:
        fail("read back %s: %s %s" % (path, error, ranks))
    rank = ranks[0]
    if [s["number"] for s in rank["steps"]] != [s["step"] for s in doc["rank_steps"]] or \
            sum(len(s["collectives"]) for s in rank["steps"]) != len(doc["collectives"]) or \
            rank["totals"]["busy_ns"] != sum(s["busy_ns"] for s in doc["rank_steps"]):
        fail("the rank nested from %s lost rows: %s" % (path, json.dumps(rank)[:2000]))
    legacy = os.path.join(tmp, "legacy.json")
    with open(legacy, "w") as f:
        json.dump({"trace": trace, "tables": {}, "rank": rank}, f)
    if gapscope_fleet.read_summary(legacy)[1] != [rank]:
        fail("an earlier summary's rank object is not read as it was")

    def damaged(why, change):
        bad = json.loads(json.dumps(doc))
        change(bad)
        where = os.path.join(tmp, "damaged.json")
        with open(where, "w") as f:
            json.dump(bad, f)
        _, got, err = gapscope_fleet.read_summary(where)
        if got is not None or not err or "damaged.json" not in err:
            fail("a file with %s was read: %s %s" % (why, got, err))

    damaged("one collective too many", lambda d: d["rank_steps"][0].update(
        collectives=d["rank_steps"][0]["collectives"] + 1))
    damaged("no collectives table", lambda d: d.pop("collectives"))
    damaged("a step row without its busy time", lambda d: d["rank_steps"][0].pop("busy_ns"))
    damaged("another analysis", lambda d: d.update(analysis="kernels"))
    damaged("no ranks", lambda d: d.update(ranks=[]))
    damaged("ranks of the wrong type", lambda d: d.update(ranks=7))
    damaged("a collective under another step", lambda d: d["collectives"][0].update(step=-5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--shared", required=True)
    args = ap.parse_args()
    required = os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1"
    check_old_summaries_aligned(args.source)  # no cluster needed
    try:
        import distributed  # noqa: F401
    except ImportError:
        if required:
            fail("python3-distributed is missing (packaging/install-deps.sh installs it)")
        print("test_fleet: skipped: no python3-dask / python3-distributed")
        sys.exit(77)
    # GAPSCOPE_SHARED_DIR overrides the configured folder, as for the C++
    # suites (CI points it nowhere to test a clone without ../shared).
    shared = os.environ.get("GAPSCOPE_SHARED_DIR") or args.shared
    gen = os.path.join(shared, "tools", "gen_trace.py")
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
        flat_want, flat_got = flat_of_ranks(want), flat_of_fleet(got)
        if len(flat_want["ranks"]) != 4 or len(got["ranks"]) != 4:
            fail("expected 4 ranks each, got %d file by file and %d on the cluster"
                 % (len(flat_want["ranks"]), len(got["ranks"])))
        for key in ("ranks", "steps", "stragglers", "collectives", "aligned_on_step",
                    "unaligned_ranks"):
            if flat_want[key] != flat_got[key]:
                fail("%s differ:\n file by file: %s\n fleet:        %s"
                     % (key, json.dumps(flat_want[key])[:2000], json.dumps(flat_got[key])[:2000]))
        if not got["stragglers"] or any(s["rank"] != 3 for s in got["stragglers"]):
            fail("the planted straggler (rank 3) is not every step's: %s" % got["stragglers"])
        failed = got["fleet"]["failed"]
        if len(failed) != 1 or failed[0]["file"] != broken or "rank9" not in failed[0]["error"]:
            fail("the broken trace is not listed with its error: %s" % failed)
        if got["fleet"]["traces"] != 5 or got["fleet"]["summarized"] != 4:
            fail("fleet counts: %s" % got["fleet"])

        # The Slurm way: each trace's ranks written by the CLI, then reduce.
        summaries = []
        for i, t in enumerate(traces[:4]):
            path = os.path.join(tmp, "summary-%d.json" % i)
            with open(path, "w") as f:
                subprocess.run([args.cli, "ranks", t, "--format", "json"], stdout=f,
                               env=env, check=True)
            summaries.append(path)
        check_read_back(args.source, summaries[0], tmp)
        reduced_out = os.path.join(tmp, "reduced.fleet.json")
        subprocess.run([sys.executable, fleet_tool, "reduce", "--out", reduced_out] + summaries,
                       capture_output=True, check=True)
        with open(reduced_out) as f:
            reduced = json.load(f)
        for key in ("ranks", "stragglers"):
            if reduced[key] != got[key]:
                fail("reduce of the summaries differs from the cluster's %s" % key)
        stragglers = len(got["stragglers"])

        check_array(args, gen, tmp, env, fleet_tool)
    print("test_fleet: ok (4 ranks, %d stragglers, a worker killed and its trace redone, "
          "1 failed trace listed; a job array with a failed and a lost task reduced as "
          "summarize numbers it)" % stragglers)


if __name__ == "__main__":
    main()
