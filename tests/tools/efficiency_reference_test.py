#!/usr/bin/env python3
"""Check `gapscope-cli efficiency`'s per-signature FLOPs and bytes against an
independent reference (tests/tools/op_cost_reference.py).

Usage: efficiency_reference_test.py --cli PATH [--synthetic] TRACE...

For each TRACE, runs `gapscope-cli efficiency TRACE --format json --no-cache`
and, for every row of its `signatures` table:
  * the signature (name, input_dims, input_types, concrete_inputs, compared as
    parsed JSON values) occurs among the trace's CPU ops;
  * its `flops` (an integer) and `bytes` (an integer, or null where a type has
    no size) equal the reference's per-instance values, and `flops_source`
    the reference's source ("profiler" where the op has a flops arg, else
    "shapes");
  * its `count`, summed over the GPUs, is at most the number of instances of
    the signature in the trace.
It also checks `uncosted_ops`: the number of ops of a modelled name whose
shapes the reference cannot cost.
Only that direction is checked: the CLI lists only the signatures whose ops
launched GPU work, and gives a cost only to the innermost costed op (a
wrapper such as aten::linear around aten::addmm carries none), so a
signature the reference can cost may rightly be missing from its output.
--synthetic also checks a trace written by `op_cost_reference.py
--write-synthetic` (every family of the spec, each op top-level and launching
one kernel, plus a few nests: linear > addmm, conv2d with a profiler count >
convolution > _convolution, scaled_dot_product_attention > flash), and there
both directions: every signature the reference costs must be listed, except
the ops around the one that carries the cost, which must not be.
The reference was written from docs/analyses.md's text, not from the C++
(see its docstring); the two share only the op names and argument positions.

Exit status: 0 when every row agrees (one summary line per trace), 1 on any
mismatch (each printed), 77 ("skipped: ...") when a trace file is missing.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import op_cost_reference as ref  # noqa: E402


def parse_text(text):
    """A row's raw JSON text of an arguments array as a value ('' -> None: none recorded)."""
    if text is None or text == "":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def run_cli(cli, trace):
    proc = subprocess.run([cli, "efficiency", trace, "--format", "json", "--no-cache"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError("gapscope-cli efficiency %s: exit %d\n%s"
                           % (trace, proc.returncode, proc.stderr.strip()))
    return json.loads(proc.stdout)


def check_trace(cli, trace, complete=False):
    """(mismatch lines, rows checked, notes); complete: every costed signature must be listed."""
    out = run_cli(cli, trace)
    sigs = ref.trace_signatures(trace)
    problems, notes = [], []
    counts = {}
    checked = 0
    for row in out.get("signatures", []):
        name = row.get("name")
        dims = parse_text(row.get("input_dims"))
        types = parse_text(row.get("input_types"))
        concrete = parse_text(row.get("concrete_inputs"))
        key = ref.signature_key(name, dims, types, concrete)
        label = "%s %s %s %s" % (name, row.get("input_dims"), row.get("input_types"),
                                 row.get("concrete_inputs") or "(no Concrete Inputs)")
        rec = sigs.get(key)
        if rec is None:
            problems.append("  not a signature of the trace: %s" % label)
            continue
        checked += 1
        counts[key] = counts.get(key, 0) + int(row.get("count") or 0)
        if not rec["costs"]:
            problems.append("  %s\n    CLI flops=%s bytes=%s source=%s; reference: no figures"
                            % (label, row.get("flops"), row.get("bytes"),
                               row.get("flops_source")))
            continue
        cli_flops = row.get("flops")
        if isinstance(cli_flops, float) and cli_flops.is_integer():
            cli_flops = int(cli_flops)
        cli_cost = (cli_flops, row.get("bytes"), row.get("flops_source"))
        if cli_cost in rec["costs"]:
            assumptions = rec["costs"][cli_cost]
            if assumptions:
                notes.append("%s: %s" % (name, "; ".join(assumptions)))
            continue
        want = "; ".join("flops=%s bytes=%s source=%s%s" % (
            f, b, s, (" (assuming: %s)" % "; ".join(a)) if a else "")
            for (f, b, s), a in rec["costs"].items())
        diff = []
        if len(rec["costs"]) == 1:
            (f, b, s), = rec["costs"]
            if cli_cost[0] != f:
                diff.append("flops %s vs %s" % (cli_cost[0], f))
            if cli_cost[1] != b:
                diff.append("bytes %s vs %s" % (cli_cost[1], b))
            if cli_cost[2] != s:
                diff.append("source %s vs %s" % (cli_cost[2], s))
        problems.append("  %s\n    CLI flops=%s bytes=%s source=%s\n    reference %s%s"
                        % (label, cli_cost[0], cli_cost[1], cli_cost[2], want,
                           ("\n    differs (CLI vs reference): " + ", ".join(diff)) if diff
                           else ""))
    if complete:
        listed = {ref.signature_key(r.get("name"), parse_text(r.get("input_dims")),
                                    parse_text(r.get("input_types")),
                                    parse_text(r.get("concrete_inputs")))
                  for r in out.get("signatures", [])}
        wrappers = ref.synthetic_wrappers()
        for key in wrappers & listed:
            problems.append("  listed, but an op around a costed one: %s %s" % key[:2])
        for key, rec in sigs.items():
            if rec["costs"] and key not in listed and key not in wrappers:
                problems.append("  not listed by the CLI: %s %s %s %s (reference %s)"
                                % (rec["name"], key[1], key[2], key[3], list(rec["costs"])))
    # uncosted_ops: the ops of a modelled name whose shapes did not fit (all of them,
    # whether or not they launched GPU work).
    want_uncosted = sum(rec["instances"] for rec in sigs.values()
                        if rec["name"] in ref.MODELLED and not rec["costs"])
    if out.get("uncosted_ops") != want_uncosted:
        problems.append("  uncosted_ops: CLI %s, reference %d"
                        % (out.get("uncosted_ops"), want_uncosted))
    for key, n in counts.items():
        if n > sigs[key]["instances"]:
            problems.append("  %s %s: CLI count %d > %d instances in the trace"
                            % (key[0], key[1], n, sigs[key]["instances"]))
    return problems, checked, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="the gapscope-cli executable")
    ap.add_argument("--synthetic", action="store_true",
                    help="also check a synthetic trace of every family")
    ap.add_argument("traces", nargs="*", metavar="TRACE")
    args = ap.parse_args()
    missing = [t for t in args.traces if not os.path.exists(t)]
    if missing:
        print("skipped: no such trace: %s" % ", ".join(missing))
        return 77
    if not os.path.exists(args.cli):
        print("skipped: no gapscope-cli at %s" % args.cli)
        return 77
    failed = False
    summary = []
    jobs = [(t, False) for t in args.traces]
    tmp = None
    if args.synthetic:
        tmp = tempfile.TemporaryDirectory()
        path = os.path.join(tmp.name, "op_cost_cases.json")
        ref.write_synthetic_trace(path)
        jobs.append((path, True))
    if not jobs:
        ap.error("no TRACE and no --synthetic")
    for trace, complete in jobs:
        problems, checked, notes = check_trace(args.cli, trace, complete)
        base = os.path.basename(trace)
        if problems:
            failed = True
            print("%s: %d mismatch(es) in %d signature row(s):" % (base, len(problems), checked))
            print("\n".join(problems))
        assumed = sorted(set(notes))
        summary.append("%s: %d signatures checked%s" % (
            base, checked,
            (" (spec silent, reference assumed: %s)" % " | ".join(assumed)) if assumed else ""))
    if failed:
        print("FAILED (checked: %s)" % "; ".join(summary))
        return 1
    print("ok: " + "; ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
