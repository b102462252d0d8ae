#!/usr/bin/env python3
"""A Kineto (PyTorch profiler) JSON trace of a small training loop whose
figures are planned, with its ground truth, for comparing two runs
(`gapscope-cli diff`): the same profile with another seed differs only by
noise; a flag plants one change.

  make_compare_pair.py OUT.json --seed N [--steps 20] [--slow KERNEL]
                       [--no-input-wait] [--new-kernel NAME] [--leak-mb N]
                       [--with-ops [--one-op NAME]] [--rename-kernel OLD=NEW]...
                       [--scoped [--module-scopes] [--compiled]]

Each step, on one host thread (pid 1, tid 1) and one GPU stream (pid 0,
stream 7), from its start t:
  - unless --no-input-wait: the DataLoader's __next__ on the host,
    "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", for
    8 ms (the GPU is idle meanwhile: the step's input wait);
  - then each kernel in turn, launched by a cudaLaunchKernel 10 us before it
    starts (correlated), 5 us after the previous one ends (the first, with
    --no-input-wait, 15 us after the step's start, so it is launched in it) (with --with-ops
    inside a CPU op of its own, from 0.5 us before the call to 0.5 us after:
    aten::mm, aten::relu, aten::softmax, aten::add for the new kernel, or
    all in an op named by --one-op; with --rename-kernel OLD=NEW, which may
    be repeated, the kernel OLD is named NEW, its op unchanged):
    gemm_kernel 3 ms, relu_kernel 1 ms, softmax_kernel 0.5 ms, and with
    --new-kernel NAME a kernel of that name for 0.8 ms; --slow KERNEL runs
    that kernel twice as long;
  - with --scoped, the kernels' gaps are 25 us rather than 5 us and their
    launches (and ops) lie in named ranges, user_annotations "## mlp ##"
    (gemm_kernel, relu_kernel) and "## head ##" (softmax_kernel and the
    new kernel), from 1 us before the first launch's op to 0.5 us after the
    last's; with --module-scopes they are Python frames (python_function)
    "nn.Module: Mlp_0" and "nn.Module: Head_0" instead;
  - --compiled (with --scoped) runs them as torch.compile would: in the mlp
    range one kernel "triton_tem_fused_addmm_relu_0" for 2.6 ms replaces
    gemm_kernel and relu_kernel, in the head range
    "triton_per_fused__softmax_0" for 0.4 ms replaces softmax_kernel, each
    launched from a cpu_op "Torch-Compiled Region: 0/0" (and so from
    another op path than the eager kernels) and, inside it, in the range
    Inductor adds, a user_annotation "## Call CompiledFxGraph f<seed> ##"
    (its hash differs from run to run);
  - the step (ProfilerStep#i, a user_annotation) ends with its last kernel
    (so no idle gap crosses from one step into the next), and the next
    starts there;
  - GPU 0's allocator, as Kineto's [memory] instants say it: at the step's
    start 512 MiB + 128 MiB of activations are allocated (the step's peak),
    and 1 us before its end the activations are freed; with --leak-mb N,
    N MiB more stay allocated after each step (so the peak of step i is
    640 MiB + (i − 1) · N MiB).
Every duration is multiplied by (1 + u), u uniform in [-0.02, 0.02] from
the seed, and rounded to the ns. Times are written in us with 3 decimals,
so the file holds them to the ns.

OUT.truth.json: each step's start and end and each kernel's total in it
("steps": [{"start_ns", "end_ns", "kernels": {name: ns}}]), each kernel's count and total,
the input wait in all (the __next__ slices) and the GPU's idle time from
each step's start to its first kernel in all, in ns; the memory peak
and the growth per step, in bytes; with --scoped each range's kernels:
"scopes": {path: {"count", "total_ns"}}.
"""
import argparse
import json
import random

KERNELS = [("gemm_kernel", 3_000_000), ("relu_kernel", 1_000_000), ("softmax_kernel", 500_000)]
NEW_KERNEL_NS = 800_000
INPUT_WAIT_NS = 8_000_000
NEXT = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"
T0 = 1_000_000_000
MIB = 1 << 20


def us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--slow")
    ap.add_argument("--no-input-wait", action="store_true")
    ap.add_argument("--new-kernel")
    ap.add_argument("--leak-mb", type=int, default=0)
    ap.add_argument("--with-ops", action="store_true")
    ap.add_argument("--one-op")
    ap.add_argument("--rename-kernel", action="append", default=[])
    ap.add_argument("--scoped", action="store_true")
    ap.add_argument("--module-scopes", action="store_true")
    ap.add_argument("--compiled", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)

    def jitter(ns):
        return round(ns * (1 + rng.uniform(-0.02, 0.02)))

    kernels = [(n, d * (2 if n == a.slow else 1)) for n, d in KERNELS]
    if a.new_kernel:
        kernels.append((a.new_kernel, NEW_KERNEL_NS))
    ops = {n: op for (n, _), op in zip(KERNELS, ["aten::mm", "aten::relu", "aten::softmax"])}
    if a.new_kernel:
        ops[a.new_kernel] = "aten::add"
    if a.one_op:
        ops = {n: a.one_op for n in ops}
    for rename in a.rename_kernel:
        old, new = rename.split("=")
        ops[new] = ops[old]
        kernels = [(new if n == old else n, d) for n, d in kernels]
    mlp, head = (("nn.Module: Mlp_0", "nn.Module: Head_0") if a.module_scopes
                 else ("## mlp ##", "## head ##"))
    scope_cat = "python_function" if a.module_scopes else "user_annotation"
    scope_of = {n: (mlp if n in ("gemm_kernel", "relu_kernel") else head) for n, _ in kernels}
    if a.compiled:
        compiled = "Torch-Compiled Region: 0/0"
        fused = [("triton_tem_fused_addmm_relu_0", 2_600_000)]
        fused += [(n, d) for n, d in kernels if scope_of[n] == head and n != "softmax_kernel"]
        fused.insert(1, ("triton_per_fused__softmax_0", 400_000))
        scope_of.update({"triton_tem_fused_addmm_relu_0": mlp,
                         "triton_per_fused__softmax_0": head})
        ops.update({n: compiled for n, _ in fused})
        kernels = fused
    gap = 25_000 if a.scoped else 5_000
    events = []

    def x(cat, name, pid, tid, start, dur, args=None):
        e = f'{{"ph": "X", "cat": "{cat}", "name": "{name}", "pid": {pid}, "tid": {tid}, ' \
            f'"ts": {us(start)}, "dur": {us(dur)}'
        if args:
            e += ', "args": ' + json.dumps(args)
        events.append(e + "}")

    truth = {"steps": [], "kernels": {}, "input_wait_ns": 0, "idle_before_kernels_ns": 0,
             "scopes": {},
             "memory_peak_bytes": 0,
             "memory_growth_bytes_per_step": a.leak_mb * MIB}

    def memory(ts, total):
        events.append(f'{{"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, '
                      f'"tid": 1, "ts": {us(ts)}, "s": "t", "args": {{"Device Type": 1, '
                      f'"Device Id": 0, "Total Allocated": {total}, '
                      f'"Total Reserved": {total + 256 * MIB}}}}}')
        truth["memory_peak_bytes"] = max(truth["memory_peak_bytes"], total)
    t = T0
    correlation = 0
    for step in range(1, a.steps + 1):
        start = t
        kept = 512 * MIB + (step - 1) * a.leak_mb * MIB
        memory(t, kept + 128 * MIB)
        g = t
        if not a.no_input_wait:
            wait = jitter(INPUT_WAIT_NS)
            x("python_function", NEXT, 1, 1, t, wait)
            truth["input_wait_ns"] += wait
            g = t + wait
        else:
            # The first launch (10 us before its kernel) inside the step too.
            g = t + 10_000
        scope_start = None
        step_kernels = {}
        for index, (name, base) in enumerate(kernels):
            d = jitter(base)
            g += gap
            if index == 0:
                truth["idle_before_kernels_ns"] += g - start
            correlation += 1
            if a.scoped and scope_start is None:
                scope_start = g - 11_500
            if a.with_ops or a.compiled:
                x("cpu_op", ops[name], 1, 1, g - 10_500, 5_000)
            if a.compiled:
                x("user_annotation", f"## Call CompiledFxGraph f{a.seed:08x} ##", 1, 1,
                  g - 10_250, 4_500)
            if a.scoped:
                s = truth["scopes"].setdefault(scope_of[name], {"count": 0, "total_ns": 0})
                s["count"] += 1
                s["total_ns"] += d
                last = index + 1 == len(kernels) or scope_of[kernels[index + 1][0]] != scope_of[name]
                if last:
                    x(scope_cat, scope_of[name], 1, 1, scope_start, g - 5_000 - scope_start)
                    scope_start = None
            x("cuda_runtime", "cudaLaunchKernel", 1, 1, g - 10_000, 4_000,
              {"correlation": correlation})
            x("kernel", name, 0, 7, g, d,
              {"device": 0, "stream": 7, "correlation": correlation})
            k = truth["kernels"].setdefault(name, {"count": 0, "total_ns": 0})
            k["count"] += 1
            k["total_ns"] += d
            step_kernels[name] = step_kernels.get(name, 0) + d
            g += d
        end = g
        memory(end - 1_000, kept + a.leak_mb * MIB)
        x("user_annotation", f"ProfilerStep#{step}", 1, 1, start, end - start)
        truth["steps"].append({"start_ns": start, "end_ns": end, "kernels": step_kernels})
        t = end
    meta = ['{"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}}',
            '{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, '
            '"args": {"name": "python3"}}']
    with open(a.out, "w") as f:
        f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}],\n'
                '"traceEvents": [\n' + ",\n".join(events + meta) + "\n]}\n")
    with open(a.out.rsplit(".json", 1)[0] + ".truth.json", "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
