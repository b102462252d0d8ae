#!/usr/bin/env python3
"""Writes the corpus of broken and hostile trace files into OUT_DIR, with
manifest.json saying what Gapscope must answer for each: an error (the
message names where and what), a warning (the trace opens; the import report
says what was wrong) or a clean open. tests/core/tst_broken_input.cpp runs it
and asserts every case. Generated, not committed: the files are big or binary.

Usage: make_broken_corpus.py OUT_DIR
"""
import gzip
import json
import pathlib
import shutil
import subprocess
import sys


def event(i, **kw):
    e = {"ph": "X", "name": f"op{i}", "pid": 1, "tid": 1, "ts": i * 10, "dur": 5}
    e.update(kw)
    return e


def dumps_events(events):
    return "[" + ",".join(json.dumps(e) for e in events) + "]"


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    cases = []

    def case(name, data, expect, where="", what="", **extra):
        path = out / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        cases.append({"file": name, "expect": expect, "where": where, "what": what, **extra})

    good = dumps_events([event(i) for i in range(3)])

    # Structure
    case("empty.json", b"", "error", "byte 0", "the file is empty")
    case("whitespace.json", b" \n\t \r\n", "error", "byte", "only whitespace")
    case("not_json.json", b"hello world", "error", "byte 0", "expected '[' or '{'")
    case("binary.pb", bytes([0x0A, 0xA6, 0x01, 0x00, 0xFF]), "error", "byte 1", "binary data")
    case("bom.json", b"\xef\xbb\xbf" + good.encode(), "ok", slices=3)
    case("nul_in_string.json", dumps_events([event(0, name="a\u0000b")]), "ok", slices=1)
    case("nul_between_events.json", good[:-1].encode() + b",\x00" + b"]", "warning", "", "malformed JSON", slices=3)
    case("cut_mid_string.json", good[: good.index('"op2"') + 2], "warning", "", "truncated", slices=2)
    case("cut_mid_number.json", good[: good.rindex('"ts": 20') + 7], "warning", "", "truncated", slices=2)
    case("cut_mid_key.json", good[: good.rindex('"dur"') + 3], "warning", "", "truncated", slices=2)
    case("cut_before_any_event.json", '{"traceEvents": [{"ph": "X", "na', "error", "byte", "no event could be read")
    case("trailing_garbage.json", good + " garbage", "warning", "", "ignored data after the end", slices=3)
    case("top_level_string.json", '"just a string"', "error", "byte 0", "expected '[' or '{'")
    case("array_of_numbers.json", "[1, 2, 3]", "error", "byte 1", "not a Chrome trace")
    case("objects_without_ph.json", '[{"a": 1}, {"b": 2}]', "error", "traceEvents", "none of the 2 objects")
    case("trace_events_not_array.json", '{"traceEvents": {"ph": "X"}}', "error", "byte 16", "must be an array")

    # Depth and size
    depth = 100_000
    deep = '{"a":' * depth + "1" + "}" * depth
    case("deep_args_100k.json", "[" + json.dumps(event(0))[:-1] + ', "args": ' + deep + "}," + json.dumps(event(1)) + "]",
         "ok", slices=2)
    deep_array = "[" * depth + "]" * depth
    case("deep_metadata_100k.json", '{"meta": ' + deep_array + ', "traceEvents": ' + good + "}", "ok", slices=3)
    case("long_name_2mb.json", dumps_events([event(0, name="n" * 2_000_000), event(1)]), "ok", slices=2)
    case("huge_event_3mb.json", dumps_events([event(0, args={"blob": "x" * 3_000_000}), event(1)]),
         "error", "byte", "larger than the limit", max_event_mb=1)
    threads = [event(i, tid=i) for i in range(200_000)]
    case("many_threads.json", dumps_events(threads), "ok", slices=200_000, tracks=200_000)
    names = [event(i, name=f"kernel_{i:07d}") for i in range(300_000)]
    case("many_names.json", dumps_events(names), "ok", slices=300_000)

    # Numbers and types
    numbers = [
        event(0, ts="1e400"),              # overflow: dropped
        event(1, ts=float("nan")),         # NaN literal: dropped
        event(2, ts=-0.0),                 # -0: time 0
        event(3, dur=-9e15),               # huge negative duration: kept as 0, flagged
        event(4, ts="soon"),               # not a number: dropped
        event(5, args={"x": float("inf")}),  # Infinity inside args: fine
        event(6, ts="  60.5 "),            # numeric string with spaces: accepted
    ]
    case("numbers.json", dumps_events(numbers), "warning", "", "invalid \"ts\"", slices=4, invalid=3,
         negative=1)
    types = [
        event(0, pid={"a": 1}), event(1, tid=[1, 2]), event(2, name=5), event(3, cat=True),
        event(4, args="not an object"), event(5, ph=7), event(6, dur=[1]), event(7, id2=3),
    ]
    case("wrong_types.json", dumps_events(types), "warning", "", "makes no sense", slices=6, invalid=1)
    case("duplicate_keys.json", '[{"ph":"X","name":"a","ts":1,"ts":2,"dur":1,"dur":3}]', "ok", slices=1,
         first_start_ns=2000, first_dur_ns=3000)
    case("bad_utf8.json", b'[{"ph":"X","name":"a\xff\xfeb","ts":1,"dur":1},' + b'{"ph":"X","name":"\\ud800 lone","ts":2,"dur":1}]',
         "ok", slices=2)
    case("bad_escape.json", '[{"ph":"X","name":"ok","ts":1,"dur":1},{"ph":"X","name":"a\\qb","ts":1,"dur":1}]',
         "warning", "", "valid escape", slices=1)

    # Compression
    case("gzip_truncated.json.gz", gzip.compress(dumps_events([event(i) for i in range(5000)]).encode())[:3000],
         "warning", "", "gzip stream is truncated")
    # Corrupt deflate data in the middle may first decode to garbage (a JSON
    # error) before zlib notices; either way the events before it are kept.
    compressed = gzip.compress(dumps_events([event(i) for i in range(5000)]).encode())
    corrupt = bytearray(compressed)
    for k in range(200, 260):
        corrupt[k] ^= 0x5A
    case("gzip_corrupt_middle.json.gz", bytes(corrupt), "warning", "", "kept the")
    bad_header = bytearray(compressed)
    bad_header[10] = 0xFF  # the first deflate block header: an invalid block type
    case("gzip_corrupt_start.json.gz", bytes(bad_header), "error", "byte 0", "corrupt gzip data")
    # A bomb: 64 MB of whitespace in a few kB; it must end in bounded time and memory.
    case("gzip_bomb_whitespace.json.gz", gzip.compress(b"[" + b" " * (64 << 20) + b"]", 9), "ok", slices=0)
    if shutil.which("zstd"):
        events = ",".join(json.dumps(event(i)) for i in range(400_000))
        data = subprocess.run(["zstd", "-19", "-c"], input=("[" + events + "]").encode(), capture_output=True).stdout
        case("zstd_bomb_events.json.zst", data, "error", "event", "needs more memory than the limit",
             memory_limit_mb=16)
        case("zstd_truncated.json.zst", data[: len(data) // 3], "warning", "", "zstd stream is truncated")
    case("zip_archive.zip", b"PK\x03\x04" + b"\x00" * 40, "error", "byte 0", "ZIP archive")

    (out / "manifest.json").write_text(json.dumps({"cases": cases}, indent=1))
    print(f"{len(cases)} cases in {out}")


if __name__ == "__main__":
    main()
