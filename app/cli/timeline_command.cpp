#include "timeline_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/time_breakdown.h"
#include "analysis_args.h"
#include "cli_output.h"
#include "report/table.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli timeline TRACE [--format table|csv|md|json] [--range START:END]\n"
    "  The GPU time breakdown of each device (all its streams), in ns:\n"
    "    computation    time any compute kernel or memset ran\n"
    "    exposed comm   communication (NCCL/RCCL/HCCL) not overlapped by compute\n"
    "    exposed memcpy copies overlapped by neither\n"
    "    idle           total - busy; the parts add up to total exactly\n"
    "    total          first activity start to last activity end in the range\n"
    "    comm overlap   share of communication time overlapped by compute\n";

std::string pct(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
    return buf;
}

}  // namespace

int runTimeline(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto prepared = prepare("timeline", argc, argv, {}, exitCode);
    if (!prepared) return exitCode;
    const AnalysisArgs* args = &prepared->args;
    const auto& trace = prepared->trace;
    const auto rows = timeBreakdowns(*trace, args->range.value_or(kWholeTrace));
    if (args->format == OutputFormat::Json) {
        nlohmann::json devices = nlohmann::json::array();
        for (const GpuTimeBreakdown& b : rows) {
            devices.push_back({{"device", b.device},
                               {"computation_ns", b.computation},
                               {"exposed_comm_ns", b.exposedComm},
                               {"exposed_memcpy_ns", b.exposedMemcpy},
                               {"busy_ns", b.busy},
                               {"idle_ns", b.idle},
                               {"total_ns", b.total},
                               {"total_comm_ns", b.totalComm},
                               {"total_memcpy_ns", b.totalMemcpy},
                               {"comm_overlap", b.commOverlap ? nlohmann::json(*b.commOverlap)
                                                              : nlohmann::json(nullptr)}});
        }
        std::cout << nlohmann::json{{"devices", devices}}.dump(2) << "\n";
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No GPU activity in this trace" << (args->range ? " range" : "") << ".\n";
        return 0;
    }
    Table t;
    t.headers = {"device",   "computation ns", "exposed comm ns", "exposed memcpy ns", "idle ns",
                 "total ns", "busy",           "comm overlap"};
    t.numeric = {true, true, true, true, true, true, true, true};
    for (const GpuTimeBreakdown& b : rows) {
        t.rows.push_back({std::to_string(b.device), std::to_string(b.computation),
                          std::to_string(b.exposedComm), std::to_string(b.exposedMemcpy),
                          std::to_string(b.idle), std::to_string(b.total),
                          b.total > 0 ? pct(double(b.busy) / double(b.total)) : "-",
                          b.commOverlap ? pct(*b.commOverlap) : "-"});
    }
    printTable(t, args->format);
    return 0;
}

}  // namespace gapscope::cli
