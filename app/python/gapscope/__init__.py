"""Gapscope from Python: GPU/CPU profiles of ML jobs into pandas.

Open a trace (PyTorch profiler / Kineto JSON, .gz or .zst, TensorFlow and
JAX XSpace, a TensorBoard log folder, an Nsight Systems export, a folder of
a job's ranks) and ask it what ``gapscope-cli`` answers, as DataFrames::

    import gapscope
    t = gapscope.open("sample.pt.trace.json.gz")
    t.info()["gpus"]                 # what the trace holds
    t.gaps(top=5)                    # why the GPU was idle, longest first
    t.kernels().head()               # the kernels by total time
    t.steps()["duration_ns"]         # each step's time, integer ns
    t.slices(kind="kernel")          # every kernel, NumPy-backed
    gapscope.compare("before.json.gz", "after.json.gz")

Every analysis registered in Gapscope is a method of ``Trace`` whose
keyword arguments are the command's options (``--min-gap-us 50`` is
``min_gap_us=50``, ``--range A:B`` is ``range=(A, B)``), returning its
primary table with the headline figures in ``DataFrame.attrs["figures"]``;
``Trace.result`` returns all of its tables. Times are absolute integer
nanoseconds, sizes bytes, shares fractions: the numbers of the CLI's
``--format json``, computed by the same code.
"""

import os as _os

from . import _frames, _gapscope
from ._frames import Result
from ._methods import make_method as _make_method
from ._methods import method_name as _method_name
from ._methods import python_words as _words
from ._methods import registry as _registry
from ._methods import tokens as _tokens

__all__ = ["open", "compare", "compare_result", "ranks", "ranks_result", "analyses", "Trace",
           "Result", "TraceError"]

TraceError = _gapscope.TraceError
TraceError.__module__ = "gapscope"
TraceError.__doc__ = (
    "A trace that cannot be opened (its text names the file, where and what was wrong), "
    "or a question it cannot answer (a step it does not have)."
)


def analyses():
    """The registered analyses by id: each a dict of its title, what it computes, its
    input ("trace", "two_runs" or "ranks") and its Trace method (None for comparisons)."""
    return {
        a["id"]: {"title": a["title"], "what": a["what"], "input": a["input"],
                  "method": _method_name(a["id"]) if a["input"] == "trace" else None}
        for a in _registry().values()
    }


def open(path, run=None, cache=True, *, cache_dir=None, threads="auto", process=None,
         progress=None, ranks_as_one=True):
    """Open a trace and return a :class:`Trace`.

    Parameters
    ----------
    path : str or os.PathLike
        A trace file (Kineto JSON, optionally .gz/.zst; XSpace .xplane.pb;
        an Nsight Systems .sqlite export), a TensorBoard log folder, or a
        folder of a job's rank traces (read as one trace, ranks merged).
    run : str, optional
        In a TensorBoard log folder, the profile run to open (default the newest).
    cache : bool
        Reopen from Gapscope's index cache, and write it after a parse.
    cache_dir : str, optional
        The index cache's folder (default ``$XDG_CACHE_HOME/gapscope``).
    threads : str
        ``"auto"`` (read on a second core while building), ``"1"`` or ``"2"``.
    process : int, optional
        A file holding several ranks' processes: read only this process's rank.
    progress : callable, optional
        Called as ``progress(phase, done, total)`` about every 50 ms while
        loading (``phase`` is "reading", "building" or "indexing").
        An exception it raises stops the load and is raised here.
    ranks_as_one : bool
        A folder of a job's ranks opens as one trace, the ranks merged as the
        viewer merges them (else TraceError). The CLI's commands of one trace
        refuse such a folder (but critical-path); :func:`ranks` compares them.

    The load runs on a thread of its own without the GIL (other Python threads
    go on) and stops at Ctrl+C (KeyboardInterrupt), as an analysis does. A file
    that cannot be read raises :class:`TraceError` naming the file, where and
    what was wrong.
    """
    native = _gapscope.open(
        _os.fspath(path), run or "", bool(cache), _os.fspath(cache_dir) if cache_dir else "",
        str(threads), process, bool(ranks_as_one), progress,
    )
    return Trace(native)


class Trace:
    """An opened trace: every analysis as a method, slices as a DataFrame.

    Made by :func:`open`. Immutable; safe to share between threads.
    """

    def __init__(self, native):
        self._native = native

    @property
    def path(self):
        """The path it was opened from."""
        return self._native.path

    @property
    def notes(self):
        """What the load said (which run, which cycle, a rank that failed)."""
        return list(self._native.notes)

    @property
    def cache_note(self):
        """What the index cache did ("hit", "miss (no entry); written", ...)."""
        return self._native.cache_note

    def __repr__(self):
        return "<gapscope.Trace %s: %d slices>" % (self.path, self._native.slice_count)

    def info(self, **options):
        """What the trace holds, as ``gapscope-cli info TRACE --format json``: a dict
        (unlike the other analyses' methods; ``result("info")`` has its tables)."""
        return self.json("info", **options)

    def result(self, analysis, **options):
        """Run a registered analysis (by id) and return every table as a :class:`Result`.

        ``options`` are the command's options as keyword arguments
        (``top=5``, ``min_gap_us=50``, ``range=(start_ns, end_ns)``, ``step=3``).
        """
        spec = _spec(analysis)
        args = _tokens(spec, options, _method_name(spec["id"]))
        try:
            native = self._native.compute(spec["id"], args)
        except ValueError as e:
            raise ValueError(_words(str(e), _method_name(spec["id"]))) from None
        return Result(native, spec["primary_table"])

    def json(self, analysis, **options):
        """The analysis exactly as ``gapscope-cli ID TRACE --format json`` writes it: a dict."""
        spec = _spec(analysis)
        args = _tokens(spec, options, _method_name(spec["id"]))
        try:
            return self._native.compute_json(spec["id"], args)
        except ValueError as e:
            raise ValueError(_words(str(e), _method_name(spec["id"]))) from None

    def slices(self, kind=None, name=None, *, name_regex=None, start=None, end=None, track=None,
               track_regex=None):
        """The trace's slices as a DataFrame, filled without a Python object per slice.

        Columns: ``slice`` (its id), ``track`` (see :meth:`tracks`), ``start_ns``,
        ``end_ns``, ``dur_ns`` (absolute integer ns), ``depth``, and ``name``,
        ``kind``, ``category`` as categoricals. Ordered by track, then by row.

        Parameters
        ----------
        kind : str, optional
            "kernel", "comm_kernel", "memcpy", "memset", "cpu_op",
            "runtime_launch", "runtime_sync", "runtime_copy", "runtime_other",
            "user_annotation", "gpu_annotation", "step" or "other".
        name : str, optional
            Only slices of exactly this name.
        name_regex : str, optional
            Only names this regular expression finds (ECMAScript).
        start, end : int, optional
            Only slices overlapping [start, end), absolute ns.
        track : int, optional
            Only this track (its index in :meth:`tracks`).
        track_regex : str, optional
            Only tracks whose label ("GPU 0 · stream 7") this finds.
        """
        pd = _frames._pandas()
        query = _gapscope.SliceQuery()
        query.kind, query.name, query.name_regex = kind, name, name_regex
        query.start, query.end, query.track, query.track_regex = start, end, track, track_regex
        native = self._native.slices(query)
        columns = native["columns"]
        data = {}
        for key in ("slice", "track", "start_ns", "end_ns", "dur_ns", "depth"):
            data[key] = columns[key]
        for key, texts in (("name", "names"), ("kind", "kinds"), ("category", "categories")):
            data[key] = pd.Categorical.from_codes(columns[key], categories=_unique(native[texts]))
        return pd.DataFrame(data, copy=False)

    def tracks(self):
        """The trace's tracks: index, label, kind, process, thread, rank, gpu, slices."""
        return _frames._pandas().DataFrame(self._native.tracks())

    def render(self, path=None, *, range=None, step=None, tracks="all", width=1600, height=None,
               scale=1, dark=False, annotations=True, min_gap_us=None, svg=None):
        """The picture File > Export Image makes (``gapscope-cli render``).

        Returns the PNG (or SVG) bytes, or writes them to ``path``
        atomically (SVG when it ends in .svg) and returns ``path``.
        ``range`` is (start_ns, end_ns), ``step`` a step number, ``tracks``
        "gpu", "cpu", "all" or a regular expression found in "PROCESS / TRACK";
        ``width`` 400 to 20000 pixels, ``height`` the whole picture's (default
        every chosen row), ``scale`` 1 or 2, ``dark`` the dark palette.
        """
        if not _gapscope.has_render:
            raise RuntimeError("this build of gapscope draws no pictures (built without Qt GUI)")
        if not 400 <= int(width) <= 20000:
            raise ValueError("width takes 400 to 20000 pixels")
        if height is not None and not 100 <= int(height) <= 20000:
            raise ValueError("height takes 100 to 20000 pixels")
        if scale not in (1, 2):
            raise ValueError("scale takes 1 or 2")
        if svg is None:
            svg = path is not None and _os.fspath(path).lower().endswith(".svg")
        spec = _registry()["account"]  # (its options: range, step, min_gap_us)
        options = {"range": range, "step": step, "min_gap_us": min_gap_us}
        picture, warnings = self._native.render(
            _tokens(spec, options, "render"), str(tracks), int(width), int(height or 0),
            int(scale), bool(svg), bool(dark), bool(annotations),
        )
        for w in warnings:
            import warnings as _warnings

            _warnings.warn(w)
        if path is None:
            return picture
        _gapscope.write_file(_os.fspath(path), picture)
        return path


def _unique(texts):
    # Categories must differ; two slices' names never repeat here, but a
    # category string may equal another's after demangling: keep the codes
    # valid by making repeats distinct.
    seen = {}
    out = []
    for t in texts:
        n = seen.get(t, 0)
        out.append(t if n == 0 else "%s (%d)" % (t, n))
        seen[t] = n + 1
    return out


def _spec(analysis):
    spec = _registry().get(analysis) or _registry().get(str(analysis).replace("_", "-"))
    if spec is None:
        raise ValueError("no analysis %r (see gapscope.analyses())" % (analysis,))
    return spec


def _path_token(path):
    # A path that starts with '-' is no option to the command line.
    path = _os.fspath(path)
    return "./" + path if path.startswith("-") else path


def _comparison(analysis, paths, options, workers=0):
    spec = _spec(analysis)
    args = _tokens(spec, options, analysis) + [_path_token(getattr(p, "path", p)) for p in paths]
    try:
        body, log, status, verdict = _gapscope.compare(spec["id"], args, int(workers))
    except ValueError as e:
        raise ValueError(_words(str(e), analysis)) from None
    result = Result(body, spec["primary_table"])
    result.log = log
    if status is not None:
        result.status, result.verdict = status, verdict
    return result


def compare_result(base, new, analysis="diff", **options):
    """Compare two runs as ``gapscope-cli diff BASE NEW``; every table as a :class:`Result`.

    ``base`` and ``new`` are paths, or opened :class:`Trace` objects whose paths are
    compared (each opened again as the CLI opens it: from the index cache when
    unchanged; the ``run`` or ``process`` it was opened with does not carry over).
    A folder of a job's ranks compares rank by rank. With ``fail_if=[...]`` the
    gate's exit status and lines are ``Result.status`` and ``Result.verdict``.
    """
    result = _comparison(analysis, [base, new], options)
    return result


def compare(base, new, analysis="diff", *, table=None, **options):
    """Compare two runs; the comparison's primary table as a DataFrame.

    The same as :func:`compare_result` (``options`` are ``gapscope-cli diff``'s,
    as keyword arguments), returning one table (``table``, default the primary).
    """
    result = _comparison(analysis, [base, new], options)
    return result.table(table or result.primary)


def ranks_result(path, *more, workers=0, **options):
    """The ranks of a job as ``gapscope-cli ranks DIR|FILE...``; every table as a :class:`Result`.

    ``workers`` is how many files are read at once (0: the machine's cores).
    """
    result = _comparison("ranks", [path, *more], options, workers)
    return result


def ranks(path, *more, workers=0, table=None, **options):
    """The ranks of a job, one row per rank (the primary table) as a DataFrame."""
    result = _comparison("ranks", [path, *more], options, workers)
    return result.table(table or result.primary)


for _spec_ in _registry().values():
    if _spec_["input"] == "trace" and not hasattr(Trace, _method_name(_spec_["id"])):
        setattr(Trace, _method_name(_spec_["id"]), _make_method(_spec_))
del _spec_
