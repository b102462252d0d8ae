#pragma once
// The options every command that opens a trace shares: limits, the index
// cache, and the one TRACE argument. Command-specific flags are handed back.

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/index_cache.h"
#include "loader/loader.h"

namespace gapscope::cli {

struct LoadArgs {
    std::string path;                // the first trace
    std::vector<std::string> paths;  // all of them (commands that take several)
    LoadOptions options;
    std::unique_ptr<IndexCache> cache;  // null with --no-cache
    std::vector<std::string> flags;     // other --options, for the command
    std::optional<int64_t> process;     // --process PID: that rank's process of a file of several
};

inline constexpr const char* kLoadOptionsHelp =
    "  --max-event-mb N    largest single event or top-level value (default 256)\n"
    "  --memory-limit-mb N memory the model may use (default 3/4 of physical memory)\n"
    "  --threads 1|2|auto  auto: read (tokenize, decode, inflate .gz/.zst, step an\n"
    "                      export) on a second core while building, and a run's\n"
    "                      hosts on the others; 1: one thread; 2: tokenize (or\n"
    "                      decode) on a second thread while building\n"
    "                      (see docs/performance.md)\n"
    "  --run NAME          TRACE is a folder (a TensorBoard logdir): the profile run\n"
    "                      to open, by name (default the newest)\n"
    "  --process PID       TRACE holds several ranks' processes (an Nsight Systems\n"
    "                      export of a job): read the rank whose process this is\n"
    "                      (default: every process, as one trace)\n"
    "  --no-cache          parse the trace even if the index cache has it (and do not\n"
    "                      write the cache)\n"
    "  --cache-dir DIR     index cache folder (default $XDG_CACHE_HOME/gapscope or\n"
    "                      ~/.cache/gapscope)\n";

// Parses argv; on a usage error prints it (prefixed by `command`) and returns
// nullopt. `known` lists the command's own flags; `manyTraces`: the
// command takes several TRACE arguments.
std::optional<LoadArgs> parseLoadArgs(const char* command, int argc, char** argv,
                                      const std::vector<std::string>& known,
                                      bool manyTraces = false, std::ostream& err = std::cerr);

// A trace opened as the CLI opens TRACE, without a word on stderr: what a
// person is told (`notes`, each a line after "gapscope: ") and, when
// `trace` is null, why ("FILE: WHERE: WHAT"). The Python module opens
// through it too.
struct OpenedTrace {
    std::shared_ptr<const Trace> trace;
    std::vector<std::string> notes;
    std::string error;
    std::string cacheNote;
    bool cancelled = false;
};
OpenedTrace openTrace(LoadArgs& args, bool acrossRanks = false);

// Loads, printing the notes and the one-line failure on stderr; null on failure.
// `acrossRanks`: a folder of a job's ranks is read as one trace, the ranks
// merged (as the viewer opens them), not refused.
std::shared_ptr<const Trace> loadOrReport(LoadArgs& args, std::string* cacheNote = nullptr,
                                          bool acrossRanks = false);

}  // namespace gapscope::cli
