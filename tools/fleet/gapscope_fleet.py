"""The fleet summary: the registered `ranks` analysis (`gapscope-cli ranks
TRACE --format json`) mapped over many traces on a Dask cluster, reduced to
one table of ranks x steps with the stragglers: the fleet table (nested JSON,
docs/cli.md, plus a "fleet" object), which the viewer opens. Each rank's
figures are the registered tables' rows (ranks, rank_steps, collectives),
nested; only the comparison of the ranks is done here.

A job with a thousand ranks writes more trace than a workstation opens: each
trace is summarised where it lies (one Dask task per trace runs the CLI on
the worker that reads it) and only the small summaries travel. The reduce
numbers the ranks and names the stragglers exactly as `gapscope-cli ranks`
does (docs/scale-out.md); a test holds every rank, step and straggler of the
two against each other.

Failure handling:
  - a worker that dies mid-task (killed, out of memory) loses no trace: the
    scheduler gives its tasks to another worker (distributed's
    allowed-failures);
  - a task that raises (the CLI could not be started, timed out) is retried
    `--retries` times;
  - a trace the CLI cannot read is not retried: it is listed under
    fleet.failed with the CLI's one-line error, and the rest go on;
  - a Slurm job array's task that left no summary (`reduce --traces`) is
    listed under fleet.failed with the error it wrote (N.error), else a
    pointer to its log, and shifts no other rank.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid

GAP_CAUSES = ("input", "synchronization", "communication", "host", "other")


# ----------------------------------------------------------------------------
# Map: one trace


class CliFailed(Exception):
    """The CLI could not be run at all (not a trace problem): retried."""


def ranks_of_result(doc):
    """The rank objects of one file's `gapscope-cli ranks --format json`: each
    row of its `ranks` table with its `rank_steps` rows, each step with its
    `collectives` rows (written in the steps' order; a step's row says how
    many), nested as the fleet table's. Raises KeyError/TypeError/ValueError
    on a document of another shape."""
    if doc.get("analysis") != "ranks":
        raise ValueError("not the ranks analysis's JSON")
    steps_of, collectives_of = {}, {}
    for s in doc["rank_steps"]:
        if s["error"] is None:
            steps_of.setdefault(s["rank"], []).append(s)
    for c in doc["collectives"]:
        collectives_of.setdefault(c["rank"], []).append(c)
    out = []
    for r in doc["ranks"]:
        if r["error"] is not None:
            continue
        pending = iter(collectives_of.get(r["rank"], []))
        steps = []
        for s in steps_of.get(r["rank"], []):
            collectives = []
            for _ in range(s["collectives"]):
                c = next(pending)
                if c["step"] != s["step"]:
                    raise ValueError("rank %d: a collective of step %d is listed under step %d"
                                     % (r["rank"], c["step"], s["step"]))
                collectives.append({"name": c["collective"], "enter_ns": c["enter_ns"],
                                    "end_ns": c["end_ns"], "work_before": c["work_before"]})
            by_cause = {cause: s["idle_%s_ns" % cause] for cause in GAP_CAUSES}
            by_cause["short"] = s["idle_short_ns"]
            steps.append({"name": s["name"], "number": s["step"], "start_ns": s["start_ns"],
                          "end_ns": s["end_ns"], "duration_ns": s["duration_ns"],
                          "busy_ns": s["busy_ns"], "idle_ns": s["idle_ns"],
                          "idle_by_cause": by_cause, "comm_ns": s["comm_ns"],
                          "exposed_comm_ns": s["exposed_comm_ns"],
                          "collective": s["collective"],
                          "collective_enter_ns": s["entered_ns"],
                          "collective_end_ns": s["collective_end_ns"],
                          "wait_ns": s["wait_ns"], "transfer_ns": s["transfer_ns"],
                          "longest_work_before": s["longest_work_before"],
                          "collectives": collectives})
        out.append({"rank": r["rank"], "file": r["file"], "part": r["part"], "host": r["host"],
                    "origin": r["origin"], "device": r["device"],
                    "step_source": r["step_source"], "offset_ns": r["offset_ns"],
                    "steps": steps,
                    "totals": {"steps": r["steps"], "duration_ns": r["duration_ns"],
                               "gpu_time_ns": r["gpu_time_ns"], "busy_ns": r["busy_ns"],
                               "comm_ns": r["comm_ns"], "exposed_comm_ns": r["exposed_comm_ns"],
                               "wait_ns": r["wait_ns"], "transfer_ns": r["transfer_ns"]}})
    if not out:
        raise ValueError("no rank in it")
    return out


def summarize_one(trace, cli, extra_args, timeout_s):
    """Runs on a worker: the trace's ranks (`gapscope-cli ranks TRACE`, one
    rank, or one per process of a file of several).

    Returns {"file", "ranks": [{...}]} or {"file", "error", "exit"}.
    """
    cmd = [cli, "ranks", trace, "--format", "json"] + list(extra_args)
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout_s, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CliFailed("%s: %s" % (trace, e)) from e
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return {"file": trace, "error": lines[-1] if lines else "exit %d" % done.returncode,
                "exit": done.returncode}
    try:
        return {"file": trace, "ranks": ranks_of_result(json.loads(done.stdout))}
    except (ValueError, KeyError, TypeError, StopIteration) as e:
        raise CliFailed("%s: unreadable ranks JSON from %s: %s" % (trace, cli, e)) from e


# ----------------------------------------------------------------------------
# Reduce: the ranks and the stragglers (as analysis/rank_comparison.h)


def number_ranks(records):
    """Ranks stated by the trace first, then by file name, then by order;
    a rank taken already goes to the next free one (max + 1). `records` are
    in input order: (file, rank object or None). Returns (ranks, warnings):
    each rank object with its final "rank"."""
    taken = set()
    warnings = []
    final = [None] * len(records)

    def claim(i, rank, origin):
        obj = records[i][1]
        if rank in taken:
            nxt = max(taken) + 1
            warnings.append("%s says rank %d, which another file has: shown as rank %d"
                            % (os.path.basename(records[i][0]), rank, nxt))
            rank = nxt
        taken.add(rank)
        final[i] = (rank, origin)

    for i, (_, obj) in enumerate(records):
        if obj is not None and obj["origin"] == "trace":
            claim(i, obj["rank"], "trace")
    for i, (_, obj) in enumerate(records):
        if final[i] is None and obj is not None and obj["origin"] == "file name":
            claim(i, obj["rank"], "file name")
    for i in range(len(records)):
        if final[i] is None:
            obj = records[i][1]
            if obj is not None:
                claim(i, i, "order")
    out = []
    for i, (_, obj) in enumerate(records):
        if obj is None:
            continue
        obj = dict(obj)
        obj["rank"], obj["origin"] = final[i]
        out.append(obj)
    out.sort(key=lambda r: r["rank"])
    return out, warnings


def _shift(rank, by):
    rank["offset_ns"] = by
    for s in rank["steps"]:
        s["start_ns"] += by
        s["end_ns"] += by
        for k in ("collective_enter_ns", "collective_end_ns"):
            if s[k] is not None:
                s[k] += by
        works = [s["longest_work_before"]]
        for c in s["collectives"]:  # made by compare() before any shift
            c["enter_ns"] += by
            c["end_ns"] += by
            works.append(c.get("work_before"))
        for w in works:
            if w is not None:
                w["start_ns"] += by
                w["end_ns"] += by


_INT64_MAX = 2**63 - 1


def _saturated(v):
    """As the C++ engine's int64 arithmetic: capped, never wrapped."""
    return max(-_INT64_MAX - 1, min(_INT64_MAX, v))


def _collectives(step):
    """The step's collectives; a file written before the list (or with an
    empty one) has the step's one, when its entry is not after its end."""
    if not step.get("collectives"):
        step["collectives"] = []
        enter, end = step.get("collective_enter_ns"), step.get("collective_end_ns")
        if enter is not None and end is not None and enter <= end:
            w = step.get("longest_work_before")
            step["collectives"].append({"name": step.get("collective") or "",
                                        "enter_ns": enter, "end_ns": end,
                                        "work_before": dict(w) if w else None})
    for c in step["collectives"]:
        if c.get("name") is None:
            c["name"] = ""
    return step["collectives"]


def _steps_collective(members):
    """Of the steps' collectives matched by (name, occurrence), the match of
    two ranks or more with the largest total wait (the earlier latest entry
    on a tie): [(rank, step, collective)] in rank order, or []."""
    matched = {}
    for r, s in members:
        seen = {}
        for c in _collectives(s):
            k = (c["name"], seen.get(c["name"], 0))
            seen[c["name"]] = k[1] + 1
            matched.setdefault(k, []).append((r, s, c))
    best, best_wait, best_last = [], -1, 0
    for k in sorted(matched):
        group = matched[k]
        if len(group) < 2:
            continue
        last = max(c["enter_ns"] for _, _, c in group)
        wait = 0
        for _, _, c in group:
            wait = _saturated(wait + _saturated(last - c["enter_ns"]))
        if not best or wait > best_wait or (wait == best_wait and last < best_last):
            best, best_wait, best_last = group, wait, last
    return best


def compare(ranks, align_step=None):
    """Fills each step's wait_ns and the totals; returns the comparison."""
    unaligned = []
    for r in ranks:  # every step's list, before any shift moves the fields it is made of
        for s in r["steps"]:
            _collectives(s)
    if align_step is not None:
        reference = None
        for r in ranks:
            step = next((s for s in r["steps"] if s["number"] == align_step), None)
            if step is None:
                unaligned.append(r["rank"])
                continue
            if reference is None:
                reference = step["start_ns"]
            _shift(r, reference - step["start_ns"])
    by_step = {}
    for r in ranks:
        for s in r["steps"]:
            if _collectives(s):
                by_step.setdefault(s["number"], []).append((r, s))
    stragglers = []
    for number in sorted(by_step):
        entered = _steps_collective(by_step[number])
        if len(entered) < 2:
            continue
        last_rank, last, last_c = entered[0]
        for r, s, c in entered:
            if c["enter_ns"] > last_c["enter_ns"]:
                last_rank, last, last_c = r, s, c
        others = 0
        longest, longest_rank, waiting = 0, 0, 0
        for r, s, c in entered:
            # The step's collective is the one the ranks waited in.
            s["collective"], s["collective_enter_ns"] = c["name"], c["enter_ns"]
            s["collective_end_ns"] = c["end_ns"]
            s["longest_work_before"] = c.get("work_before")
            s["wait_ns"] = _saturated(last_c["enter_ns"] - c["enter_ns"])
            # The rest of its time in the collective: the transfer itself.
            s["transfer_ns"] = max(0, _saturated(c["end_ns"] - last_c["enter_ns"]))
            if r is last_rank:
                continue
            others = _saturated(others + s["wait_ns"])
            waiting += 1
            if waiting == 1 or s["wait_ns"] > longest:
                longest, longest_rank = s["wait_ns"], r["rank"]
        stragglers.append({"step": number, "name": last["name"], "rank": last_rank["rank"],
                           "collective": last_c["name"], "entered_ns": last_c["enter_ns"], "others_wait_ns": others,
                           "waiting_ranks": waiting, "longest_wait_ns": longest,
                           "longest_wait_rank": longest_rank,
                           "instead": last_c.get("work_before")})
    for r in ranks:
        r["totals"]["wait_ns"] = _saturated(sum(s["wait_ns"] or 0 for s in r["steps"]))
        r["totals"]["transfer_ns"] = _saturated(sum(s.get("transfer_ns") or 0 for s in r["steps"]))
    return {"aligned_on_step": align_step, "unaligned_ranks": unaligned,
            "stragglers": stragglers}


def reduce_fleet(results, traces, align_step=None):
    """The fleet table from the map results (any order) of `traces`."""
    by_file = {r["file"]: r for r in results}
    # One record per rank (a file of several processes has several), one for
    # a file that failed: ranks numbered by order count it.
    records = [(t, obj) for t in traces for obj in (by_file[t].get("ranks") or [None])]
    ranks, warnings = number_ranks(records)
    comparison = compare(ranks, align_step)
    failed = [{"file": t, "error": by_file[t]["error"]} for t in traces if "error" in by_file[t]]
    out = {"aligned_on_step": comparison["aligned_on_step"],
           "unaligned_ranks": comparison["unaligned_ranks"],
           "ranks": ranks, "stragglers": comparison["stragglers"]}
    out["fleet"] = {"traces": len(traces), "summarized": len(ranks), "failed": failed,
                    "warnings": warnings}
    return out


# ----------------------------------------------------------------------------
# The cluster


class Progress:
    """One line on stderr, rewritten: done / total, failed, elapsed."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.done, self.failed = total, 0, 0
        self.start = time.monotonic()
        self.stream = stream
        self.tty = stream.isatty()

    def update(self, result):
        self.done += 1
        self.failed += "error" in result
        line = "gapscope-fleet: %d/%d traces summarised, %d failed, %.0f s" % (
            self.done, self.total, self.failed, time.monotonic() - self.start)
        if self.tty:
            self.stream.write("\r" + line)
        elif self.done == self.total or self.done % max(1, self.total // 20) == 0:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self):
        if self.tty:
            self.stream.write("\n")


def run_on_cluster(client, traces, cli, extra_args, retries, timeout_s, progress=None):
    from distributed import as_completed

    run = uuid.uuid4().hex
    futures = client.map(summarize_one, traces, cli=cli, extra_args=extra_args,
                         timeout_s=timeout_s, retries=retries, pure=False,
                         # Keys of this run only: a scheduler that outlives it
                         # would hand a later run the same keys' old results.
                         key=["gapscope-summary-%s-%d" % (run, i) for i in range(len(traces))])
    results = []
    for future in as_completed(futures):
        try:
            result = future.result()
        except Exception as e:  # retries spent: the trace is listed as failed
            index = futures.index(future)
            result = {"file": traces[index], "error": "%s: %s" % (type(e).__name__, e),
                      "exit": None}
        results.append(result)
        if progress:
            progress.update(result)
    return results


def summary_files(paths):
    """SUMMARY.json arguments with each folder replaced by its *.json (not a
    *.fleet.json, nor a temporary file), in natural order ("2" before "10")."""
    out = []
    for path in paths:
        if not os.path.isdir(path):
            out.append(path)
            continue
        names = [n for n in os.listdir(path) if n.endswith(".json") and not n.startswith(".")
                 and not n.endswith(".fleet.json")]
        names.sort(key=lambda n: [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", n)])
        out += [os.path.join(path, n) for n in names]
    return out


def read_summary(path):
    """(trace, rank objects, error): the trace and ranks of a file that
    `gapscope-cli ranks TRACE --format json` wrote (or, from earlier versions,
    `summary --format json` with its "rank"), or why it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "rank" in doc and "analysis" not in doc:
            trace, ranks = doc["trace"], [doc["rank"]]
            if not isinstance(ranks[0], dict):
                raise TypeError("its rank is not an object")
        else:
            ranks = ranks_of_result(doc)
            trace = ranks[0]["file"]
        if not isinstance(trace, str):
            raise TypeError("its trace is not a path")
        return trace, ranks, None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, StopIteration) as e:
        return None, None, "%s: not a gapscope-cli ranks --format json: %s" % (path, e)


def read_summaries(paths):
    """Map results from summary JSON files written elsewhere (a Slurm job
    array): (results, traces), a file that cannot be read listed as failed."""
    results, traces = [], []
    for path in summary_files(paths):
        trace, ranks, error = read_summary(path)
        if error:
            trace = path
            results.append({"file": path, "error": error, "exit": None})
        else:
            results.append({"file": trace, "ranks": ranks})
        if trace in traces:
            raise SystemExit("gapscope-fleet: %s: trace %s is summarised twice" % (path, trace))
        traces.append(trace)
    return results, traces


def read_trace_list(path):
    """The job array's list: line N + 1 is task N's trace (as the sbatch
    script reads it, so no line is skipped)."""
    try:
        with open(path, encoding="utf-8") as f:
            traces = f.read().splitlines()
    except OSError as e:
        raise SystemExit("gapscope-fleet: %s" % e) from e
    if not traces:
        raise SystemExit("gapscope-fleet: %s lists no traces" % path)
    if len(set(traces)) != len(traces):
        raise SystemExit("gapscope-fleet: %s: a trace is listed twice" % path)
    return traces


def task_of_file_name(path):
    """The array task a summary's name says (summaries/17.json: 17), or None."""
    m = re.fullmatch(r"(\d+)\.json", os.path.basename(path))
    return int(m.group(1)) if m else None


def task_of_summary(path, trace, traces, where):
    """The list index a summary belongs to: the trace path it records (as
    given, then normalised), else its task-id name when it names that task's
    file (a list of relative paths read from another directory); None when
    neither."""
    if trace is not None:
        if trace in where:
            return where[trace]
        key = os.path.normpath(os.path.abspath(trace))
        if key in where:
            return where[key]
    task = task_of_file_name(path)
    if task is None or task >= len(traces):
        return None
    if trace is None or os.path.basename(trace) == os.path.basename(traces[task]):
        return task
    return None


def task_error(folders, task):
    """The one-line error the sbatch script left for a failed task, else a
    pointer to its log (a task killed, or out of time, writes nothing)."""
    for folder in folders:
        try:
            with open(os.path.join(folder, "%d.error" % task), encoding="utf-8",
                      errors="replace") as f:
                error = f.read().strip()
        except OSError:
            continue
        if error:
            return error
    return "no summary written by array task %d (see its Slurm log)" % task


def read_array(list_path, paths):
    """Map results of a job array over the traces of `list_path`: (results,
    traces) in list order, every trace without a summary failed. Ranks are
    then numbered over the whole list, as `summarize` numbers them, so a
    failed task shifts no other rank. A summary of a trace not in the list
    is refused: it is another job's (a reused summaries folder)."""
    traces = read_trace_list(list_path)
    where = {}
    for i, t in enumerate(traces):
        where.setdefault(t, i)
        where.setdefault(os.path.normpath(os.path.abspath(t)), i)
    files = summary_files(paths)
    found = {}
    for path in files:
        trace, ranks, error = read_summary(path)
        task = task_of_summary(path, trace, traces, where)
        if task is None and error:
            raise SystemExit("gapscope-fleet: %s, and its name is no task of %s"
                             % (error, list_path))
        if task is None:
            raise SystemExit("gapscope-fleet: %s: its trace %s is not in %s (a summary of "
                             "another job? remove it, or reduce without --traces)"
                             % (path, trace, list_path))
        if task in found:
            raise SystemExit("gapscope-fleet: %s: trace %s is summarised twice (also by %s)"
                             % (path, traces[task], found[task][0]))
        found[task] = (path, ranks, error)
    # The .error files lie beside the summaries: in the folders given, or
    # those of the files given.
    folders = list(dict.fromkeys(p if os.path.isdir(p) else os.path.dirname(p) or "."
                                 for p in paths))
    results = []
    for i, t in enumerate(traces):
        if i not in found:
            results.append({"file": t, "error": task_error(folders, i), "exit": None})
        elif found[i][2]:
            results.append({"file": t, "error": found[i][2], "exit": None})
        else:
            results.append({"file": t, "ranks": found[i][1]})
    return results, traces


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def find_cli(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "build", "release", "app", "cli", "gapscope-cli"),
                      os.path.join(here, "..", "..", "build", "dev", "app", "cli", "gapscope-cli")):
        if os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return shutil.which("gapscope-cli") or "gapscope-cli"


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(
        prog="gapscope-fleet",
        description="Summarise many traces on a Dask cluster: one task per trace runs "
                    "`gapscope-cli ranks` where the trace lies; the ranks are reduced "
                    "to a table of ranks x steps with the stragglers (as `gapscope-cli ranks` "
                    "over all of them).")
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("summarize", help="map the CLI over TRACES and write the fleet table")
    where = s.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="tcp://HOST:8786",
                       help="a running Dask scheduler (dask-scheduler / dask-worker)")
    where.add_argument("--local", type=int, metavar="N",
                       help="start a LocalCluster of N worker processes on this machine")
    s.add_argument("traces", nargs="+", metavar="TRACE",
                   help="trace files (paths as the workers see them)")
    s.add_argument("--out", required=True, help="the fleet table, JSON (written atomically)")
    s.add_argument("--cli", help="gapscope-cli on the workers (default: the build's, else PATH)")
    s.add_argument("--retries", type=int, default=2,
                   help="retries of a task that raised (default 2)")
    s.add_argument("--timeout", type=float, default=3600, help="seconds per trace (default 3600)")
    s.add_argument("--align-step", type=int, help="align the ranks on step N's start")
    s.add_argument("--min-gap-us", help="gap threshold, as the CLI's")
    s.add_argument("--step-regex", help="steps, as the CLI's")
    s.add_argument("--no-cache", action="store_true", help="the CLI parses every trace")
    r = sub.add_parser("reduce", help="the fleet table from summaries written elsewhere "
                                      "(`gapscope-cli ranks TRACE --format json`, e.g. by a "
                                      "Slurm job array)")
    r.add_argument("summaries", nargs="+", metavar="SUMMARY",
                   help="the CLI's JSON files, or folders of them")
    r.add_argument("--traces", metavar="LIST",
                   help="the job array's list of traces (line N+1 = task N): ranks are numbered "
                        "over it, and each trace without a summary is listed as failed (with "
                        "the task's N.error where the sbatch script wrote one)")
    r.add_argument("--out", required=True, help="the fleet table, JSON (written atomically)")
    r.add_argument("--align-step", type=int, help="align the ranks on step N's start")
    args = ap.parse_args(argv)
    if args.command == "reduce":
        if args.traces:
            results, traces = read_array(args.traces, args.summaries)
        else:
            results, traces = read_summaries(args.summaries)
        fleet = reduce_fleet(results, traces, args.align_step)
        fleet["fleet"]["scheduler"] = None
        return finish(fleet, args.out)

    extra = []
    if args.min_gap_us:
        extra += ["--min-gap-us", args.min_gap_us]
    if args.step_regex:
        extra += ["--step-regex", args.step_regex]
    if args.no_cache:
        extra += ["--no-cache"]
    cli = find_cli(args.cli)
    traces = [os.path.abspath(t) if args.local else t for t in args.traces]
    if len(set(traces)) != len(traces):
        ap.error("a trace is given twice")

    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        # Only summarize needs Dask; the package merely suggests it.
        raise SystemExit("gapscope-fleet: summarize needs Dask's distributed (Debian: "
                         "apt install python3-distributed): %s" % e) from e

    cluster = None
    if args.local:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.scheduler)
        # The workers run summarize_one from this module: send it to them.
        client.upload_file(os.path.abspath(__file__))
    progress = Progress(len(traces))
    try:
        results = run_on_cluster(client, traces, cli, extra, args.retries, args.timeout, progress)
    finally:
        progress.close()
        client.close()
        if cluster is not None:
            cluster.close()
    fleet = reduce_fleet(results, traces, args.align_step)
    fleet["fleet"]["scheduler"] = args.scheduler or "local:%d" % args.local
    return finish(fleet, args.out)


def finish(fleet, out):
    write_atomically(out, json.dumps(fleet, indent=2, ensure_ascii=False) + "\n")
    for w in fleet["fleet"]["warnings"]:
        print("gapscope-fleet: " + w, file=sys.stderr)
    for f in fleet["fleet"]["failed"]:
        print("gapscope-fleet: failed: %s: %s" % (f["file"], f["error"]), file=sys.stderr)
    print(out)
    return 0 if fleet["ranks"] else 2


if __name__ == "__main__":
    sys.exit(main())
