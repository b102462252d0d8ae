#pragma once
// Small pieces every analysis command prints the same way: numbers in
// tables, slices and intervals in JSON, and the shared start (parse, load,
// --step) of a command.

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis_args.h"

namespace gapscope::cli {

std::string fixed(double v, int digits);
// A name cut in the middle to `width` characters for the text table (other
// formats keep it whole).
std::string fitName(std::string_view name, OutputFormat format, size_t width = 80);

template <class T>
nlohmann::json orNull(const std::optional<T>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json intervalJson(Interval i);
// {"name", "start_ns", "end_ns", "track"}
nlohmann::json sliceJson(const Trace& trace, uint32_t slice);

void printJson(const nlohmann::json& j);

// The steps (of --step-regex, or the default sources) that start inside
// --range (all without one; --step N narrows the range to that step).
std::vector<Step> stepsInRange(const Trace& trace, const AnalysisArgs& args);

// Parses argv, loads the trace and applies --step. On failure returns null
// and sets `exitCode` (1 usage, 2 unreadable trace).
struct Prepared {
    AnalysisArgs args;
    std::shared_ptr<const Trace> trace;
};
std::optional<Prepared> prepare(const char* command, int argc, char** argv,
                                const std::vector<std::string>& extra, int& exitCode);

}  // namespace gapscope::cli
