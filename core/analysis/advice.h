#pragma once
// Advice: the usual tuning checklist turned into findings, each with a
// severity, one sentence, the numbers behind it and the evidence (time
// ranges and slices) a person can click. No finding without evidence.
//
// Rules (step time = the steps' total duration; without steps, the span of
// each device's activity):
//  - input-bound: the input pipeline's verdict (≥ 5 % moderately, ≥ 20 %
//    highly); what to change from its checks (prefetch, parallel map,
//    cache) or "set num_workers" for a single-process DataLoader > 5 %;
//  - GPU idle > 20 % of step time (per device), with the leading cause;
//  - many tiny kernels: > 50 % of kernels shorter than 10 µs;
//  - blocking synchronisation inside steps: idle time caused by a sync;
//  - pageable host-to-device copies;
//  - exposed communication > 10 % of step time (per device);
//  - no Tensor Core kernel while GEMM / convolution kernels (name contains
//    gemm or conv, any case) take > 20 % of compute time;
//  - memory growth per step (analysis/memory_usage.h);
//  - peak memory > 90 % of the device;
//  - below the roofline (analysis/efficiency.h): the op signatures whose
//    GPU work is at most half of the roofline at their intensity and takes
//    at least 2 % of the GPUs' busy time, the three that lose the most
//    time against the roof, each with its kernel;
//  - the trace's health (analysis/trace_health.h): a file cut short, and
//    launch calls whose GPU work is missing (the steps they fall in), where
//    every GPU figure is a lower bound.

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "analysis/efficiency.h"
#include "analysis/input_pipeline.h"
#include "analysis/kernel_stats.h"
#include "analysis/launch_overhead.h"
#include "analysis/memcpy_stats.h"
#include "analysis/memory_usage.h"
#include "analysis/time_breakdown.h"
#include "analysis/trace_health.h"
#include "util/figure_unit.h"

namespace gapscope {

enum class Severity : uint8_t { High, Medium, Low };
const char* severityName(Severity s);  // "high", "medium", "low"

// One number behind a finding, typed where it is computed: its unit
// decides how every view writes it (integer ns and bytes in JSON, a share
// as a percentage for people).
struct FindingFigure {
    std::string key;  // "idle_ns", "idle_share"
    Unit unit = Unit::Number;
    std::variant<int64_t, double> value;
    std::string of = {};  // a share's denominator: the key of another figure

    static FindingFigure duration(std::string key, TimeNs ns) {
        return {std::move(key), Unit::Duration, int64_t{ns}};
    }
    static FindingFigure count(std::string key, int64_t n) {
        return {std::move(key), Unit::Count, n};
    }
    static FindingFigure bytes(std::string key, int64_t n) {
        return {std::move(key), Unit::Bytes, n};
    }
    static FindingFigure share(std::string key, double s, std::string of = {}) {
        return {std::move(key), Unit::Share, s, std::move(of)};
    }
    double real() const {
        return std::holds_alternative<int64_t>(value)
                   ? static_cast<double>(std::get<int64_t>(value))
                   : std::get<double>(value);
    }
};

struct Finding {
    std::string rule;  // "input-bound", "gpu-idle", ...
    Severity severity = Severity::Low;
    int device = -1;  // -1: not about one device
    std::string message;
    std::vector<FindingFigure> figures;  // the numbers behind the message
    std::vector<Interval> ranges;        // evidence on the time axis
    std::vector<uint32_t> slices;        // evidence slices

    // The figure of that key; null without one.
    const FindingFigure* figure(std::string_view key) const {
        for (const FindingFigure& f : figures)
            if (f.key == key) return &f;
        return nullptr;
    }
};

// The analyses advice reads; computed by the caller (the GUI has them).
struct AdviceInputs {
    const StepsResult* steps = nullptr;
    const PipelineReport* pipeline = nullptr;
    const LaunchOverhead* launch = nullptr;
    const std::vector<KernelStats>* kernels = nullptr;  // all devices together
    const std::vector<CopyStats>* copies = nullptr;
    const MemoryReport* memory = nullptr;
    const std::vector<GpuTimeBreakdown>* breakdowns = nullptr;  // whole trace
    const std::vector<DeviceGaps>* gaps = nullptr;              // whole trace
    const TimeAccount* account = nullptr;  // else made from steps, breakdowns and gaps
    const TraceHealth* health = nullptr;
    const EfficiencyResult* efficiency = nullptr;
};

// Most severe first; within a severity, causes (input, sync, communication,
// memory) before GPU idle, the symptom they explain; then the larger share.
std::vector<Finding> advise(const Trace& trace, const AdviceInputs& inputs);

// Everything the rules read, computed over one window.
struct AdviceData {
    StepsResult steps;
    PipelineReport pipeline;
    LaunchOverhead launch;
    std::vector<KernelStats> kernels;  // all devices together, no launching op
    std::vector<CopyStats> copies;
    MemoryReport memory;
    std::vector<GpuTimeBreakdown> breakdowns;
    std::vector<DeviceGaps> gaps;
    TimeAccount account;  // of steps, breakdowns and gaps
    TraceHealth health;
    std::shared_ptr<const EfficiencyResult> efficiency;
    AdviceInputs inputs() const;
};

// Over `stepOptions.window` with its gap threshold and cancel (advice itself
// is about the whole trace; the Overview shows the same figures for its
// scope). `stepOptions.index` must be set.
AdviceData adviceData(const Trace& trace, const StepOptions& stepOptions,
                      const std::optional<DevicePeaks>& peaks = {});

// Computes every input over the whole trace and advises (`index`: built
// once per trace; else built here).
std::vector<Finding> adviseWholeTrace(const Trace& trace, const StepOptions& stepOptions = {},
                                      const AnalysisIndex* index = nullptr,
                                      const std::optional<DevicePeaks>& peaks = {});

}  // namespace gapscope
