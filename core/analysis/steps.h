#pragma once
// Training steps and what each one spent its time on.
//
// Steps come from the first source that has any (all on CPU threads unless
// said): a user regex (the first number in the name is the step number,
// else its position); Kineto's ProfilerStep#N; TensorFlow's "train" /
// "test" markers with a step_num arg; TensorFlow's derived "Steps" line of
// the lowest GPU. A step is its CPU span [start, end); the GPU-side copy of
// a ProfilerStep (gpu_user_annotation) is reported as each device's GPU
// window. Per step and device the breakdown adds up to the step time
// exactly (integer ns):
//   compute + exposed communication + exposed memcpy + idle = duration,
// with exposed memcpy split by direction (HtoD, DtoH, DtoD, PtoP, other,
// each less the directions before it) and idle split by the gap causes
// (analysis/gap_causes.h) of its pieces: each maximal idle interval of the
// step (also before the first and after the last activity) that is at least
// the gap threshold gets a cause; shorter ones are "short" (kernel wait).
//
// A step is slow when its duration exceeds 1.5 × the median step duration
// (median as analysis/distribution.h defines it). Why: the part of the first
// device's breakdown that grew most over its own median across the steps.

#include <array>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/gpu_activity.h"

namespace gapscope {

enum class StepSource : uint8_t { None, Regex, ProfilerStep, TrainTest, StepsLine };
const char* stepSourceName(StepSource s);  // "regex", "ProfilerStep", "train/test", "Steps line"

struct Step {
    uint32_t slice = kNone;
    int64_t number = 0;
    Interval span;
};

struct StepList {
    StepSource source = StepSource::None;
    std::vector<Step> steps;  // by start, end, number
};

// `regex` (may be null) is matched with std::regex_search against names.
StepList findSteps(const Trace& trace, const std::regex* regex = nullptr);

// The parts of a step's breakdown, in the order "which part grew" prefers.
enum class StepPart : uint8_t {
    Compute,
    ExposedComm,
    ExposedMemcpy,
    IdleInput,
    IdleSynchronization,
    IdleCommunication,
    IdleHost,
    IdleOther,
    IdleShort,
    Cpu  // only without a GPU: the step's whole duration
};
inline constexpr size_t kStepPartCount = 9;  // those of a breakdown
const char* stepPartName(StepPart p);        // "compute", "exposed_comm", ..., "idle_short"

struct StepBreakdown {
    int device = 0;
    // The window the figures are over: the step's GPU window on this device
    // (analysis/steps.cpp, stepWindows), or its span on TensorFlow's Steps line.
    std::optional<Interval> gpuWindow;
    TimeNs compute = 0, exposedComm = 0, exposedMemcpy = 0, idle = 0;
    std::array<TimeNs, kCopyDirectionCount> memcpyByDirection{};
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    TimeNs idleShort = 0;
    std::vector<CausedGap> idlePieces;  // those of at least the threshold, with their cause

    TimeNs part(StepPart p) const;
};

struct StepReport {
    Step step;
    TimeNs duration = 0;
    std::vector<StepBreakdown> devices;  // every GPU with activity in the trace
    bool slow = false;
    std::optional<StepPart> slowerBecause;
    TimeNs grewBy = 0;
};

class AnalysisIndex;

struct StepOptions {
    const std::regex* regex = nullptr;
    const AnalysisIndex* index = nullptr;  // built once per trace; else built here
    TimeNs minGapNs = kDefaultGapThresholdNs;
    std::optional<int64_t> onlyNumber;  // --step N (the median still uses all steps)
    Interval window = kWholeTrace;      // steps that start inside it (without onlyNumber)
    const CancelToken* cancel = nullptr;
};

struct StepsResult {
    StepSource source = StepSource::None;
    std::optional<TimeNs> medianDuration;
    std::vector<StepReport> steps;
};

StepsResult stepAnalysis(const Trace& trace, const StepOptions& options = {});

// Each step's GPU window on each device (docs/analyses.md, Steps): from the
// end of the previous step's GPU work to the end of its own; the spans on
// TensorFlow's Steps line. One map per step of `list`, with the devices of
// the step's rank (all of them, but in ranks merged into one trace).
class LaunchCalls;
std::vector<std::map<int, Interval>> stepWindows(const Trace& trace, const StepList& list,
                                                 const LaunchCalls& launches);

// One step's breakdown on one device (the panels ask for a single step).
StepBreakdown stepBreakdown(const Trace& trace, const GpuDevice& device, Interval span,
                            const GapExplainer& explainer, TimeNs minGapNs);

}  // namespace gapscope
