#!/usr/bin/env python3
"""Independent reference counts for the real traces (stdlib only, Python 3.11).

Writes tests/data/real_traces_expected.json; the C++ reader tests must match it.
Usage: reference_counts.py [--traces DIR] [--extra DIR]... [--out FILE]
Inputs: files under --traces ending in .json, .gz (.json.gz, .tar.gz, .raw.gz),
.zip or .pb, plus DIR/*.json.gz of each --extra DIR, named "<DIR name>/<file>"
(default extras: tests/data/recorded, resources/samples). Output: {"files":
[record, ...]} sorted by path; a file that is not a trace gets {"path", "ok":
false, "error", "notes"}; the fields of a trace record are named in the rules.

Rules (the spec):
 1. Container by magic bytes: PK\\3\\4 -> error "zip"; 1f 8b -> gzip (all
    members; a cut-off or corrupt stream keeps what decoded, noted); 28 b5 2f fd
    -> zstd (zstd CLI). b"ustar" at offset 257 of the data -> error "tar". A
    UTF-8 BOM is dropped, invalid UTF-8 replaced. Empty -> error "empty";
    first non-whitespace byte not '[' or '{' -> "not JSON" (e.g. .pb files),
    except data whose first bytes read as an XSpace protobuf's first plane
    (tag 0x0A = field 1 length-delimited, a varint of at most 10 bytes, then
    an XPlane field tag: id = field 1 varint, or one of fields 2..6
    length-delimited) -> "xspace".
 2. Strict parse: json.loads, numbers as Decimal, NaN/Infinity rejected. If it
    fails, truncated=true and a lenient reader runs: a top-level '[' is the
    event array (form "array"); a top-level '{' (form "object") is walked key
    by key, values by raw_decode, until '}', end of data or a value that fails
    to decode. When "traceEvents" starts with '[' its elements are decoded one
    at a time, skipping whitespace and commas, until ']', end of data, or the
    first element that fails to decode (it and all after it are dropped); keys
    after a closed array are still read. The lenient decoder accepts raw
    control characters in strings. Trailing commas before '}' or ']' (outside
    strings) are accepted anywhere: they are removed before both parses.
 3. A trace is an object with a "traceEvents" array (else "no traceEvents" /
    "traceEvents is not an array"; systemTraceEvents alone does not count) or a
    top-level array of objects of which at least one has "ph" (an empty array
    is a trace; else "not trace events"). events = objects in the array ({}
    included; non-object elements of traceEvents are ignored and noted).
 4. phases: count per string "ph" exactly as written. As in Chrome and
    Perfetto, the FIRST character of ph decides how the event is modelled
    ("XXX" is a complete event). Events without a string ph take no part.
 5. ts/dur are µs: a JSON number, or a string that after stripping ASCII
    whitespace matches the JSON number grammar; anything else (bool, null,
    "100a") is invalid. ns = Decimal(v) * 1000 rounded half away from zero;
    outside int64 -> invalid. displayTimeUnit never changes units.
 6. An X event whose "dur" is present but invalid is dropped (as Perfetto
    does): it counts in phases only. span_ns = [min ts_ns, max(ts_ns +
    (dur_ns if ph is X and dur >= 0 else 0))] over the other events whose ph
    is not M and whose ts is valid; else null.
 7. slices = events with ph X or B (first character) and a valid ts, less the
    dropped X events (an X with a missing or negative dur is zero-length).
 8. GPU activity = ph "X", valid ts, dur_ns > 0, and either (a) cat in
    {kernel, gpu_memcpy, gpu_memset, Kernel, Memcpy, Memset}: device =
    str(int(args.device)) if it is an integral number (or such a string, as in
    rule 5), else the pid (integral number -> str(int), string as is, else the
    event is no activity); or (b) its (pid, tid) has a thread_name M event with
    args.name starting "Stream #" and its pid a process_name M event with
    args.name matching ^/device:GPU:(\\d+): device = str(int(group 1)). pid and
    tid compare by value: a string holding a canonical integer ("25738") is
    that number (old Kineto mixes both for one thread), 1 == 1.0; other
    strings are keys of their own. M events count wherever they
    are; when a pid/thread is named twice, the last name in the file wins.
    gpu_busy_ns[device] = length of the union of [ts_ns, ts_ns + dur_ns).
Notes are informative only (not part of the spec), e.g. where PROVENANCE.md's
statistics (events, ph counts, cat kernel/Kernel count) differ from ours.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from decimal import MAX_EMAX, MIN_EMIN, ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = (".json", ".gz", ".zip", ".pb")
KINETO_GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "Kernel", "Memcpy", "Memset"}
KNOWN_PHASES = set("BEXiICbnestfPNODMVvRcSTpF()")
NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
GPU_PROCESS_RE = re.compile(r"/device:GPU:(\d+)")
WS = " \t\n\r\f\v"
SKIP_WS, SKIP_SEP = re.compile(f"[{WS}]*"), re.compile(f"[{WS},]*")
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class NotATrace(Exception):
    """The file is not a readable Chrome Trace Event Format trace."""


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


DECODE = dict(parse_float=Decimal, parse_int=Decimal, parse_constant=_reject_constant)
LENIENT = json.JSONDecoder(strict=False, **DECODE)


def read_text(raw, notes):
    """Return (compression, text) per rule 1, or raise NotATrace."""
    if raw[:4] == b"PK\x03\x04":
        raise NotATrace("zip")
    compression = "none"
    if raw[:2] == b"\x1f\x8b":
        compression, chunks = "gzip", []
        while raw[:2] == b"\x1f\x8b":  # one decompressor per gzip member
            gz = zlib.decompressobj(wbits=31)
            try:
                chunks.append(gz.decompress(raw))
            except zlib.error as err:
                notes.append(f"gzip error ({err}), member dropped")
                break
            if not gz.eof:
                notes.append("gzip stream cut off, kept what decoded")
            raw = gz.unused_data
        raw = b"".join(chunks)
    elif raw[:4] == b"\x28\xb5\x2f\xfd":
        compression = "zstd"
        if not shutil.which("zstd"):
            raise NotATrace("zstd: no zstd CLI to decompress")
        raw = subprocess.run(["zstd", "-dcq"], input=raw, capture_output=True).stdout
    if raw[257:262] == b"ustar":
        raise NotATrace("tar")
    return compression, raw


def lenient_array(text, pos, notes):
    """Decode array elements from pos (after '['): (items, end, closed)."""
    items = []
    while True:
        pos = SKIP_SEP.match(text, pos).end()
        if pos >= len(text):
            notes.append(f"array not closed: data ends after {len(items)} elements")
            return items, pos, False
        if text[pos] == "]":
            return items, pos + 1, True
        try:
            value, pos = LENIENT.raw_decode(text, pos)
        except (ValueError, RecursionError) as err:
            notes.append(f"lenient read stopped at char {pos} after {len(items)} elements: "
                         f"{getattr(err, 'msg', err)}")
            return items, pos, False
        items.append(value)


def lenient(text, notes):
    """The top-level value as far as it can be read (rule 2)."""
    pos = SKIP_WS.match(text).end()
    if text[pos] == "[":
        return lenient_array(text, pos + 1, notes)[0]
    top, pos = {}, pos + 1
    try:
        while True:
            pos = SKIP_SEP.match(text, pos).end()
            if pos >= len(text) or text[pos] == "}":
                return top
            key, pos = LENIENT.raw_decode(text, pos)
            pos = SKIP_WS.match(text, pos).end()
            if not isinstance(key, str) or not text.startswith(":", pos):
                return top
            pos = SKIP_WS.match(text, pos + 1).end()
            if key == "traceEvents" and text.startswith("[", pos):
                top[key], pos, closed = lenient_array(text, pos + 1, notes)
                if not closed:
                    return top
            else:
                top[key], pos = LENIENT.raw_decode(text, pos)
    except (ValueError, RecursionError):
        return top


def strip_trailing_commas(text):
    """Remove commas that are followed (after whitespace) by '}' or ']',
    outside strings: JSON forbids them, trace writers emit them."""
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                out.append(text[i:i + 2])
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif c == ",":
            j = SKIP_WS.match(text, i + 1).end()
            if j < n and text[j] in "}]":
                i += 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


def looks_like_xspace(raw):
    """Rule 1's XSpace test, on the decompressed bytes."""
    if raw[:1] != b"\x0a":
        return False
    i = 1
    while i < len(raw) and i <= 10 and raw[i] & 0x80:
        i += 1
    if i >= len(raw) or i > 10 or i + 1 >= len(raw):
        return False
    field, wire = raw[i + 1] >> 3, raw[i + 1] & 7
    return (field, wire) == (1, 0) or (2 <= field <= 6 and wire == 2)


def load_events(text, notes, raw=b""):
    """Return (form, truncated, events) per rules 2 and 3, or raise NotATrace."""
    first = text.lstrip(WS)[:1]
    if not first or first not in "[{":
        if first and looks_like_xspace(raw):
            raise NotATrace("xspace")
        raise NotATrace("not JSON" if first else "empty")
    text = strip_trailing_commas(text)
    try:
        doc, truncated = LENIENT.decode(text), False  # raw control chars accepted
    except (ValueError, RecursionError) as err:
        notes.append(f"strict parse failed: {err}")
        doc, truncated = lenient(text, notes), True
    if isinstance(doc, list):
        if not all(isinstance(e, dict) for e in doc) or (doc and not any("ph" in e for e in doc)):
            raise NotATrace("not trace events")
        return "array", truncated, doc
    if "systemTraceEvents" in doc:
        notes.append("systemTraceEvents ignored")
    if "traceEvents" not in doc:
        raise NotATrace("no traceEvents")
    if not isinstance(doc["traceEvents"], list):
        raise NotATrace("traceEvents is not an array")
    if "displayTimeUnit" in doc:
        notes.append(f"displayTimeUnit={doc['displayTimeUnit']} (display only)")
    events = [e for e in doc["traceEvents"] if isinstance(e, dict)]
    if len(events) < len(doc["traceEvents"]):
        notes.append(f"{len(doc['traceEvents']) - len(events)} non-object elements ignored")
    return "object", truncated, events


def number(value):
    """A Decimal for a valid number (rule 5), else None."""
    if isinstance(value, str) and NUMBER_RE.fullmatch(value.strip(WS)):
        return Decimal(value.strip(WS))
    return value if isinstance(value, Decimal) else None


def to_ns(value):
    d = number(value)
    if d is None or d.adjusted() > 18:  # >= 1e19 µs is far outside int64 ns
        return None
    with localcontext() as ctx:  # enough digits for the product to be exact
        ctx.prec, ctx.Emax, ctx.Emin = len(d.as_tuple().digits) + 25, MAX_EMAX, MIN_EMIN
        ns = int((d * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return ns if INT64_MIN <= ns <= INT64_MAX else None


def integral_str(value):
    d = number(value)
    return str(int(d)) if d is not None and d == d.to_integral_value() else None


CANONICAL_INT_RE = re.compile(r"0|-?[1-9][0-9]{0,17}")


def id_key(value):
    """pid/tid identity (rule 8): numbers by value, canonical-integer strings
    as their number, other strings by text, anything else None."""
    if isinstance(value, str) and CANONICAL_INT_RE.fullmatch(value):
        return ("Decimal", Decimal(value))
    return (type(value).__name__, value) if isinstance(value, (Decimal, str)) else None


def union_length(intervals):
    total, start, end = 0, None, None
    for lo, hi in sorted(intervals):
        if end is None or lo > end:
            total += 0 if end is None else end - start
            start, end = lo, hi
        else:
            end = max(end, hi)
    return total + (0 if end is None else end - start)


def analyze(events, notes):
    """Return (phases, span_ns, slices, gpu_busy_ns) per rules 4 to 8."""
    gpu_pid, stream_thread = {}, {}
    for e in events:
        args, pid = e.get("args"), id_key(e.get("pid"))
        if e.get("ph") != "M" or not isinstance(args, dict) or pid is None:
            continue
        label = args.get("name")
        if e.get("name") == "process_name" and isinstance(label, str):
            match = GPU_PROCESS_RE.match(label)
            gpu_pid[pid] = str(int(match.group(1))) if match else None
        elif e.get("name") == "thread_name" and isinstance(label, str):
            stream_thread[(pid, id_key(e.get("tid")))] = label.startswith("Stream #")
    phases, odd = collections.Counter(), collections.Counter()
    span, slices, busy = None, 0, collections.defaultdict(list)
    for e in events:
        written = e.get("ph")
        if not isinstance(written, str) or not written:
            odd["empty {} events" if not e else "events without a string ph"] += 1
            continue
        phases[written] += 1
        ph = written[0]
        odd["string ts/dur values"] += sum(isinstance(e.get(k), str) for k in ("ts", "dur"))
        if ph == "M":
            continue
        ts = to_ns(e.get("ts"))
        if ts is None:
            odd["invalid ts" if "ts" in e else "missing ts"] += 1
            continue
        dur = to_ns(e.get("dur")) if ph == "X" else None
        if ph == "X" and "dur" in e and dur is None:
            odd["X with invalid dur (dropped)"] += 1
            continue
        if ph == "X" and (dur is None or dur < 0):
            odd["X without dur" if "dur" not in e else "X with invalid/negative dur"] += 1
        end = ts + dur if dur is not None and dur >= 0 else ts
        span = [min(span[0], ts), max(span[1], end)] if span else [ts, end]
        slices += ph in ("X", "B")
        if ph != "X" or dur is None or dur <= 0:
            continue
        pid, args = id_key(e.get("pid")), e.get("args")
        if e.get("cat") in KINETO_GPU_CATS:
            device = integral_str(args.get("device")) if isinstance(args, dict) else None
            if device is None and pid is not None:
                device = pid[1] if pid[0] == "str" else integral_str(pid[1])
            if device is None:
                odd["GPU-category X without a usable device"] += 1
                continue
        elif stream_thread.get((pid, id_key(e.get("tid")))) and gpu_pid.get(pid):
            device = gpu_pid[pid]
            odd["TF/JAX GPU stream activity events"] += 1
        else:
            continue
        busy[device].append((ts, ts + dur))
    unusual = sorted(p for p in phases if p not in KNOWN_PHASES)
    notes += [f"{n} {what}" for what, n in sorted(odd.items()) if n]
    notes += [f"non-standard ph: {', '.join(unusual)}"] if unusual else []
    return phases, span, slices, {d: union_length(v) for d, v in busy.items()}


def examine(path, rel):
    """Return (record, count of cat kernel/Kernel events or None)."""
    notes = []
    try:
        compression, raw = read_text(path.read_bytes(), notes)
        text = raw.decode("utf-8-sig", errors="replace")
        form, truncated, events = load_events(text, notes, raw)
    except NotATrace as err:
        return {"path": rel, "ok": False, "error": str(err), "notes": "; ".join(notes)}, None
    phases, span, slices, busy = analyze(events, notes)
    record = {"path": rel, "ok": True, "form": form, "compression": compression,
              "truncated": truncated, "events": len(events),
              "phases": dict(sorted(phases.items())), "span_ns": span, "slices": slices,
              "gpu_busy_ns": {d: busy[d] for d in sorted(busy, key=lambda d: (len(d), d))},
              "notes": "; ".join(notes)}
    return record, sum(e.get("cat") in ("kernel", "Kernel") for e in events)


def provenance(traces):
    """{path: (events, phases, GPU kernels)} from the tables in PROVENANCE.md."""
    table, header, md = {}, [], traces / "PROVENANCE.md"
    for line in md.read_text().splitlines() if md.exists() else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or set(cells[0]) <= set("-"):
            continue
        if not any(c.startswith("`") for c in cells):
            header = cells
            continue
        col = dict(zip(header, cells))
        if len(cells) != len(header) or not col.get("events", "").isdigit():
            continue
        path = next(c for c in cells if c.startswith("`")).strip("`")
        path = {"test": f"perfetto/json_diff_tests/{path}/trace.json",
                "snapshot key": f"speedscope/{path}"}.get(header[0], path)
        ph = col.get("ph counts", col.get("ph", ""))
        phases = dict(p.rsplit(":", 1) for p in ph.split(", ") if p and p[:5] != "None:")
        kernels = int(col["GPU kernels"]) if col.get("GPU kernels") else None
        table[path] = (int(col["events"]), {k: int(v) for k, v in phases.items()}, kernels)
    return table


def kept(files, traces, derive):
    """derive(), or what it returned before for the same inputs: the records
    are kept in the test-input cache (tests/support/input_cache.h: the same
    folder, GAPSCOPE_TEST_INPUT_CACHE or build/test-inputs, "off" for never)
    under a key of Python's version, this script, PROVENANCE.md and every
    input file's name and content. The same inputs give the same records,
    so a kept result is a derived one."""
    where = os.environ.get("GAPSCOPE_TEST_INPUT_CACHE") or str(ROOT / "build" / "test-inputs")
    if where == "off":
        return derive()
    key = hashlib.sha256()
    key.update(sys.version.encode())
    key.update(Path(__file__).read_bytes())
    provenance_md = traces / "PROVENANCE.md"
    if provenance_md.is_file():
        key.update(provenance_md.read_bytes())
    for path, rel in files:
        key.update(rel.encode() + b"\0")
        key.update(path.read_bytes())
    keep = Path(where) / (key.hexdigest() + ".counts.json")
    if keep.is_file():
        os.utime(keep)
        print(f"records as derived before from the same inputs ({keep.name})")
        return json.loads(keep.read_text(encoding="utf-8"))
    records = derive()
    keep.parent.mkdir(parents=True, exist_ok=True)
    part = keep.with_suffix(f".{os.getpid()}.part")
    part.write_text(json.dumps(records), encoding="utf-8")
    os.replace(part, keep)
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # GAPSCOPE_SHARED_DIR names the shared folder as for the test suites.
    shared = Path(os.environ.get("GAPSCOPE_SHARED_DIR") or ROOT.parent / "shared")
    parser.add_argument("--traces", type=Path, default=shared / "traces")
    parser.add_argument("--extra", type=Path, action="append",
                        help="also take DIR/*.json.gz, named <DIR name>/<file>")
    parser.add_argument("--out", type=Path,
                        default=ROOT / "tests" / "data" / "real_traces_expected.json")
    parser.add_argument("--check", action="store_true",
                        help="compare with --out instead of writing it (exit 1 when they differ; "
                             "77, skipped, when --traces is absent and GAPSCOPE_REQUIRE_INPUTS "
                             "is not set)")
    opts = parser.parse_args()
    if not opts.traces.is_dir():
        if os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1":
            sys.exit(f"{opts.traces} is absent (GAPSCOPE_REQUIRE_INPUTS is set)")
        print(f"skipped: {opts.traces} is absent")
        sys.exit(77)
    extras = opts.extra or [ROOT / "tests" / "data" / "recorded", ROOT / "resources" / "samples"]
    files = [(p, p.relative_to(opts.traces).as_posix()) for p in opts.traces.rglob("*")
             if p.is_file() and p.name.endswith(SUFFIXES)]
    files += [(p, f"{d.name}/{p.name}") for d in extras for p in d.glob("*.json.gz")]
    files.sort(key=lambda f: f[1])

    def derive():
        expected, records = provenance(opts.traces), []
        for path, rel in files:
            record, kernels = examine(path, rel)
            if record["ok"] and rel in expected:
                events, phases, want_kernels = expected[rel]
                if (record["events"], record["phases"]) != (events, phases) or (
                        want_kernels is not None and want_kernels != kernels):
                    record["notes"] += "; " * bool(record["notes"]) + (
                        f"PROVENANCE.md says events {events}, ph {phases}, kernels {want_kernels}")
            records.append(record)
        return records

    records = kept(files, opts.traces, derive) if opts.check else derive()
    doc = {"generator": "tests/tools/reference_counts.py", "files": records}
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if opts.check:
        pinned = json.loads(opts.out.read_text(encoding="utf-8"))
        pinned_by_path = {r["path"]: r for r in pinned["files"]}
        derived_by_path = {r["path"]: r for r in records}
        differ = [p for p in sorted(set(pinned_by_path) | set(derived_by_path))
                  if pinned_by_path.get(p) != derived_by_path.get(p)]
        for p in differ[:20]:
            print(f"{p}:\n  pinned:  {pinned_by_path.get(p)}\n  derived: {derived_by_path.get(p)}")
        if differ:
            sys.exit(f"{len(differ)} of {len(records)} records differ from {opts.out}: rerun "
                     f"tests/tools/reference_counts.py and review the diff")
        print(f"{len(records)} records derived again: identical to {opts.out}")
        return
    opts.out.write_text(text, encoding="utf-8")
    ok = sum(r["ok"] for r in records)
    print(f"{len(records)} files: {ok} ok, {len(records) - ok} errors -> {opts.out}")


if __name__ == "__main__":
    main()
