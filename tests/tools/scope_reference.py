#!/usr/bin/env python3
"""Independent reference for Gapscope's kernel time by scope (stdlib only).

Usage: scope_reference.py TRACE
       scope_reference.py --check-diff --cli PATH BASE NEW

This docstring is the specification the tests rely on.

Input
  One Kineto (PyTorch profiler) Chrome-trace JSON file, optionally gzip
  (magic 1f 8b).  Object form {"traceEvents": [...]} or a bare array.
  Numbers are parsed as decimal.Decimal (never float).  ts/dur are
  microseconds; each converts to integer ns EXACTLY: ns = Decimal(v) * 1000
  rounded half away from zero.  A value is "integral" when it is a JSON
  number with an integral value.  Only ph "X" events with a finite numeric
  ts and a dur that is missing (= 0) or a finite number >= 0 are used; an
  event spans [S, S + D] with S = ns(ts), D = ns(dur).  pid/tid compare as
  JSON values (1 != "1").

Kernels: cat in {"kernel", "Kernel"}.  Zero-duration kernels count (add 0).
Launch call of a kernel: among the events with cat in {"cuda_runtime",
  "cuda_driver", "Runtime", "Driver"} whose integral args.correlation equals
  the kernel's integral args.correlation, the one with the smallest S (file
  order on ties).  No correlation or no such call: no launch, scope "".
Scope slices of a call C: the events on C's (pid, tid), other than C, with
  S <= C.S and S + D >= C.S + C.D that are either cat "user_annotation" with
  a name that does not start with "ProfilerStep#" nor with a compiler's
  range ("## Call CompiledFxGraph", "Torch-Compiled Region",
  "CompiledFunction", "TorchDynamo", "AOTDispatcher", "## Compiled
  Autograd") and contains none of ", seq = ", ", op_id = ", ", sizes = ["
  (emit_nvtx's op ranges), or
  cat "python_function" with a name starting with "nn.Module: ".  (Partial
  overlaps are not enclosure.)
Scope path: the scope slices' names ordered outermost first: by S
  ascending, then S + D descending, then file order; joined with " > ".
  No scope slice: "".
Output: JSON {path: {"count": n, "total_ns": sum of D, "kernels": sorted
  unique kernel names, "kernel_ns": {name: sum of its D there}}}, keys
  sorted.

--check-diff --cli PATH BASE NEW runs `PATH diff BASE NEW --no-cache
  --format json`, reads its "scopes" list ({"name": path, null = "",
  "status", "base": {"count", "total_ns"}, "new": {...}, "delta_total_ns",
  "only_base", "only_new"}) and checks it against the reference of BASE and
  NEW: the set of names is the union of both references' paths (an empty
  list when both have only ""); base/new count and total_ns (0/0 when
  absent); delta = new - base; only_base / only_new as sets = the names in
  one side's scope and not in the other's, only_base_ns / only_new_ns
  their time in that scope; status "new" (absent in BASE),
  "vanished" (absent in NEW), "same" (equal counts, totals and name sets),
  else "changed"; order by |delta_total_ns| descending (ties in any order).
  Prints "ok   ..." / "FAIL ..." per check; exit 1 on any failure, else 0;
  77 when BASE or NEW does not exist (1 under GAPSCOPE_REQUIRE_INPUTS=1).
  A path holding "/traces/" is read under $GAPSCOPE_SHARED_DIR/traces
  when that is set (as the suites find ../shared).
"""
import decimal
import gzip
import heapq
import json
import os
import subprocess
import sys
from decimal import Decimal

decimal.getcontext().prec = 60
KERNEL_CATS = {"kernel", "Kernel"}
CALL_CATS = {"cuda_runtime", "cuda_driver", "Runtime", "Driver"}
OP_RANGE_MARKS = (", seq = ", ", op_id = ", ", sizes = [")
NOT_SCOPES = ("ProfilerStep#", "## Call CompiledFxGraph", "Torch-Compiled Region",
              "CompiledFunction", "TorchDynamo", "AOTDispatcher", "## Compiled Autograd")


def load_events(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data.decode("utf-8"), parse_float=Decimal, parse_int=Decimal)
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    return [e for e in events if isinstance(e, dict)]


def integral(v):
    return isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value()


def to_ns(v):
    q = (abs(v) * 1000).quantize(Decimal(1), rounding=decimal.ROUND_HALF_UP)
    return int(q) if v >= 0 else -int(q)


def key(v):
    # pid/tid as JSON values; Decimal and str never compare equal.
    return (type(v).__name__, v if isinstance(v, (Decimal, str)) else repr(v))


def spans(events):
    """Yield (index, event, start_ns, end_ns) for the usable ph "X" events."""
    for i, e in enumerate(events):
        ts, dur = e.get("ts"), e.get("dur", Decimal(0))
        if e.get("ph") != "X" or not isinstance(ts, Decimal) or not ts.is_finite():
            continue
        if not isinstance(dur, Decimal) or not dur.is_finite() or dur < 0:
            continue
        s = to_ns(ts)
        yield i, e, s, s + to_ns(dur)


def is_scope(e):
    name, cat = e.get("name"), e.get("cat")
    if not isinstance(name, str):
        return False
    if cat == "user_annotation":
        return not name.startswith(NOT_SCOPES) and not any(m in name for m in OP_RANGE_MARKS)
    return cat == "python_function" and name.startswith("nn.Module: ")


def correlation(e):
    args = e.get("args")
    c = args.get("correlation") if isinstance(args, dict) else None
    return int(c) if integral(c) else None


def scope_table(events):
    kernels, calls, scopes = [], {}, {}
    for i, e, s, t in spans(events):
        cat = e.get("cat")
        thread = (key(e.get("pid")), key(e.get("tid")))
        if cat in KERNEL_CATS:
            kernels.append((str(e.get("name", "")), t - s, correlation(e)))
        elif cat in CALL_CATS and correlation(e) is not None:
            c = correlation(e)
            if c not in calls or (s, i) < calls[c][:2]:   # earliest wins
                calls[c] = (s, i, t, thread)
        elif is_scope(e):
            scopes.setdefault(thread, []).append((s, -t, i, e["name"]))

    # Path of every used call: per thread, sweep the calls by start while a
    # heap (by end) holds the scope slices started so far that have not ended
    # before the current call starts; enclosure is then checked exactly.
    wanted = {}
    for c, (s, i, t, thread) in calls.items():
        wanted.setdefault(thread, []).append((s, t, i, c))
    paths = {}
    for thread, todo in wanted.items():
        todo.sort()
        cands = sorted(scopes.get(thread, []))
        heap, k = [], 0
        for s, t, i, c in todo:
            while k < len(cands) and cands[k][0] <= s:
                cs, negt, ci, name = cands[k]
                heapq.heappush(heap, (-negt, cs, ci, name))
                k += 1
            while heap and heap[0][0] < s:   # ended before the call started
                heapq.heappop(heap)
            inside = sorted((cs, -ce, ci, name) for ce, cs, ci, name in heap
                            if ce >= t and ci != i)
            paths[c] = " > ".join(x[3] for x in inside)

    out = {}
    for name, dur, c in kernels:
        path = paths.get(c, "") if c is not None else ""
        row = out.setdefault(path, {"count": 0, "total_ns": 0, "kernel_ns": {}})
        row["count"] += 1
        row["total_ns"] += dur
        row["kernel_ns"][name] = row["kernel_ns"].get(name, 0) + dur
    return {p: dict(r, kernels=sorted(r["kernel_ns"]), kernel_ns=dict(sorted(r["kernel_ns"].items())))
            for p, r in sorted(out.items())}


def same(b, n):
    """Equal counts, totals and name sets (time moving between a scope's
    kernels is no change of the scope)."""
    return (b["count"], b["total_ns"], b["kernels"]) == (n["count"], n["total_ns"], n["kernels"])


def check_diff(cli, base, new):
    # The shared traces as the suites find them: $GAPSCOPE_SHARED_DIR first.
    shared = os.environ.get("GAPSCOPE_SHARED_DIR")
    if shared:
        base, new = (os.path.join(shared, "traces", p.split("/traces/", 1)[-1])
                     if "/traces/" in p else p for p in (base, new))
    for p in (base, new):
        if not os.path.exists(p):
            if os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1":
                print(f"FAIL {p} does not exist (GAPSCOPE_REQUIRE_INPUTS is set)")
                return 1
            print(f"skipped: {p} does not exist (../shared is not beside the checkout)")
            return 77
    ref = {"base": scope_table(load_events(base)), "new": scope_table(load_events(new))}
    run = subprocess.run([cli, "diff", base, new, "--no-cache", "--format", "json"],
                         stdout=subprocess.PIPE, check=True)
    got = json.loads(run.stdout)["scopes"]
    failed = 0

    def check(ok, what):
        nonlocal failed
        failed += not ok
        print(("ok   " if ok else "FAIL ") + what)

    names = [s["name"] or "" for s in got]
    want = set(ref["base"]) | set(ref["new"])
    if want <= {""}:
        want = set()
    check(len(names) == len(set(names)) and set(names) == want,
          f"scope paths: {len(set(names))} listed, {len(want)} expected; "
          f"missing {sorted(want - set(names))[:5]}, extra {sorted(set(names) - want)[:5]}")
    empty = {"count": 0, "total_ns": 0, "kernels": [], "kernel_ns": {}}
    for row, path in zip(got, names):
        b, n = ref["base"].get(path, empty), ref["new"].get(path, empty)
        for side, r in (("base", b), ("new", n)):
            g = (row["count_" + side], row["total_" + side + "_ns"])
            check(g == (r["count"], r["total_ns"]),
                  f"{path!r} {side}: cli {g[0]}/{g[1]} ref {r['count']}/{r['total_ns']}")
        check(row["delta_total_ns"] == n["total_ns"] - b["total_ns"],
              f"{path!r} delta_total_ns {row['delta_total_ns']}")
        gone, added = set(b["kernels"]) - set(n["kernels"]), set(n["kernels"]) - set(b["kernels"])
        check(set(row["only_base"]) == gone and set(row["only_new"]) == added,
              f"{path!r} only_base {len(row['only_base'])}/{len(gone)}, "
              f"only_new {len(row['only_new'])}/{len(added)} (cli/ref)")
        gone_ns = sum(b["kernel_ns"][k] for k in gone)
        added_ns = sum(n["kernel_ns"][k] for k in added)
        check(row["only_base_ns"] == gone_ns and row["only_new_ns"] == added_ns,
              f"{path!r} only_base_ns {row['only_base_ns']}/{gone_ns}, "
              f"only_new_ns {row['only_new_ns']}/{added_ns} (cli/ref)")
        status = ("new" if path not in ref["base"] else
                  "vanished" if path not in ref["new"] else
                  "same" if same(b, n) else "changed")
        check(row["status"] == status, f"{path!r} status cli {row['status']} ref {status}")
    deltas = [abs(s["delta_total_ns"]) for s in got]
    check(deltas == sorted(deltas, reverse=True), "ordered by |delta_total_ns| descending")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 5 and argv[0] == "--check-diff" and argv[1] == "--cli":
        return check_diff(argv[2], argv[3], argv[4])
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    json.dump(scope_table(load_events(argv[0])), sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
