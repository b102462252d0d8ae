#pragma once
// Where each GPU's time goes, over one denominator: the figure that every
// view, the CLI and the exports show for "busy", "idle", "idle by cause"
// and the idle gaps themselves. A GPU with steps (analysis/steps.h: its
// rank's steps, its host's, or its own Steps line) is counted over its
// step time: the steps' lead-ins and GPU windows, which tile it from the
// first step's start to the last step's GPU end (the step as TensorBoard's
// step-time graph and HTA's per-step figures). A GPU without steps is
// counted over its active span (first activity start to last activity end,
// as HTA's temporal breakdown and TraceLens's GPU timeline); each device
// says which. The parts add up exactly: computation + exposed communication
// + exposed memcpy + idle by cause + short gaps = time, and the listed gaps
// are the very intervals of the idle by cause (per cause, their lengths sum
// to it): the Gaps panel, the timeline's shading and `gapscope-cli gaps`
// list them.

#include <array>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/steps.h"
#include "analysis/time_breakdown.h"

namespace gapscope {

// Mixed: a sum over GPUs of which some are over their step time and some
// over their active span (a figure of all GPUs, such as the input verdict's).
enum class Denominator : uint8_t { StepTime, ActiveSpan, Mixed };
// "step time", "active span", "step time and active spans"
const char* denominatorName(Denominator d);

struct GpuTimeAccount {
    int device = 0;
    Denominator denominator = Denominator::ActiveSpan;
    size_t steps = 0;  // with Denominator::StepTime: how many steps it is over
    TimeNs time = 0;   // the denominator of this device
    TimeNs computation = 0, exposedComm = 0, exposedMemcpy = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    TimeNs idleShort = 0;
    uint64_t shortGaps = 0;         // short gaps that begin in it
    std::vector<Interval> windows;  // what `time` is the length of: the steps' tiles, or the span
    // Its idle gaps of at least the threshold, in time order, each whole
    // within the scope (a gap the scope cuts is cut; CausedGap::whole).
    std::vector<CausedGap> gaps;

    TimeNs busy() const { return computation + exposedComm + exposedMemcpy; }
    TimeNs idle() const { return time - busy(); }
};

struct TimeAccount {
    // StepTime when any device is over step time.
    Denominator denominator = Denominator::ActiveSpan;
    size_t steps = 0;                     // with Denominator::StepTime
    std::vector<GpuTimeAccount> devices;  // by device

    // Over all devices: the sums of their times and of one cause's idle.
    TimeNs time() const;
    TimeNs idle(GapCause cause) const;
    // Whether the devices are over different denominators.
    bool mixed() const;
    // The denominator of time(): that of every device, or Mixed.
    Denominator denominatorOfAll() const { return mixed() ? Denominator::Mixed : denominator; }
};

// Each device in the step breakdowns over its steps; every other device of
// `breakdowns` over its active span, with its gaps from `gaps` (the same
// window's).
TimeAccount timeAccount(const StepsResult& steps, const std::vector<GpuTimeBreakdown>& breakdowns,
                        const std::vector<DeviceGaps>& gaps);
// One device's busy share of its time and what that time is (the
// account's busy / time, as the timeline's strip shows it).
struct BusyShare {
    double share = 0;
    Denominator denominator = Denominator::ActiveSpan;
};

// Computes those over `options.window` (the steps that start inside it, or
// the window itself without steps) with its threshold, regex and index.
TimeAccount timeAccountOf(const Trace& trace, const StepOptions& options);

// The account's gaps as the gap analysis lists them (one entry per device).
std::vector<DeviceGaps> accountGaps(const TimeAccount& account);

}  // namespace gapscope
