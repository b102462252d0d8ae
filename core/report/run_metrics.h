#pragma once
// The figures of one run that a regression gate compares (`gapscope-cli
// diff`) and a summary lists, each computed by the analyses over the whole
// trace: step times, GPU busy and idle by cause, exposed communication,
// memory peak, and per kernel and per op name their times.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/gap_causes.h"
#include "analysis/steps.h"
#include "model/trace.h"

namespace gapscope {

struct RunMetrics {
    size_t stepCount = 0;
    std::optional<double> stepMean;          // ns
    std::optional<double> stepMedian;        // ns
    std::vector<TimeNs> stepDurations;       // in step order: their spread is the run's noise
    std::vector<Step> steps;                 // the same steps: number and CPU span
    std::optional<TimeNs> stepP10, stepP90;  // nearest rank, as p95 in distribution.h
    // The GPUs' time account summed over GPUs: busy of time, the step time
    // with steps, else the active spans (first activity start .. last end).
    TimeNs gpuBusy = 0, gpuTime = 0;
    std::optional<double> gpuBusyPercent;     // busy / active, none without GPU activity
    TimeNs idleByCause[kGapCauseCount] = {};  // listed gaps (>= the threshold)
    TimeNs idleShort = 0;                     // the shorter ones together
    TimeNs exposedComm = 0;
    std::optional<double> memoryPeak;  // bytes, the highest of the GPUs
    // Bytes per step, the fastest-growing GPU's (as `memory`'s growth: a
    // line through the steps' peaks); none where no GPU's memory grows.
    std::optional<double> memoryGrowthPerStep;
    // The input pipeline's verdict and the GPU idle it caused (as `pipeline`).
    InputVerdict inputVerdict = InputVerdict::NotInputBound;
    std::optional<double> inputShare;  // of the time account, 0..1
    // Launch overhead: the median launch delay (kernel start − end of its
    // launch call, at least 0) over the kernels with a launch (as `launch`).
    std::optional<TimeNs> launchDelayMedian;
    // The advice, most severe first (as `advice`).
    struct Finding {
        std::string rule;  // "input-bound", "gpu-idle", ...
        int device = -1;
        Severity severity = Severity::Low;
        std::string message;
    };
    std::vector<Finding> findings;
    // Each GPU's time account (as `summary`'s GPU time table), by device.
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
        double mean() const { return count ? double(total) / double(count) : 0; }
    };
    struct Op {
        uint64_t count = 0;
        TimeNs self = 0, gpu = 0;
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
    TimeNs kernelTotal = 0;
    uint64_t kernelCount = 0;
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
