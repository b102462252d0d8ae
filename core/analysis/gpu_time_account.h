#pragma once
// Where each GPU's time goes, over one denominator: the figure that every
// view, the CLI and the exports show for "busy", "idle" and "idle by cause".
// With steps the denominator is the step time (the sum of the steps' GPU
// windows on the device, analysis/steps.h: close to their durations, and
// the step as TensorBoard's step-time graph and HTA's per-step figures);
// without, each device's active span (first activity start to last
// activity end, as HTA's temporal breakdown and TraceLens's GPU timeline).
// The parts add up exactly: computation + exposed communication + exposed
// memcpy + idle by cause + short gaps = time.

#include <array>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/steps.h"
#include "analysis/time_breakdown.h"

namespace gapscope {

enum class Denominator : uint8_t { StepTime, ActiveSpan };
const char* denominatorName(Denominator d);  // "step time", "active span"

struct GpuTimeAccount {
    int device = 0;
    TimeNs time = 0;  // the denominator of this device
    TimeNs computation = 0, exposedComm = 0, exposedMemcpy = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    TimeNs idleShort = 0;
    std::vector<Interval> windows;  // what `time` is the length of: the step windows, or the span

    TimeNs busy() const { return computation + exposedComm + exposedMemcpy; }
    TimeNs idle() const { return time - busy(); }
};

struct TimeAccount {
    Denominator denominator = Denominator::ActiveSpan;
    size_t steps = 0;                     // with Denominator::StepTime
    std::vector<GpuTimeAccount> devices;  // by device

    // Over all devices: the sums of their times and of one cause's idle.
    TimeNs time() const;
    TimeNs idle(GapCause cause) const;
};

// From the step breakdowns when there are steps with GPU figures, else
// from the active-span breakdowns and the gaps of the same window.
TimeAccount timeAccount(const StepsResult& steps, const std::vector<GpuTimeBreakdown>& breakdowns,
                        const std::vector<DeviceGaps>& gaps);
// One device's busy share of that denominator from its busy union alone
// (for the timeline's strip): its busy time within its step windows
// (stepWindows, this device's) over their total length, else over its
// active span. Equals busy / time of its account. nullopt without activity.
struct BusyShare {
    double share = 0;
    Denominator denominator = Denominator::ActiveSpan;
};
std::optional<BusyShare> busyShare(const GpuDevice& device, const std::vector<Interval>& windows);

// Computes those over `options.window` (the steps that start inside it, or
// the window itself without steps) with its threshold, regex and index.
TimeAccount timeAccountOf(const Trace& trace, const StepOptions& options);

}  // namespace gapscope
