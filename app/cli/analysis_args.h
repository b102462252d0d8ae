#pragma once
// The options the analysis commands share (timeline, kernels, and the
// ones to come): --format, --range, --by-device, --top. They are taken out
// of argv first; the rest goes to parseLoadArgs.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "analysis/device_peaks.h"
#include "analysis/steps.h"
#include "index/interval_set.h"
#include "load_args.h"
#include "report/output_format.h"

namespace gapscope::cli {

struct AnalysisArgs {
    OutputFormat format = OutputFormat::Text;
    std::optional<Interval> range;  // absolute ns, [START, END)
    bool rangeGiven = false;        // --range was given (not only made by --step)
    bool byDevice = false;
    bool activeSpan = false;           // --active-span: each GPU over its active span, steps or not
    size_t top = 0;                    // 0: all
    std::optional<TimeNs> minGapNs;    // --min-gap-us
    std::optional<DevicePeaks> peaks;  // --peak
    std::optional<int64_t> step;       // --step N
    std::optional<std::regex> stepRegex;
    std::string stepRegexText;
    LoadArgs load;

    // The step options these arguments ask for (regex, threshold).
    StepOptions stepOptions() const;
};

inline constexpr const char* kAnalysisOptionsHelp =
    "  --format table|csv|md|json   output (default table); JSON times are integer ns\n"
    "  --range START:END   only [START, END), absolute ns as in `info --json`\n"
    "  --step N            only step N (ProfilerStep#N, TensorFlow step_num, ...)\n"
    "  --step-regex RE     steps are the CPU slices whose name matches RE (ECMAScript)\n";

// "START:END", integer ns with START < END; nullopt otherwise.
std::optional<Interval> parseRangeArg(const std::string& text);
// Non-negative decimal microseconds, exactly, in ns; nullopt otherwise.
std::optional<TimeNs> parseMicrosArg(const std::string& text);

// `extra` lists which of --by-device / --top / --min-gap-us / --active-span the command takes.
std::optional<AnalysisArgs> parseAnalysisArgs(const char* command, int argc, char** argv,
                                              const std::vector<std::string>& extra,
                                              bool manyTraces = false);

// When argv asks for --help: prints `help` and the shared options, true.
bool printedHelp(int argc, char** argv, const char* help);

// With --step N: narrows --range to that step's span; else why not
// ("TRACE: no step N (steps 1..9)").
std::string stepWindowError(AnalysisArgs& args, const Trace& trace);
// With --step N: narrows --range to that step's span. False (after saying
// why on stderr) when the trace has no such step.
bool applyStepWindow(AnalysisArgs& args, const Trace& trace, const char* command);

}  // namespace gapscope::cli
