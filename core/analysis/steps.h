#pragma once
// Training steps and what each one spent its time on.
//
// Steps come from the first source that has any (all on CPU threads unless
// said): a user regex (the first number in the name is the step number,
// else its position); Kineto's ProfilerStep#N; TensorFlow's "train" /
// "test" markers with a step_num arg; TensorFlow's derived "Steps" line of
// the lowest GPU. A step is its CPU span [start, end).
//
// On each GPU of its rank a step has a GPU window and a lead-in
// (docs/analyses.md, "Steps"):
//  - the window is the span of the step's own GPU work: its ProfilerStep's
//    GPU copy (gpu_user_annotation) when that holds the work the step
//    launched, else the span of that launched work (TraceLens's per-step
//    GPU figures are over the same span);
//  - the lead-in is the time before it since the previous step's window
//    ended (for the first step: since the step started on the host), the
//    wait before the step's first kernel, often an input stall.
// Lead-ins and windows tile the GPU's time from the first step's start to
// the last step's GPU end. A GPU on which no step launched work takes its
// host's steps (their CPU spans, no lead-in); a Steps line's spans apply to
// the GPUs with a Steps line. A GPU without steps of its own is not in any
// step (its figures are over its active span, analysis/gpu_time_account.h).
//
// Per step and device both parts have a breakdown that adds up exactly
// (integer ns): compute + exposed communication + exposed memcpy + idle =
// length, with exposed memcpy split by direction (HtoD, DtoH, DtoD, PtoP,
// other, each less the directions before it) and idle split by the gap
// causes (analysis/gap_causes.h). An idle interval's cause is decided once,
// over the whole gap of the device's step time it belongs to (a gap that
// crosses a step boundary has one cause), and its pieces are split between
// the steps; gaps shorter than the threshold are "short" (kernel wait).
//
// A step is slow when its duration exceeds 1.5 × the median step duration
// (median as analysis/distribution.h defines it). Why: the part of the first
// device's breakdown (window and lead-in together) that grew most over its
// own median across the steps.

#include <array>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <tuple>
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

// One interval's GPU time, by part; the parts add up to its length.
struct GpuParts {
    TimeNs compute = 0, exposedComm = 0, exposedMemcpy = 0, idle = 0;
    std::array<TimeNs, kCopyDirectionCount> memcpyByDirection{};
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    TimeNs idleShort = 0;
    uint64_t shortGaps = 0;  // short gaps that begin in it

    TimeNs part(StepPart p) const;
    TimeNs busy() const { return compute + exposedComm + exposedMemcpy; }
    TimeNs length() const { return busy() + idle; }
    void add(const GpuParts& other);
};

// Where a step's window on a device comes from.
enum class WindowSource : uint8_t { Annotation, Launched, NoWork, HostSpan, StepsLine };
const char* windowSourceName(WindowSource s);  // "annotation", "launched", "no work", ...

struct StepGpuWindow {
    Interval leadIn;  // [previous window's end or the step's start, window.start)
    Interval window;  // the step's own GPU work
    WindowSource source = WindowSource::Launched;
    Interval tile() const { return {leadIn.start, window.end}; }
};

// A ProfilerStep's GPU copy that does not hold the GPU work its step
// launched (seen on ROCm traces): not used as the window; Trace Health
// reports it.
struct BrokenStepAnnotation {
    size_t step = 0;     // index in the step list
    int64_t number = 0;  // that step's number
    int device = 0;
    Interval annotation, launched;
};

struct StepWindows {
    // Per step: the devices of its rank that have steps, and its window on each.
    std::vector<std::map<int, StepGpuWindow>> perStep;
    std::vector<BrokenStepAnnotation> broken;  // by step, device
};

// The window's parts are the struct's own; the lead-in's are beside them.
struct StepBreakdown : GpuParts {
    int device = 0;
    Interval gpuWindow{};  // the step's own GPU work (analysis/steps.cpp, stepWindows)
    Interval leadIn{};     // the wait before it
    WindowSource source = WindowSource::Launched;
    GpuParts leadInParts;
    // Those of at least the threshold, window and lead-in, in time order:
    // each piece with its whole gap's cause (CausedGap::whole).
    std::vector<CausedGap> idlePieces;

    Interval tile() const { return {leadIn.start, gpuWindow.end}; }
    GpuParts tileParts() const;  // window and lead-in together
    // The cause of most of the lead-in's idle time (nullopt: none at least the threshold).
    std::optional<GapCause> leadInCause() const;
};

struct StepReport {
    Step step;
    std::optional<int64_t> rank;  // ranks merged into one trace: the step's
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
    std::vector<BrokenStepAnnotation> brokenAnnotations;  // of all steps
    std::optional<TimeNs> medianDuration;
    std::vector<StepReport> steps;
};

StepsResult stepAnalysis(const Trace& trace, const StepOptions& options = {});

// Each step's GPU window and lead-in on each device that has steps (see
// the top of this file), and the broken GPU annotations met on the way.
class LaunchCalls;
StepWindows stepWindows(const Trace& trace, const StepList& list, const LaunchCalls& launches);

// Where step N is, over every step of that number (one per rank when ranks
// are merged): `window` the hull of their lead-ins and GPU windows (their
// host span where no GPU has them), `span` the hull of their CPU spans.
// What `--step N` and the viewer's step scope both are; null without such
// a step.
struct StepScope {
    Interval window;
    Interval span;
};
std::optional<StepScope> stepScope(const StepList& list, const StepWindows& windows,
                                   int64_t number);

// Each device's step time: the union of its steps' tiles (sorted, disjoint).
std::map<int, std::vector<Interval>> stepFrames(const StepWindows& windows);

// The causes of whole gaps already decided, by (device, gap): a gap split
// between many steps is explained once.
using GapCauseCache = std::map<std::tuple<int, TimeNs, TimeNs>, CausedGap>;

// One step's breakdown on one device; `frame` is the device's step time
// (stepFrames), over which each idle gap's extent, and so its cause, is
// decided.
StepBreakdown stepBreakdown(const Trace& trace, const GpuDevice& device, const StepGpuWindow& w,
                            const std::vector<Interval>& frame, const GapExplainer& explainer,
                            TimeNs minGapNs, GapCauseCache& causes);

// The parts of `span` on `device`, each idle piece's cause decided over its
// whole gap within `frame` (pieces at least the threshold appended to `pieces`).
GpuParts gpuParts(const Trace& trace, const GpuDevice& device, Interval span,
                  const std::vector<Interval>& frame, const GapExplainer& explainer,
                  TimeNs minGapNs, GapCauseCache& causes, std::vector<CausedGap>* pieces);

}  // namespace gapscope
