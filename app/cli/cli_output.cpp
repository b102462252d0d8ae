#include "cli_output.h"

#include <cstdio>
#include <iostream>

#include "analysis/slice_queries.h"
#include "report/result_table.h"

namespace gapscope::cli {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string fitName(std::string_view name, OutputFormat format, size_t width) {
    const std::string s(name);
    return format == OutputFormat::Text ? fitText(s, width) : s;
}

nlohmann::json intervalJson(Interval i) {
    return {{"start_ns", i.start}, {"end_ns", i.end}};
}

nlohmann::json sliceJson(const Trace& t, uint32_t s) {
    return {{"name", std::string(t.str(t.slices[s].name))},
            {"start_ns", t.slices[s].start},
            {"end_ns", t.slices[s].end()},
            {"track", trackLabel(t, t.trackOfSlice(s))}};
}

void printJson(const nlohmann::json& j) {
    std::cout << j.dump(2) << "\n";
}

std::vector<Step> stepsInRange(const Trace& trace, const AnalysisArgs& args) {
    std::vector<Step> out;
    const Interval w = args.range.value_or(kWholeTrace);
    for (const Step& s : findSteps(trace, args.stepRegex ? &*args.stepRegex : nullptr).steps) {
        // --step N is that step, whose window (its GPU windows) may start
        // before its CPU span.
        if (args.step ? s.number == *args.step : s.span.start >= w.start && s.span.start < w.end)
            out.push_back(s);
    }
    return out;
}

std::optional<Prepared> prepare(const char* command, int argc, char** argv,
                                const std::vector<std::string>& extra, int& exitCode) {
    auto args = parseAnalysisArgs(command, argc, argv, extra);
    if (!args) {
        exitCode = 1;
        return std::nullopt;
    }
    auto trace = loadOrReport(args->load);
    if (!trace) {
        exitCode = 2;
        return std::nullopt;
    }
    if (!applyStepWindow(*args, *trace, command)) {
        exitCode = 1;
        return std::nullopt;
    }
    return Prepared{std::move(*args), std::move(trace)};
}

}  // namespace gapscope::cli
