#pragma once
// Each analysis's result as one typed table (report/result_table.h): the
// columns, keys, units and order every view shows. `gapscope-cli COMMAND`
// prints them, the summary projects them, the panels fill their models from
// them; nothing else turns an analysis into rows.

#include <cstdint>
#include <vector>

#include "analysis/efficiency.h"
#include "analysis/gap_causes.h"
#include "analysis/gpu_time_account.h"
#include "analysis/input_pipeline.h"
#include "analysis/kernel_stats.h"
#include "analysis/launch_overhead.h"
#include "analysis/memcpy_stats.h"
#include "analysis/memory_held.h"
#include "analysis/memory_usage.h"
#include "analysis/op_stats.h"
#include "analysis/steps.h"
#include "analysis/trace_health.h"
#include "report/result_table.h"

namespace gapscope {

// By total time. `byDevice`: a first column "device".
// With `efficiency`, each name's TFLOP/s and share of the roofline over the
// work of costed ops it ran (analysis/efficiency.h: NameEfficiency).
ResultTable kernelTable(const Trace& trace, const std::vector<KernelStats>& kernels, bool byDevice,
                        const EfficiencyResult* efficiency = nullptr);
ResultTable copyTable(const Trace& trace, const std::vector<CopyStats>& copies);
// By GPU time, then self time; the share is of `OpStatsOptions::stepTime`.
ResultTable opTable(const Trace& trace, const std::vector<OpStats>& ops,
                    const EfficiencyResult* efficiency = nullptr);
// A name's TFLOP/s and share of the roofline, two cells (none where the
// name did no costed work): the efficiency columns of Kernels and Ops.
std::vector<ResultColumn> efficiencyColumns();
void addEfficiencyCells(ResultRow& row, const std::vector<NameEfficiency>* names, StringId name);

// Slices (a search's matches), at most `most` of them in the order given:
// name, track, start and duration, each row leading to its slice.
ResultTable sliceTable(const Trace& trace, const std::vector<uint32_t>& slices,
                       size_t most = SIZE_MAX);

// Every listed idle gap of every device, by device then start: its start,
// length, cause and the names of its evidence (each once).
ResultTable gapTable(const Trace& trace, const std::vector<DeviceGaps>& devices);

// Trace Health: one row per check (every check, found or not): its
// severity, count, what it means for the numbers and its first instance.
ResultTable healthTable(const Trace& trace, const TraceHealth& health);
// The first instances of every check found, by check: start, duration,
// name and track.
ResultTable healthInstancesTable(const Trace& trace, const TraceHealth& health);

// One row per step and GPU (a step without GPU work: one row): its CPU
// span's duration, its GPU window and the breakdown that adds up to the
// window, and why a slow step was slow (on its first GPU's row).
ResultTable stepTable(const StepsResult& steps);
struct Scope;  // report/analysis_registry.h
// The steps analysis's options over a scope (step N selected, not a narrower
// window): what `steps` computes, and a view that draws the same steps.
StepOptions stepsAnalysisOptions(const Scope& scope);
// One row per step and GPU: its lead-in (start, length, cause) and the
// lead-in's parts.
ResultTable leadInTable(const StepsResult& steps);

// One row per device with memory events (GPUs by index, then the host):
// its peaks, when, the share of the device's memory, the growth per step.
ResultTable memoryTable(const MemoryReport& memory);
// One device's peak in each of `steps` (those its per-step peaks are of).
ResultTable memoryStepTable(const DeviceMemory& device, const std::vector<Step>& steps);

// What holds memory (analysis/memory_held.h), `at` one HeldAt per
// allocator: each allocator's peak, fragmentation, headroom and what did
// not pair; what is alive then by op or phase, and one by one (the `top`
// largest of each allocator, 0: all); what steps leave behind, the leak
// candidates and what is never freed.
ResultTable memoryAllocatorTable(const Trace& trace, const MemoryAllocations& m,
                                 const std::vector<HeldAt>& at);
ResultTable memoryHeldGroupTable(const Trace& trace, const MemoryAllocations& m,
                                 const std::vector<HeldAt>& at, HeldBy by);
ResultTable memoryAliveTable(const Trace& trace, const MemoryAllocations& m,
                             const std::vector<HeldAt>& at, size_t top);
std::vector<ResultTable> memoryLeakTables(const Trace& trace, const MemoryAllocations& m,
                                          const MemoryLeaks& leaks, const std::vector<Step>& steps);

// The input pipeline's stages (tf.data's and the DataLoader's), by self
// time: calls, inclusive and self time, the share of the input time.
ResultTable pipelineStageTable(const Trace& trace, const PipelineReport& pipeline);
// The host's wait for input in each of `steps` (those the report is of):
// the time and the share of the step.
ResultTable inputWaitTable(const PipelineReport& pipeline, const std::vector<Step>& steps);

// Launch delay per kernel name (by mean delay): count, mean and max delay
// from the launch call's start to the kernel's, the launch call's mean.
ResultTable launchTable(const Trace& trace, const LaunchOverhead& launch);

// The GPU time breakdown over a window (the active span inside it): per
// device computation, exposed communication and memcpy, idle, their total,
// and how much of the communication compute overlapped.
ResultTable breakdownTable(const std::vector<GpuTimeBreakdown>& breakdowns);

// The GPU time account, one row per GPU: its time (the denominator named in
// "of"), busy and its parts, idle and its causes (the parts add up to the
// time), and the GPU's active span from `breakdowns` (of the same window).
// What the Overview and the summary's "gpus" show.
ResultTable accountTable(const TimeAccount& account,
                         const std::vector<GpuTimeBreakdown>& breakdowns);

}  // namespace gapscope
