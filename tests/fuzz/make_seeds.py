#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_reader into OUT_DIR: the test fixtures and
the small real traces of ../shared/traces, each prefixed with the mode byte
that feeds it plain (0), gzip- (1) or zstd-compressed (2), chunked, or as
a file parsed ahead in chunks on a second core (3, chunk bits varied; with
bit 7, every other seed compressed first).
With --xspace, the seeds of fuzz_xspace instead: every *.xplane.pb of
../shared/traces and tests/data/recorded, whole (chunk byte 0) and in
7-byte reads. With --ranks, those of fuzz_ranks: pairs of the small traces
(mode byte 0, then the split byte) and the ranks JSON files given after
OUT_DIR (mode byte 1; e.g. `gapscope-cli ranks DIR --format json`).
With --args, those of fuzz_args: the awkward events of
tests/fixtures/awkward_args.jsonl whole (mode byte 0), and the args objects
of events of the small traces after the mode byte of their kind (1 X,
2 M, 3 C, 4 a [memory] instant).
Usage: make_seeds.py [--xspace | --ranks | --args] OUT_DIR [RANKS.json...]"""
import gzip
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAX_BYTES = 256 * 1024


def texts():
    for p in sorted((ROOT / "tests" / "fixtures").rglob("*.json")):
        yield p.read_bytes()
    shared = ROOT.parent / "shared" / "traces"
    for p in sorted(shared.rglob("*")):
        if not p.is_file() or p.suffix not in (".json", ".gz"):
            continue
        raw = p.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            try:
                raw = gzip.decompress(raw)
            except OSError:
                continue
        if len(raw) <= MAX_BYTES:
            yield raw


def xspace_seeds(out):
    n = 0
    roots = [ROOT.parent / "shared" / "traces", ROOT / "tests" / "data" / "recorded"]
    for root in roots:
        for p in sorted(root.rglob("*.xplane.pb")):
            raw = p.read_bytes()
            for chunk in (0, 7):
                data = bytes([chunk]) + raw
                (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
                n += 1
    print(f"{n} seeds in {out}")


def ranks_seeds(out, documents):
    n = 0
    small = [t for t in texts() if len(t) <= 64 * 1024][:40]
    for a, b in zip(small, small[1:] + small[:1]):
        split = len(a) * 255 // max(1, len(a) + len(b))
        data = bytes([0, split]) + a + b
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    for doc in documents:
        data = bytes([1, 0]) + pathlib.Path(doc).read_bytes()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    print(f"{n} seeds in {out}")


def args_seeds(out, per_trace=12):
    n = 0
    lines = (ROOT / "tests" / "fixtures" / "awkward_args.jsonl").read_bytes().splitlines()
    seeds = [b"\x00" + line for line in lines if line.strip()]
    for text in texts():
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        kept = 0
        for ev in events if isinstance(events, list) else []:
            if not isinstance(ev, dict) or not isinstance(ev.get("args"), dict) or not ev["args"]:
                continue
            ph = ev.get("ph")
            mode = 2 if ph == "M" else 3 if ph == "C" else 4 if ev.get("name") == "[memory]" else 1
            seeds.append(bytes([mode]) + json.dumps(ev["args"]).encode())
            kept += 1
            if kept == per_trace:
                break
    for data in seeds:
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    print(f"{n} seeds in {out}")


def main():
    args = sys.argv[1:]
    xspace = "--xspace" in args
    ranks = "--ranks" in args
    args_only = "--args" in args
    args = [a for a in args if a not in ("--xspace", "--ranks", "--args")]
    out = pathlib.Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    if args_only:
        args_seeds(out)
        return
    if xspace:
        xspace_seeds(out)
        return
    if ranks:
        ranks_seeds(out, args[1:])
        return
    n = 0
    for i, text in enumerate(texts()):
        # A file in chunks of 16-1843 bytes (fuzz_reader.cpp): every seed, so that
        # chunk starts fall everywhere in the real traces.
        for mode in (0, 1, 2, 7 << 2, 3 | (i % 32) << 2, 0x83 | (i % 32) << 2):
            if mode in (1, 2, 7 << 2) and i % 3:  # compressed and chunked variants of every third
                continue
            if mode & 0x80 and i % 2:  # compressed files: every other one
                continue
            data = bytes([mode]) + text
            (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
            n += 1
    print(f"{n} seeds in {out}")


if __name__ == "__main__":
    main()
