#!/usr/bin/env python3
"""`gapscope-cli diff` on pairs of runs with a planted change, against the
generator's truth (make_compare_pair.py) and a rank test computed here:

  - the same profile with another seed: the step times' change is within
    noise (this script's own Mann-Whitney p, normal approximation with
    SciPy's tie and continuity corrections, is the tool's), and nothing is
    named in the verdict; a gate `@95%` holds back where the plain one fails;
  - each kernel and op whose total changed is "within_noise" or "changed"
    by the same test on its time per step (the truth's), with its p;
  - one kernel twice as slow: it is the first kernel of the diff, by the
    truth's change of its total, the verdict names it, the step time's
    change is beyond noise and a gate `@95%` fails;
  - the input wait removed: the verdict says the input wait fell from the
    truth's per-step wait to nothing, and the input-bound finding is
    resolved;
  - a new kernel: the first kernel of the diff, marked new, its total the
    truth's, named in the verdict;
  - GPU memory that grows 4 MiB a step: the growth and the peak are the
    truth's, and the verdict says the memory now grows;
  - kernels renamed under one op (matched), two under one op (not);
  - nn.Module frames as scopes: each module's kernel time is the truth's;
  - a run compiled as torch.compile would (new kernel and op names, a
    compiler's range with a hash) in named ranges: each range's kernel time
    is the truth's, the fused kernel replaces two, the one kernel of a
    range is matched as renamed, and the verdict names the range.

  compare_pairs_test.py --cli PATH --out DIR
"""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def mann_whitney_p(base, new):
    """Two-sided p, normal approximation, tie- and continuity-corrected."""
    pooled = sorted([(v, 0) for v in base] + [(v, 1) for v in new])
    ranks, ties, i = [0.0] * len(pooled), 0.0, 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + 1 + j) / 2
        ties += (j - i) ** 3 - (j - i)
        i = j
    n1, n2 = len(new), len(base)
    u = sum(r for r, (_, who) in zip(ranks, pooled) if who == 1) - n1 * (n1 + 1) / 2
    u = max(u, n1 * n2 - u)
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sigma == 0:  # every value the same: no change at all
        return 1.0
    z = (u - n1 * n2 / 2 - 0.5) / sigma
    return min(1.0, math.erfc(z / math.sqrt(2)))  # 2 * P(Z > z)


def readable(ns):
    """A duration as Gapscope writes one for a person (util/readable_units.h):
    whole ns below 1 us, else two decimals in the unit where they stay below
    1000."""
    ns = round(ns)
    if abs(ns) < 1000:
        return f"{ns} ns"
    for scale, unit in ((1e3, "µs"), (1e6, "ms"), (1e9, "s")):
        if unit == "s" or round(abs(ns) / scale * 100) < 100000:
            return f"{ns / scale:.2f} {unit}"


def steps_of(truth):
    return [s["end_ns"] - s["start_ns"] for s in truth["steps"]]


def kernel_per_step(truth, name):
    return [s["kernels"].get(name, 0) for s in truth["steps"]]


def weighed(p):
    """A changed name's status by the p of its time per step."""
    return "within_noise" if p >= 0.05 else "changed"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs = {"base": ["--seed", "11"], "noise": ["--seed", "12"],
            "slow": ["--seed", "13", "--slow", "relu_kernel"],
            "fed": ["--seed", "14", "--no-input-wait"],
            "new": ["--seed", "15", "--new-kernel", "extra_kernel"],
            "leak": ["--seed", "16", "--leak-mb", "4"],
            # Launched from CPU ops; relu_kernel renamed (and twice as slow).
            "ops": ["--seed", "17", "--with-ops"],
            "renamed": ["--seed", "18", "--with-ops", "--slow", "relu_kernel",
                        "--rename-kernel", "relu_kernel=relu_kernel_v2"],
            # Every kernel launched from one op; two renamed: no match is sure.
            "one_op": ["--seed", "19", "--with-ops", "--one-op", "aten::fused"],
            "two_renamed": ["--seed", "20", "--with-ops", "--one-op", "aten::fused",
                            "--rename-kernel", "relu_kernel=relu_v2",
                            "--rename-kernel", "softmax_kernel=softmax_v2"],
            # Named ranges (record_function, nn.Module frames) around the
            # launches; the candidate compiled (other names, other ops).
            "eager": ["--seed", "21", "--with-ops", "--scoped"],
            "compiled": ["--seed", "22", "--with-ops", "--scoped", "--compiled"],
            "modules": ["--seed", "23", "--with-ops", "--scoped", "--module-scopes"],
            "modules_slow": ["--seed", "24", "--with-ops", "--scoped", "--module-scopes",
                             "--slow", "relu_kernel"]}
    truth = {}
    for name, args in runs.items():
        path = os.path.join(a.out, name + ".json")
        subprocess.check_call([sys.executable, os.path.join(HERE, "make_compare_pair.py"), path]
                              + args)
        with open(os.path.join(a.out, name + ".truth.json")) as f:
            truth[name] = json.load(f)
    problems = []

    def check(ok, what):
        if not ok:
            problems.append(what)
        print(("ok   " if ok else "FAIL ") + what)

    def diff(name, *extra, against="base"):
        r = subprocess.run([a.cli, "diff", os.path.join(a.out, against + ".json"),
                            os.path.join(a.out, name + ".json"), "--no-cache", *extra],
                           capture_output=True, text=True)
        return r

    base = truth["base"]
    base_steps = steps_of(base)
    for name in ("noise", "slow", "fed", "new", "leak"):
        t = truth[name]
        r = diff(name, "--format", "json")
        if r.returncode != 0:
            check(False, f"{name}: diff exited {r.returncode}: {r.stderr.strip()}")
            continue
        d = json.loads(r.stdout)
        step = next(m for m in d["metrics"] if m["metric"] == "step_time")
        mean = lambda xs: sum(xs) / len(xs)
        # The mean step in integer ns, rounded half away from zero.
        rounded = lambda v: int(v + 0.5)
        check(step["base"] == rounded(mean(base_steps)) and
              step["new"] == rounded(mean(steps_of(t))),
              f"{name}: step_time is the truth's mean step ({step['base']} -> {step['new']})")
        p = mann_whitney_p(base_steps, steps_of(t))
        test = d["step_noise"]
        check(abs(test["p_value"] - p) < 1e-9 and not test["exact"],
              f"{name}: the rank test's p is this script's ({test['p_value']:.3g} vs {p:.3g})")
        check(test["significant"] == (p < 0.05), f"{name}: significant is p < 0.05 ({p:.3g})")
        said_noise = "beyond noise" if p < 0.05 else "within noise"
        check(step["noise"] == said_noise, f"{name}: step_time is {said_noise} ({step['noise']})")
        verdict = d["verdict"]
        kernels = d["kernels"]
        # Each kernel whose total changed is weighed against the noise of its
        # time per step: this script's p on the truth's per-step times.
        for k in kernels:
            if k["status"] not in ("changed", "within_noise"):
                continue
            p = mann_whitney_p(kernel_per_step(base, k["name"]), kernel_per_step(t, k["name"]))
            check(k["status"] == weighed(p) and abs(k["step_p_value"] - p) < 1e-9,
                  f"{name}: {k['name']} is {weighed(p)}, p per step {p:.3g} "
                  f"({k['status']}, {k['step_p_value']})")
        if name == "noise":
            check(not test["significant"] and "within noise" in verdict and
                  "no idle cause or kernel moved" in verdict,
                  f"noise: no change beyond noise, nothing named: {verdict}")
            change = 100 * (step["new"] - step["base"]) / step["base"]
            cmp = ">" if change > 0 else "<"
            gate = f"step_time{cmp}{change / 2:+.3f}%"
            check(diff(name, "--fail-if", gate).returncode == 1 and
                  diff(name, "--fail-if", gate + "@95%").returncode == 0,
                  f"noise: {gate} fails the gate, {gate}@95% does not")
        if name == "slow":
            want = t["kernels"]["relu_kernel"]["total_ns"] - base["kernels"]["relu_kernel"]["total_ns"]
            check(kernels[0]["name"] == "relu_kernel" and kernels[0]["status"] == "changed" and
                  kernels[0]["step_p_value"] < 1e-6 and
                  kernels[0]["delta_total_ns"] == want,
                  f"slow: relu_kernel first, +{want} ns as the truth ({kernels[0]})")
            per_step = lambda tr: tr["kernels"]["relu_kernel"]["total_ns"] / len(tr["steps"])
            said = (f"relu_kernel rose from {readable(per_step(base))} to "
                    f"{readable(per_step(t))} per step")
            check(test["significant"] and said in verdict, f"slow: verdict says '{said}': {verdict}")
            check(diff(name, "--fail-if", "step_time>+5%@95%").returncode == 1,
                  "slow: step_time>+5%@95% fails the gate")
        if name == "fed":
            # The GPU waits from the step's start to its first kernel: the
            # DataLoader's __next__ and the 5 us launch after it.
            wait = base["idle_before_kernels_ns"] / len(base["steps"])
            said = f"GPU idle for input fell from {readable(wait)} to 0 ns per step"
            check(said in verdict, f"fed: verdict says '{said}': {verdict}")
            check(any(f["rule"] == "input-bound" and f["status"] == "resolved"
                      for f in d["advice"]), "fed: input-bound is resolved")
            # The input pipeline's verdict by TensorBoard's thresholds (20 %,
            # 5 %) on the truth's share of the steps the GPU waited for input.
            def level(share):
                return ("highly input-bound" if share >= 0.20 else
                        "moderately input-bound" if share >= 0.05 else "not input-bound")
            want = {"base": level(base["idle_before_kernels_ns"] / sum(base_steps)),
                    "new": level(t["idle_before_kernels_ns"] / sum(steps_of(t)))}
            check(d["input_verdict"] == want, f"fed: the input verdicts are {want} "
                  f"({d['input_verdict']})")
            said = f"the input pipeline went from {want['base']} to {want['new']}"
            check(said in verdict, f"fed: verdict says '{said}': {verdict}")
        if name == "new":
            want = t["kernels"]["extra_kernel"]["total_ns"]
            check(kernels[0]["name"] == "extra_kernel" and kernels[0]["status"] == "new" and
                  kernels[0]["delta_total_ns"] == want,
                  f"new: extra_kernel first, new, {want} ns as the truth ({kernels[0]})")
            check("new kernel extra_kernel" in verdict, f"new: named in the verdict: {verdict}")
        if name == "leak":
            growth = next(m for m in d["metrics"] if m["metric"] == "memory_growth_per_step")
            peak = next(m for m in d["metrics"] if m["metric"] == "memory_peak")
            want = t["memory_growth_bytes_per_step"]
            check(growth["base"] is None and abs(growth["new"] - want) <= 1e-6 * want,
                  f"leak: growth per step is the truth's {want} B ({growth['base']} -> "
                  f"{growth['new']})")
            check(peak["base"] == base["memory_peak_bytes"] and
                  peak["new"] == t["memory_peak_bytes"],
                  f"leak: the peaks are the truth's ({peak['base']} -> {peak['new']})")
            said = f"GPU memory now grows {want / 1048576:.1f} MiB per step"
            check(said in verdict, f"leak: verdict says '{said}': {verdict}")
    # A kernel renamed between runs, launched from the same op: matched by
    # its op path, its figures the truth's old and new name's.
    r = diff("renamed", "--format", "json", against="ops")
    if r.returncode != 0:
        check(False, f"renamed: diff exited {r.returncode}: {r.stderr.strip()}")
    else:
        d = json.loads(r.stdout)
        k = d["kernels"][0]
        old = truth["ops"]["kernels"]["relu_kernel"]
        new = truth["renamed"]["kernels"]["relu_kernel_v2"]
        check(k["name"] == "relu_kernel_v2" and k["status"] == "renamed" and
              k["matched_by"] == "op_path" and
              k["base_name"] == "relu_kernel" and k["op_path"] == "aten::relu" and
              k["total_base_ns"] == old["total_ns"] and
              k["total_new_ns"] == new["total_ns"],
              f"renamed: relu_kernel_v2 first, renamed from relu_kernel, launched from "
              f"aten::relu, the truth's totals ({k})")
        check(not any(x["name"] == "relu_kernel" for x in d["kernels"]),
              "renamed: relu_kernel is not listed as vanished")
        check("relu_kernel_v2 (was relu_kernel) rose from" in d["verdict"],
              f"renamed: the verdict says it was relu_kernel: {d['verdict']}")
        gemm = next(x for x in d["kernels"] if x["name"] == "gemm_kernel")
        # (Its first launch is inside the DataLoader's __next__, as written.)
        gemm_p = mann_whitney_p(kernel_per_step(truth["ops"], "gemm_kernel"),
                                kernel_per_step(truth["renamed"], "gemm_kernel"))
        check(gemm["status"] == weighed(gemm_p) and gemm["op_path"].endswith(" > aten::mm"),
              f"renamed: gemm_kernel matched by name ({weighed(gemm_p)}), launched from "
              f"aten::mm ({gemm})")
        # An op: its GPU time per step is its kernel's (its self time, the
        # same fixed length in every step of both runs, has p 1); aten::relu's
        # kernel runs twice as long.
        ops = {o["name"]: o for o in d["ops"]}
        for op, kernel, renamed in (("aten::mm", "gemm_kernel", "gemm_kernel"),
                                    ("aten::relu", "relu_kernel", "relu_kernel_v2")):
            p = mann_whitney_p(kernel_per_step(truth["ops"], kernel),
                               kernel_per_step(truth["renamed"], renamed))
            o = ops.get(op, {})
            check(o.get("status") == weighed(p) and abs(o.get("step_p_value", -1) - p) < 1e-9,
                  f"renamed: op {op} is {weighed(p)}, p per step {p:.3g} ({o})")
    # Two kernels renamed under one op path: which is which would be a
    # guess, so both stay new and vanished.
    r = diff("two_renamed", "--format", "json", against="one_op")
    if r.returncode != 0:
        check(False, f"two_renamed: diff exited {r.returncode}: {r.stderr.strip()}")
    else:
        status = {k["name"]: k["status"] for k in json.loads(r.stdout)["kernels"]}
        want = {"relu_kernel": "vanished", "softmax_kernel": "vanished", "relu_v2": "new",
                "softmax_v2": "new",
                "gemm_kernel": weighed(mann_whitney_p(
                    kernel_per_step(truth["one_op"], "gemm_kernel"),
                    kernel_per_step(truth["two_renamed"], "gemm_kernel")))}
        check(status == want, f"two_renamed: no guess, {status}")
    # nn.Module frames are scopes too: each module's kernel time is the
    # truth's, the slower relu_kernel's module first.
    r = diff("modules_slow", "--format", "json", against="modules")
    if r.returncode != 0:
        check(False, f"modules_slow: diff exited {r.returncode}: {r.stderr.strip()}")
    else:
        got = {x["name"]: (x["total_base_ns"], x["total_new_ns"])
               for x in json.loads(r.stdout)["scopes"]}
        want = {p: (truth["modules"]["scopes"][p]["total_ns"],
                    truth["modules_slow"]["scopes"][p]["total_ns"])
                for p in ("nn.Module: Mlp_0", "nn.Module: Head_0")}
        check(got == want, f"modules_slow: each module's kernel time is the truth's ({got})")
        first = json.loads(r.stdout)["scopes"][0]["name"]
        check(first == "nn.Module: Mlp_0", f"modules_slow: Mlp_0 changed most ({first})")
    # torch.compile: kernels and ops renamed, and each compiled kernel in a
    # range with a hash of its own (left out of scopes), so no name and no
    # op path matches; the named ranges around the launches still do.
    for eager, compiled, mlp, head in (("eager", "compiled", "## mlp ##", "## head ##"),):
        r = diff(compiled, "--format", "json", against=eager)
        if r.returncode != 0:
            check(False, f"{compiled}: diff exited {r.returncode}: {r.stderr.strip()}")
            continue
        d = json.loads(r.stdout)
        before, after = truth[eager]["scopes"], truth[compiled]["scopes"]
        scopes = {x["name"]: x for x in d["scopes"]}
        check(set(scopes) == {mlp, head},
              f"{compiled}: the scopes are the two ranges ({sorted(scopes, key=str)})")
        for path in (mlp, head):
            x = scopes.get(path, {})
            check(x.get("total_base_ns") == before[path]["total_ns"] and
                  x.get("total_new_ns") == after[path]["total_ns"] and
                  x.get("count_base") == before[path]["count"] and
                  x.get("count_new") == after[path]["count"],
                  f"{compiled}: {path}'s kernel time and count are the truth's ({x})")
        m = scopes.get(mlp, {})
        check(m.get("only_base") == ["gemm_kernel", "relu_kernel"] and
              m.get("only_new") == ["triton_tem_fused_addmm_relu_0"] and
              m.get("only_base_ns") == before[mlp]["total_ns"] and
              m.get("only_new_ns") == after[mlp]["total_ns"],
              f"{compiled}: in {mlp} gemm_kernel and relu_kernel gave way to the fused kernel, "
              f"all of the range's time ({m})")
        # The scopes by the size of their change.
        order = [x["name"] for x in d["scopes"]]
        want = sorted((mlp, head), key=lambda p: -abs(after[p]["total_ns"] - before[p]["total_ns"]))
        check(order == want, f"{compiled}: scopes by impact ({order})")
        status = {k["name"]: (k["status"], k["scope"]) for k in d["kernels"]}
        check(status == {"gemm_kernel": ("vanished", mlp), "relu_kernel": ("vanished", mlp),
                         "triton_tem_fused_addmm_relu_0": ("new", mlp),
                         "triton_per_fused__softmax_0": ("renamed", head)},
              f"{compiled}: the one kernel of {head} matched by its scope, the two of {mlp} "
              f"not guessed ({status})")
        soft = next((k for k in d["kernels"] if k["name"] == "triton_per_fused__softmax_0"), {})
        check(soft.get("base_name") == "softmax_kernel" and soft.get("matched_by") == "scope",
              f"{compiled}: the fused softmax was softmax_kernel, matched by its scope ({soft})")
        steps = len(truth[eager]["steps"])
        said = (f"in {mlp}, gemm_kernel and relu_kernel gave way to "
                f"triton_tem_fused_addmm_relu_0: "
                f"{readable(before[mlp]['total_ns'] / steps)} became "
                f"{readable(after[mlp]['total_ns'] / steps)} per step")
        check(said in d["verdict"], f"{compiled}: the verdict says '{said}': {d['verdict']}")
        check("kernel gemm_kernel gone" not in d["verdict"],
              f"{compiled}: the replaced kernels are not named one by one: {d['verdict']}")
    if problems:
        print(f"{len(problems)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
