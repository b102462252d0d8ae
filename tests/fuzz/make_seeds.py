#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_reader into OUT_DIR: the test fixtures and
the small real traces of ../shared/traces, each prefixed with the mode byte
that feeds it plain (0), gzip- (1) or zstd-compressed (2), chunked, or as
a file parsed ahead in chunks on a second core (3, chunk bits varied; with
bit 7, every other seed compressed first).
With --xspace, the seeds of fuzz_xspace instead: every *.xplane.pb of
../shared/traces and tests/data/recorded, whole (chunk byte 0) and in
7-byte reads. With --ranks, those of fuzz_ranks: pairs of the small traces
(mode byte 0, then the split byte) and the fleet tables given after
OUT_DIR (mode byte 1; e.g. `gapscope-fleet reduce` of the traces' summaries).
With --args, those of fuzz_args: the awkward events of
tests/fixtures/awkward_args.jsonl whole (mode byte 0), and the args objects
of events of the small traces after the mode byte of their kind (1 X,
2 M, 3 C, 4 a [memory] instant).
With --sidecar, those of fuzz_sidecar: annotation sidecars of every kind,
with awkward text, and the refusals (newer version, bad fields).
With --fail-if, those of fuzz_fail_if: the conditions of the docs and
tests/cli/tst_diff.cpp, each over kernel names of the small traces.
With --fleet, those of fuzz_fleet: the fleet tables
given after OUT_DIR, whole.
With --index-cache, those of fuzz_index_cache: the bodies of the index-cache
entries given after OUT_DIR (`gapscope-cli info` with XDG_CACHE_HOME set
writes them), each cut after its header and trace path.
With --profile-folder, those of fuzz_profile_folder: log folders of runs at
several depths, links and loops, over the recorded JAX profile and small
XSpace inputs of corpus/fuzz_xspace.
With --nsight, those of fuzz_nsight: the Nsight Systems exports that
tests/tools/make_nsys_fixtures.py writes (two releases' schemas, broken
ones), each rewritten with 512-byte pages to stay small.
With --mcp, those of fuzz_mcp: sessions of an agent with gapscope-cli mcp.
Usage: make_seeds.py [--nsight | --xspace | --ranks | --args | --sidecar | --fail-if | --fleet |
                      --index-cache | --profile-folder] OUT_DIR [FILE...]"""
import gzip
import hashlib
import json
import pathlib
import re
import struct
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
            # 255: read as a file where it lies (planes located, args decoded on fetch).
            for chunk in (0, 7, 255):
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


def write_seeds(out, seeds):
    for data in seeds:
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{len(seeds)} seeds in {out}")


def sidecar_seeds(out):
    def doc(annotations, version=1, fmt="gapscope-annotations"):
        return json.dumps({"format": fmt, "version": version, "trace": "t.json",
                           "annotations": annotations}, indent=2, ensure_ascii=False).encode()
    marker = {"id": 1, "kind": "marker", "start_ns": 1000, "end_ns": 1000, "text": "here",
              "color": "#e69f00"}
    rng = {"id": 2, "kind": "range", "start_ns": -5, "end_ns": 2 ** 61, "text": "a\nb \u00e9 \U0001f600",
           "color": "#00FFaa"}
    note = {"id": 3, "kind": "slice", "start_ns": 7, "end_ns": 9, "text": "", "color": "#123456",
            "track": "GPU 0 · stream 7", "slice": "void gemm<float>(...)"}
    seeds = [doc([]), doc([marker]), doc([marker, rng, note]), doc([note], version=2),
             doc([dict(marker, end_ns=1001)]), doc([dict(rng, color="red")]),
             doc([dict(note, slice="")]), doc([dict(marker, id=-1)]), doc([marker], fmt="other"),
             b'{"format": "gapscope-annotations", "version": 1, "annotations": [{"id": 1e3}]}',
             b"\xef\xbb\xbf" + doc([marker]), doc([marker])[:40]]
    write_seeds(out, seeds)


def fail_if_seeds(out):
    conditions = [
        "step_time>+5%", "gpu_idle>+2pp", "memory_peak>+256MiB", "op:aten::addmm.self>+10%",
        "kernel:gemm.total>+10%", "kernel:.*.count>=3", "kernel:(sgemm|cutlass).*.mean<+1us",
        "step_time_median<=2.5ms", "gpu_busy<40", "idle_input>1s", "kernel_count>-5",
        "exposed_comm>+0%", "op:aten::mm.bogus>+5%", "kernel:x.mean>abc", "step_time>+nan%",
        ">+5%", "kernel:[.total>1", "kernel:(a+)+$.count>0", "memory_peak>+5ms"]
    names = []
    for text in texts():
        for m in re.finditer(rb'"name": ?"([^"\\]{1,300})"', text):
            names.append(m.group(1))
            if len(names) > 400:
                break
    seeds = []
    for i, c in enumerate(conditions):
        picked = names[i * 7:(i * 7) + 12] + [b"a" * 3000]
        seeds.append(c.encode() + b"\n" + b"\n".join(picked))
    write_seeds(out, seeds)


def fleet_seeds(out, documents):
    write_seeds(out, [pathlib.Path(d).read_bytes() for d in documents])


def index_cache_seeds(out, entries):
    seeds = []
    for e in entries:
        raw = pathlib.Path(e).read_bytes()
        # The header's last three fields: path length, body length, checksum.
        for header in range(24, 512):
            path_bytes, body_bytes = struct.unpack_from("<QQ", raw, header - 24)
            if header + path_bytes + body_bytes == len(raw) and raw[header:header + 1] == b"/":
                seeds.append(raw[header + path_bytes:])
                break
        else:
            raise SystemExit(f"{e}: not an index-cache entry")
    write_seeds(out, seeds)


def profile_folder_seeds(out):
    sep = b"\n%%\n"
    jax = (ROOT / "tests" / "data" / "recorded" / "jax_mlp.xplane.pb").read_bytes()
    small = sorted((ROOT / "tests" / "fuzz" / "corpus" / "fuzz_xspace").iterdir(),
                   key=lambda p: p.stat().st_size)
    planes = [p.read_bytes()[1:] for p in small if 200 < p.stat().st_size < 20000][:6]

    def folder(run, entries):
        return sep.join([run] + [path + b"\n" + data for path, data in entries])

    seeds = [
        folder(b"", [(b"plugins/profile/2024_01_01/host.xplane.pb", jax)]),
        folder(b"train/2024_01_02", [(b"train/plugins/profile/2024_01_02/a.xplane.pb", planes[0]),
                                     (b"train/plugins/profile/2024_01_02/b.xplane.pb", planes[1]),
                                     (b"eval/plugins/profile/2024_01_03/a.xplane.pb", planes[2])]),
        folder(b"2024_01_03", [(b"x/plugins/profile/2024_01_03/h.xplane.pb.gz", gzip.compress(planes[3])),
                               (b"y/plugins/profile/2024_01_03/h.xplane.pb", planes[4])]),
        folder(b"", [(b"a/b/c/d/e/deep.xplane.pb", planes[5]), (b"@a/loop", b".."),
                     (b"@a/b/up", b"../.."), (b"empty/", b""), (b"r/h.xplane.pb", b"")]),
        folder(b"nope", [(b"run/h.xplane.pb", planes[0]), (b"run/notes.txt", b"hello")]),
        folder(b"", [(b"h.xplane.pb", planes[1]), (b"@link.xplane.pb", b"h.xplane.pb")]),
    ]
    write_seeds(out, seeds)


def nsight_seeds(out):
    import sqlite3
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.check_call([sys.executable, str(ROOT / "tests" / "tools" / "make_nsys_fixtures.py"),
                               tmp], stdout=subprocess.DEVNULL)
        seeds = []
        for path in sorted(pathlib.Path(tmp).glob("*.sqlite")):
            small = pathlib.Path(tmp) / ("small-" + path.name)
            try:
                db = sqlite3.connect(path)
                db.execute("PRAGMA page_size = 512")
                db.execute(f"VACUUM INTO '{small}'")
                db.close()
                seeds.append(small.read_bytes())
            except sqlite3.DatabaseError:  # the broken ones stay as they are
                seeds.append(path.read_bytes())
        write_seeds(out, seeds)


def mcp_seeds(out):
    """Sessions of an agent with gapscope-cli mcp: the handshake, the lists,
    each tool with good and bad arguments, batches and broken lines."""
    import json

    def line(method, params=None, ident=1):
        m = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            m["params"] = params
        return json.dumps(m)

    trace = "sample.pt.trace.json.gz"
    calls = [
        ("open_trace", {"path": trace}),
        ("kernels", {"trace": trace, "top": 5, "table": "kernels", "offset": 3, "limit": 2}),
        ("gaps", {"trace": trace, "min_gap_us": 12.5, "start_ns": 1, "end_ns": 9}),
        ("steps", {"trace": trace, "step": 3, "step_regex": "^Step#"}),
        ("critical-path", {"trace": trace, "what_if": ["kernel:*gemm*=0.5", "input=0"]}),
        ("diff", {"base": "a.json", "new": "b.json", "fail_if": ["step_time>+5%"]}),
        ("ranks", {"paths": ["ranks/"]}),
        ("render", {"trace": trace, "step": 2, "width": 800, "dark": True}),
        ("kernels", {"trace": trace, "top": "five", "limit": 0}),
        ("memory", {"trace": trace, "at": -1, "leaks": "yes"}),
        ("efficiency", {"trace": trace, "peak": 3}),
        ("no_such_tool", {}),
    ]
    sessions = [
        [line("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}}),
         json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
         line("tools/list", ident=2), line("ping", ident="p")],
        [line("tools/call", {"name": n, "arguments": a}, ident=i) for i, (n, a) in enumerate(calls)],
        [json.dumps([json.loads(line("ping", ident=1)), {"jsonrpc": "2.0", "method": "x"}]),
         "[]", "{not json", '{"jsonrpc": "1.0", "id": 1, "method": "ping"}',
         '{"jsonrpc": "2.0", "id": null, "method": "ping"}', '{"jsonrpc": "2.0", "id": 1}',
         line("tools/call", {"name": 5}), line("tools/call", {"arguments": []}),
         r'"\udcff"', line("no/such/method", ident=[1])],
        # Nesting deeper than any message needs (refused before it is copied).
        ['{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + "[" * 3000 + "]" * 3000 + "}}",
         '{"jsonrpc":"2.0","id":' + "[" * 3000 + "]" * 3000 + "}",
         json.dumps({"jsonrpc": "2.0", "method": "initialize", "params": {}}),
         json.dumps({"jsonrpc": "2.0", "id": 9})],
    ]
    for session in sessions:
        data = ("\n".join(session) + "\n").encode()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"{len(sessions)} seeds in {out}")


def main():
    args = sys.argv[1:]
    xspace = "--xspace" in args
    ranks = "--ranks" in args
    args_only = "--args" in args
    modes = {"--nsight": nsight_seeds, "--sidecar": sidecar_seeds, "--fail-if": fail_if_seeds,
             "--profile-folder": profile_folder_seeds, "--mcp": mcp_seeds}
    with_files = {"--fleet": fleet_seeds, "--index-cache": index_cache_seeds}
    chosen = [a for a in args if a in modes or a in with_files]
    args = [a for a in args if a not in ("--xspace", "--ranks", "--args") and a not in chosen]
    out = pathlib.Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    if chosen:
        mode = chosen[0]
        return modes[mode](out) if mode in modes else with_files[mode](out, args[1:])
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
