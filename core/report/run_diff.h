#pragma once
// Two runs' figures side by side (`gapscope-cli diff BASE NEW`): the
// headline metrics with absolute and relative deltas, and every kernel and
// op name, changed, new or vanished, sorted by impact (the largest change
// of time first).

#include <optional>
#include <string>
#include <vector>

#include "analysis/shift_test.h"
#include "report/run_metrics.h"

namespace gapscope {

// How much `now` differs from `base`, as a fraction of |base| (0.05 is 5 %
// more); none when base is 0. The one relative change of every comparison
// view (the diff's tables and JSON, its verdict, the Compare panel).
std::optional<double> relativeChange(double base, double now);
// What a shift test says of the step times, in words: "beyond noise (p =
// 0.000183, Mann-Whitney U, 40 and 40 steps; shift +12.30 ms, 95 %
// interval +11.00 ms to +13.50 ms)"; the verdict's, the CLI's and the
// Compare panel's one sentence.
std::string noiseSentence(const ShiftTest& test);

struct MetricDelta {
    std::string metric;  // "step_time", "gpu_idle", ... (docs/cli.md)
    MetricUnit unit = MetricUnit::Ns;
    std::optional<double> base, now;
    std::optional<double> delta() const;     // now - base
    std::optional<double> relative() const;  // percent of base; none when base is 0
};

// Renamed: a kernel under another name, launched from the same op path
// (the one new and the one vanished name of that path), else in the same
// scope (the one new and the one vanished name of that scope, launched as
// often). WithinNoise: a kernel or op in both runs whose figures changed,
// but whose time per step does not differ between the runs beyond its
// step-to-step noise: the shift test of the step times (analysis/
// shift_test.h) on its time in each step (an op's self time and its GPU
// time, both); where these step counts could not show any change
// significant, it stays Changed. Scopes are not weighed.
enum class NameStatus { Same, Changed, New, Vanished, Renamed, WithinNoise };
// "same", "changed", "new", "vanished", "renamed", "within_noise"
const char* nameStatusName(NameStatus s);

struct KernelDelta {
    std::string name;       // NEW's (BASE's when vanished)
    std::string baseName;   // Renamed: BASE's name
    std::string matchedBy;  // Renamed: "op_path" or "scope"
    NameStatus status = NameStatus::Same;
    RunMetrics::Kernel base, now;  // zero where absent
    // Its time per step weighed against noise (both runs with two steps or more).
    std::optional<ShiftTest> stepChange;
    double impact() const;  // |now.total - base.total|
};

struct OpDelta {
    std::string name;
    NameStatus status = NameStatus::Same;
    RunMetrics::Op base, now;
    // Its self time and its GPU time per step weighed against noise.
    std::optional<ShiftTest> selfStepChange, gpuStepChange;
    double impact() const;  // the larger of |Δ self| and |Δ GPU time|
};

// One scope's kernel time in both runs (analysis/kernel_scopes.h): where
// torch.compile or another library changed the kernels' names and the ops
// that launch them, the named ranges around the launches stay.
struct ScopeDelta {
    std::string name;  // the scope's path; "" for the kernels outside any named range
    NameStatus status = NameStatus::Same;
    RunMetrics::Scope base, now;  // zero where absent
    // The kernel names found in the scope in one run only (by their time
    // there, most first), and their time there in all.
    std::vector<std::string> gone, added;
    TimeNs goneTime = 0, addedTime = 0;
    double impact() const;  // |now.total - base.total|
};

// One GPU's time account in both runs: the same device, or, when the runs
// used no device in common (two ranks of a job), the GPUs in order.
struct GpuDelta {
    std::optional<int> baseDevice, newDevice;  // none where a run lacks it
    struct Figure {
        std::string name;  // "time", "computation", "exposed_comm", ..., "idle_input", ...
        TimeNs base = 0, now = 0;
    };
    std::vector<Figure> figures;
};

// A finding of the advice in either run, matched by rule and device.
enum class FindingStatus { Resolved, New, Still };
const char* findingStatusName(FindingStatus s);  // "resolved", "new", "still"

struct FindingChange {
    FindingStatus status = FindingStatus::Still;
    RunMetrics::Finding finding;  // NEW's, or BASE's when resolved
};

struct RunDiff {
    std::vector<MetricDelta> metrics;  // fixed order
    // Whether the step times changed beyond their step-to-step noise
    // (shiftTest at `level`); none with fewer than two steps in a run.
    std::optional<ShiftTest> stepChange;
    std::vector<KernelDelta> kernels;  // by impact, then name
    std::vector<OpDelta> ops;
    // By impact, then path; empty where neither run has a named range
    // around a kernel's launch.
    std::vector<ScopeDelta> scopes;
    std::vector<GpuDelta> gpus;
    std::vector<FindingChange> findings;  // new, then resolved, then still; each most severe first
    // One paragraph for a person: the step time's change and whether it is
    // beyond noise, the idle causes that moved most per step, and the
    // findings resolved and new.
    std::string verdict;
};

RunDiff diffRuns(const RunMetrics& base, const RunMetrics& now, double level = 0.95);

// The step-time metrics, whose change the shift test weighs against noise.
bool isStepTimeMetric(const std::string& name);

// The headline metric of that name in one run (what --fail-if reads), or
// none when the run has no such figure (no steps, no GPU memory curve).
// False when the name is not a headline metric.
bool headlineMetric(const RunMetrics& m, const std::string& name, std::optional<double>& value,
                    MetricUnit& unit);
const std::vector<std::string>& headlineMetricNames();

}  // namespace gapscope
