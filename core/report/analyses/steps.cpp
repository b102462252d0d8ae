// Training steps with their lead-ins, GPU windows and breakdowns
// (analysis/steps.h).

#include "analysis/steps.h"

#include <cmath>

#include "analysis/distribution.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// `head`, a column per part of a breakdown, `tail`.
std::vector<std::string> withParts(std::vector<std::string> head,
                                   const std::vector<std::string>& tail) {
    for (size_t p = 0; p < kStepPartCount; ++p)
        head.push_back(std::string(stepPartName(StepPart(p))) + "_ns");
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

}  // namespace

StepOptions stepsAnalysisOptions(const Scope& scope) {
    StepOptions options = scope.stepOptions();
    // Step N selects that step here rather than narrowing the window.
    options.onlyNumber = scope.step;
    options.window = scope.range.value_or(kWholeTrace);
    return options;
}

Analysis stepsAnalysis() {
    Analysis a;
    a.id = "steps";
    a.title = "Steps";
    a.what = "steps with a breakdown that adds up to the step's GPU\nwindow, slow steps and why";
    a.help =
        "Training steps (ProfilerStep#N, TensorFlow train/test step_num, the Steps line,\n"
        "or --step-regex). Per GPU of the step's rank: its lead-in (the wait since the\n"
        "previous step's GPU work ended, with its cause) and its GPU window (the span of\n"
        "its own GPU work) with a breakdown that adds up to it: compute, exposed\n"
        "communication, exposed memcpy (by direction in csv and json) and idle split by\n"
        "the gap causes (input, synchronization, communication, host, other; gaps\n"
        "under --min-gap-us are short). Lead-ins and windows add up to the GPU's step\n"
        "time. Steps slower than 1.5 x the median are flagged with the part that grew\n"
        "most. --step N keeps that step, --range the steps that start inside it.";
    a.usesGapThreshold = true;
    // The terminal's tables: the breakdown's parts, not the points in time
    // or the copies by direction (those stay in the other formats).
    a.textColumns["steps"] = withParts(
        {"step", "rank", "device", "duration_ns", "lead_in_ns", "lead_in_cause", "gpu_window_ns"},
        {"slow", "slower_because", "grew_by_ns"});
    a.summary = {{"figures",
                  "steps",
                  "Steps",
                  {"source", "step_count", "mean_duration_ns", "median_duration_ns", "slowest_ns",
                   "slowest_step", "slow_count"},
                  false}};
    a.textColumns["lead_ins"] =
        withParts({"step", "rank", "device", "start_ns", "lead_in_ns", "cause"}, {});
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        const StepsResult steps = stepAnalysis(t, stepsAnalysisOptions(scope));
        AnalysisResult r;
        r.addFigure({"source", "Steps from", Unit::Text},
                    steps.source == StepSource::None
                        ? ResultCell()
                        : ResultCell(std::string(stepSourceName(steps.source))));
        r.addFigure({"step_count", "Steps", Unit::Count}, static_cast<int64_t>(steps.steps.size()));
        // Every step's median (what a slow step is compared with), and that
        // of the steps listed (the scope's).
        r.addFigure({"median_duration_ns", "Median of all steps", Unit::Duration},
                    cellOf(steps.medianDuration));
        std::vector<TimeNs> listedDurations;
        for (const StepReport& s : steps.steps)
            listedDurations.push_back(s.duration);
        r.addFigure({"listed_median_ns", "Median of these steps", Unit::Duration},
                    listedDurations.empty() ? ResultCell() : ResultCell(medianOf(listedDurations)));
        // The steps' durations: their mean (rounded to the ns), the slowest.
        TimeNs total = 0;
        const StepReport* slowest = nullptr;
        int64_t slow = 0;
        for (const StepReport& s : steps.steps) {
            total += s.duration;
            if (!slowest || s.duration > slowest->duration) slowest = &s;
            slow += s.slow ? 1 : 0;
        }
        const auto n = static_cast<double>(steps.steps.size());
        r.addFigure({"total_duration_ns", "Total duration", Unit::Duration}, total);
        r.addFigure({"mean_duration_ns", "Mean duration", Unit::Duration},
                    slowest ? ResultCell(static_cast<int64_t>(std::llround(double(total) / n)))
                            : ResultCell());
        // Their spread, by nearest rank (a comparison's step_time_p10/p90).
        r.addFigure({"p10_duration_ns", "p10 duration", Unit::Duration},
                    slowest ? ResultCell(nearestRankOf(listedDurations, 0.10)) : ResultCell());
        r.addFigure({"p90_duration_ns", "p90 duration", Unit::Duration},
                    slowest ? ResultCell(nearestRankOf(listedDurations, 0.90)) : ResultCell());
        r.addFigure({"slowest_ns", "Slowest", Unit::Duration},
                    slowest ? ResultCell(slowest->duration) : ResultCell());
        r.addFigure({"slowest_step", "Slowest step", Unit::Count},
                    slowest ? ResultCell(slowest->step.number) : ResultCell());
        r.addFigure({"slow_count", "Slow steps", Unit::Count}, slow);
        r.tables.push_back(stepTable(steps));
        r.tables.push_back(leadInTable(steps));
        if (steps.steps.empty())
            r.empty = steps.source == StepSource::None ? "No steps in this trace."
                                                       : "No such step in this trace.";
        return r;
    };
    return a;
}

}  // namespace gapscope
