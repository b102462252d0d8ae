// gapscope-cli: the headless front end. Same engine as the GUI, so scripts
// and CI get the same numbers a person sees.

#include <algorithm>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>

#include "analysis_commands.h"
#include "commands.h"
#include "dump_command.h"
#include "gaps_command.h"
#include "info_command.h"
#include "io/library_versions.h"
#include "kernels_command.h"
#include "timeline_command.h"

namespace gapscope::cli {

namespace {

#ifndef GAPSCOPE_HAVE_RENDER
int renderUnavailable(int, char**) {
    std::cerr << "gapscope-cli: this build has no `render` (built without Qt)\n";
    return 1;
}
#endif

constexpr Command kCommands[] = {
    {"info", "TRACE [--json]",
     "open TRACE fully (read, build, index) and summarise it:\nevents per phase, time span, "
     "processes and threads,\nGPU devices with busy time, import warnings",
     runInfo},
    {"dump", "TRACE", "every field of the loaded model as text (to compare loads)", runDump},
    {"gaps", "TRACE",
     "each GPU's idle gaps with their cause (input,\nsynchronization, communication, host, "
     "other) and the\nevidence",
     runGaps},
    {"timeline", "TRACE",
     "GPU time breakdown per device: computation, exposed\ncommunication and memcpy, idle "
     "(they add up exactly)",
     runTimeline},
    {"kernels", "TRACE",
     "kernel statistics per name (count, total, mean, min,\nmax, median, p95, stddev, shares, "
     "Tensor Cores, launch\nparameters, the CPU op that launched it)",
     runKernels},
    {"memcpy", "TRACE",
     "copies and memsets: count, time, bytes, bandwidth,\ndirection, pageable or pinned",
     runMemcpy},
    {"ops", "TRACE", "op statistics: count, inclusive, self and GPU time", runOps},
    {"steps", "TRACE",
     "steps with a breakdown that adds up to the step's GPU\nwindow, slow steps and why", runSteps},
    {"memory", "TRACE", "memory peaks per device, per step, growth", runMemory},
    {"pipeline", "TRACE", "input pipeline: time waiting for input and a verdict", runPipeline},
    {"launch", "TRACE", "launch delays, tiny kernels", runLaunch},
    {"advice", "TRACE", "findings with their numbers and evidence", runAdvice},
    {"summary", "TRACE",
     "the summary tables (GPU time, steps, top kernels and ops,\ninput pipeline, memory, "
     "advice) as md, csv, json or html",
     runSummary},
    {"ranks", "DIR|FILE...",
     "the ranks of a distributed job side by side: per rank and\nstep, GPU busy, idle by "
     "cause, communication, when each\nentered the step's collective; each step's straggler",
     runRanks},
    {"diff", "BASE NEW",
     "two runs compared with deltas; --fail-if EXPR makes it a\nregression gate (exit 1 when "
     "a condition holds)",
     runDiff},
    {"render", "TRACE --out F",
     "the annotated picture of the timeline, PNG or SVG, without\na display",
#ifdef GAPSCOPE_HAVE_RENDER
     runRender
#else
     renderUnavailable
#endif
    },
};

}  // namespace

std::span<const Command> commands() {
    return kCommands;
}

}  // namespace gapscope::cli

namespace {

// The usage: the commands' list from their data, aligned in two columns.
std::string usage() {
    std::string commandsText;
    for (const gapscope::cli::Command& c : gapscope::cli::commands()) {
        std::string head = std::string("  ") + c.name + " " + c.arguments;
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
           "TensorFlow / JAX *.xplane.pb profiles, and TensorBoard log folders (every host\n"
           "file of a profile run in one timeline).\n"
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

int main(int argc, char** argv) {
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
    for (const gapscope::cli::Command& c : gapscope::cli::commands())
        if (command == c.name) return c.run(argc - 2, argv + 2);
    std::cerr << "gapscope-cli: unknown command '" << command << "'\n\n" << usage();
    return 1;
}
