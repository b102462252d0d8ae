#include <cmath>
#include <iostream>

#include "analysis/advice.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/table.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli advice TRACE [--format table|csv|md|json] [--step-regex RE]\n"
    "                   [--min-gap-us N]\n"
    "  Findings from the usual tuning checklist, most severe first, each with its\n"
    "  numbers and evidence (time ranges and slices): input-bound, GPU idle > 20% of\n"
    "  step time, many tiny kernels, blocking synchronisation, pageable copies,\n"
    "  exposed communication > 10%, no Tensor Cores for GEMM / convolution, memory\n"
    "  growth, peak memory > 90% of the device. No finding without evidence.\n";

}  // namespace

int runAdvice(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("advice", argc, argv, {"--min-gap-us"}, exitCode);
    if (!p) return exitCode;
    if (p->args.range) {
        std::cerr << "gapscope-cli advice: advice is about the whole trace (its rules compare "
                     "the steps); --range and --step do not apply\n";
        return 1;
    }
    const Trace& t = *p->trace;
    const std::vector<Finding> findings = adviseWholeTrace(t, p->args.stepOptions());
    if (p->args.format == OutputFormat::Json) {
        nlohmann::json out = nlohmann::json::array();
        for (const Finding& f : findings) {
            nlohmann::json numbers = nlohmann::json::object(), ranges = nlohmann::json::array(),
                           slices = nlohmann::json::array();
            for (const auto& [name, value] : f.numbers) {
                // Times, bytes and counts as integers, by what they are.
                const bool whole = name.ends_with("_ns") || name.ends_with("_bytes") ||
                                   name == "copies" || name == "kernels" || name == "short_kernels";
                numbers[name] =
                    whole ? nlohmann::json(static_cast<int64_t>(value)) : nlohmann::json(value);
            }
            for (const Interval& r : f.ranges)
                ranges.push_back(intervalJson(r));
            for (const uint32_t s : f.slices)
                slices.push_back(sliceJson(t, s));
            out.push_back({{"rule", f.rule},
                           {"severity", severityName(f.severity)},
                           {"device", f.device >= 0 ? nlohmann::json(f.device) : nullptr},
                           {"message", f.message},
                           {"numbers", numbers},
                           {"evidence", {{"ranges", ranges}, {"slices", slices}}}});
        }
        printJson({{"findings", out}});
        return 0;
    }
    if (findings.empty()) {
        std::cout << "No findings: none of the checks found a problem in this trace.\n";
        return 0;
    }
    if (p->args.format == OutputFormat::Text) {
        for (const Finding& f : findings) {
            std::cout << "[" << severityName(f.severity) << "] " << f.rule << ": " << f.message
                      << "\n";
            for (size_t i = 0; i < f.ranges.size() && i < 3; ++i)
                std::cout << "    at " << f.ranges[i].start << " .. " << f.ranges[i].end << " ns\n";
            for (size_t i = 0; i < f.slices.size() && i < 3; ++i) {
                const Slice& s = t.slices[f.slices[i]];
                std::cout << "    slice " << fitName(t.str(s.name), OutputFormat::Text, 60)
                          << " at " << s.start << " ns (" << s.dur << " ns)\n";
            }
        }
        return 0;
    }
    Table table;
    table.headers = {"severity", "rule", "device", "message"};
    table.numeric = {false, false, true, false};
    for (const Finding& f : findings) {
        table.rows.push_back({severityName(f.severity), f.rule,
                              f.device >= 0 ? std::to_string(f.device) : "", f.message});
    }
    printTable(table, p->args.format);
    return 0;
}

}  // namespace gapscope::cli
