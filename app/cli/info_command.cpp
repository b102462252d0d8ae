#include "info_command.h"

#include <iostream>
#include <string>

#include "load_args.h"
#include "report/trace_summary.h"

namespace gapscope::cli {

const char* processKindName(ProcessKind k) {
    return k == ProcessKind::Gpu ? "gpu" : "cpu";
}

int runInfo(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
        if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
            std::cout << "Usage: gapscope-cli info TRACE [--json] [OPTIONS]\n"
                         "  --json              machine-readable output\n"
                      << kLoadOptionsHelp;
            return 0;
        }
    }
    auto args = parseLoadArgs("info", argc, argv, {"--json"});
    if (!args) return 1;
    std::string cacheNote;
    const auto trace = loadOrReport(*args, &cacheNote);
    if (!trace) return 2;
    if (!args->flags.empty()) {
        writeInfoJson(*trace, cacheNote, std::cout);
    } else {
        writeTraceSummary(*trace, std::cout);
        if (!cacheNote.empty()) std::cout << "\nIndex cache: " << cacheNote << "\n";
    }
    return 0;
}

}  // namespace gapscope::cli
