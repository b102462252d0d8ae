#include <iostream>

#include "analysis/memcpy_stats.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/table.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli memcpy TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                   [--step N] [--top N]\n"
    "  Copies and memsets per (device, kind, name): count, total time, bytes and\n"
    "  bandwidth (GB/s) where every event of the group gives args.bytes, direction\n"
    "  (HtoD, DtoH, DtoD, PtoP) and pageable or pinned host memory. An event counts\n"
    "  when it starts inside the range.\n"
    "  --top N             the N groups with the most total time\n";

const char* memoryName(HostMemory m) {
    return m == HostMemory::Pageable ? "pageable" : m == HostMemory::Pinned ? "pinned" : nullptr;
}

}  // namespace

int runMemcpy(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("memcpy", argc, argv, {"--top"}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    std::vector<CopyStats> rows = memcpyStats(t, p->args.range.value_or(kWholeTrace));
    if (p->args.top && rows.size() > p->args.top) rows.resize(p->args.top);
    if (p->args.format == OutputFormat::Json) {
        nlohmann::json out = nlohmann::json::array();
        for (const CopyStats& c : rows) {
            const char* memory = memoryName(c.memory);
            out.push_back(
                {{"device", c.device},
                 {"kind", c.kind == ActivityKind::Memset ? "memset" : "memcpy"},
                 {"name", std::string(t.str(c.name))},
                 {"direction",
                  c.direction ? nlohmann::json(copyDirectionName(*c.direction)) : nullptr},
                 {"memory", memory ? nlohmann::json(memory) : nullptr},
                 {"count", c.count},
                 {"total_ns", c.total},
                 {"bytes", orNull(c.bytes)},
                 {"bandwidth_gbps", orNull(c.bandwidthGBps)}});
        }
        printJson({{"copies", out}});
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No copies or memsets in this trace" << (p->args.range ? " range" : "")
                  << ".\n";
        return 0;
    }
    Table table;
    table.headers = {"device", "kind",     "name",  "direction", "memory",
                     "count",  "total ns", "bytes", "GB/s"};
    table.numeric = {true, false, false, false, false, true, true, true, true};
    for (const CopyStats& c : rows) {
        const char* memory = memoryName(c.memory);
        table.rows.push_back({std::to_string(c.device),
                              c.kind == ActivityKind::Memset ? "memset" : "memcpy",
                              fitName(t.str(c.name), p->args.format, 48),
                              c.direction ? copyDirectionName(*c.direction) : "-",
                              memory ? memory : "-", std::to_string(c.count),
                              std::to_string(c.total), c.bytes ? std::to_string(*c.bytes) : "-",
                              c.bandwidthGBps ? fixed(*c.bandwidthGBps, 2) : "-"});
    }
    printTable(table, p->args.format);
    return 0;
}

}  // namespace gapscope::cli
