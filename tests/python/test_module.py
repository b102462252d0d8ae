"""The module's own behaviour: slices against an independent reading of the
file, errors that name the file, the GIL let go while loading, Ctrl+C and
a progress callback that stop a load, pictures, docstrings."""

import collections
import decimal
import gzip
import inspect
import json
import os
import re
import signal
import threading
import time

import pytest

import gapscope
from conftest import SAMPLE


def kineto_events(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)["traceEvents"]


def ns(micros):
    """Kineto's microseconds as integer ns, half away from zero (as Gapscope reads them)."""
    return int((decimal.Decimal(str(micros)) * 1000).quantize(0, decimal.ROUND_HALF_UP))


def test_kernels_are_the_files_kernels():
    expected = collections.Counter(
        (e["name"], ns(e["ts"]), ns(e["dur"]))
        for e in kineto_events(SAMPLE)
        if e.get("ph") == "X" and e.get("cat") == "kernel"
    )
    frame = gapscope.open(str(SAMPLE)).slices(kind="kernel")
    ours = collections.Counter(
        zip(frame["name"].astype(str), frame["start_ns"].tolist(), frame["dur_ns"].tolist()))
    assert expected and ours == expected
    assert (frame["end_ns"] - frame["start_ns"] == frame["dur_ns"]).all()
    assert set(frame["kind"].astype(str)) == {"kernel"}


def test_slice_filters_match_a_reference():
    events = [e for e in kineto_events(SAMPLE) if e.get("ph") == "X" and e.get("cat") == "kernel"]
    starts = sorted(ns(e["ts"]) for e in events)
    lo, hi = starts[len(starts) // 4], starts[len(starts) // 2]
    # Overlapping [lo, hi), as the reference computes it.
    expected = sorted(
        (ns(e["ts"]), e["name"]) for e in events
        if ns(e["ts"]) < hi and ns(e["ts"]) + ns(e["dur"]) > lo and ns(e["dur"]) > 0
    )
    t = gapscope.open(str(SAMPLE))
    frame = t.slices(kind="kernel", start=lo, end=hi)
    assert sorted(zip(frame["start_ns"].tolist(), frame["name"].astype(str))) == expected

    name = events[0]["name"]
    by_name = t.slices(name=name)
    assert len(by_name.index) == sum(1 for e in kineto_events(SAMPLE)
                                     if e.get("ph") == "X" and e.get("name") == name)
    pattern = r"^cudaLaunchKernel$"
    launches = t.slices(name_regex=pattern)
    assert len(launches.index) == sum(1 for e in kineto_events(SAMPLE)
                                      if e.get("ph") == "X" and re.search(pattern, e["name"]))
    tracks = t.tracks()
    gpu_tracks = set(tracks.loc[tracks["label"].str.contains("stream 7"), "track"])
    on_stream = t.slices(track_regex="stream 7$")
    assert set(on_stream["track"]) <= gpu_tracks and len(on_stream.index) > 0


def test_bad_queries_say_what_is_wrong():
    t = gapscope.open(str(SAMPLE))
    with pytest.raises(ValueError, match="kind gpu: one of"):
        t.slices(kind="gpu")
    with pytest.raises(ValueError, match="name_regex"):
        t.slices(name_regex="(")
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        t.kernels(bogus=1)
    with pytest.raises(ValueError, match=r"^kernels\(\): top takes a positive count"):
        t.kernels(top=0)
    with pytest.raises(gapscope.TraceError, match=r"no step 99 \(steps"):
        t.steps(step=99)
    with pytest.raises(ValueError, match="compares runs"):
        t.result("diff")
    with pytest.raises(ValueError, match="has no table 'nope'"):
        t.kernels(table="nope")


def test_numpy_numbers_are_option_values():
    import numpy as np

    t = gapscope.open(str(SAMPLE))
    steps = t.steps()
    step = steps["step"].iloc[1]  # a NumPy integer
    assert isinstance(step, np.integer)
    assert t.kernels(step=step).equals(t.kernels(step=int(step)))
    window = (steps["start_ns"].iloc[1], steps["end_ns"].iloc[1])
    assert t.gaps(range=window, min_gap_us=np.float64(12.5)).equals(
        t.gaps(range=(int(window[0]), int(window[1])), min_gap_us=12.5))


def test_names_that_are_not_utf8_read_as_the_cli_writes_them(tmp_path, cli):
    path = tmp_path / "bytes.json"
    path.write_bytes(
        b'{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "op\xff\xfe", "pid": 1, '
        b'"tid": 1, "ts": 1, "dur": 5}, {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, '
        b'"tid": 1, "ts": 10, "dur": 5}]}')
    t = gapscope.open(str(path), cache=False)
    assert sorted(t.slices()["name"].astype(str)) == ["ok", "op\ufffd\ufffd"]
    ops = t.ops()
    from conftest import run_cli_json
    theirs = run_cli_json(cli, ["ops", str(path), "--no-cache"], str(tmp_path))
    assert sorted(ops["name"]) == sorted(r["name"] for r in theirs["ops"])
    assert "op\ufffd\ufffd" in list(ops["name"])


def test_a_broken_trace_names_the_file(tmp_path):
    broken = tmp_path / "broken.pt.trace.json"
    broken.write_text('{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": ')
    with pytest.raises(gapscope.TraceError) as e:
        gapscope.open(str(broken), cache=False)
    assert str(broken) in str(e.value)
    missing = tmp_path / "missing.json"
    with pytest.raises(gapscope.TraceError, match=re.escape(str(missing))):
        gapscope.open(str(missing))
    garbage = tmp_path / "garbage.json.gz"
    garbage.write_bytes(b"\x1f\x8b\x08\x00" + b"\xff" * 64)
    with pytest.raises(gapscope.TraceError, match=re.escape(str(garbage))):
        gapscope.open(str(garbage), cache=False)


def big_trace(path, events=400_000):
    """A plain Kineto-like file that takes a while to load."""
    with open(path, "w") as f:
        f.write('{"traceEvents": [\n')
        for i in range(events):
            f.write('{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": 1, '
                    '"ts": %d, "dur": 1},\n' % (i % 97, i * 2))
        f.write('{"ph": "X", "cat": "cpu_op", "name": "last", "pid": 1, "tid": 1, '
                '"ts": %d, "dur": 1}\n]}\n' % (events * 2))


def test_the_gil_is_released_while_loading(tmp_path):
    path = tmp_path / "big.json"
    big_trace(path)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.monotonic())

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    started = time.monotonic()
    t = gapscope.open(str(path), cache=False, threads="1")
    ended = time.monotonic()
    done.set()
    counter.join()
    assert t._native.slice_count == 400_001
    during = [x for x in ticks if started <= x <= ended]
    # The other thread ran all through the load: at least once in every
    # tenth of it (a held GIL would leave it stopped for the whole load).
    assert ended - started > 0.05
    marks = [started] + during + [ended]
    assert max(b - a for a, b in zip(marks, marks[1:])) < (ended - started) / 10


def test_a_progress_callback_sees_the_load_and_can_stop_it(tmp_path):
    path = tmp_path / "big.json"
    big_trace(path)
    seen = []
    gapscope.open(str(path), cache=False, progress=lambda *a: seen.append(a))
    assert seen and all(p in ("reading", "building", "indexing") for p, _, _ in seen)

    class Stop(Exception):
        pass

    def stop(phase, done, total):
        raise Stop(phase)

    with pytest.raises(Stop):
        gapscope.open(str(path), cache=False, progress=stop)


def test_ctrl_c_cancels_a_load(tmp_path):
    path = tmp_path / "big.json"
    big_trace(path)
    with pytest.raises(KeyboardInterrupt):
        gapscope.open(str(path), cache=False,
                      progress=lambda *a: signal.raise_signal(signal.SIGINT))


@pytest.mark.skipif(not gapscope._gapscope.has_render, reason="built without Qt GUI")
def test_render_writes_a_png(tmp_path):
    t = gapscope.open(str(SAMPLE))
    png = t.render(width=800, step=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out = t.render(tmp_path / "step.svg", tracks="gpu", width=800)
    assert (tmp_path / "step.svg").read_text().lstrip().startswith("<?xml")
    assert out == tmp_path / "step.svg"
    with pytest.raises(ValueError, match="width"):
        t.render(width=10)
    # Drawing leaves the process as it was: the C locale's numbers, and no
    # platform forced on a later Qt application.
    import locale
    assert locale.setlocale(locale.LC_NUMERIC) == "C"
    assert "QT_QPA_PLATFORM" not in os.environ


def test_every_public_function_has_a_docstring():
    for name in gapscope.__all__:
        obj = getattr(gapscope, name)
        assert inspect.getdoc(obj), name
    for name, member in inspect.getmembers(gapscope.Trace):
        if not name.startswith("_"):
            assert inspect.getdoc(member), name
    for spec in gapscope._methods.registry().values():
        if spec["input"] == "trace" and spec["id"] != "info":
            method = getattr(gapscope.Trace, gapscope._methods.method_name(spec["id"]))
            assert spec["help"] in method.__doc__
            for o in spec["options"]:
                assert o["name"].replace("-", "_") in inspect.signature(method).parameters
