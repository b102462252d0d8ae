#include "gaps_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/gap_causes.h"
#include "analysis/gpu_time_account.h"
#include "analysis/slice_queries.h"
#include "analysis_args.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/table.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli gaps TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                 [--min-gap-us N] [--active-span]\n"
    "  Each GPU's idle gaps of at least N us (default 100), with the first cause that\n"
    "  holds: input (the host was in a DataLoader __next__ / IteratorGetNext /\n"
    "  Iterator:: for at least half of the gap), synchronization (a cuda*Synchronize or\n"
    "  a blocking device-to-host read for half of it), communication (the gap ends in a\n"
    "  collective kernel, or the host waited in one for half of it), host (the kernel\n"
    "  that ends the gap was launched after the gap began: host-bound), other. Shorter\n"
    "  gaps are totalled as short gaps. Evidence: the CPU slices behind the cause.\n"
    "  The gaps are the idle time of the GPU time account: with steps, of each GPU's\n"
    "  step time (the steps' lead-ins and GPU windows; a gap that crosses a step\n"
    "  boundary is one gap), else of its active span; per cause they add up to the\n"
    "  idle that every other command reports. --step keeps that step, --range the\n"
    "  steps that start inside it (both: their intersection as the range), whole (a\n"
    "  gap is cut where their time ends); without steps in it, the range itself.\n"
    "  --active-span       every GPU over its active span (first to last activity),\n"
    "                      steps or not: HTA's idle time breakdown's time\n"
    "  --min-gap-us N      the threshold in microseconds (may be fractional)\n";

}  // namespace

int runGaps(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto prepared = prepare("gaps", argc, argv, {"--min-gap-us", "--active-span"}, exitCode);
    if (!prepared) return exitCode;
    const AnalysisArgs* args = &prepared->args;
    const auto& trace = prepared->trace;
    const Trace& t = *trace;
    StepOptions options = args->stepOptions();
    options.window = args->range.value_or(kWholeTrace);
    // --step N alone: that step whole; with --range too: their intersection
    // as any range (the steps that start inside it).
    if (args->step && !args->rangeGiven) options.onlyNumber = *args->step;
    GapOptions spanOptions;  // --active-span: no steps, the range (or the trace)
    spanOptions.window = options.window;
    spanOptions.minGapNs = options.minGapNs;
    const TimeAccount account =
        args->activeSpan
            ? timeAccount({}, timeBreakdowns(t, options.window), gapsWithCauses(t, spanOptions))
            : timeAccountOf(t, options);
    const auto devices = accountGaps(account);
    auto evidenceJson = [&](uint32_t s) {
        return nlohmann::json{{"name", std::string(t.str(t.slices[s].name))},
                              {"start_ns", t.slices[s].start},
                              {"end_ns", t.slices[s].end()},
                              {"track", trackLabel(t, t.trackOfSlice(s))}};
    };
    if (args->format == OutputFormat::Json) {
        nlohmann::json out = nlohmann::json::array();
        for (const DeviceGaps& d : devices) {
            nlohmann::json gaps = nlohmann::json::array();
            for (const CausedGap& g : d.gaps) {
                nlohmann::json ev = nlohmann::json::array();
                for (const uint32_t s : g.evidence)
                    ev.push_back(evidenceJson(s));
                gaps.push_back({{"start_ns", g.gap.start},
                                {"end_ns", g.gap.end},
                                {"cause", gapCauseName(g.cause)},
                                {"evidence", std::move(ev)}});
            }
            nlohmann::json byCause;
            for (size_t c = 0; c < kGapCauseCount; ++c)
                byCause[gapCauseName(static_cast<GapCause>(c))] = d.byCause[c];
            const GpuTimeAccount& a = account.devices[out.size()];
            out.push_back({{"device", d.device},
                           {"denominator", denominatorName(a.denominator)},
                           {"time_ns", a.time},
                           {"busy_ns", d.busy},
                           {"gaps", std::move(gaps)},
                           {"by_cause", std::move(byCause)},
                           {"short_gaps", {{"count", d.shortCount}, {"total_ns", d.shortTotal}}}});
        }
        std::cout << nlohmann::json{{"threshold_ns", options.minGapNs}, {"devices", out}}.dump(2)
                  << "\n";
        return 0;
    }
    if (devices.empty()) {
        std::cout << "No GPU activity in this trace" << (args->range ? " range" : "") << ".\n";
        return 0;
    }
    printResult(gapTable(t, devices), args->format);
    if (args->format != OutputFormat::Text) return 0;
    Table totals;
    totals.headers = {"device",        "busy ns", "input", "synchronization",
                      "communication", "host",    "other", "short gaps"};
    totals.numeric.assign(totals.headers.size(), true);
    for (const DeviceGaps& d : devices) {
        std::vector<std::string> r = {std::to_string(d.device), std::to_string(d.busy)};
        for (size_t c = 0; c < kGapCauseCount; ++c)
            r.push_back(std::to_string(d.byCause[c]));
        r.push_back(std::to_string(d.shortTotal) + " (" + std::to_string(d.shortCount) + ")");
        totals.rows.push_back(std::move(r));
    }
    std::cout << "\nIdle time by cause, ns (gaps >= " << options.minGapNs << " ns):\n";
    printTable(totals, args->format);
    return 0;
}

}  // namespace gapscope::cli
