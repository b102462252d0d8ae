#include "load_args.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "loader/path_meaning.h"
#include "loader/rank_view.h"

namespace gapscope::cli {

std::optional<LoadArgs> parseLoadArgs(const char* command, int argc, char** argv,
                                      const std::vector<std::string>& known, bool manyTraces) {
    LoadArgs args;
    bool useCache = true;
    std::string cacheDir = IndexCache::defaultDir();
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if ((arg == "--max-event-mb" || arg == "--memory-limit-mb") && hasValue) {
            char* end = nullptr;
            const unsigned long long mb = std::strtoull(argv[++i], &end, 10);
            if (!end || *end != '\0' || mb == 0 || mb > (1ull << 40)) {
                std::cerr << "gapscope-cli " << command << ": " << arg
                          << " takes a positive number of MiB\n";
                return std::nullopt;
            }
            if (arg == "--max-event-mb") args.options.maxEventBytes = static_cast<size_t>(mb) << 20;
            if (arg == "--memory-limit-mb") args.options.memoryLimitBytes = mb << 20;
        } else if (arg == "--threads" && hasValue) {
            const std::optional<ReadingMode> mode = readingModeNamed(argv[++i]);
            if (!mode) {
                std::cerr << "gapscope-cli " << command << ": --threads takes 1, 2 or auto\n";
                return std::nullopt;
            }
            args.options.mode = *mode;
        } else if (arg == "--run" && hasValue) {
            args.options.run = argv[++i];
        } else if (arg == "--process" && hasValue) {
            char* end = nullptr;
            const long long pid = std::strtoll(argv[++i], &end, 10);
            if (!end || *end != '\0' || pid <= 0) {
                std::cerr << "gapscope-cli " << command << ": --process takes a process id\n";
                return std::nullopt;
            }
            args.process = pid;
        } else if (arg == "--no-cache") {
            useCache = false;
        } else if (arg == "--cache-dir" && hasValue) {
            cacheDir = argv[++i];
        } else if (std::find(known.begin(), known.end(), arg) != known.end()) {
            args.flags.push_back(arg);
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::cerr << "gapscope-cli " << command << ": unknown option '" << arg << "'\n";
            return std::nullopt;
        } else if (args.path.empty() || manyTraces) {
            if (args.path.empty()) args.path = arg;
            args.paths.push_back(arg);
        } else {
            std::cerr << "gapscope-cli " << command << ": one trace at a time ('" << arg
                      << "' is extra)\n";
            return std::nullopt;
        }
    }
    if (args.path.empty()) {
        std::cerr << "gapscope-cli " << command << ": which trace? (see --help)\n";
        return std::nullopt;
    }
    if (useCache && !cacheDir.empty()) {
        args.cache = std::make_unique<IndexCache>(cacheDir);
        args.options.cache = args.cache.get();
    }
    return args;
}

std::shared_ptr<const Trace> loadOrReport(LoadArgs& args, std::string* cacheNote,
                                          bool acrossRanks) {
    // What the path means, as the viewer decides it. A profile run of
    // several hosts reads as one trace here (each host's processes apart).
    PathChoices choices;
    choices.run = args.options.run;
    const PathMeaning meaning = meaningOfPaths({args.path}, choices);
    std::string path = args.path;
    if (args.process) {
        // One rank's process: the part of the file that is that rank.
        const auto part = std::find_if(
            meaning.sources.begin(), meaning.sources.end(),
            [&](const RankSource& s) { return !s.part.whole() && s.part.pid == *args.process; });
        if (!meaning.processesOfOneFile() || part == meaning.sources.end()) {
            std::cerr << "gapscope: " << args.path << ": --process " << *args.process
                      << ": not the process of one of its ranks";
            if (meaning.processesOfOneFile()) {
                std::cerr << " (they are";
                for (const RankSource& s : meaning.sources)
                    std::cerr << " " << s.part.pid;
                std::cerr << ")";
            } else {
                std::cerr << " (it holds one process's CUDA work, or is no Nsight Systems "
                             "export)";
            }
            std::cerr << "\n";
            return nullptr;
        }
        args.options.part = part->part;
        std::cerr << "gapscope: " << args.path << ": rank " << (part - meaning.sources.begin())
                  << " of " << meaning.sources.size() << ", " << part->part.label << "\n";
    } else if (meaning.processesOfOneFile()) {
        // As a run of several hosts: one trace, each process apart.
        std::cerr << "gapscope: " << args.path << ": holds the processes of "
                  << meaning.sources.size()
                  << " ranks; read as one trace (gapscope-cli ranks compares them)\n";
    } else if (meaning.kind == PathMeaning::Kind::Ranks && meaning.run.empty() && acrossRanks) {
        RankViewOptions options;
        options.load.load = args.options;
        RankView view = loadRankView(meaning.sources, args.path, options);
        for (const std::string& w : view.warnings)
            std::cerr << "gapscope: " << w << "\n";
        for (const RankFailure& f : view.failed)
            std::cerr << "gapscope: rank " << f.rank << ": " << f.failure.message() << "\n";
        if (!view.trace) {
            std::cerr << "gapscope: "
                      << (view.failure ? view.failure->message() : args.path + ": no ranks")
                      << "\n";
            return nullptr;
        }
        std::cerr << "gapscope: " << args.path << ": the " << view.ranks.size()
                  << " ranks of a job, read as one trace\n";
        return view.trace;
    } else if (meaning.kind == PathMeaning::Kind::Ranks && meaning.run.empty()) {
        std::cerr << "gapscope: " << args.path << ": holds the traces of " << meaning.sources.size()
                  << " ranks; compare them with gapscope-cli ranks, or name one file\n";
        return nullptr;
    }
    if (meaning.kind == PathMeaning::Kind::FleetTable) {
        std::cerr << "gapscope: " << args.path
                  << ": a fleet table (gapscope-fleet's), not a trace; the viewer opens it\n";
        return nullptr;
    }
    if (meaning.kind == PathMeaning::Kind::Trace && meaning.cycles.size() > 1) {
        std::cerr << "gapscope: " << args.path << ": " << meaning.cycles.size()
                  << " profiler cycles of one process; opened the newest, " << meaning.path
                  << " (name a file for another)\n";
        path = meaning.path;
    } else if (meaning.kind == PathMeaning::Kind::Trace && meaning.run.empty()) {
        path = meaning.path;  // a folder holding one trace: that trace
    }
    const LoadResult result = loadTrace(path, args.options);
    if (cacheNote) *cacheNote = result.cacheNote;
    // A logdir with several runs: say which one this is and how to get another.
    if (result.trace && result.runs.size() > 1 && args.options.run.empty()) {
        std::cerr << "gapscope: " << args.path << ": " << result.runs.size()
                  << " profile runs; opened the newest, " << result.run
                  << " (--run NAME for another:";
        for (size_t i = 1; i < result.runs.size(); ++i)
            std::cerr << " " << result.runs[i];
        std::cerr << ")\n";
    }
    if (!result.trace) {
        std::cerr << "gapscope: "
                  << (result.failure ? result.failure->message() : args.path + ": cancelled")
                  << "\n";
    }
    return result.trace;
}

}  // namespace gapscope::cli
