#include "info_command.h"

#include <cstdlib>
#include <iostream>
#include <string>

#include "loader.h"
#include "report/trace_summary.h"

namespace gapscope::cli {

const char* processKindName(ProcessKind k) {
    return k == ProcessKind::Gpu ? "gpu" : "cpu";
}

namespace {

constexpr const char* kInfoUsage =
    "Usage: gapscope-cli info TRACE [--json] [--max-event-mb N] [--memory-limit-mb N]\n"
    "  --json              machine-readable output\n"
    "  --max-event-mb N    largest single event or top-level value (default 256)\n"
    "  --memory-limit-mb N memory the model may use (default 3/4 of physical memory)\n";

}  // namespace

int runInfo(int argc, char** argv) {
    bool json = false;
    std::string path;
    LoadOptions options;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--json") {
            json = true;
        } else if ((arg == "--max-event-mb" || arg == "--memory-limit-mb") && hasValue) {
            char* end = nullptr;
            const unsigned long long mb = std::strtoull(argv[++i], &end, 10);
            if (!end || *end != '\0' || mb == 0 || mb > (1ull << 40)) {
                std::cerr << "gapscope-cli info: " << arg << " takes a positive number of MiB\n";
                return 1;
            }
            if (arg == "--max-event-mb") options.maxEventBytes = static_cast<size_t>(mb) << 20;
            if (arg == "--memory-limit-mb") options.memoryLimitBytes = mb << 20;
        } else if (arg == "-h" || arg == "--help") {
            std::cout << kInfoUsage;
            return 0;
        } else if (arg.size() > 1 && arg[0] == '-' && arg != "-") {
            std::cerr << "gapscope-cli info: unknown option '" << arg << "'\n";
            return 1;
        } else if (path.empty()) {
            path = arg;
        } else {
            std::cerr << "gapscope-cli info: one trace at a time ('" << arg << "' is extra)\n";
            return 1;
        }
    }
    if (path.empty()) {
        std::cerr << kInfoUsage;
        return 1;
    }
    const LoadResult result = loadTrace(path, options);
    if (!result.trace) {
        std::cerr << "gapscope: "
                  << (result.failure ? result.failure->message() : path + ": cancelled") << "\n";
        return 2;
    }
    if (json) {
        writeInfoJson(*result.trace, std::cout);
    } else {
        writeTraceSummary(*result.trace, std::cout);
    }
    return 0;
}

}  // namespace gapscope::cli
