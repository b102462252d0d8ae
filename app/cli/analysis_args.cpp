#include "analysis_args.h"

#include <algorithm>
#include <charconv>
#include <iostream>

#include "analysis/launch_calls.h"
#include "report/result_table.h"
#include "report/table.h"
#include "util/decimal_time.h"

namespace gapscope::cli {

namespace {

bool parseInt(const std::string& s, int64_t& out) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::optional<Interval> parseRangeArg(const std::string& v) {
    const size_t colon = v.find(':');
    int64_t s = 0, e = 0;
    if (colon == std::string::npos || !parseInt(v.substr(0, colon), s) ||
        !parseInt(v.substr(colon + 1), e) || e <= s)
        return std::nullopt;
    return Interval{s, e};
}

std::optional<TimeNs> parseMicrosArg(const std::string& text) {
    // Exact decimal microseconds, as the trace's own times.
    const DecimalResult ns = parseMicrosToNanos(text);
    if (ns.status != DecimalStatus::Ok || ns.value < 0) return std::nullopt;
    return ns.value;
}

std::optional<AnalysisArgs> parseAnalysisArgs(const char* command, int argc, char** argv,
                                              const std::vector<std::string>& extra,
                                              bool manyTraces) {
    AnalysisArgs a;
    std::vector<char*> rest;
    auto fail = [&](const std::string& why) {
        std::cerr << "gapscope-cli " << command << ": " << why << "\n";
        return std::nullopt;
    };
    auto takes = [&](const char* flag) {
        return std::find(extra.begin(), extra.end(), flag) != extra.end();
    };
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--format" && hasValue) {
            const std::string v = argv[++i];
            const auto format = parseOutputFormat(v);
            if (!format || *format == OutputFormat::Html)
                return fail("--format takes table, csv, md or json");
            a.format = *format;
        } else if (arg == "--range" && hasValue) {
            a.range = parseRangeArg(argv[++i]);
            if (!a.range) return fail("--range takes START:END, integer ns with START < END");
            a.rangeGiven = true;
        } else if (arg == "--by-device" && takes("--by-device")) {
            a.byDevice = true;
        } else if (arg == "--active-span" && takes("--active-span")) {
            a.activeSpan = true;
        } else if (arg == "--min-gap-us" && hasValue && takes("--min-gap-us")) {
            a.minGapNs = parseMicrosArg(argv[++i]);
            if (!a.minGapNs)
                return fail("--min-gap-us takes a non-negative number of microseconds");
        } else if (arg == "--top" && hasValue && takes("--top")) {
            int64_t n = 0;
            if (!parseInt(argv[++i], n) || n <= 0) return fail("--top takes a positive count");
            a.top = static_cast<size_t>(n);
        } else if (arg == "--step" && hasValue) {
            int64_t n = 0;
            if (!parseInt(argv[++i], n) || n < 0) return fail("--step takes a step number");
            a.step = n;
        } else if (arg == "--step-regex" && hasValue) {
            a.stepRegexText = argv[++i];
            try {
                a.stepRegex.emplace(a.stepRegexText, std::regex::ECMAScript);
            } catch (const std::regex_error& e) {
                return fail("--step-regex: " + a.stepRegexText + ": " + e.what());
            }
        } else {
            rest.push_back(argv[i]);
        }
    }
    auto load = parseLoadArgs(command, static_cast<int>(rest.size()), rest.data(), {}, manyTraces);
    if (!load) return std::nullopt;
    a.load = std::move(*load);
    return a;
}

StepOptions AnalysisArgs::stepOptions() const {
    StepOptions o;
    o.regex = stepRegex ? &*stepRegex : nullptr;
    if (minGapNs) o.minGapNs = *minGapNs;
    return o;
}

std::string stepWindowError(AnalysisArgs& args, const Trace& trace) {
    if (!args.step) return {};
    const StepList list = findSteps(trace, args.stepRegex ? &*args.stepRegex : nullptr);
    const bool found = std::any_of(list.steps.begin(), list.steps.end(),
                                   [&](const Step& s) { return s.number == *args.step; });
    if (found) {
        // Every step N (one per rank): the hull of their lead-ins and GPU
        // windows, where their figures are computed, as the viewer's step
        // scope (`timeline --step N` is `steps`' step N).
        const LaunchCalls launches(trace);
        const StepScope where = *stepScope(list, stepWindows(trace, list, launches), *args.step);
        Interval w = where.window;
        if (args.range) {  // both: their intersection
            w = {std::max(w.start, args.range->start), std::min(w.end, args.range->end)};
            if (w.end <= w.start) w = {where.span.start, where.span.start};
        }
        args.range = w;
        return {};
    }
    std::string why = trace.path + ": no step " + std::to_string(*args.step);
    if (list.steps.empty()) return why + " (the trace has no steps)";
    return why + " (steps " + std::to_string(list.steps.front().number) + ".." +
           std::to_string(list.steps.back().number) + ")";
}

bool applyStepWindow(AnalysisArgs& args, const Trace& trace, const char* command) {
    const std::string why = stepWindowError(args, trace);
    if (why.empty()) return true;
    std::cerr << "gapscope-cli " << command << ": " << why << "\n";
    return false;
}

bool printedHelp(int argc, char** argv, const char* help) {
    for (int i = 0; i < argc; ++i) {
        if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
            std::cout << help << kAnalysisOptionsHelp << kLoadOptionsHelp;
            return true;
        }
    }
    return false;
}

}  // namespace gapscope::cli
