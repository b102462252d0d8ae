#include "dump_command.h"

#include <iostream>
#include <string>

#include "load_args.h"
#include "report/canonical_dump.h"

namespace gapscope::cli {

int runDump(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
        if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
            std::cout << "Usage: gapscope-cli dump TRACE [--no-args-text] [OPTIONS]\n"
                         "  Every field of the loaded model as text, ids included: two loads\n"
                         "  gave the same model exactly when their dumps are identical.\n"
                         "  --no-args-text      leave out each event's raw args JSON\n"
                      << kLoadOptionsHelp;
            return 0;
        }
    }
    auto args = parseLoadArgs("dump", argc, argv, {"--no-args-text"});
    if (!args) return 1;
    const auto trace = loadOrReport(*args);
    if (!trace) return 2;
    DumpOptions options;
    options.argsText = args->flags.empty();
    uint64_t unreadable = 0;
    options.onArgsError = [&](uint32_t index, const std::string& error) {
        if (++unreadable <= 10)
            std::cerr << "gapscope: " << args->path << ": args " << index << ": " << error << "\n";
    };
    std::cout << canonicalDump(*trace, options);
    if (unreadable == 0) return 0;
    std::cerr << "gapscope: " << args->path << ": the args of " << unreadable
              << " event(s) could not be read\n";
    return 2;
}

}  // namespace gapscope::cli
