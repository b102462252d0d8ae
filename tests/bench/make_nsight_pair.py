#!/usr/bin/env python3
"""Writes one synthetic GPU workload twice, as an Nsight Systems SQLite export
and as a Kineto (PyTorch profiler) JSON trace, so that a benchmark can compare
the load time per event of the two readers on the same events.

  make_nsight_pair.py [--events N] [--t0-ns T] OUTDIR

  OUTDIR/pair.sqlite  `nsys export --type sqlite` in the 2024.5 layout (export
                      schema 3.13.2): the CREATE TABLE statements of StringIds,
                      ThreadNames, PROCESSES, TARGET_INFO_GPU,
                      CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME and
                      META_DATA_EXPORT are those of tests/tools/make_nsys_fixtures.py
  OUTDIR/pair.json    the same events as Kineto's ChromeTraceLogger writes them
                      (libkineto/src/output_json.cpp; shapes checked against
                      resources/samples/h200_cnn_dataloader.pt.trace.json.gz)

The workload (N = --events, default 1000000; N // 2 of each):
  - N // 2 kernels on GPU 0 ("NVIDIA H200", 132 SMs) over 4 streams (7, 13,
    17, 21), 7 us each, 1.5 us apart on each stream: kernel i runs on stream
    i % 4 from T0 + i * 2125 ns to 7000 ns later (the streams are staggered
    by 2.125 us, so the device is busy from the first start to the last end);
    16 distinct kernels (demangled, short and mangled names), each with its
    grid, block, registers per thread and static / dynamic shared memory;
  - N // 2 cudaLaunchKernel calls (cudaLaunchKernel_v7000 in the export, cbid
    211 in Kineto) on 8 threads of one process (pid 4242), launch i on thread
    i % 8, starting 3 to 5 us before its kernel and lasting 2 to 3.5 us, and
    correlated with it (correlation id i + 1);
  - in the JSON, an ac2g flow per launch: "s" at the call's start on its CPU
    thread, "f" (bp "e") at the kernel's start on its stream; the id is the
    correlation id, as Kineto writes it.
Every time is an integer number of ns; the JSON carries it as ns / 1000 with
3 decimals, so both files hold the same times to the ns. T0 (--t0-ns) is by
default 5203219824918269 ns, the start of the sample trace, so the JSON's
timestamps have the digits real Kineto traces have (Kineto writes times
relative to its baseTimeNanoseconds; that header field is copied from the
sample and is not added to any time).

Kineto writes no "External id" for kernels and runtime calls without a linked
CPU op (there are no CPU ops here), so their args hold only the CUPTI
metadata. The JSON's traceEvents end with the metadata events (process_name,
process_labels, process_sort_index of the CPU process and GPU 0; thread_name
and thread_sort_index of every stream and CPU thread) and Kineto's
"Record Window End" instant; no PyTorch "Trace" span is written.

Prints `events: sqlite rows K, json events J`: K the kernel and runtime rows,
J every element of traceEvents (metadata and flows included).
Deterministic: the same bytes every run (the SQLite file's too).
"""
import argparse
import os
import struct
import sys
import time

import sqlite3

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from make_nsys_fixtures import META_2024, SCHEMA_2024, TARGET_INFO_GPU_COLUMNS  # noqa: E402

TABLES = ["StringIds", "ThreadNames", "PROCESSES", "TARGET_INFO_GPU",
          "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "META_DATA_EXPORT"]

DEFAULT_T0 = 5_203_219_824_918_269
KERNEL_NS = 7000
STREAM_GAP_NS = 1500
STREAMS = [7, 13, 17, 21]
KERNEL_PITCH_NS = (KERNEL_NS + STREAM_GAP_NS) // len(STREAMS)  # 2125: kernel i at T0 + i * this
assert KERNEL_PITCH_NS * len(STREAMS) == KERNEL_NS + STREAM_GAP_NS

PID = 4242
VM = 1 << 48  # the real export's GlobalIds carry 1 in bits 48..55
GLOBAL_PID = VM | (PID << 24)
THREADS = [(4242, "python3")] + [(4251 + k, f"pt_launcher_{k}") for k in range(7)]
DEVICE = 0
CONTEXT = 1
CUDA_RUNTIME_CLASS = 0
LAUNCH_NAME = "cudaLaunchKernel_v7000"
LAUNCH_CBID = 211

GPU_NAME = "NVIDIA H200"
SM_COUNT = 132
TOTAL_MEMORY = 150109880320
WARP = 32

# (base name, template int, grid, block, registers/thread, static smem, dynamic smem, occupancy %)
KERNEL_SPECS = [
    ("vectorized_elementwise_kernel", 4, (8192, 1, 1), (128, 1, 1), 16, 0, 0, 100),
    ("unrolled_elementwise_kernel", 4, (2048, 1, 1), (128, 1, 1), 30, 0, 0, 100),
    ("reduce_kernel", 512, (64, 1, 1), (32, 16, 1), 32, 0, 16, 48),
    ("softmax_warp_forward", 8, (256, 1, 1), (32, 4, 1), 24, 0, 0, 12),
    ("softmax_warp_backward", 8, (4, 1, 1), (16, 8, 1), 24, 0, 0, 2),
    ("layer_norm_kernel", 256, (1024, 1, 1), (256, 1, 1), 40, 2064, 0, 75),
    ("batch_norm_collect_statistics_kernel", 128, (64, 1, 1), (32, 16, 1), 38, 4224, 0, 19),
    ("batch_norm_transform_input_kernel", 128, (512, 64, 1), (512, 1, 1), 32, 0, 0, 100),
    ("max_pool_forward_nchw", 256, (4096, 1, 1), (256, 1, 1), 28, 0, 0, 100),
    ("index_select_large_index", 128, (132, 1, 1), (128, 1, 1), 22, 0, 0, 6),
    ("cunn_SoftMaxForward", 4, (64, 1, 1), (1024, 1, 1), 36, 0, 144, 48),
    ("nll_loss_forward_reduce_cuda_kernel_2d", 32, (1, 1, 1), (32, 1, 1), 32, 400, 0, 0),
    ("fused_dropout_kernel_vec", 4, (1056, 1, 1), (256, 1, 1), 26, 0, 0, 100),
    ("im2col_kernel", 512, (2304, 1, 1), (512, 1, 1), 30, 0, 0, 100),
    ("embedding_backward_feature_kernel", 32, (128, 1, 1), (32, 32, 1), 48, 0, 20480, 6),
    ("multi_tensor_apply_kernel", 256, (320, 1, 1), (512, 1, 1), 64, 0, 0, 48),
]


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


class Kernel:
    """One of the 16 kernels: its names, launch shape and Kineto's args tail."""

    def __init__(self, spec):
        base, k, grid, block, regs, smem_static, smem_dyn, occupancy = spec
        self.demangled = f"void at::native::{base}<float, {k}>(float const*, float*, int)"
        self.short = base
        self.mangled = f"_ZN2at6native{len(base)}{base}IfLi{k}EEEvPKfPfi"
        self.grid, self.block, self.regs = grid, block, regs
        self.smem_static, self.smem_dyn = smem_static, smem_dyn
        # Kineto: blocksPerSm = grid / (float) numSms; warpsPerSm = blocksPerSm *
        # threads / warpSize, in float, printed with std::to_string ("%f").
        blocks = f32(f32(grid[0] * grid[1] * grid[2]) / f32(SM_COUNT))
        warps = f32(f32(blocks * (block[0] * block[1] * block[2])) / WARP)
        self.args_tail = (
            f'"registers per thread": {regs},      "shared memory": {smem_static + smem_dyn},'
            f'      "blocks per SM": {blocks:f},      "warps per SM": {warps:f},'
            f'      "grid": [{grid[0]}, {grid[1]}, {grid[2]}],'
            f'      "block": [{block[0]}, {block[1]}, {block[2]}],'
            f'      "est. achieved occupancy %": {occupancy}')


KERNELS = [Kernel(s) for s in KERNEL_SPECS]
assert len({k.demangled for k in KERNELS}) == 16


def plan(n_launches, t0):
    """Yields (i, correlation, thread index, call start, call end, stream, kernel
    index, kernel start, kernel end) for each launch, in ns."""
    for i in range(n_launches):
        kstart = t0 + i * KERNEL_PITCH_NS
        lead = 3000 + (i * 211) % 2000        # 3 .. 5 us before the kernel
        dur = 2000 + (i * 97) % 1500          # 2 .. 3.5 us
        # The calls of one thread are 8 * 2.125 = 17 us apart: they never overlap.
        yield (i, i + 1, i % len(THREADS), kstart - lead, kstart - lead + dur,
               STREAMS[i % len(STREAMS)], (i * 7 + i // 16) % len(KERNELS), kstart,
               kstart + KERNEL_NS)


# ------------------------------------------------------------------ SQLite ----
def write_sqlite(path, n_launches, t0):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    columns = {}
    for table in TABLES:
        db.execute(SCHEMA_2024[table])
        columns[table] = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]

    def insert_many(table, rows):
        cols = columns[table]
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join("?" for _ in cols)
        db.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                       (tuple(row[c] for c in cols) for row in rows))

    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings) + 1
        return strings[text]

    names = [(sid(k.demangled), sid(k.short), sid(k.mangled)) for k in KERNELS]
    launch = sid(LAUNCH_NAME)
    gtids = [GLOBAL_PID | tid for tid, _ in THREADS]

    insert_many("ThreadNames", [dict(nameId=sid(name), priority=10, globalTid=GLOBAL_PID | tid)
                                for tid, name in THREADS])
    insert_many("PROCESSES", [dict(globalPid=GLOBAL_PID, pid=PID, name="python3")])
    insert_many("META_DATA_EXPORT", [dict(name=n, value=v) for n, v in META_2024])
    gpu = dict.fromkeys(TARGET_INFO_GPU_COLUMNS)
    gpu.update(vmId=VM, id=DEVICE, name=GPU_NAME, busLocation="0000:18:00.0", isDiscrete=1,
               l2CacheSize=62914560, totalMemory=TOTAL_MEMORY, smCount=SM_COUNT,
               chipName="GH100", cuDevice=DEVICE, computeMajor=9, computeMinor=0, smMajor=9,
               smMinor=0, threadsPerWarp=WARP, maxThreadsPerBlock=1024,
               maxRegistersPerBlock=65536, maxRegistersPerSm=65536, maxShmemPerBlock=49152,
               maxShmemPerBlockOptin=232448, maxShmemPerSm=233472, maxWarpsPerSm=64,
               maxBlocksPerSm=32, uuid="00000000-0000-0000-0000-000000000000")
    insert_many("TARGET_INFO_GPU", [gpu])
    insert_many("StringIds", [dict(id=i, value=s) for s, i in strings.items()])

    runtime_cols = columns["CUPTI_ACTIVITY_KIND_RUNTIME"]
    kernel_cols = columns["CUPTI_ACTIVITY_KIND_KERNEL"]

    def runtime_rows():
        for _, corr, th, cs, ce, _, _, _, _ in plan(n_launches, t0):
            row = dict(start=cs, end=ce, eventClass=CUDA_RUNTIME_CLASS, globalTid=gtids[th],
                       correlationId=corr, nameId=launch, returnValue=0, callchainId=None)
            yield tuple(row[c] for c in runtime_cols)

    db.executemany(
        f'INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME ({", ".join(runtime_cols)}) '
        f'VALUES ({", ".join("?" for _ in runtime_cols)})', runtime_rows())
    # Build each kernel row as a tuple in the table's column order.
    order = {c: n for n, c in enumerate(kernel_cols)}
    missing = {"start", "end", "streamId", "correlationId", "demangledName", "shortName",
               "mangledName", "registersPerThread", "gridX", "gridY", "gridZ", "blockX",
               "blockY", "blockZ", "staticSharedMemory", "dynamicSharedMemory",
               "gridId"} - set(order)
    assert not missing, missing

    def kernel_rows():
        for i, corr, _, _, _, stream, kx, ks, ke in plan(n_launches, t0):
            k = KERNELS[kx]
            dn, sn, mn = names[kx]
            row = dict(start=ks, end=ke, deviceId=DEVICE, contextId=CONTEXT,
                       greenContextId=None, streamId=stream, correlationId=corr,
                       globalPid=GLOBAL_PID, demangledName=dn, shortName=sn, mangledName=mn,
                       launchType=0, cacheConfig=0, registersPerThread=k.regs,
                       gridX=k.grid[0], gridY=k.grid[1], gridZ=k.grid[2], blockX=k.block[0],
                       blockY=k.block[1], blockZ=k.block[2],
                       staticSharedMemory=k.smem_static, dynamicSharedMemory=k.smem_dyn,
                       localMemoryPerThread=0, localMemoryTotal=0, gridId=i + 1,
                       sharedMemoryExecuted=k.smem_static + k.smem_dyn, graphNodeId=None,
                       sharedMemoryLimitConfig=0)
            yield tuple(row[c] for c in kernel_cols)

    db.executemany(
        f'INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL ({", ".join(kernel_cols)}) '
        f'VALUES ({", ".join("?" for _ in kernel_cols)})', kernel_rows())
    db.execute("COMMIT")
    rows = sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
               for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"))
    db.close()
    return rows


# ------------------------------------------------------------------- JSON ----
def us(t):
    """Kineto's "{}.{:03}" of ts / 1000 and ts % 1000."""
    return f"{t // 1000}.{t % 1000:03d}"


HEADER = """
  {
    "schemaVersion": 1,
    "deviceProperties": [
    {
      "id": 0, "name": "%s", "totalGlobalMem": %d,
      "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
      "regsPerBlock": 65536, "warpSize": 32,
      "sharedMemPerBlock": 49152, "numSms": %d
    , "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472
    }
    ],
      "trace_id": "0C1D2E3F405162738495A6B7C8D9EAFB",
      "profile_memory": 0,
      "cuda_driver_version": 13000,
      "record_shapes": 0,
      "cuda_runtime_version": 13000,
      "cupti_version": 130001,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1790857026000000000,
  "traceEvents": [""" % (GPU_NAME, TOTAL_MEMORY, SM_COUNT)


def metadata_events(t0):
    ts = us(t0)
    out = []

    def process(pid, name, label, sort_index):
        out.append(f"""
  {{
    "name": "process_name", "ph": "M", "ts": {ts}, "pid": {pid}, "tid": 0,
    "args": {{
      "name": "{name}"
    }}
  }},""")
        out.append(f"""
  {{
    "name": "process_labels", "ph": "M", "ts": {ts}, "pid": {pid}, "tid": 0,
    "args": {{
      "labels": "{label}"
    }}
  }},""")
        out.append(f"""
  {{
    "name": "process_sort_index", "ph": "M", "ts": {ts}, "pid": {pid}, "tid": 0,
    "args": {{
      "sort_index": {sort_index}
    }}
  }},""")

    def thread(pid, tid, name):
        out.append(f"""
  {{
    "name": "thread_name", "ph": "M", "ts": {ts}, "pid": {pid}, "tid": {tid},
    "args": {{
      "name": "{name}"
    }}
  }},""")
        out.append(f"""
  {{
    "name": "thread_sort_index", "ph": "M", "ts": {ts}, "pid": {pid}, "tid": {tid},
    "args": {{
      "sort_index": {tid}
    }}
  }},""")

    process(PID, "python3", "CPU", PID)
    process(DEVICE, "python3", f"GPU {DEVICE}", 5000000 + DEVICE)
    for stream in STREAMS:
        thread(DEVICE, stream, f"stream {stream} ")
    for tid, name in THREADS:
        thread(PID, tid, f"thread {tid} ({name})")
    return out


def write_json(path, n_launches, t0):
    tids = [tid for tid, _ in THREADS]
    names = [k.demangled for k in KERNELS]
    tails = [k.args_tail for k in KERNELS]
    count = 0
    last_end = t0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(HEADER)
        chunk = []
        for _, corr, th, cs, ce, stream, kx, ks, ke in plan(n_launches, t0):
            kts, cts, tid = us(ks), us(cs), tids[th]
            chunk.append(f"""
  {{
    "ph": "X", "cat": "kernel", "name": "{names[kx]}", "pid": {DEVICE}, "tid": {stream},
    "ts": {kts}, "dur": {us(ke - ks)},
    "args": {{
            "queued": 0, "device": {DEVICE}, "context": {CONTEXT},      "stream": {stream}, "correlation": {corr},      {tails[kx]}
    }}
  }},
  {{
    "ph": "f", "id": {corr}, "pid": {DEVICE}, "tid": {stream}, "ts": {kts},
    "cat": "ac2g", "name": "ac2g", "bp": "e"
  }},
  {{
    "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": {PID}, "tid": {tid},
    "ts": {cts}, "dur": {us(ce - cs)},
    "args": {{
            "cbid": {LAUNCH_CBID}, "correlation": {corr}
    }}
  }},
  {{
    "ph": "s", "id": {corr}, "pid": {PID}, "tid": {tid}, "ts": {cts},
    "cat": "ac2g", "name": "ac2g"
  }},""")
            count += 4
            last_end = max(last_end, ke, ce)
            if len(chunk) >= 4096:
                f.write("".join(chunk))
                chunk.clear()
        f.write("".join(chunk))
        meta = metadata_events(t0 - 5000)  # the trace start: before the first call
        f.write("".join(meta))
        count += len(meta)
        f.write(f"""
  {{
    "name": "Record Window End", "ph": "i", "s": "g",
    "pid": "", "tid": "", "ts": {us(last_end)}
  }}
  ],
  "traceName": "{os.path.abspath(path)}"
}}""")
        count += 1
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=1_000_000,
                    help="kernel + runtime rows (N // 2 of each; default 1000000)")
    ap.add_argument("--t0-ns", type=int, default=DEFAULT_T0,
                    help=f"the first kernel's start in ns (default {DEFAULT_T0})")
    ap.add_argument("outdir")
    a = ap.parse_args()
    if a.events < 2:
        ap.error("--events must be at least 2")
    if a.t0_ns < 5000:
        ap.error("--t0-ns must be at least 5000 (the first call starts up to 5 us before)")
    os.makedirs(a.outdir, exist_ok=True)
    n = a.events // 2
    began = time.monotonic()
    rows = write_sqlite(os.path.join(a.outdir, "pair.sqlite"), n, a.t0_ns)
    events = write_json(os.path.join(a.outdir, "pair.json"), n, a.t0_ns)
    print(f"events: sqlite rows {rows}, json events {events}")
    print(f"  {a.outdir}/pair.sqlite, {a.outdir}/pair.json in {time.monotonic() - began:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
