// gapscope-cli: the headless front end. Same engine as the GUI, so scripts
// and CI get the same numbers a person sees.

#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>

#include "analysis_command.h"
#include "analysis_commands.h"
#include "commands.h"
#include "dump_command.h"
#include "io/library_versions.h"
#include "mcp_server.h"
#include "report/analysis_registry.h"

namespace gapscope::cli {

namespace {

#ifndef GAPSCOPE_HAVE_RENDER
int renderUnavailable(int, char**) {
    std::cerr << "gapscope-cli: this build has no `render` (built without Qt)\n";
    return 1;
}
#endif

struct OwnCommand {
    const char* name;
    const char* arguments;
    const char* what;
    int (*run)(int argc, char** argv);
};

constexpr OwnCommand kAfter[] = {
    {"render", "TRACE --out F",
     "the annotated picture of the timeline, PNG or SVG, without\na display",
#ifdef GAPSCOPE_HAVE_RENDER
     runRender
#else
     renderUnavailable
#endif
    },
    {"dump", "TRACE", "every field of the loaded model as text (to compare loads)", runDump},
    {"mcp", "",
     "the analyses as tools for coding agents (Model Context\nProtocol on stdin and stdout)",
     runMcp},
};

}  // namespace

// The analyses of one trace (the summary of them among them), the
// comparisons, then the others.
std::vector<Command> commands() {
    std::vector<Command> out;
    for (const Analysis& a : analysisRegistry().all())
        if (a.readsOneTrace()) out.push_back({a.id, a.arguments, a.what, nullptr, &a});
    for (const Analysis& a : analysisRegistry().all())
        if (!a.readsOneTrace()) out.push_back({a.id, a.arguments, a.what, nullptr, &a});
    for (const OwnCommand& c : kAfter)
        out.push_back({c.name, c.arguments, c.what, c.run, nullptr});
    return out;
}

}  // namespace gapscope::cli

namespace {

// The usage: the commands' list from their data, aligned in two columns.
std::string usage() {
    std::string commandsText;
    for (const gapscope::cli::Command& c : gapscope::cli::commands()) {
        std::string head = "  " + c.name + " " + c.arguments;
        std::string what = c.what;
        size_t start = 0;
        bool first = true;
        while (start <= what.size()) {
            const size_t end = std::min(what.find('\n', start), what.size());
            const std::string line = what.substr(start, end - start);
            std::string left = first ? head : std::string();
            if (left.size() >= 24) {  // a long head gets a line of its own
                commandsText += left + "\n";
                left.clear();
            }
            commandsText += left + std::string(24 - left.size(), ' ') + line + "\n";
            first = false;
            start = end + 1;
        }
    }
    return "Usage: gapscope-cli COMMAND [OPTIONS] TRACE\n"
           "\n"
           "Where and why is the GPU idle? Headless analysis of Chrome Trace Event Format\n"
           "traces (PyTorch profiler / Kineto, TensorFlow, JAX; .json, .json.gz, .json.zst),\n"
           "TensorFlow / JAX *.xplane.pb profiles, TensorBoard log folders (every host\n"
           "file of a profile run in one timeline), and Nsight Systems SQLite exports\n"
           "(nsys export --type sqlite REPORT.nsys-rep).\n"
           "\n"
           "Commands:\n" +
           commandsText +
           "\n"
           "Loading options (any command; see COMMAND --help):\n"
           "  --max-event-mb N, --memory-limit-mb N   raise the limits\n"
           "  --run NAME            TRACE is a TensorBoard log folder: the profile run to open\n"
           "  --no-cache            parse TRACE even if the index cache has it\n"
           "  --cache-dir DIR       index cache folder (default ~/.cache/gapscope)\n"
           "\n"
           "Options:\n"
           "  -h, --help            show this help\n"
           "  --version             show the version\n"
           "\n"
           "Exit status: 0 success, 1 usage error, 2 the trace could not be read\n"
           "(one line on stderr: gapscope: FILE: WHERE: WHAT).\n";
}

}  // namespace

namespace gapscope::cli {

int cliMain(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << usage();
        return 1;
    }
    const std::string command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") {
        std::cout << usage();
        return 0;
    }
    if (command == "--version") {
        std::cout << "gapscope-cli " << GAPSCOPE_VERSION << "\n"
                  << gapscope::libraryVersionsLine() << "\n";
        return 0;
    }
    for (const Command& c : commands()) {
        if (command != c.name) continue;
        if (!c.analysis) return c.run(argc - 2, argv + 2);
        if (c.analysis->input == AnalysisInput::TwoRuns)
            return runTwoRunsCommand(*c.analysis, argc - 2, argv + 2);
        if (c.analysis->input == AnalysisInput::Ranks)
            return runRankJobCommand(*c.analysis, argc - 2, argv + 2);
        return runAnalysisCommand(*c.analysis, argc - 2, argv + 2);
    }
    std::cerr << "gapscope-cli: unknown command '" << command << "'\n\n" << usage();
    return 1;
}

}  // namespace gapscope::cli
