#include "load_args.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "loader/path_meaning.h"
#include "loader/rank_view.h"

namespace gapscope::cli {

std::optional<LoadArgs> parseLoadArgs(const char* command, int argc, char** argv,
                                      const std::vector<std::string>& known, bool manyTraces,
                                      std::ostream& err) {
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
                err << "gapscope-cli " << command << ": " << arg
                    << " takes a positive number of MiB\n";
                return std::nullopt;
            }
            if (arg == "--max-event-mb") args.options.maxEventBytes = static_cast<size_t>(mb) << 20;
            if (arg == "--memory-limit-mb") args.options.memoryLimitBytes = mb << 20;
        } else if (arg == "--threads" && hasValue) {
            const std::optional<ReadingMode> mode = readingModeNamed(argv[++i]);
            if (!mode) {
                err << "gapscope-cli " << command << ": --threads takes 1, 2 or auto\n";
                return std::nullopt;
            }
            args.options.mode = *mode;
        } else if (arg == "--run" && hasValue) {
            args.options.run = argv[++i];
        } else if (arg == "--process" && hasValue) {
            char* end = nullptr;
            const long long pid = std::strtoll(argv[++i], &end, 10);
            if (!end || *end != '\0' || pid <= 0) {
                err << "gapscope-cli " << command << ": --process takes a process id\n";
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
            err << "gapscope-cli " << command << ": unknown option '" << arg << "'\n";
            return std::nullopt;
        } else if (args.path.empty() || manyTraces) {
            if (args.path.empty()) args.path = arg;
            args.paths.push_back(arg);
        } else {
            err << "gapscope-cli " << command << ": one trace at a time ('" << arg
                << "' is extra)\n";
            return std::nullopt;
        }
    }
    if (args.path.empty()) {
        err << "gapscope-cli " << command << ": which trace? (see --help)\n";
        return std::nullopt;
    }
    if (useCache && !cacheDir.empty()) {
        args.cache = std::make_unique<IndexCache>(cacheDir);
        args.options.cache = args.cache.get();
    }
    return args;
}

OpenedTrace openTrace(LoadArgs& args, bool acrossRanks) {
    OpenedTrace out;
    auto note = [&](std::string text) { out.notes.push_back(std::move(text)); };
    auto fail = [&](std::string text) {
        out.error = std::move(text);
        return std::move(out);
    };
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
            std::string why = args.path + ": --process " + std::to_string(*args.process) +
                              ": not the process of one of its ranks";
            if (meaning.processesOfOneFile()) {
                why += " (they are";
                for (const RankSource& s : meaning.sources)
                    why += " " + std::to_string(s.part.pid);
                why += ")";
            } else {
                why += " (it holds one process's CUDA work, or is no Nsight Systems export)";
            }
            return fail(why);
        }
        args.options.part = part->part;
        note(args.path + ": rank " + std::to_string(part - meaning.sources.begin()) + " of " +
             std::to_string(meaning.sources.size()) + ", " + part->part.label);
    } else if (meaning.processesOfOneFile()) {
        // As a run of several hosts: one trace, each process apart.
        note(args.path + ": holds the processes of " + std::to_string(meaning.sources.size()) +
             " ranks; read as one trace (gapscope-cli ranks compares them)");
    } else if (meaning.kind == PathMeaning::Kind::Ranks && meaning.run.empty() && acrossRanks) {
        RankViewOptions options;
        options.load.load = args.options;
        RankView view = loadRankView(meaning.sources, args.path, options);
        for (const std::string& w : view.warnings)
            note(w);
        for (const RankFailure& f : view.failed)
            note("rank " + std::to_string(f.rank) + ": " + f.failure.message());
        if (!view.trace)
            return fail(view.failure ? view.failure->message() : args.path + ": no ranks");
        note(args.path + ": the " + std::to_string(view.ranks.size()) +
             " ranks of a job, read as one trace");
        out.trace = view.trace;
        out.cacheNote = view.cacheNote;
        return out;
    } else if (meaning.kind == PathMeaning::Kind::Ranks && meaning.run.empty()) {
        return fail(args.path + ": holds the traces of " + std::to_string(meaning.sources.size()) +
                    " ranks; compare them with gapscope-cli ranks, or name one file");
    }
    if (meaning.kind == PathMeaning::Kind::FleetTable)
        return fail(args.path +
                    ": a fleet table (gapscope-fleet's), not a trace; the viewer opens it");
    if (meaning.kind == PathMeaning::Kind::Trace && meaning.cycles.size() > 1) {
        note(args.path + ": " + std::to_string(meaning.cycles.size()) +
             " profiler cycles of one process; opened the newest, " + meaning.path +
             " (name a file for another)");
        path = meaning.path;
    } else if (meaning.kind == PathMeaning::Kind::Trace && meaning.run.empty()) {
        path = meaning.path;  // a folder holding one trace: that trace
    }
    const LoadResult result = loadTrace(path, args.options);
    out.cacheNote = result.cacheNote;
    out.cancelled = result.cancelled;
    // A logdir with several runs: say which one this is and how to get another.
    if (result.trace && result.runs.size() > 1 && args.options.run.empty()) {
        std::string runs;
        for (size_t i = 1; i < result.runs.size(); ++i)
            runs += " " + result.runs[i];
        note(args.path + ": " + std::to_string(result.runs.size()) +
             " profile runs; opened the newest, " + result.run +
             " (--run NAME for another:" + runs + ")");
    }
    if (!result.trace)
        return fail(result.failure ? result.failure->message() : args.path + ": cancelled");
    out.trace = result.trace;
    return out;
}

std::shared_ptr<const Trace> loadOrReport(LoadArgs& args, std::string* cacheNote,
                                          bool acrossRanks) {
    const OpenedTrace opened = openTrace(args, acrossRanks);
    for (const std::string& n : opened.notes)
        std::cerr << "gapscope: " << n << "\n";
    if (!opened.trace) std::cerr << "gapscope: " << opened.error << "\n";
    if (cacheNote) *cacheNote = opened.cacheNote;
    return opened.trace;
}

}  // namespace gapscope::cli
