#include "info_command.h"

#include <iostream>
#include <string>

#include "loader.h"
#include "report/trace_summary.h"

namespace gapscope::cli {

const char* processKindName(ProcessKind k) {
    return k == ProcessKind::Gpu ? "gpu" : "cpu";
}

int runInfo(int argc, char** argv) {
    bool json = false;
    std::string path;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            json = true;
        } else if (arg == "-h" || arg == "--help") {
            std::cout << "Usage: gapscope-cli info TRACE [--json]\n";
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
        std::cerr << "Usage: gapscope-cli info TRACE [--json]\n";
        return 1;
    }
    const LoadResult result = loadTrace(path);
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
