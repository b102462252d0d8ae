#include <iostream>

#include "analysis/trace_health.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli health TRACE [--format table|csv|md|json]\n"
    "  What the import repaired, dropped or found missing, every check with its\n"
    "  severity (ok, info, warning: some figure is a lower bound or some events\n"
    "  are left out, error: the file is cut short), its count, the first instance\n"
    "  and what it means for the numbers; then the first instances of each check\n"
    "  found (start, duration, name, track). The Health panel shows the same;\n"
    "  `info --json` has it as \"health\". Exit status 0 whatever it finds.\n";

}  // namespace

int runHealth(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("health", argc, argv, {}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    const TraceHealth health = traceHealth(t);
    const ResultTable checks = healthTable(t, health);
    const ResultTable instances = healthInstancesTable(t, health);
    if (p->args.format == OutputFormat::Json) {
        printJson({{"checks", resultRowsJson(checks)}, {"instances", resultRowsJson(instances)}});
        return 0;
    }
    printResult(checks, p->args.format);
    if (!instances.rows.empty()) {
        std::cout << "\n";
        printResult(instances, p->args.format);
    }
    return 0;
}

}  // namespace gapscope::cli
