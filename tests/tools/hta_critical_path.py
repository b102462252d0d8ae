#!/usr/bin/env python3
"""Run Holistic Trace Analysis's (HTA 0.5.0) critical path analysis on one
rank and print what it found as JSON, to hold a reimplementation against.

Usage: hta_critical_path.py [--hta DIR] [--rank N] [--annotation TEXT]
                            [--instance N | N,M | none]
                            [--no-zero-weight-launch-edges]
                            [--include-last-profiler-step] [--overlay-dir DIR]
                            [--no-events] TRACE_OR_DIR

TRACE_OR_DIR is a Kineto trace (*.json or *.json.gz; its rank comes from its
distributedInfo, 0 without one) or a folder that HTA reads as one file per
rank (TraceAnalysis(trace_dir=...)). HTA is imported from --hta (default
$GAPSCOPE_SHARED_DIR/peers/hta, else ../shared/peers/hta beside the
checkout); it needs pandas, numpy, networkx, plotly, yaml and psutil, which
Debian's /usr/bin/python3 has (packaging/install-deps.sh), a pyenv python
usually not.

Defaults are those of HTA's own tests (tests/test_critical_path_analysis.py):
CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 (turn off with
--no-zero-weight-launch-edges), HTA's ns rounding on, the last ProfilerStep
dropped. The arguments those tests pass, per trace in
traces/hta/tests/data/critical_path:
  simple_add, alexnet   --annotation '[param|pytorch.model.alex_net|0|0|0|measure|forward]' --instance 1
  cuda_event_sync       --annotation ProfilerStep --instance 0
  cuda_event_sync_multi_stream   --annotation '' --instance none
  end_to_end/simple_add/input    --annotation '' --instance 0

Output (stdout, one JSON object; HTA's logs go to stderr). HTA works in
whole microseconds; every *_ns figure below is HTA's figure x 1000.
  success          what critical_path_analysis returned (false with "error"
                   where it raised, e.g. ValueError for negative weights or
                   a sync edge between kernels of one stream)
  path_ns          length of the longest path: the sum of the graph's edge
                   weights along it (what networkx maximised; an edge HTA
                   found at -1 us counts 0 here)
  path_ns_from_edges  the same sum over the CPEdge objects' own weights (what
                   HTA's summary() uses; differs from path_ns only by those
                   -1 us edges)
  window_ns        end - start of the window HTA clipped to (for an
                   annotation, the chosen instance(s); for '' the trace's
                   span, see window_hta_us for the bounds HTA really used)
  window_hta_us    [start, end] as HTA computed them (aligned microseconds;
                   for '' HTA's end is an unaligned time, so everything is in)
  window_abs_ns    [start, end] in the file's own time (ns); null for ''.
  by_edge_type     {CPEdgeType value: ns} over the edges on the path
  by_bound_by      {bound_by: ns} from get_critical_path_breakdown()
                   ("" for the zero-weight dependency and sync edges)
  edge_counts      {CPEdgeType value: edges on the path}
  nodes            nodes on the path; edges = nodes - 1
  graph_nodes, graph_edges, graph_edge_counts   the whole networkx graph (a
                   node is in it only once an edge touches it)
  node_list        all CPNodes HTA made (two per event it kept)
  events_on_path   sorted [index, name, ts_us, dur_us] of every event with a
                   node on the path: index is the event's position in the
                   file's traceEvents array (HTA's own event id, the one the
                   overlaid trace marks "critical": 1); ts is the file's own
                   time after HTA's rounding, dur HTA's (rounded) duration
  events_on_path_count
  hta_seconds      {"load": TraceAnalysis(), "analysis": critical_path_analysis(),
                    "breakdown": get_critical_path_breakdown()}
  options          what was run
--overlay-dir also writes HTA's overlaid trace there (its defaults:
only_show_critical_events=True, show_all_edges=False) and names it in
"overlaid_trace".
"""

import argparse
import contextlib
import json
import logging
import os
import sys
import time


def parse_instance(text):
    if text is None or text.lower() == "none":
        return None
    if "," in text:
        a, b = text.split(",", 1)
        return (int(a), int(b))
    return int(text)


def to_ns(us):
    """HTA's microseconds (int, or float with HTA_DISABLE_NS_ROUNDING) to ns."""
    ns = round(float(us) * 1000.0, 3)
    return int(ns) if float(ns).is_integer() else ns


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("trace", help="trace file or folder of rank files")
    ap.add_argument("--hta", help="folder holding HTA's hta package")
    ap.add_argument("--rank", type=int, help="rank to analyse (default: the first)")
    ap.add_argument("--annotation", default="ProfilerStep",
                    help="annotation name substring ('' = whole trace); default ProfilerStep")
    ap.add_argument("--instance", default="0",
                    help="instance id: N, N,M (inclusive range) or none; default 0")
    ap.add_argument("--no-zero-weight-launch-edges", action="store_true",
                    help="leave CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE unset (HTA's own default)")
    ap.add_argument("--include-last-profiler-step", action="store_true")
    ap.add_argument("--overlay-dir", help="also write HTA's overlaid trace here")
    ap.add_argument("--no-events", action="store_true", help="leave events_on_path out")
    args = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.environ.get("GAPSCOPE_SHARED_DIR") or os.path.join(here, "..", "..", "..", "shared")
    hta_dir = os.path.abspath(args.hta or os.path.join(shared, "peers", "hta"))
    if not os.path.isfile(os.path.join(hta_dir, "hta", "trace_analysis.py")):
        sys.exit("hta_critical_path: HTA's source is absent: %s" % hta_dir)
    if not os.path.exists(args.trace):
        sys.exit("hta_critical_path: no such trace: %s" % args.trace)

    # Options HTA reads from the environment (before it is imported).
    if args.no_zero_weight_launch_edges:
        os.environ.pop("CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE", None)
    else:
        os.environ["CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE"] = "1"

    sys.path.insert(0, hta_dir)
    try:
        import pandas as pd  # noqa: F401
        import networkx  # noqa: F401
        import plotly  # noqa: F401
        from hta.trace_analysis import TraceAnalysis
        from hta.analyzers.critical_path_analysis import CPEdgeType
    except ImportError as exc:
        sys.exit("hta_critical_path: HTA's dependencies are missing for %s (%s); "
                 "try /usr/bin/python3 (Debian's pandas, networkx, plotly...)" % (sys.executable, exc))

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    import warnings
    warnings.simplefilter("ignore")

    instance = parse_instance(args.instance)
    path = os.path.abspath(args.trace)
    out = {"trace": args.trace}

    # Everything HTA prints goes to stderr so that stdout stays one JSON object.
    with contextlib.redirect_stdout(sys.stderr):
        t0 = time.perf_counter()
        if os.path.isdir(path):
            ta = TraceAnalysis(trace_dir=path,
                               include_last_profiler_step=args.include_last_profiler_step)
        else:
            ta = TraceAnalysis(trace_files=[path], trace_dir=os.path.dirname(path),
                               include_last_profiler_step=args.include_last_profiler_step)
        t1 = time.perf_counter()
        rank = args.rank if args.rank is not None else sorted(ta.t.get_all_traces())[0]
        try:
            res = ta.critical_path_analysis(rank=rank, annotation=args.annotation,
                                            instance_id=instance)
        except Exception as exc:  # HTA raises ValueError on a graph it finds invalid
            out.update(success=False, error="%s: %s" % (type(exc).__name__, exc))
            json.dump(out, sys.__stdout__, indent=1)
            sys.__stdout__.write("\n")
            return 1
        t2 = time.perf_counter()
        if res is None:
            sys.exit("hta_critical_path: HTA found no annotation %r in the trace" % args.annotation)
        cp, success = res
        out["success"] = bool(success)

        # The window HTA clipped to, recomputed as critical_path_analysis does.
        df = ta.t.get_trace(rank)
        if args.annotation == "":
            w_start, w_end = df.ts.min(), df.end.max()
            span = (df.ts + df.dur).max() - df.ts.min()
        else:
            sym = ta.t.symbol_table.get_sym_id_map()
            ids = [v for k, v in sym.items() if args.annotation in k]
            ann = df[df.name.isin(ids)]
            lo, hi = ((0, 0) if instance is None else
                      instance if isinstance(instance, tuple) else (instance, instance))
            sel = ann.iloc[lo:hi + 1]
            w_start, w_end = sel.ts.min(), (sel.ts + sel.dur).max()
            span = w_end - w_start
        out["window_ns"] = to_ns(span)
        out["window_hta_us"] = [float(w_start), float(w_end)]
        # The same bounds as the file's own times (ns), for a tool to clip
        # to; null for '' (everything is in).
        out["window_abs_ns"] = (None if args.annotation == "" else
                                [(int(w_start) + int(ta.t.min_ts)) * 1000,
                                 (int(w_end) + int(ta.t.min_ts)) * 1000])

        edges_on_path = list(cp.critical_path_edges_set) if success else []
        path_nodes = cp.critical_path_nodes if success else []
        graph_w = sum(cp.edges[u, v]["weight"] for u, v in zip(path_nodes, path_nodes[1:]))
        out["path_ns"] = to_ns(graph_w)
        out["path_ns_from_edges"] = to_ns(sum(e.weight for e in edges_on_path))

        by_type = {t.value: 0 for t in CPEdgeType}
        counts = {t.value: 0 for t in CPEdgeType}
        for u, v in zip(path_nodes, path_nodes[1:]):
            e = cp.edges[u, v]["object"]
            by_type[e.type.value] += cp.edges[u, v]["weight"]
            counts[e.type.value] += 1
        out["by_edge_type"] = {k: to_ns(v) for k, v in by_type.items()}
        out["edge_counts"] = counts

        t3 = time.perf_counter()
        if success:
            bdf = cp.get_critical_path_breakdown()
            out["by_bound_by"] = {str(k): to_ns(v)
                                  for k, v in bdf.groupby("bound_by").duration.sum().items()}
        t4 = time.perf_counter()

        out["nodes"] = len(path_nodes)
        out["edges"] = len(edges_on_path)
        out["graph_nodes"] = cp.number_of_nodes()
        out["node_list"] = len(cp.node_list)
        out["graph_edges"] = cp.number_of_edges()
        gcounts = {t.value: 0 for t in CPEdgeType}
        for u, v in cp.edges:
            gcounts[cp.edges[u, v]["object"].type.value] += 1
        out["graph_edge_counts"] = gcounts

        sym_table = ta.t.symbol_table.get_sym_table()
        evs = sorted(int(i) for i in cp.critical_path_events_set) if success else []
        out["events_on_path_count"] = len(evs)
        if not args.no_events:
            min_ts = ta.t.min_ts
            rows = []
            for i in evs:
                r = df.loc[i]
                rows.append([i, sym_table[int(r["name"])],
                             float(r["ts"] + min_ts), float(r["dur"])])
            rows = [[i, n, int(ts) if ts.is_integer() else ts, int(d) if d.is_integer() else d]
                    for i, n, ts, d in rows]
            out["events_on_path"] = rows

        if args.overlay_dir and success:
            out["overlaid_trace"] = ta.overlay_critical_path_analysis(rank, cp, args.overlay_dir)

    out["hta_seconds"] = {"load": round(t1 - t0, 3), "analysis": round(t2 - t1, 3),
                          "breakdown": round(t4 - t3, 3)}
    out["options"] = {
        "rank": rank, "annotation": args.annotation,
        "instance_id": list(instance) if isinstance(instance, tuple) else instance,
        "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE": os.environ.get(
            "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE", "unset"),
        "HTA_DISABLE_NS_ROUNDING": os.environ.get("HTA_DISABLE_NS_ROUNDING", "unset"),
        "include_last_profiler_step": args.include_last_profiler_step,
        "hta": hta_dir, "python": sys.executable,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if out["success"] else 1


if __name__ == "__main__":
    sys.exit(main())
