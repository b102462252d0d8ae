#!/usr/bin/env python3
"""Writes small Nsight Systems SQLite exports (`nsys export --type sqlite`) for
the reader's tests, in the schemas of an older and a newer release, with the
ground truth planted in them; and a set of invalid files for its error tests.

  make_nsys_fixtures.py OUTDIR

Valid fixtures (each with FILE.truth.json: per device kernel / comm kernel /
memcpy / memset counts, busy_ns, the listed idle gaps with their causes, the
short gaps, and the slice-kind counts, as tests/tools/nsys_check.py computes
them):

  nsys_2021_schema.sqlite  the 2021-era layout: compact DDL, NVTX text inline
                           (no textId), no PROCESSES, no ENUM_* tables, no
                           mangledName, no greenContextId, no SYNCHRONIZATION
  nsys_2024_schema.sqlite  the 2024.5 layout (export schema 3.13.2): PROCESSES,
                           ENUM_* tables, NVTX textId (two ranges named only by
                           it), mangledName, greenContextId, CUDA
                           SYNCHRONIZATION rows (never GPU work), a driver call
                           in the runtime table, META_DATA_EXPORT
  nsys_2024_no_cuda.sqlite tables are created lazily: NVTX and OSRT only, no
                           CUPTI table at all (no GPU, no runtime calls)
  nsys_2024_two_ranks.sqlite  a job of two ranks under one nsys: the 2024
                           plan twice, as process 4242 (GPUs 0 and 1) and as
                           process 4343 (GPUs 2 and 3, its times 50 us later,
                           its correlation ids numbered from 1 again as each
                           process numbers its own), one CUDA context per
                           process and GPU in TARGET_INFO_CUDA_CONTEXT_INFO,
                           and a launcher (mpirun, pid 4200) with one OSRT row

What the two full fixtures hold (times are T0 = 1 s plus microseconds):
  - one process (pid 4242), a main thread (4242) and a worker (4251);
  - GPU 0 (streams 7 and 13) and GPU 1 (streams 7 and 15), both
    "NVIDIA H100 80GB HBM3" in TARGET_INFO_GPU;
  - every GPU row correlated (correlationId) with its runtime call:
    cudaLaunchKernel_v7000, cudaMemcpyAsync_v3020 (HtoD and DtoH),
    cudaMemsetAsync_v3020; two cudaStreamSynchronize_v3020; cudaMalloc_v3020;
  - one NCCL kernel (ncclDevKernel_AllReduce_Sum_f32_RING_LL), a kernel
    overlapping another on a second stream, touching rows, a zero-duration
    kernel in idle time (an instant that splits a gap) and one at the edge of
    a busy interval (absorbed);
  - NVTX push/pop ranges ProfilerStep#1 and ProfilerStep#2 on the main
    thread enclosing the launches, a nested push/pop range "forward", a
    start/end range "data_prefetch" on the worker, a mark, a domain creation;
  - OSRT_API rows (pthread_cond_wait, ioctl) on the worker.
  Planted gaps on GPU 0: 500 us [1380, 1880) host (its kernel launched at
  1800); 2 ms [2380, 4380) synchronization (the main thread is in
  cudaStreamSynchronize from 1900 to 2390); 220 us [4480, 4700)
  communication (the NCCL kernel starts at its end); 250 us [5450, 5700) and
  300 us [5700, 6000), host, split by the zero-duration kernel at 5700; one
  short gap of 50 us [4900, 4950). GPU 1: 2 ms [1250, 3250) host (the worker
  launches its kernel at 3200).

Invalid files (no truth; the reader must refuse each with a message):
  bad_not_nsys.sqlite          a SQLite file that is no export: a table foo
  bad_kernel_no_start.sqlite   the 2024 export whose CUPTI_ACTIVITY_KIND_KERNEL
                               lacks the `start` column
  bad_stringids_view.sqlite    the 2024 export whose StringIds is a VIEW
  bad_truncated.sqlite         the 2024 export cut to its first half (whole pages)
  bad_not_sqlite.sqlite        a text file named .sqlite

The CREATE TABLE statements follow the schema of each release:
  2024.5: https://docs.nvidia.com/nsight-systems/2024.5/UserGuide/index.html#sqlite-schema-reference
    (the tables that tests/data's cloverleaf export holds are taken column for
    column from that real 2024.5.1 export, schema 3.13.2; NVTX_EVENTS from
    the User Guide's schema reference; CUPTI_ACTIVITY_KIND_MEMSET from the
    User Guide with greenContextId added after contextId as in the other
    CUPTI tables of that release).
  2021: https://docs.nvidia.com/nsight-systems/2021.5/nsys-exporter/exported_data.html
    (StringIds, SCHED_EVENTS and COMPOSITE_EVENTS verbatim from the page's
    `.schema` example; the other tables are the 2024 columns less what later
    releases added, see the comment on SCHEMA_2021).
Deterministic: the same bytes every run.
"""
import json
import os
import sqlite3
import sys

T0 = 1_000_000_000
US = 1000
PID = 4242
MAIN_TID = 4242
WORKER_TID = 4251
VM = 1 << 48  # the real export's GlobalIds carry 1 in bits 48..55
GLOBAL_PID = VM | (PID << 24)
MAIN = GLOBAL_PID | MAIN_TID
WORKER = GLOBAL_PID | WORKER_TID
GPU_NAME = "NVIDIA H100 80GB HBM3"
CONTEXT = 1


class Proc:
    """One profiled process of the plan: its pid, its threads, its GPUs
    (the plan's device + `first_device`) and its times (+ `shift_us`)."""

    def __init__(self, pid, worker_tid, first_device=0, shift_us=0):
        self.pid = pid
        self.global_pid = VM | (pid << 24)
        self.main = self.global_pid | pid
        self.worker = self.global_pid | worker_tid
        self.first_device = first_device
        self.shift_us = shift_us

    def thread(self, planned):
        return self.main if planned == MAIN else self.worker

    def ns(self, us):
        return ns(us + self.shift_us)


ONE_PROCESS = [Proc(PID, WORKER_TID)]
TWO_RANKS = [Proc(PID, WORKER_TID), Proc(4343, 4352, first_device=2, shift_us=50)]
LAUNCHER_PID = 4200  # mpirun: no CUDA, one OSRT row

PUSH_POP, START_END, MARK, DOMAIN_CREATE = 59, 60, 34, 75
HTOD, DTOH = 1, 2
OSRT_EVENT_CLASS = 27
CUDA_RUNTIME_CLASS, CUDA_DRIVER_CLASS = 0, 1

NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
KERNELS = {
    # key: (demangledName, shortName, mangledName)
    "gemm": ("void gemm_kernel<float, 128>(const float *, const float *, float *, int)",
             "gemm_kernel", "_Z11gemm_kernelIfLi128EEvPKfS1_Pfi"),
    "elementwise": ("void elementwise_kernel<float>(float *, int)", "elementwise_kernel",
                    "_Z18elementwise_kernelIfEvPfi"),
    "reduce": ("void reduce_kernel<float>(float *, int)", "reduce_kernel",
               "_Z13reduce_kernelIfEvPfi"),
    "relu": ("relu_kernel(float *, int)", "relu_kernel", "_Z11relu_kernelPfi"),
    "softmax": ("void softmax_kernel<float>(float *, int)", "softmax_kernel",
                "_Z14softmax_kernelIfEvPfi"),
    "empty": ("empty_kernel()", "empty_kernel", "_Z12empty_kernelv"),
    "nccl": (NCCL, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
             "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LLP11ncclDevCommmP8ncclWork"),
}

# --- the plan: host calls and the GPU work each one issued (times in us) ---
# (thread, start, end, runtime name, GPU op or None)
# GPU op: ("kernel", device, stream, start, end, kernel key)
#         ("memcpy", device, stream, start, end, copyKind, bytes)
#         ("memset", device, stream, start, end, bytes)
CALLS = [
    (MAIN, 10, 60, "cudaMalloc_v3020", None),
    (MAIN, 100, 120, "cudaMemcpyAsync_v3020", ("memcpy", 0, 13, 130, 330, HTOD, 4 << 20)),
    (MAIN, 200, 210, "cudaLaunchKernel_v7000", ("kernel", 0, 7, 330, 1330, "gemm")),
    (MAIN, 220, 230, "cudaLaunchKernel_v7000", ("kernel", 1, 7, 250, 1250, "elementwise")),
    (MAIN, 240, 250, "cudaMemsetAsync_v3020", ("memset", 0, 7, 1330, 1380, 1 << 20)),
    (MAIN, 280, 290, "cudaLaunchKernel_v7000", ("kernel", 0, 13, 1000, 1200, "reduce")),
    (MAIN, 1800, 1810, "cudaLaunchKernel_v7000", ("kernel", 0, 7, 1880, 2380, "relu")),
    (MAIN, 1900, 2390, "cudaStreamSynchronize_v3020", None),
    (MAIN, 4300, 4310, "cudaLaunchKernel_v7000", ("kernel", 0, 13, 4700, 4900, "nccl")),
    (MAIN, 4370, 4380, "cudaMemcpyAsync_v3020", ("memcpy", 0, 7, 4380, 4480, DTOH, 1 << 20)),
    (MAIN, 4915, 4925, "cudaLaunchKernel_v7000", ("kernel", 0, 7, 4950, 5450, "softmax")),
    (MAIN, 5600, 5610, "cudaLaunchKernel_v7000", ("kernel", 0, 7, 5700, 5700, "empty")),
    (MAIN, 5900, 5910, "cudaLaunchKernel_v7000", ("kernel", 0, 7, 6000, 6400, "gemm")),
    (MAIN, 6300, 6310, "cudaMemcpyAsync_v3020", ("memcpy", 0, 13, 6400, 6450, DTOH, 1 << 18)),
    (MAIN, 6310, 6460, "cudaStreamSynchronize_v3020", None),
    (WORKER, 3200, 3210, "cudaLaunchKernel_v7000", ("kernel", 1, 15, 3250, 3750, "elementwise")),
    (WORKER, 3215, 3225, "cudaLaunchKernel_v7000", ("kernel", 1, 15, 3750, 3760, "elementwise")),
    (WORKER, 3226, 3230, "cudaLaunchKernel_v7000", ("kernel", 1, 15, 3760, 3760, "empty")),
]
# In the 2024 fixture only: a driver call as the real 2024.5 export has one.
DRIVER_CALL = (MAIN, 2, 3, "cuModuleGetLoadingMode")
# (thread, start, end or None, eventType, name, by textId in the 2024 fixture)
NVTX = [
    (MAIN, 0, 4905, PUSH_POP, "ProfilerStep#1", True),
    (MAIN, 100, 2600, PUSH_POP, "forward", False),
    (MAIN, 4910, 7000, PUSH_POP, "ProfilerStep#2", True),
    (WORKER, 1500, 2500, START_END, "data_prefetch", False),
    (MAIN, 4000, None, MARK, "checkpoint", False),
    (MAIN, 0, None, DOMAIN_CREATE, "NCCL", False),
]
OSRT = [(WORKER, 2000, 3000, "pthread_cond_wait"), (WORKER, 3100, 3150, "ioctl")]
THREADS = [(MAIN, "python3"), (WORKER, "pt_data_worker")]

# The truth, planted by hand in the plan above (us); checked against the rows.
PLANTED_GAPS = {
    0: [(1380, 1880, "host"), (2380, 4380, "synchronization"), (4480, 4700, "communication"),
        (5450, 5700, "host"), (5700, 6000, "host")],
    1: [(1250, 3250, "host")],
}
PLANTED_SHORT = {0: [(4900, 4950)], 1: []}
PLANTED_BUSY_US = {0: 3000, 1: 1510}
GAP_THRESHOLD_NS = 100_000
COUNTED_KINDS = ("kernel", "comm_kernel", "memcpy", "memset", "runtime_launch", "runtime_sync",
                 "runtime_copy", "runtime_other", "user_annotation", "step", "other")


def ns(us):
    return T0 + us * US


def col(name, decl, comment=""):
    return (name, decl, comment)


def ddl(table, columns, note=None, extra=None):
    """A CREATE TABLE in the layout recent nsys exports write."""
    lines = []
    if note:
        lines += [f"    -- {note}", ""]
    body = []
    for i, (name, decl, comment) in enumerate(columns):
        last = i == len(columns) - 1 and not extra
        text = f"    {name:<28}{decl}{'' if last else ','}"
        if comment:
            text = f"{text:<71}-- {comment}"
        body.append(text.rstrip())
    if extra:
        body += ["", f"    {extra}"]
    return f"CREATE TABLE {table} (\n" + "\n".join(lines + body) + "\n)"


def compact(table, columns):
    """A CREATE TABLE in the one-line layout of the 2021.5 page's .schema example."""
    return f"CREATE TABLE {table} (" + ", ".join(f"{n} {d}" for n, d in columns) + ")"


# ---------------------------------------------------------------- 2024.5 ----
# https://docs.nvidia.com/nsight-systems/2024.5/UserGuide/index.html#sqlite-schema-reference
# Column names and order as the 2024.5.1 exporter wrote them (schema 3.13.2,
# /work/shared/traces/pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite),
# but NVTX_EVENTS (the User Guide's list) and CUPTI_ACTIVITY_KIND_MEMSET (the
# User Guide's list; greenContextId after contextId as in KERNEL, MEMCPY and
# SYNCHRONIZATION of 2024.5).
NN = "INTEGER   NOT NULL"
I = "INTEGER"
T = "TEXT"
ENUM_COLUMNS = [col("id", "INTEGER   NOT NULL   PRIMARY KEY", "Enum numerical value."),
                col("name", T, "Enum symbol name."), col("label", T, "Enum human name.")]
TARGET_INFO_GPU_COLUMNS = [
    "vmId", "id", "name", "busLocation", "isDiscrete", "l2CacheSize", "totalMemory",
    "memoryBandwidth", "clockRate", "smCount", "pwGpuId", "uuid", "luid", "chipName", "cuDevice",
    "ctxswDevPath", "ctrlDevPath", "revision", "nodeMask", "constantMemory", "maxIPC",
    "maxRegistersPerBlock", "maxShmemPerBlock", "maxShmemPerBlockOptin", "maxShmemPerSm",
    "maxRegistersPerSm", "threadsPerWarp", "asyncEngines", "maxWarpsPerSm", "maxBlocksPerSm",
    "maxThreadsPerBlock", "maxBlockDimX", "maxBlockDimY", "maxBlockDimZ", "maxGridDimX",
    "maxGridDimY", "maxGridDimZ", "computeMajor", "computeMinor", "smMajor", "smMinor"]
TEXT_GPU_COLUMNS = {"name", "busLocation", "uuid", "chipName", "ctxswDevPath", "ctrlDevPath"}

KERNEL_COLUMNS_2024 = [
    col("start", NN, "Event start timestamp (ns)."),
    col("end", NN, "Event end timestamp (ns)."),
    col("deviceId", NN, "Device ID."), col("contextId", NN, "Context ID."),
    col("greenContextId", I, "Green context ID."), col("streamId", NN, "Stream ID."),
    col("correlationId", I, "REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)"),
    col("globalPid", I, "Serialized GlobalId."),
    col("demangledName", NN, "REFERENCES StringIds(id) -- Kernel function name w/ templates"),
    col("shortName", NN, "REFERENCES StringIds(id) -- Base kernel function name"),
    col("mangledName", I, "REFERENCES StringIds(id) -- Raw C++ mangled kernel function name"),
    col("launchType", I, "REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)"),
    col("cacheConfig", I, "REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)"),
    col("registersPerThread", NN), col("gridX", NN), col("gridY", NN), col("gridZ", NN),
    col("blockX", NN), col("blockY", NN), col("blockZ", NN),
    col("staticSharedMemory", NN), col("dynamicSharedMemory", NN),
    col("localMemoryPerThread", NN), col("localMemoryTotal", NN), col("gridId", NN),
    col("sharedMemoryExecuted", I),
    col("graphNodeId", I, "REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)"),
    col("sharedMemoryLimitConfig", I, "REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)")]

SCHEMA_2024 = {
    "StringIds": ddl("StringIds", [
        col("id", "INTEGER   NOT NULL   PRIMARY KEY", "ID reference value."),
        col("value", "TEXT      NOT NULL", "String value.")],
        note="Consolidation of repetitive string values."),
    "ThreadNames": ddl("ThreadNames", [
        col("nameId", NN, "REFERENCES StringIds(id) -- Thread name"),
        col("priority", I, "Priority of the thread."),
        col("globalTid", I, "Serialized GlobalId.")]),
    "PROCESSES": ddl("PROCESSES", [
        col("globalPid", I, "Serialized GlobalId."), col("pid", I, "The process ID."),
        col("name", T, "The process name.")],
        note="Names and identifiers of processes captured in the report."),
    "TARGET_INFO_GPU": ddl("TARGET_INFO_GPU", [
        col(c, NN if c in ("vmId", "id") else (T if c in TEXT_GPU_COLUMNS else I))
        for c in TARGET_INFO_GPU_COLUMNS]),
    "TARGET_INFO_CUDA_CONTEXT_INFO": ddl("TARGET_INFO_CUDA_CONTEXT_INFO", [
        col("nullStreamId", NN, "Stream ID."), col("hwId", NN, "Hardware ID."),
        col("vmId", NN, "VM ID."), col("processId", NN, "Process ID."),
        col("deviceId", NN, "Device ID."), col("contextId", NN, "Context ID."),
        col("parentContextId", I, "For green context, this is the parent context id."),
        col("isGreenContext", I, "Is this a Green Context?")]),
    "CUPTI_ACTIVITY_KIND_RUNTIME": ddl("CUPTI_ACTIVITY_KIND_RUNTIME", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", NN, "Event end timestamp (ns)."),
        col("eventClass", NN, "REFERENCES ENUM_NSYS_EVENT_CLASS(id)"),
        col("globalTid", I, "Serialized GlobalId."),
        col("correlationId", I,
            "ID used to identify events that this function call has triggered."),
        col("nameId", NN, "REFERENCES StringIds(id) -- Function name"),
        col("returnValue", NN, "Return value of the function call."),
        col("callchainId", I, "REFERENCES CUDA_CALLCHAINS(id)")]),
    "CUPTI_ACTIVITY_KIND_KERNEL": ddl("CUPTI_ACTIVITY_KIND_KERNEL", KERNEL_COLUMNS_2024),
    "CUPTI_ACTIVITY_KIND_MEMCPY": ddl("CUPTI_ACTIVITY_KIND_MEMCPY", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", NN, "Event end timestamp (ns)."),
        col("deviceId", NN, "Device ID."), col("contextId", NN, "Context ID."),
        col("greenContextId", I, "Green context ID."), col("streamId", NN, "Stream ID."),
        col("correlationId", I, "REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)"),
        col("globalPid", I, "Serialized GlobalId."),
        col("bytes", NN, "Number of bytes transferred (B)."),
        col("copyKind", NN, "REFERENCES ENUM_CUDA_MEMCPY_OPER(id)"),
        col("deprecatedSrcId", I), col("srcKind", I, "REFERENCES ENUM_CUDA_MEM_KIND(id)"),
        col("dstKind", I, "REFERENCES ENUM_CUDA_MEM_KIND(id)"), col("srcDeviceId", I),
        col("srcContextId", I), col("dstDeviceId", I), col("dstContextId", I),
        col("migrationCause", I, "REFERENCES ENUM_CUDA_UNIF_MEM_MIGRATION(id)"),
        col("graphNodeId", I, "REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)"),
        col("virtualAddress", I)]),
    "CUPTI_ACTIVITY_KIND_MEMSET": ddl("CUPTI_ACTIVITY_KIND_MEMSET", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", NN, "Event end timestamp (ns)."),
        col("deviceId", NN, "Device ID."), col("contextId", NN, "Context ID."),
        col("greenContextId", I, "Green context ID."), col("streamId", NN, "Stream ID."),
        col("correlationId", I, "REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)"),
        col("globalPid", I, "Serialized GlobalId."),
        col("value", NN, "Value assigned to memory."),
        col("bytes", NN, "Number of bytes set (B)."),
        col("graphNodeId", I, "REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)"),
        col("memKind", I, "REFERENCES ENUM_CUDA_MEM_KIND(id)")]),
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION": ddl("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", NN, "Event end timestamp (ns)."),
        col("deviceId", NN, "Device ID."), col("contextId", NN, "Context ID."),
        col("greenContextId", I, "Green context ID."), col("streamId", NN, "Stream ID."),
        col("correlationId", I, "Correlation ID of the synchronization API to which this "
                                "result is associated."),
        col("globalPid", I, "Serialized GlobalId."),
        col("syncType", NN, "REFERENCES ENUM_CUPTI_SYNC_TYPE(id)"),
        col("eventId", NN, "Event ID for which the synchronization API is called.")]),
    "NVTX_EVENTS": ddl("NVTX_EVENTS", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", I, "Event end timestamp (ns)."),
        col("eventType", NN, "REFERENCES ENUM_NSYS_EVENT_TYPE(id)"),
        col("rangeId", I, "Correlation ID returned from a nvtxRangeStart call."),
        col("category", I, "User-controlled ID that can be used to group events."),
        col("color", I, "Encoded ARGB color value."),
        col("text", T, "Optional text message for non registered strings."),
        col("globalTid", I, "Serialized GlobalId."), col("endGlobalTid", I, "Serialized GlobalId."),
        col("textId", I, "REFERENCES StringIds(id) -- Registered NVTX domain"),
        col("domainId", I, "User-controlled ID that can be used to group events."),
        col("uint64Value", I), col("int64Value", I), col("doubleValue", "REAL"),
        col("uint32Value", I), col("int32Value", I), col("floatValue", "REAL"),
        col("jsonTextId", I), col("jsonText", T)]),
    "OSRT_API": ddl("OSRT_API", [
        col("start", NN, "Event start timestamp (ns)."),
        col("end", NN, "Event end timestamp (ns)."),
        col("eventClass", NN, "REFERENCES ENUM_NSYS_EVENT_CLASS(id)"),
        col("globalTid", I, "Serialized GlobalId."),
        col("nameId", NN, "REFERENCES StringIds(id) -- Function name"),
        col("returnValue", NN, "Return value of the function call."),
        col("nestingLevel", I, "Zero-base index of the nesting level."),
        col("callchainId", NN, "REFERENCES OSRT_CALLCHAINS(id)")],
        note="OS runtime libraries traced to gather information about low-level userspace APIs."),
    "META_DATA_EXPORT": ddl("META_DATA_EXPORT", [
        col("name", "TEXT      NOT NULL", "Name of meta-data record"),
        col("value", T, "Value of meta-data record")],
        note="information about nsys export process"),
    "ENUM_NSYS_EVENT_TYPE": ddl("ENUM_NSYS_EVENT_TYPE", ENUM_COLUMNS,
                                note="Nsys event type labels"),
    "ENUM_NSYS_EVENT_CLASS": ddl("ENUM_NSYS_EVENT_CLASS", ENUM_COLUMNS,
                                 note="Nsys event class labels"),
    "ENUM_CUDA_MEMCPY_OPER": ddl("ENUM_CUDA_MEMCPY_OPER", ENUM_COLUMNS,
                                 note="CUDA memcpy operation labels"),
    "ENUM_CUPTI_SYNC_TYPE": ddl("ENUM_CUPTI_SYNC_TYPE", ENUM_COLUMNS,
                                note="CUPTI synchronization type labels"),
}
ENUM_ROWS_2024 = {  # values as the 2024.5.1 export holds them
    "ENUM_NSYS_EVENT_TYPE": [(33, "NvtxCategory"), (34, "NvtxMark"), (39, "NvtxThread"),
                             (59, "NvtxPushPopRange"), (60, "NvtxStartEndRange"),
                             (75, "NvtxDomainCreate"), (76, "NvtxDomainDestroy")],
    "ENUM_NSYS_EVENT_CLASS": [(0, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"),
                              (1, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"),
                              (27, "TRACE_PROCESS_EVENT_OS_RUNTIME", "OSRT runtime")],
    "ENUM_CUDA_MEMCPY_OPER": [(0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"),
                              (1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"),
                              (2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"),
                              (8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"),
                              (10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer")],
    "ENUM_CUPTI_SYNC_TYPE": [
        (0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"),
        (1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"),
        (2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"),
        (3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"),
        (4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync")],
}
META_2024 = [("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"),
             ("EXPORT_PRODUCT_VERSION", "2024.5.1.113"), ("EXPORT_PRODUCT_DATE", "2024.5"),
             ("EXPORT_SCHEMA_VERSION", "3.13.2"), ("EXPORT_SCHEMA_VERSION_MAJOR", "3"),
             ("EXPORT_SCHEMA_VERSION_MINOR", "13"), ("EXPORT_SCHEMA_VERSION_MICRO", "2")]

# ------------------------------------------------------------------ 2021 ----
# https://docs.nvidia.com/nsight-systems/2021.5/nsys-exporter/exported_data.html
# StringIds, SCHED_EVENTS and COMPOSITE_EVENTS are verbatim from that page's
# `.schema` example (SCHED_EVENTS' AUTOINCREMENT brings sqlite_sequence along).
# The page's per-table listings could not be retrieved for this script; the
# other tables are the 2024.5 columns less what later releases added and this
# fixture is meant to lack: greenContextId, mangledName, NVTX textId/jsonTextId/
# jsonText, TARGET_INFO_GPU's vmId and the SYNCHRONIZATION table, with no
# PROCESSES, no ENUM_* and no META_DATA_* tables. The page says that "all
# fields are declared as NOT NULL ... instead default value for that field is
# exported": INT NOT NULL where 2024 has NOT NULL, plain INT elsewhere.
SCHEMA_2021 = {
    "StringIds": "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)",
    "SCHED_EVENTS": ("CREATE TABLE SCHED_EVENTS (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                     "start INT NOT NULL, cpu INT NOT NULL, isSchedIn INT NOT NULL, "
                     "globalTid INT NOT NULL)"),
    "COMPOSITE_EVENTS": ("CREATE TABLE COMPOSITE_EVENTS (id INT NOT NULL PRIMARY KEY, "
                         "start INT NOT NULL, cpu INT NOT NULL, threadState INT NOT NULL, "
                         "globalTid INT NOT NULL, cpuCycles INT NOT NULL)"),
    "ThreadNames": compact("ThreadNames", [("nameId", "INT NOT NULL"), ("priority", "INT"),
                                           ("globalTid", "INT")]),
    "TARGET_INFO_GPU": compact("TARGET_INFO_GPU", [
        (c, "INT NOT NULL" if c == "id" else ("TEXT" if c in TEXT_GPU_COLUMNS else "INT"))
        for c in TARGET_INFO_GPU_COLUMNS if c != "vmId"]),
    "CUPTI_ACTIVITY_KIND_RUNTIME": compact("CUPTI_ACTIVITY_KIND_RUNTIME", [
        ("start", "INT NOT NULL"), ("end", "INT NOT NULL"), ("eventClass", "INT NOT NULL"),
        ("globalTid", "INT"), ("correlationId", "INT"), ("nameId", "INT NOT NULL"),
        ("returnValue", "INT NOT NULL"), ("callchainId", "INT")]),
    "CUPTI_ACTIVITY_KIND_KERNEL": compact("CUPTI_ACTIVITY_KIND_KERNEL", [
        ("start", "INT NOT NULL"), ("end", "INT NOT NULL"), ("deviceId", "INT NOT NULL"),
        ("contextId", "INT NOT NULL"), ("streamId", "INT NOT NULL"), ("correlationId", "INT"),
        ("globalPid", "INT"), ("demangledName", "INT NOT NULL"), ("shortName", "INT NOT NULL"),
        ("launchType", "INT"), ("cacheConfig", "INT"), ("registersPerThread", "INT NOT NULL"),
        ("gridX", "INT NOT NULL"), ("gridY", "INT NOT NULL"), ("gridZ", "INT NOT NULL"),
        ("blockX", "INT NOT NULL"), ("blockY", "INT NOT NULL"), ("blockZ", "INT NOT NULL"),
        ("staticSharedMemory", "INT NOT NULL"), ("dynamicSharedMemory", "INT NOT NULL"),
        ("localMemoryPerThread", "INT NOT NULL"), ("localMemoryTotal", "INT NOT NULL"),
        ("gridId", "INT NOT NULL"), ("sharedMemoryExecuted", "INT"), ("graphNodeId", "INT"),
        ("sharedMemoryLimitConfig", "INT")]),
    "CUPTI_ACTIVITY_KIND_MEMCPY": compact("CUPTI_ACTIVITY_KIND_MEMCPY", [
        ("start", "INT NOT NULL"), ("end", "INT NOT NULL"), ("deviceId", "INT NOT NULL"),
        ("contextId", "INT NOT NULL"), ("streamId", "INT NOT NULL"), ("correlationId", "INT"),
        ("globalPid", "INT"), ("bytes", "INT NOT NULL"), ("copyKind", "INT NOT NULL"),
        ("deprecatedSrcId", "INT"), ("srcKind", "INT"), ("dstKind", "INT"),
        ("srcDeviceId", "INT"), ("srcContextId", "INT"), ("dstDeviceId", "INT"),
        ("dstContextId", "INT"), ("migrationCause", "INT"), ("graphNodeId", "INT")]),
    "CUPTI_ACTIVITY_KIND_MEMSET": compact("CUPTI_ACTIVITY_KIND_MEMSET", [
        ("start", "INT NOT NULL"), ("end", "INT NOT NULL"), ("deviceId", "INT NOT NULL"),
        ("contextId", "INT NOT NULL"), ("streamId", "INT NOT NULL"), ("correlationId", "INT"),
        ("globalPid", "INT"), ("value", "INT NOT NULL"), ("bytes", "INT NOT NULL"),
        ("graphNodeId", "INT"), ("memKind", "INT")]),
    "NVTX_EVENTS": compact("NVTX_EVENTS", [
        ("start", "INT NOT NULL"), ("end", "INT"), ("eventType", "INT NOT NULL"),
        ("rangeId", "INT"), ("category", "INT"), ("color", "INT"), ("text", "TEXT"),
        ("globalTid", "INT"), ("endGlobalTid", "INT"), ("domainId", "INT"),
        ("uint64Value", "INT"), ("int64Value", "INT"), ("doubleValue", "REAL"),
        ("uint32Value", "INT"), ("int32Value", "INT"), ("floatValue", "REAL")]),
    "OSRT_API": compact("OSRT_API", [
        ("start", "INT NOT NULL"), ("end", "INT NOT NULL"), ("eventClass", "INT NOT NULL"),
        ("globalTid", "INT"), ("nameId", "INT NOT NULL"), ("returnValue", "INT NOT NULL"),
        ("nestingLevel", "INT"), ("callchainId", "INT NOT NULL")]),
}


# ------------------------------------------------------------ the writer ----
class Writer:
    def __init__(self, path, schema):
        if os.path.exists(path):
            os.remove(path)
        self.db = sqlite3.connect(path)
        self.schema = schema
        self.columns = {}
        self.string_ids = {}
        for table, sql in schema.items():
            self.db.execute(sql)
            self.columns[table] = [r[1] for r in self.db.execute(f'PRAGMA table_info("{table}")')]

    def sid(self, text):
        if text not in self.string_ids:
            self.string_ids[text] = len(self.string_ids) + 1
            self.insert("StringIds", id=self.string_ids[text], value=text)
        return self.string_ids[text]

    def insert(self, table, **values):
        """Inserts a row; columns the release's table lacks are left out, and
        every value must go to a column the table has or to none of them."""
        cols = self.columns[table]
        present = {k: v for k, v in values.items() if k in cols}
        names = ", ".join(f'"{c}"' for c in present)
        marks = ", ".join("?" for _ in present)
        self.db.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', list(present.values()))

    def has(self, table):
        return table in self.columns

    def close(self):
        self.db.commit()
        self.db.execute("VACUUM")
        self.db.close()


def kernel_values(proc, device, stream, start, end, key, corr, grid_id):
    demangled, short, mangled = KERNELS[key]
    return dict(start=proc.ns(start), end=proc.ns(end), deviceId=device, contextId=CONTEXT,
                greenContextId=None, streamId=stream, correlationId=corr,
                globalPid=proc.global_pid,
                demangledName=demangled, shortName=short, mangledName=mangled, launchType=1,
                cacheConfig=0, registersPerThread=32, gridX=1024, gridY=1, gridZ=1, blockX=256,
                blockY=1, blockZ=1, staticSharedMemory=0, dynamicSharedMemory=0,
                localMemoryPerThread=0, localMemoryTotal=0, gridId=grid_id,
                sharedMemoryExecuted=0, graphNodeId=None, sharedMemoryLimitConfig=0)


def write_export(path, schema, modern, cuda=True, procs=ONE_PROCESS):
    """One export of the plan in `schema`, run by each of `procs`. modern:
    the 2024 extras."""
    w = Writer(path, schema)
    for proc in procs:
        for planned, name in THREADS:
            w.insert("ThreadNames", nameId=w.sid(name), priority=10,
                     globalTid=proc.thread(planned))
        if w.has("PROCESSES"):
            w.insert("PROCESSES", globalPid=proc.global_pid, pid=proc.pid, name="python3")
    if len(procs) > 1:
        launcher = VM | (LAUNCHER_PID << 24)
        w.insert("PROCESSES", globalPid=launcher, pid=LAUNCHER_PID, name="mpirun")
        w.insert("OSRT_API", start=ns(5), end=ns(7005), eventClass=OSRT_EVENT_CLASS,
                 globalTid=launcher | LAUNCHER_PID, nameId=w.sid("waitpid"), returnValue=0,
                 nestingLevel=0, callchainId=0)
    if w.has("META_DATA_EXPORT"):
        for name, value in META_2024:
            w.insert("META_DATA_EXPORT", name=name, value=value)
    for table, rows in ENUM_ROWS_2024.items():
        if w.has(table):
            for row in rows:
                w.insert(table, id=row[0], name=row[1], label=row[-1])
    if cuda:
        for device in range(2 * len(procs)):
            gpu = dict.fromkeys(TARGET_INFO_GPU_COLUMNS)
            gpu.update(vmId=VM, id=device, name=GPU_NAME,
                       busLocation=f"0000:{0x18 + device:02x}:00.0",
                       isDiscrete=1, totalMemory=85520809984, smCount=132, chipName="GH100",
                       cuDevice=device, computeMajor=9, computeMinor=0, smMajor=9, smMinor=0,
                       threadsPerWarp=32, uuid=f"00000000-0000-0000-0000-00000000000{device}")
            w.insert("TARGET_INFO_GPU", **gpu)
        for proc in procs:
            write_process(w, proc, modern)
    for proc in procs:
        write_host(w, proc, modern)
    w.close()


def write_process(w, proc, modern):
    """A process's CUDA calls and the GPU work they issued."""
    if w.has("TARGET_INFO_CUDA_CONTEXT_INFO"):
        for device in (0, 1):
            w.insert("TARGET_INFO_CUDA_CONTEXT_INFO", nullStreamId=7, hwId=0, vmId=1,
                     processId=proc.pid, deviceId=proc.first_device + device,
                     contextId=CONTEXT + device, parentContextId=None, isGreenContext=None)
    corr = 0
    if modern:
        corr += 1
        thread, start, end, name = DRIVER_CALL
        w.insert("CUPTI_ACTIVITY_KIND_RUNTIME", start=proc.ns(start), end=proc.ns(end),
                 eventClass=CUDA_DRIVER_CLASS, globalTid=proc.thread(thread),
                 correlationId=corr,
                 nameId=w.sid(name), returnValue=0, callchainId=None)
    for grid_id, (thread, start, end, name, op) in enumerate(CALLS, start=1):
        corr += 1
        w.insert("CUPTI_ACTIVITY_KIND_RUNTIME", start=proc.ns(start), end=proc.ns(end),
                 eventClass=CUDA_RUNTIME_CLASS, globalTid=proc.thread(thread),
                 correlationId=corr,
                 nameId=w.sid(name), returnValue=0, callchainId=None)
        if name.startswith("cudaStreamSynchronize") and w.has(
                "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
            w.insert("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", start=proc.ns(start),
                     end=proc.ns(end), deviceId=proc.first_device, contextId=CONTEXT,
                     greenContextId=None, streamId=7, correlationId=corr,
                     globalPid=proc.global_pid, syncType=3,
                     eventId=4294967295)
        if op is None:
            continue
        what, device, stream, gstart, gend = op[:5]
        device += proc.first_device
        if what == "kernel":
            values = kernel_values(proc, device, stream, gstart, gend, op[5], corr, grid_id)
            for k in ("demangledName", "shortName", "mangledName"):
                has = k in w.columns["CUPTI_ACTIVITY_KIND_KERNEL"]
                values[k] = w.sid(values[k]) if has else None
            w.insert("CUPTI_ACTIVITY_KIND_KERNEL", **values)
        elif what == "memcpy":
            w.insert("CUPTI_ACTIVITY_KIND_MEMCPY", start=proc.ns(gstart), end=proc.ns(gend),
                     deviceId=device, contextId=CONTEXT, greenContextId=None, streamId=stream,
                     correlationId=corr, globalPid=proc.global_pid, bytes=op[6],
                     copyKind=op[5],
                     deprecatedSrcId=None, srcKind=1 if op[5] == HTOD else 2,
                     dstKind=2 if op[5] == HTOD else 1, srcDeviceId=None, srcContextId=None,
                     dstDeviceId=None, dstContextId=None, migrationCause=None,
                     graphNodeId=None, virtualAddress=None)
        else:
            w.insert("CUPTI_ACTIVITY_KIND_MEMSET", start=proc.ns(gstart), end=proc.ns(gend),
                     deviceId=device, contextId=CONTEXT, greenContextId=None, streamId=stream,
                     correlationId=corr, globalPid=proc.global_pid, value=0, bytes=op[5],
                     graphNodeId=None, memKind=2)


def write_host(w, proc, modern):
    """A process's NVTX and OS runtime rows."""
    by_id = modern and "textId" in w.columns["NVTX_EVENTS"]
    for range_id, (thread, start, end, kind, name, registered) in enumerate(NVTX, start=1):
        named_by_id = by_id and registered
        w.insert("NVTX_EVENTS", start=proc.ns(start),
                 end=None if end is None else proc.ns(end), eventType=kind,
                 rangeId=range_id if kind == START_END else None, category=None, color=None,
                 text=None if named_by_id else name, globalTid=proc.thread(thread),
                 endGlobalTid=proc.thread(thread) if kind == START_END else None,
                 textId=w.sid(name) if named_by_id else None, domainId=0)
    for thread, start, end, name in OSRT:
        w.insert("OSRT_API", start=proc.ns(start), end=proc.ns(end),
                 eventClass=OSRT_EVENT_CLASS, globalTid=proc.thread(thread), nameId=w.sid(name),
                 returnValue=0, nestingLevel=0, callchainId=0)


# ------------------------------------------------------------- the truth ----
def runtime_kind(raw):
    name = raw.rsplit("_v", 1)[0] if raw.rsplit("_v", 1)[-1].isdigit() else raw
    if not name.startswith(("cuda", "cu", "hip")):
        return "runtime_other"
    if name.endswith("Synchronize"):
        return "runtime_sync"
    if "Launch" in name:
        return "runtime_launch"
    if "Memcpy" in name or "Memset" in name:
        return "runtime_copy"
    return "runtime_other"


def coverage_gaps(intervals, instants):
    """Gaps by counting coverage over every boundary (a different sweep from
    nsys_check.py's merge): the idle stretches between the first and the last
    activity, cut at the instants that fall in them."""
    events = sorted({t for s, e in intervals for t in (s, e)} | set(instants))
    idle = []
    for a, b in zip(events, events[1:]):
        covered = any(s <= a and b <= e for s, e in intervals)
        if not covered:
            idle.append((a, b))
    # join adjacent idle pieces unless an instant (not touching a busy interval) separates them
    lone = {p for p in instants if not any(s <= p <= e for s, e in intervals)}
    joined = []
    for a, b in idle:
        if joined and joined[-1][1] == a and a not in lone:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    busy = sum(b - a for a, b in zip(events, events[1:])
               if any(s <= a and b <= e for s, e in intervals))
    return busy, joined


def truth_from_rows(cuda=True, modern=False, procs=ONE_PROCESS):
    kinds = dict.fromkeys(COUNTED_KINDS, 0)
    devices = {}
    causes = {}
    for proc in procs if cuda else []:
        calls = [c for c in CALLS]
        names = [c[3] for c in calls] + ([DRIVER_CALL[3]] if modern else [])
        for n in names:
            kinds[runtime_kind(n)] += 1
        for planned in PLANTED_GAPS:
            causes[planned + proc.first_device] = [c for _, _, c in PLANTED_GAPS[planned]]
        for _, _, _, _, op in calls:
            if op is None:
                continue
            what, device, _, start, end = op[:5]
            device += proc.first_device
            if what == "kernel":
                what = "comm_kernel" if "nccl" in KERNELS[op[5]][0].lower() else "kernel"
            kinds[what] += 1
            d = devices.setdefault(device, {"kernel": 0, "comm_kernel": 0, "memcpy": 0,
                                            "memset": 0, "intervals": [], "instants": []})
            d[what] += 1
            (d["intervals"] if end > start else d["instants"]).append(
                (proc.ns(start), proc.ns(end)) if end > start else proc.ns(start))
    for _ in procs:
        for _, _, end, kind, name, _ in NVTX:
            if kind in (PUSH_POP, START_END) and end is not None:
                kinds["step" if name.startswith("ProfilerStep#") else "user_annotation"] += 1
        kinds["other"] += len(OSRT)
    if len(procs) > 1:
        kinds["other"] += 1  # the launcher's waitpid
    out = []
    for device in sorted(devices):
        d = devices[device]
        busy, gaps = coverage_gaps(d["intervals"], d["instants"])
        listed = [[a, b] for a, b in gaps if b - a >= GAP_THRESHOLD_NS]
        short = [(a, b) for a, b in gaps if 0 < b - a < GAP_THRESHOLD_NS]
        out.append({"device": device, "kernel": d["kernel"], "comm_kernel": d["comm_kernel"],
                    "memcpy": d["memcpy"], "memset": d["memset"], "busy_ns": busy,
                    "gaps": listed,
                    "short_gaps": {"count": len(short), "total_ns": sum(b - a for a, b in short)},
                    "causes": causes[device]})
    return {"slice_kinds": kinds, "devices": out}


def check_planted(truth, procs=ONE_PROCESS):
    for d in truth["devices"]:
        proc = next(p for p in procs if p.first_device <= d["device"] < p.first_device + 2)
        device = d["device"] - proc.first_device
        planted = [[proc.ns(a), proc.ns(b)] for a, b, _ in PLANTED_GAPS[device]]
        assert d["gaps"] == planted, (device, d["gaps"], planted)
        assert d["busy_ns"] == PLANTED_BUSY_US[device] * US, (device, d["busy_ns"])
        short = PLANTED_SHORT[device]
        assert d["short_gaps"] == {"count": len(short),
                                   "total_ns": sum((b - a) * US for a, b in short)}, d


def write_truth(path, truth, schema_name):
    body = {"fixture": os.path.basename(path), "schema": schema_name,
            "threshold_ns": GAP_THRESHOLD_NS, **truth}
    with open(path + ".truth.json", "w", encoding="utf-8") as f:
        json.dump(body, f, indent=1, sort_keys=True)
        f.write("\n")


# --------------------------------------------------------- invalid files ----
def write_invalid(outdir, modern_path):
    written = []
    path = os.path.join(outdir, "bad_not_nsys.sqlite")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE foo (id INTEGER PRIMARY KEY, bar TEXT)")
    db.execute("INSERT INTO foo VALUES (1, 'not an Nsight export')")
    db.commit()
    db.close()
    written.append(path)

    # The 2024 export with KERNEL lacking `start`.
    schema = dict(SCHEMA_2024)
    schema["CUPTI_ACTIVITY_KIND_KERNEL"] = ddl(
        "CUPTI_ACTIVITY_KIND_KERNEL", [c for c in KERNEL_COLUMNS_2024 if c[0] != "start"])
    path = os.path.join(outdir, "bad_kernel_no_start.sqlite")
    write_export(path, schema, modern=True)
    written.append(path)

    # The 2024 export whose StringIds is a view over another table.
    path = os.path.join(outdir, "bad_stringids_view.sqlite")
    write_export(path, SCHEMA_2024, modern=True)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE StringIds RENAME TO StringIdsData")
    db.execute("CREATE VIEW StringIds AS SELECT id, value FROM StringIdsData")
    db.commit()
    db.execute("VACUUM")
    db.close()
    written.append(path)

    path = os.path.join(outdir, "bad_truncated.sqlite")
    with open(modern_path, "rb") as f:
        whole = f.read()
    page = int.from_bytes(whole[16:18], "big")  # the header's page size
    head = whole[:max(page, (len(whole) // 2) // page * page)]
    with open(path, "wb") as f:
        f.write(head)
    written.append(path)

    path = os.path.join(outdir, "bad_not_sqlite.sqlite")
    with open(path, "w", encoding="utf-8") as f:
        f.write("this is not a SQLite database\n")
    written.append(path)
    return written


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    written = []

    path = os.path.join(outdir, "nsys_2021_schema.sqlite")
    write_export(path, SCHEMA_2021, modern=False)
    truth = truth_from_rows(modern=False)
    check_planted(truth)
    write_truth(path, truth, "2021 (reconstructed: see make_nsys_fixtures.py)")
    written += [path, path + ".truth.json"]

    modern = os.path.join(outdir, "nsys_2024_schema.sqlite")
    write_export(modern, SCHEMA_2024, modern=True)
    truth = truth_from_rows(modern=True)
    check_planted(truth)
    write_truth(modern, truth, "2024.5 (export schema 3.13.2)")
    written += [modern, modern + ".truth.json"]

    path = os.path.join(outdir, "nsys_2024_no_cuda.sqlite")
    schema = {k: v for k, v in SCHEMA_2024.items()
              if not k.startswith("CUPTI_") and k != "TARGET_INFO_GPU"}
    write_export(path, schema, modern=True, cuda=False)
    truth = truth_from_rows(cuda=False)
    write_truth(path, truth, "2024.5, no CUPTI tables")
    written += [path, path + ".truth.json"]

    path = os.path.join(outdir, "nsys_2024_two_ranks.sqlite")
    write_export(path, SCHEMA_2024, modern=True, procs=TWO_RANKS)
    truth = truth_from_rows(modern=True, procs=TWO_RANKS)
    check_planted(truth, TWO_RANKS)
    write_truth(path, truth, "2024.5 (export schema 3.13.2), two ranks' processes")
    written += [path, path + ".truth.json"]

    written += write_invalid(outdir, modern)
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
