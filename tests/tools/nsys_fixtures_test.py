#!/usr/bin/env python3
"""The Nsight Systems reader on exports written for the test from the
documented schemas of two releases (make_nsys_fixtures.py, with ground truth
computed while writing them): what gapscope-cli reads equals nsys_check.py's
own reading and the truth; each broken export is refused with exit status 2
and a message naming what was wrong. With --export FILE, also a real export
(skipped, exit 77, when it is absent, unless GAPSCOPE_REQUIRE_INPUTS=1).

  nsys_fixtures_test.py --cli PATH --out DIR [--export FILE.sqlite]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Each broken export and what its refusal must say.
REFUSALS = {
    "bad_not_nsys.sqlite": "not an Nsight Systems export",
    "bad_kernel_no_start.sqlite": 'CUPTI_ACTIVITY_KIND_KERNEL: no column "start"',
    "bad_stringids_view.sqlite": "StringIds: is a view, not a table",
    "bad_truncated.sqlite": "damaged or cut short",
    "bad_not_sqlite.sqlite": "at the start of a Chrome trace",
    "bad_virtual_table.sqlite": "CUPTI_ACTIVITY_KIND_KERNEL: is a virtual table",
    "report1.nsys-rep": "export it with `nsys export --type sqlite report1.nsys-rep`",
}


def check_two_ranks(cli, path):
    """A report of two ranks' processes opens as two ranks: each process's
    reading equals nsys_check.py's reading of its rows alone, and the ranks
    compare as the plan made them (rank 1 runs 50 us behind rank 0, so
    rank 0 waits 50 us for it in step 1's all-reduce). True on failure."""
    failed = False
    for pid in (4242, 4343):
        failed = subprocess.call([sys.executable, os.path.join(HERE, "nsys_check.py"), "--cli",
                                  cli, "--process", str(pid), path]) != 0 or failed
    # Every row is in exactly one rank, whatever the rule that places it:
    # the ranks' slice kinds add up to the whole file's.
    def kinds(*part):
        r = subprocess.run([cli, "info", path, "--format", "json", "--no-cache", *part],
                           capture_output=True, text=True)
        return json.loads(r.stdout)["slice_kinds"] if r.returncode == 0 else {}
    whole = kinds()
    summed = {}
    for pid in (4242, 4343):
        for kind, n in kinds("--process", str(pid)).items():
            summed[kind] = summed.get(kind, 0) + n
    if not whole or summed != whole:
        print(f"{path}: the ranks' slice kinds {summed} do not add up to the file's {whole}")
        failed = True
    else:
        print(f"{path}: the ranks' slices add up to the file's ({sum(whole.values())})")
    r = subprocess.run([cli, "ranks", path, "--format", "json", "--no-cache"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"{path}: ranks exited {r.returncode}: {r.stderr.strip()}")
        return True
    job = json.loads(r.stdout)
    got = [(x["rank"], x["part"], x["origin"], x["file"]) for x in job["ranks"]]
    want = [(0, "process 4242 (python3)", "process", path),
            (1, "process 4343 (python3)", "process", path)]
    stragglers = [(s["step"], s["rank"], s["longest_wait_rank"], s["longest_wait_ns"])
                  for s in job["stragglers"]]
    if got != want or stragglers != [(1, 1, 0, 50_000)]:
        print(f"{path}: ranks: expected {want} and straggler {[(1, 1, 0, 50_000)]}; "
              f"got {got} and {stragglers}")
        failed = True
    else:
        print(f"{path}: two ranks, one per process; rank 1 is step 1's straggler by 50 us")
    # The whole file still reads as one trace for the single-trace commands,
    # which say so.
    r = subprocess.run([cli, "info", path, "--no-cache"], capture_output=True, text=True)
    if r.returncode != 0 or "holds the processes of 2 ranks" not in r.stderr:
        print(f"{path}: info: expected a word on its 2 ranks; got {r.returncode}: {r.stderr!r}")
        failed = True
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--export")
    a = ap.parse_args()
    if a.export:
        if not os.path.exists(a.export):
            if os.environ.get("GAPSCOPE_REQUIRE_INPUTS") == "1":
                sys.exit(f"{a.export} is absent (GAPSCOPE_REQUIRE_INPUTS is set)")
            print(f"skipped: {a.export} is absent (../shared is not beside the checkout)")
            return 77
        return subprocess.call([sys.executable, os.path.join(HERE, "nsys_check.py"),
                                "--cli", a.cli, a.export])
    os.makedirs(a.out, exist_ok=True)
    subprocess.check_call([sys.executable, os.path.join(HERE, "make_nsys_fixtures.py"), a.out],
                          stdout=subprocess.DEVNULL)
    valid = sorted(os.path.join(a.out, f) for f in os.listdir(a.out)
                   if f.startswith("nsys_") and f.endswith(".sqlite"))
    if len(valid) < 4:
        sys.exit(f"expected four valid fixtures in {a.out}, found {valid}")
    failed = subprocess.call([sys.executable, os.path.join(HERE, "nsys_check.py"),
                              "--cli", a.cli] + valid) != 0
    # NVTX ranges are steps by --step-regex: the ranges named so, as the table holds them.
    import sqlite3
    for path in valid:
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        cols = [r[1] for r in db.execute("PRAGMA table_info(NVTX_EVENTS)")]
        if "text" not in cols:
            continue
        want = sorted(e - b for b, e in db.execute(
            "SELECT start, end FROM NVTX_EVENTS WHERE text = 'forward' AND eventType = 59"))
        r = subprocess.run([a.cli, "steps", path, "--step-regex", "^forward$", "--format", "json",
                            "--no-cache"], capture_output=True, text=True)
        # One row per step and GPU: each step's duration once.
        got = sorted({(st["step"], st["rank"]): st["duration_ns"]
                      for st in json.loads(r.stdout)["steps"]}.values()) \
            if r.returncode == 0 else None
        if not want or got != want:
            print(f"{os.path.basename(path)}: NVTX steps by --step-regex: expected {want}, got {got}")
            failed = True
        else:
            print(f"{os.path.basename(path)}: NVTX 'forward' ranges are steps: {got}")
    failed = check_two_ranks(a.cli, os.path.join(a.out, "nsys_2024_two_ranks.sqlite")) or failed
    # A virtual table where the reader wants a table: refused, its module never runs.
    vt = os.path.join(a.out, "bad_virtual_table.sqlite")
    if os.path.exists(vt):
        os.remove(vt)
    db = sqlite3.connect(vt)
    db.execute("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("CREATE VIRTUAL TABLE CUPTI_ACTIVITY_KIND_KERNEL USING rtree(id, start, end)")
    db.commit()
    db.close()
    # A report itself (its bytes are NVIDIA's own): told how to export it.
    with open(os.path.join(a.out, "report1.nsys-rep"), "wb") as f:
        f.write(b"\x00NSYS-REP" + bytes(range(256)))
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(a.out, "cache"))
    for name, expected in REFUSALS.items():
        path = os.path.join(a.out, name)
        r = subprocess.run([a.cli, "info", path, "--no-cache"], capture_output=True, text=True,
                           env=env)
        line = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
        if r.returncode != 2 or expected not in line or path not in line:
            print(f"{name}: expected exit 2 and a message naming the file and "
                  f"'{expected}'; got {r.returncode}: {line!r}")
            failed = True
        else:
            print(f"{name}: refused: {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
