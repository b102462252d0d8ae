// gapscope-cli: the headless front end. Same engine as the GUI, so scripts
// and CI get the same numbers a person sees.

#include <cstring>
#include <iostream>
#include <string>
#include <utility>

#include "analysis_commands.h"
#include "dump_command.h"
#include "gaps_command.h"
#include "info_command.h"
#include "io/library_versions.h"
#include "kernels_command.h"
#include "timeline_command.h"

namespace {

constexpr const char* kUsage =
    "Usage: gapscope-cli COMMAND [OPTIONS] TRACE\n"
    "\n"
    "Where and why is the GPU idle? Headless analysis of Chrome Trace Event Format\n"
    "traces (PyTorch profiler / Kineto, TensorFlow, JAX; .json, .json.gz, .json.zst),\n"
    "TensorFlow / JAX *.xplane.pb profiles, and TensorBoard log folders (every host\n"
    "file of a profile run in one timeline).\n"
    "\n"
    "Commands:\n"
    "  info TRACE [--json]   open TRACE fully (read, build, index) and summarise it:\n"
    "                        events per phase, time span, processes and threads,\n"
    "                        GPU devices with busy time, import warnings\n"
    "  dump TRACE            every field of the loaded model as text (to compare loads)\n"
    "  gaps TRACE            each GPU's idle gaps with their cause (input,\n"
    "                        synchronization, communication, host, other) and the\n"
    "                        evidence\n"
    "  timeline TRACE        GPU time breakdown per device: computation, exposed\n"
    "                        communication and memcpy, idle (they add up exactly)\n"
    "  kernels TRACE         kernel statistics per name (count, total, mean, min,\n"
    "                        max, median, p95, stddev, shares, Tensor Cores, launch\n"
    "                        parameters, the CPU op that launched it)\n"
    "  memcpy TRACE          copies and memsets: count, time, bytes, bandwidth,\n"
    "                        direction, pageable or pinned\n"
    "  ops TRACE             op statistics: count, inclusive, self and GPU time\n"
    "  steps TRACE           steps with a breakdown that adds up to the step time,\n"
    "                        slow steps and why\n"
    "  memory TRACE          memory peaks per device, per step, growth\n"
    "  pipeline TRACE        input pipeline: time waiting for input and a verdict\n"
    "  launch TRACE          launch delays, tiny kernels\n"
    "  advice TRACE          findings with their numbers and evidence\n"
    "  summary TRACE         the summary tables (GPU time, steps, top kernels and ops,\n"
    "                        input pipeline, memory, advice) as md, csv, json or html\n"
    "  ranks DIR|FILE...     the ranks of a distributed job side by side: per rank and\n"
    "                        step, GPU busy, idle by cause, communication, when each\n"
    "                        entered the step's collective; each step's straggler\n"
    "  diff BASE NEW         two runs compared with deltas; --fail-if EXPR makes it a\n"
    "                        regression gate (exit 1 when a condition holds)\n"
    "  render TRACE --out F  the annotated picture of the timeline, PNG or SVG, without\n"
    "                        a display\n"
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

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << kUsage;
        return 1;
    }
    const std::string command = argv[1];
    if (command == "-h" || command == "--help" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (command == "--version") {
        std::cout << "gapscope-cli " << GAPSCOPE_VERSION << "\n"
                  << gapscope::libraryVersionsLine() << "\n";
        return 0;
    }
    if (command == "info") return gapscope::cli::runInfo(argc - 2, argv + 2);
    if (command == "dump") return gapscope::cli::runDump(argc - 2, argv + 2);
    if (command == "gaps") return gapscope::cli::runGaps(argc - 2, argv + 2);
    if (command == "timeline") return gapscope::cli::runTimeline(argc - 2, argv + 2);
    if (command == "kernels") return gapscope::cli::runKernels(argc - 2, argv + 2);
    using Run = int (*)(int, char**);
    static const std::pair<const char*, Run> kAnalyses[] = {
        {"memcpy", gapscope::cli::runMemcpy},     {"ops", gapscope::cli::runOps},
        {"steps", gapscope::cli::runSteps},       {"memory", gapscope::cli::runMemory},
        {"pipeline", gapscope::cli::runPipeline}, {"launch", gapscope::cli::runLaunch},
        {"advice", gapscope::cli::runAdvice},     {"diff", gapscope::cli::runDiff},
        {"summary", gapscope::cli::runSummary},   {"ranks", gapscope::cli::runRanks}};
    for (const auto& [name, run] : kAnalyses)
        if (command == name) return run(argc - 2, argv + 2);
#ifdef GAPSCOPE_HAVE_RENDER
    if (command == "render") return gapscope::cli::runRender(argc - 2, argv + 2);
#else
    if (command == "render") {
        std::cerr << "gapscope-cli: this build has no `render` (built without Qt)\n";
        return 1;
    }
#endif
    std::cerr << "gapscope-cli: unknown command '" << command << "'\n\n" << kUsage;
    return 1;
}
