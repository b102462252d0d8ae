#include <iostream>

#include "analysis/steps.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli steps TRACE [--format table|csv|md|json] [--step N]\n"
    "                  [--step-regex RE] [--min-gap-us N] [--range START:END]\n"
    "  Training steps (ProfilerStep#N, TensorFlow train/test step_num, the Steps line,\n"
    "  or --step-regex). Per GPU of the step's rank: its lead-in (the wait since the\n"
    "  previous step's GPU work ended, with its cause) and its GPU window (the span of\n"
    "  its own GPU work) with a breakdown that adds up to it: compute, exposed\n"
    "  communication, exposed memcpy (by direction) and idle split by the gap causes\n"
    "  (input, synchronization, communication, host, other; gaps under --min-gap-us\n"
    "  are short). Lead-ins and windows add up to the GPU's step time. Steps slower than 1.5 x the "
    "median\n"
    "  are flagged with the part that grew most. --range keeps the steps that start\n"
    "  inside it.\n";

nlohmann::json breakdownJson(const GpuParts& b) {
    nlohmann::json byDirection, byCause;
    for (size_t d = 0; d < kCopyDirectionCount; ++d)
        byDirection[copyDirectionName(CopyDirection(d))] = b.memcpyByDirection[d];
    for (size_t c = 0; c < kGapCauseCount; ++c)
        byCause[gapCauseName(GapCause(c))] = b.idleByCause[c];
    byCause["short"] = b.idleShort;
    return {{"compute_ns", b.compute},
            {"exposed_comm_ns", b.exposedComm},
            {"exposed_memcpy_ns", b.exposedMemcpy},
            {"memcpy_by_direction", byDirection},
            {"idle_ns", b.idle},
            {"idle_by_cause", byCause}};
}

}  // namespace

int runSteps(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    // --step selects a step here rather than narrowing the window.
    auto args = parseAnalysisArgs("steps", argc, argv, {"--min-gap-us"});
    if (!args) return 1;
    const auto trace = loadOrReport(args->load);
    if (!trace) return 2;
    const Trace& t = *trace;
    StepOptions options = args->stepOptions();
    options.onlyNumber = args->step;
    options.window = args->range.value_or(kWholeTrace);
    const StepsResult r = stepAnalysis(t, options);
    if (args->format == OutputFormat::Json) {
        nlohmann::json steps = nlohmann::json::array();
        for (const StepReport& s : r.steps) {
            nlohmann::json devices = nlohmann::json::array();
            for (const StepBreakdown& b : s.devices) {
                const std::optional<GapCause> cause = b.leadInCause();
                devices.push_back(
                    {{"device", b.device},
                     {"gpu_window", intervalJson(b.gpuWindow)},
                     {"window_from", windowSourceName(b.source)},
                     {"lead_in", intervalJson(b.leadIn)},
                     {"lead_in_cause", cause ? nlohmann::json(gapCauseName(*cause)) : nullptr},
                     {"breakdown", breakdownJson(b)},
                     {"lead_in_breakdown", breakdownJson(b.leadInParts)}});
            }
            nlohmann::json j = {
                {"name", std::string(t.str(t.slices[s.step.slice].name))},
                {"number", s.step.number},
                {"start_ns", s.step.span.start},
                {"end_ns", s.step.span.end},
                {"duration_ns", s.duration},
                {"slow", s.slow},
                {"slower_because",
                 s.slowerBecause ? nlohmann::json(stepPartName(*s.slowerBecause)) : nullptr},
                {"grew_by_ns", s.slowerBecause ? nlohmann::json(s.grewBy) : nullptr},
                {"breakdown", s.devices.empty() ? nullptr : breakdownJson(s.devices.front())},
                {"devices", devices}};
            steps.push_back(std::move(j));
        }
        printJson(
            {{"source",
              r.source == StepSource::None ? nullptr : nlohmann::json(stepSourceName(r.source))},
             {"median_duration_ns", orNull(r.medianDuration)},
             {"steps", steps}});
        return 0;
    }
    if (r.steps.empty()) {
        std::cout << (r.source == StepSource::None ? "No steps in this trace"
                                                   : "No such step in this trace")
                  << (args->stepRegex ? " (matching --step-regex)" : "") << ".\n";
        return 0;
    }
    printResult(stepTable(r), args->format);
    if (args->format == OutputFormat::Text && r.medianDuration)
        std::cout << "\n"
                  << r.steps.size() << " steps (" << stepSourceName(r.source) << "), median "
                  << *r.medianDuration << " ns\n";
    return 0;
}

}  // namespace gapscope::cli
