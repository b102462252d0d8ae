#include "analysis/trace_health.h"

#include <algorithm>
#include <optional>

#include "model/earliest_slices.h"
#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

const char* healthSeverityName(HealthSeverity s) {
    switch (s) {
        case HealthSeverity::Ok:
            return "ok";
        case HealthSeverity::Info:
            return "info";
        case HealthSeverity::Warning:
            return "warning";
        case HealthSeverity::Error:
            return "error";
    }
    return "ok";
}

bool TraceHealth::clean() const {
    return std::none_of(checks.begin(), checks.end(), [](const HealthCheck& c) {
        return c.severity == HealthSeverity::Warning || c.severity == HealthSeverity::Error;
    });
}

const HealthCheck* TraceHealth::find(const std::string& id) const {
    for (const HealthCheck& c : checks)
        if (c.id == id) return &c;
    return nullptr;
}

namespace {

using Earliest = EarliestSlices;

HealthCheck check(std::string id, std::string title, uint64_t count, HealthSeverity whenFound,
                  std::string effect, std::vector<uint32_t> examples = {}) {
    HealthCheck c;
    c.id = std::move(id);
    c.title = std::move(title);
    c.count = count;
    c.severity = count ? whenFound : HealthSeverity::Ok;
    c.effect = std::move(effect);
    c.examples = std::move(examples);
    return c;
}

}  // namespace

TraceHealth traceHealth(const Trace& t, const LaunchCalls* given, const StepWindows* givenWindows) {
    std::optional<LaunchCalls> own;
    const LaunchCalls& launches = given ? *given : own.emplace(t);
    std::optional<StepWindows> ownWindows;
    const StepWindows& windows =
        givenWindows ? *givenWindows : ownWindows.emplace(stepWindows(t, findSteps(t), launches));
    Earliest unclosed(t), negative(t), lanes(t), zeroGpu(t), noLaunch(t), beforeLaunch(t);
    // The launch calls that lead to GPU work (one bit per slice).
    std::vector<bool> launchedWork(t.slices.size(), false);
    bool linked = false;
    for (const Track& track : t.tracks) {
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (s.flags & kSliceUnclosed) unclosed.add(i);
            if (s.flags & kSliceNegativeDuration) negative.add(i);
            if (s.flags & kSliceOverlapLane) lanes.add(i);
            if (!(s.flags & kSliceGpuActivity)) continue;
            if (s.dur == 0) zeroGpu.add(i);
            bool any = false, early = false;
            launches.forEach(i, [&](uint32_t call) {
                any = true;
                if (call >= launchedWork.size()) return;
                launchedWork[call] = true;
                early = early || s.start < t.slices[call].start;
            });
            if (early) beforeLaunch.add(i);
            if (any)
                linked = true;
            else
                noLaunch.add(i);
        }
    }
    Earliest idleLaunches(t);
    TraceHealth h;
    if (linked) {
        for (const Track& track : t.tracks) {
            if (track.kind != TrackKind::CpuThread) continue;
            // Launches while the thread captures a stream into a graph run
            // nothing then: the graph's launch does.
            std::vector<TimeNs> begins, ends;
            for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
                switch (vocabulary::streamCaptureEdge(t.str(t.slices[i].name))) {
                    case vocabulary::CaptureEdge::Begin:
                        begins.push_back(t.slices[i].start);
                        break;
                    case vocabulary::CaptureEdge::End:
                        ends.push_back(t.slices[i].start);
                        break;
                    case vocabulary::CaptureEdge::None:
                        break;
                }
            }
            std::sort(begins.begin(), begins.end());
            std::sort(ends.begin(), ends.end());
            auto capturing = [&](TimeNs at) {
                const auto b = std::upper_bound(begins.begin(), begins.end(), at);
                if (b == begins.begin()) return false;
                const auto e = std::upper_bound(ends.begin(), ends.end(), at);
                return e == ends.begin() || *(e - 1) < *(b - 1);
            };
            for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
                if (sliceKind(t.slices[i]) != SliceKind::RuntimeLaunch || launchedWork[i]) continue;
                // A host function runs on the host: no GPU work to find.
                if (vocabulary::isHostFunctionLaunch(t.str(t.slices[i].name))) continue;
                if (!begins.empty() && capturing(t.slices[i].start)) continue;
                idleLaunches.add(i);
                h.launchesWithoutWork.push_back(i);
            }
        }
        std::sort(h.launchesWithoutWork.begin(), h.launchesWithoutWork.end(),
                  [&](uint32_t a, uint32_t b) { return t.slices[a].start < t.slices[b].start; });
    }
    const ImportReport& r = t.report;
    using S = HealthSeverity;
    h.checks.push_back(check("truncated", "File cut short", r.truncated ? 1 : 0, S::Error,
                             "the file ends early: what came before the cut is kept, what "
                             "would have followed is missing"));
    h.checks.push_back(check("invalid_events", "Events dropped", r.invalidEvents, S::Warning,
                             "events without a valid time (or duration) are not in the model"));
    h.checks.push_back(check("unmatched_ends", "Ends without a begin", r.unmatchedEnds, S::Warning,
                             "an end event with nothing open on its thread was ignored"));
    h.checks.push_back(
        check("unclosed_begins", "Begins without an end", unclosed.count(), S::Warning,
              "closed at the trace's end: their durations are lower bounds", unclosed.examples()));
    h.checks.push_back(check("negative_durations", "Negative durations", negative.count(),
                             S::Warning, "kept with duration 0", negative.examples()));
    h.checks.push_back(check("overlaps_in_lanes", "Overlaps put in lanes", lanes.count(), S::Info,
                             "slices that overlap a sibling without nesting are drawn in a lane "
                             "of their own; no figure changes",
                             lanes.examples()));
    h.checks.push_back(
        check("zero_duration_gpu_work", "GPU work of zero duration", zeroGpu.count(), S::Info,
              "it ran, so it splits idle time, but adds nothing to busy time", zeroGpu.examples()));
    h.checks.push_back(check("gpu_work_without_launch", "GPU work without a launch",
                             linked ? noLaunch.count() : 0, S::Warning,
                             "no launch call leads to it: its launch delay and whether a gap "
                             "before it was host-bound cannot be known",
                             linked ? noLaunch.examples() : std::vector<uint32_t>{}));
    h.checks.push_back(check("gpu_work_before_launch", "GPU work before its launch",
                             beforeLaunch.count(), S::Warning,
                             "it starts before the call that launched it began, which no launch "
                             "can: the GPU's times and the host's disagree there (the profiler "
                             "converts one clock to the other), so launch delays and whether "
                             "gaps around it were host-bound are off",
                             beforeLaunch.examples()));
    h.checks.push_back(check("launches_without_gpu_work", "Launches without GPU work",
                             idleLaunches.count(), S::Warning,
                             "the GPU work these calls launched is not in the trace (lost by "
                             "the profiler, or past its window): GPU figures around them are "
                             "lower bounds",
                             idleLaunches.examples()));
    h.checks.push_back(check("unresolved_flows", "Flows that point nowhere", r.unresolvedFlows,
                             S::Info, "a flow event with no slice at its time draws no arrow"));
    // The import kept the first slices they point at (the cache keeps them too).
    std::vector<uint32_t> orphans;
    for (const uint32_t s : r.orphanFlowSlices)
        if (s < t.slices.size()) orphans.push_back(s);
    h.checks.push_back(check("orphan_flow_events", "Flow steps without a start", r.orphanFlowEvents,
                             S::Info, "a flow step or end whose start is not in the trace",
                             std::move(orphans)));
    // The profiler's own messages, as the readers word them (format/import_report.h).
    uint64_t errors = 0, warnings = 0, clocks = 0;
    std::string firstMessage, firstClocks;
    for (const ImportWarning& w : r.warnings) {
        const std::string_view m = w.message;
        if (m.substr(0, kRankClocksPrefix.size()) == kRankClocksPrefix) {
            if (!clocks++) firstClocks = w.message.substr(kRankClocksPrefix.size());
            continue;
        }
        // (Anywhere in it: merged ranks prefix their warnings with the rank.)
        const bool error = m.find(kProfilerErrorPrefix) != std::string_view::npos;
        const bool warning = !error && m.find(kProfilerWarningPrefix) != std::string_view::npos;
        errors += error;
        warnings += warning;
        if ((error || warning) && firstMessage.empty()) firstMessage = w.message;
    }
    HealthCheck profiler =
        check("profiler_messages", "The profiler's own messages", errors + warnings,
              errors ? S::Warning : S::Info,
              "what the profiler reported about the recording (events it could not collect, a "
              "driver it does not support); each is in the import report");
    profiler.detail = firstMessage;
    h.checks.push_back(std::move(profiler));
    // Processes a label calls a GPU that hold host work (classify_tracks.cpp).
    uint64_t mislabelled = 0;
    std::string firstLabel;
    for (const Process& p : t.processes) {
        // The label or name that would have made it a GPU (classify_tracks.cpp).
        const std::string_view label =
            vocabulary::kinetoGpuNumber(t.str(p.labels)) >= 0 ? t.str(p.labels) : t.str(p.name);
        if (p.kind == ProcessKind::Gpu || vocabulary::kinetoGpuNumber(label) < 0) continue;
        if (!mislabelled++)
            firstLabel = p.displayName + " is labelled \"" + std::string(label) +
                         "\" but its threads hold CPU ops and runtime calls, no GPU work";
    }
    HealthCheck labels = check(
        "gpu_labels_disagree", "Processes labelled as a GPU that run on the host", mislabelled,
        S::Info,
        "taken for the host they are, by what they hold: their launch calls are found and their "
        "GPU's gaps get their causes");
    labels.detail = firstLabel;
    h.checks.push_back(std::move(labels));
    // Step annotations on the GPU that do not hold their step's GPU work.
    HealthCheck broken = check(
        "broken_step_annotations", "Step annotations on the GPU that miss the step's work",
        windows.broken.size(), S::Warning,
        "a ProfilerStep's GPU copy does not hold the GPU work its step launched; the step's GPU "
        "window is the span of that work instead");
    if (!windows.broken.empty()) {
        const BrokenStepAnnotation& b = windows.broken.front();
        broken.detail = "step " + std::to_string(b.number) + " on GPU " + std::to_string(b.device) +
                        ": the annotation spans " + std::to_string(b.annotation.start) + " .. " +
                        std::to_string(b.annotation.end) + " ns, the step's GPU work " +
                        std::to_string(b.launched.start) + " .. " + std::to_string(b.launched.end) +
                        " ns";
    }
    h.checks.push_back(std::move(broken));
    // Ranks merged into one trace: whether their clocks can be one.
    if (!t.ranks.empty()) {
        HealthCheck ranks = check(
            "rank_clocks", "Ranks whose clocks disagree", r.rankClockDisagreements, S::Warning,
            "a collective ended on one rank before another rank entered it, which no collective "
            "can: the ranks' times are not on one clock, so waits, stragglers and the timelines "
            "side by side are off; align the ranks on a step");
        ranks.detail = firstClocks;
        h.checks.push_back(std::move(ranks));
    }
    h.checks.push_back(check("import_warnings", "Other import warnings",
                             r.warnings.size() - errors - warnings - clocks + r.suppressedWarnings,
                             S::Info,
                             "the import report's other warnings, each saying what it was "
                             "(some are about what the checks above count)"));
    return h;
}

}  // namespace gapscope
