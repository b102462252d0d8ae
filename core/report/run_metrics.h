#pragma once
// The figures of one run that a regression gate compares (`gapscope-cli
// diff`) and a summary lists, each computed by the analyses over the whole
// trace: step times, GPU busy and idle by cause, exposed communication,
// memory peak, and per kernel and per op name their times.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/gap_causes.h"
#include "analysis/steps.h"
#include "model/trace.h"

namespace gapscope {

enum class MetricUnit { Ns, Percent, Bytes, Count };
const char* metricUnitName(MetricUnit u);  // "ns", "percent", "bytes", "count"

// A headline metric of a run (what a comparison lists and a gate reads):
// the headline figure of a registered analysis over the whole trace that
// it is, by name (step_time is steps' mean_duration_ns); a share there is
// in percent here, as the gate's grammar reads it.
struct HeadlineMetric {
    std::string name;      // "step_time"
    std::string analysis;  // "steps"
    std::string figure;    // "mean_duration_ns"
    MetricUnit unit = MetricUnit::Ns;
};
// In the comparison's order.
const std::vector<HeadlineMetric>& headlineMetrics();

struct RunMetrics {
    // Each headline metric's value by name, none where the run has no such
    // figure (no steps, no GPU memory curve): read with metric().
    std::map<std::string, std::optional<double>, std::less<>> headline;
    std::optional<double> metric(std::string_view name) const;
    size_t stepCount = 0;
    std::vector<TimeNs> stepDurations;  // in step order: their spread is the run's noise
    std::vector<Step> steps;            // the same steps: number and CPU span
    TimeNs gpuTime = 0;                 // the GPUs' time in the time account, summed over GPUs
    // The input pipeline's verdict (as `pipeline`; with an input_share only).
    InputVerdict inputVerdict = InputVerdict::NotInputBound;
    // The advice, most severe first (as `advice`).
    struct Finding {
        std::string rule;  // "input-bound", "gpu-idle", ...
        int device = -1;
        Severity severity = Severity::Low;
        std::string message;
    };
    std::vector<Finding> findings;
    // Each GPU's time account (as `account`'s gpus table), by device.
    std::vector<GpuTimeAccount> gpus;  // (their windows left out)

    struct Kernel {
        uint64_t count = 0;
        TimeNs total = 0;
        // The CPU slices around the launch call of the first kernel of the
        // name, outermost first, without the step ("aten::linear >
        // aten::addmm"); "" where the launch is unknown. Where a kernel's
        // name changed between runs (another library, another algorithm),
        // the op that launched it did not: a comparison matches them by it.
        std::string opPath;
        // The named ranges around its launches (analysis/kernel_scopes.h)
        // that hold most of its time: what still matches where both the
        // name and the op path changed.
        std::string scope;
        // Its time in each step (as `steps`), what its change is weighed
        // against: a kernel counts in the step whose time on its GPU (lead-in
        // and window) it starts in.
        std::vector<TimeNs> perStep;
        double mean() const { return count ? double(total) / double(count) : 0; }
    };
    struct Op {
        uint64_t count = 0;
        TimeNs self = 0, gpu = 0;
        // Its self and GPU time in each step (as `steps`), an op counting in
        // the step whose CPU span it starts in; empty where the steps are
        // ranks merged into one trace (a step's span holds other ranks' ops).
        std::vector<TimeNs> selfPerStep, gpuPerStep;
    };
    std::map<std::string, Kernel> kernels;  // all devices together
    std::map<std::string, Op> ops;
    // Kernel time by scope, every kernel in the scope of its own launch;
    // "" holds those outside any named range.
    struct Scope {
        uint64_t count = 0;
        TimeNs total = 0;
        std::vector<std::pair<std::string, TimeNs>> kernels;  // time in the scope, most first
    };
    std::map<std::string, Scope> scopes;
};

// `options.index` may be null (then one is built); the window is the whole trace.
RunMetrics runMetrics(const Trace& trace, const StepOptions& options);

// The run's typical step, where a comparison lines two runs up: the one
// whose duration is nearest the median (the earliest of equals); none
// without steps.
std::optional<size_t> medianStepIndex(const RunMetrics& m);

// The caller's options over the whole trace, with its index or, when it
// has none, one built into `own` (the report layer's commands take either).
StepOptions wholeTraceOptions(const Trace& trace, const StepOptions& options,
                              std::unique_ptr<AnalysisIndex>& own);

}  // namespace gapscope
