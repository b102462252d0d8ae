#pragma once
// Trace Health: what the import repaired, dropped or found missing, as
// Perfetto's import stats table says it, with the first instances a person
// can click and what each means for the numbers. Every check is listed
// (count 0 when it holds), so scripts can gate on any of them.
//
// The checks, in order:
//  - truncated: the file ends early (everything before the cut is kept);
//  - invalid_events: events dropped for a missing or bad required field;
//  - unmatched_ends / unclosed_begins: an end with nothing open, a begin
//    never ended (closed at the trace's end);
//  - negative_durations: kept with duration 0;
//  - overlaps_in_lanes: slices that overlapped a sibling without nesting,
//    drawn in a lane of their own;
//  - zero_duration_gpu_work: GPU work written with duration 0 (it ran, so it
//    splits idle time, but adds none to busy time);
//  - gpu_work_without_launch: GPU work no launch call or launch flow leads
//    to (only where the trace links launches at all);
//  - gpu_work_before_launch: GPU work that starts before the call that
//    launched it (the host's and the GPU's clocks disagree);
//  - launches_without_gpu_work: launch calls that lead to no GPU work (the
//    profiler lost it, or the window cut it): GPU figures around them are
//    lower bounds;
//  - unresolved_flows / orphan_flow_events: flow events with no slice at
//    their time, and flow steps whose start is not in the trace;
//  - profiler_messages: what the profiler itself reported in the file
//    (XSpace's errors and warnings, Nsight Systems' diagnostics, Kineto's
//    logged errors and warnings such as CUPTI's dropped records);
//  - gpu_labels_disagree: processes a label calls a GPU ("GPU N") whose
//    threads hold host work and no GPU activity, taken for the host they
//    are (seen on ROCm traces);
//  - broken_step_annotations: a step's GPU annotation (Kineto's
//    gpu_user_annotation copy of ProfilerStep#N) that does not hold the GPU
//    work the step launched; the step's window is that work instead
//    (analysis/steps.h);
//  - rank_clocks (ranks merged into one trace only): steps where a
//    collective ended on one rank before another entered it
//    (analysis/rank_comparison.h), which the ranks' merge reports;
//  - import_warnings: every other warning of the import.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/launch_calls.h"
#include "analysis/steps.h"
#include "model/earliest_slices.h"
#include "model/trace.h"

namespace gapscope {

enum class HealthSeverity : uint8_t { Ok, Info, Warning, Error };
const char* healthSeverityName(HealthSeverity s);  // "ok", "info", "warning", "error"

struct HealthCheck {
    std::string id;                                // "gpu_work_without_launch"
    std::string title;                             // "GPU work without a launch"
    HealthSeverity severity = HealthSeverity::Ok;  // Ok when count is 0
    uint64_t count = 0;
    std::string effect;              // what it means for the numbers
    std::vector<uint32_t> examples;  // the first few slices, by start
    std::string detail;              // a check about no slice: its first message
};

struct TraceHealth {
    std::vector<HealthCheck> checks;  // every check, in the order above
    // Launch calls without GPU work, by start: what the advice reads.
    std::vector<uint32_t> launchesWithoutWork;
    bool clean() const;  // nothing above Info
    const HealthCheck* find(const std::string& id) const;
};

inline constexpr size_t kHealthExamples = kExampleSlices;

// `launches` and `windows` (of the default steps): the trace's, built here when null.
TraceHealth traceHealth(const Trace& trace, const LaunchCalls* launches = nullptr,
                        const StepWindows* windows = nullptr);

}  // namespace gapscope
