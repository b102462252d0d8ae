"""Every DataFrame equals the CLI's JSON, analysis by analysis.

The registry is iterated (gapscope's own list of analyses): each analysis
of one trace runs through the module and through `gapscope-cli ID --format
json` with the same options, on the bundled sample, a recorded PyTorch
trace and a recorded JAX XSpace profile; every figure and every cell of
every table must be the JSON's. Options come from each registration: its
flags set, counts 3, the shared --step and --min-gap-us, and a value for
the options that take text. A new analysis is covered with no change here.
"""

import math

import pandas as pd
import pytest

import gapscope
from conftest import INPUT_BOUND, JAX_XSPACE, SAMPLE, WORKERS, run_cli_json

TRACES = [SAMPLE, INPUT_BOUND, JAX_XSPACE]
ONE_TRACE = [a for a, d in gapscope._methods.registry().items() if d["input"] == "trace"]

# Values for options whose value is text or a point in time (the rest
# follow from their kind).
TEXT_VALUES = {
    "what-if": ["kernel:*gemm*=0.5", "input=0"],
    "fail-if": ["step_time>+5%"],
}
# Finding tables are rendered from "findings" (compared apart).
FINDING_TABLES = {"findings", "finding_figures", "finding_evidence"}


def option_sets(spec, info):
    """Keyword arguments and the matching command-line tokens."""
    yield {}, []
    kwargs, argv = {}, []
    for o in spec["options"]:
        key, flag = o["name"].replace("-", "_"), "--" + o["name"]
        if o["kind"] == "flag":
            kwargs[key] = True
            argv.append(flag)
        elif o["kind"] == "count":
            kwargs[key] = 3
            argv += [flag, "3"]
        elif o["kind"] == "index":
            # A point in the trace (memory --at): its middle.
            mid = (info["span_start_ns"] + info["span_end_ns"]) // 2 if o["name"] == "at" else 1
            kwargs[key] = mid
            argv += [flag, str(mid)]
        elif o["kind"] == "micros":
            kwargs[key] = 12.5
            argv += [flag, "12.5"]
        elif o["name"] in TEXT_VALUES:
            kwargs[key] = TEXT_VALUES[o["name"]]
            for v in TEXT_VALUES[o["name"]]:
                argv += [flag, v]
    shared = gapscope._methods.shared_options(spec)
    if "min_gap_us" in shared:
        kwargs["min_gap_us"] = 50
        argv += ["--min-gap-us", "50"]
    yield kwargs, argv
    if "step" in shared and info.get("steps"):
        yield {"step": 2}, ["--step", "2"]


def at_path(obj, dotted):
    """A JSON value by its column key ("launch.grid" nests); None where absent."""
    head, _, rest = dotted.partition(".")
    value = obj.get(head) if isinstance(obj, dict) else None
    if rest and value is not None:
        return value.get(rest)
    return value


def same(ours, theirs):
    if theirs is None:
        return ours is None or ours is pd.NA or (isinstance(ours, float) and math.isnan(ours))
    if ours is None or ours is pd.NA:
        return False
    if isinstance(theirs, bool):
        return isinstance(ours, bool) and ours == theirs
    if isinstance(theirs, (int, float)):
        return float(ours) == float(theirs) and (
            not isinstance(theirs, int) or int(ours) == theirs)
    if isinstance(theirs, list):
        return list(ours) == theirs
    return ours == theirs


def cell(frame, row, key):
    value = frame[key].iloc[row]
    return value.item() if hasattr(value, "item") else value


def assert_equal(result, cli_json, where):
    assert result.analysis == cli_json["analysis"], where
    for key, value in result.figures.items():
        assert same(value, at_path(cli_json, key)), "%s: figure %s: %r vs %r" % (
            where, key, value, at_path(cli_json, key))
    tables = [t for t in result.tables if t != "figures" and t not in FINDING_TABLES]
    for table in tables:
        frame = result.tables[table]
        rows = cli_json[table]
        assert len(frame.index) == len(rows), "%s: %s has %d rows, the CLI %d" % (
            where, table, len(frame.index), len(rows))
        for r, row in enumerate(rows):
            for key in frame.columns:
                ours, theirs = cell(frame, r, key), at_path(row, key)
                assert same(ours, theirs), "%s: %s row %d %s: %r vs %r" % (
                    where, table, r, key, ours, theirs)
    if "findings" in cli_json:
        findings = result.tables["findings"]
        assert len(findings.index) == len(cli_json["findings"]), where
        for r, f in enumerate(cli_json["findings"]):
            for key in ("rule", "severity", "message"):
                if key in findings.columns:
                    assert cell(findings, r, key) == f[key], where


def opened(path, cache_dir):
    """The trace from the index cache, as the CLI will find it (info says so)."""
    gapscope.open(str(path), cache_dir=cache_dir)
    trace = gapscope.open(str(path), cache_dir=cache_dir)
    assert trace.cache_note == "hit", trace.cache_note
    return trace


@pytest.mark.parametrize("trace_path", TRACES, ids=lambda p: p.name)
@pytest.mark.parametrize("analysis", ONE_TRACE)
def test_every_table_equals_the_cli_json(analysis, trace_path, cli, cache_dir):
    spec = gapscope._methods.registry()[analysis]
    trace = opened(trace_path, cache_dir)
    info = trace.info()
    sets = list(option_sets(spec, info))
    assert sets, analysis
    for kwargs, argv in sets if trace_path == SAMPLE else sets[:1]:
        result = trace.result(analysis, **kwargs)
        theirs = run_cli_json(cli, [analysis, str(trace_path), *argv], cache_dir)
        assert_equal(result, theirs, "%s %s %s" % (analysis, trace_path.name, argv))
        # The method returns the primary table of the same result.
        frame = getattr(trace, gapscope._methods.method_name(analysis))(**kwargs) \
            if analysis != "info" else result.frame
        assert list(frame.columns) == list(result.frame.columns)
        assert len(frame.index) == len(result.frame.index)


def test_json_is_the_cli_json(cli, cache_dir):
    """Trace.json is byte for byte the CLI's document, parsed."""
    trace = opened(SAMPLE, cache_dir)
    for analysis in ONE_TRACE:
        assert trace.json(analysis) == run_cli_json(cli, [analysis, str(SAMPLE)], cache_dir), \
            analysis


def test_comparison_of_two_runs_equals_the_cli(cli, cache_dir):
    kwargs = {"top": 3, "fail_if": TEXT_VALUES["fail-if"]}
    result = gapscope.compare_result(str(INPUT_BOUND), str(WORKERS), **kwargs)
    theirs = run_cli_json(
        cli, ["diff", str(INPUT_BOUND), str(WORKERS), "--top", "3", "--fail-if",
              TEXT_VALUES["fail-if"][0]], cache_dir)
    assert_equal(result, theirs, "diff")
    # The gate's verdict as the CLI's exit status says it (0, 1 or 2).
    assert result.status in (0, 1, 2)
    frame = gapscope.compare(gapscope.open(str(INPUT_BOUND)), str(WORKERS))
    assert list(frame.columns) == list(result.frame.columns)


def test_ranks_equal_the_cli(cli, cache_dir):
    result = gapscope.ranks_result(str(INPUT_BOUND), str(WORKERS))
    theirs = run_cli_json(cli, ["ranks", str(INPUT_BOUND), str(WORKERS)], cache_dir)
    assert_equal(result, theirs, "ranks")
    assert len(gapscope.ranks(str(INPUT_BOUND), str(WORKERS)).index) == 2
