// The ranks of a job (gapscope-cli ranks DIR|FILE...) as a command: the
// registration's options, then every rank's file loaded in parallel, its
// figures computed on its own thread and its trace let go, and the result
// rendered as every analysis's is.

#include <iostream>
#include <mutex>
#include <string_view>

#include "analysis/analysis_index.h"
#include "analysis_command.h"
#include "io/profile_files.h"
#include "io/rank_files.h"
#include "loader/path_meaning.h"
#include "loader/rank_set.h"

namespace gapscope::cli {

namespace {

// The files of the job as the viewer reads the paths (the newest profile
// run and profiler cycle unless named); none after saying why.
std::optional<std::vector<RankSource>> rankSources(const AnalysisArgs& args, std::ostream& log) {
    PathChoices choices;
    choices.run = args.load.options.run;
    const PathMeaning meaning = meaningOfPaths(args.load.paths, choices);
    if (meaning.kind == PathMeaning::Kind::Error) {
        log << "gapscope: " << meaning.error << "\n";
        return std::nullopt;
    }
    std::vector<RankSource> sources =
        meaning.kind == PathMeaning::Kind::Ranks ? meaning.sources : wholeFiles({meaning.path});
    // A run of one host: its file, which names the rank by its host.
    if (meaning.kind == PathMeaning::Kind::Trace && !meaning.run.empty())
        if (std::vector<std::string> hosts = xspaceFilesIn(meaning.path); !hosts.empty())
            sources = wholeFiles(hosts);
    if (meaning.cycles.size() > 1 && meaning.cycles.front().size() == 1) {
        // One process's cycles: compared as ranks, as asked, with a word.
        log << "gapscope: warning: these " << meaning.cycles.size()
            << " files are the cycles of one profiler (one process, one after "
               "another), not the ranks of a job; compared as ranks all the same\n";
        sources.clear();
        for (const auto& cycle : meaning.cycles)
            sources.push_back({cycle.front(), {}});
    } else if (meaning.cycles.size() > 1) {
        log << "gapscope: these files are " << meaning.cycles.size() << " cycles of "
            << meaning.sources.size()
            << " ranks; comparing the ranks of the newest cycle (name its files to "
               "compare another)\n";
    }
    return sources;
}

// --workers N, a loading option of this command (0: the machine's cores),
// taken out of argv; false after saying what is wrong.
bool takeWorkers(int argc, char** argv, std::vector<char*>& rest, unsigned& workers) {
    for (int i = 0; i < argc; ++i) {
        if (std::string_view(argv[i]) != "--workers") {
            rest.push_back(argv[i]);
            continue;
        }
        const std::string text = i + 1 < argc ? argv[++i] : "";
        try {
            size_t used = 0;
            const long long n = std::stoll(text, &used);
            if (used == text.size() && n >= 0) {
                workers = static_cast<unsigned>(std::min<long long>(n, 1024));
                continue;
            }
        } catch (const std::exception&) {
        }
        std::cerr << "gapscope-cli ranks: --workers takes a non-negative integer\n";
        return false;
    }
    return true;
}

}  // namespace

ComparisonOutcome computeRankJob(const Analysis& a, CommandLine& line, unsigned workers,
                                 std::ostream& log) {
    ComparisonOutcome out;
    out.status = 2;
    RankLoadOptions options;
    options.workers = workers;
    const AnalysisArgs& args = line.args;
    options.load = args.load.options;
    const std::optional<std::vector<RankSource>> sources = rankSources(args, log);
    if (!sources) return out;
    const StepOptions steps = args.stepOptions();
    // Figures on each file's own thread, then its trace is let go.
    std::mutex figuresMutex;
    std::map<std::string, RankFigures> figures;
    std::map<std::string, std::optional<Interval>> spans;
    options.afterLoad = [&](RankLoad& load) {
        const AnalysisIndex index(*load.result.trace);
        RankFigureOptions fo;
        fo.stepRegex = steps.regex;
        fo.minGapNs = steps.minGapNs;
        fo.index = steps.regex ? nullptr : &index;
        RankFigures f = rankFigures(*load.result.trace, fo);
        const Trace& t = *load.result.trace;
        const std::optional<Interval> span =
            t.hasSpan ? std::optional<Interval>(Interval{t.spanStart, t.spanEnd}) : std::nullopt;
        load.result.trace.reset();
        const std::lock_guard lock(figuresMutex);
        figures[load.name()] = std::move(f);
        spans[load.name()] = span;
    };
    const RankSetLoad loaded = loadRanks(*sources, options);
    if (loaded.cancelled) return out;
    for (const std::string& w : loaded.warnings)
        log << "gapscope: " << w << "\n";
    RankJob job;
    job.path = args.load.path;
    bool anyLoaded = false;
    for (const RankLoad& r : loaded.ranks) {
        RankRow row;
        row.origin = rankOriginName(r.origin);
        if (r.result.failure) {
            log << "gapscope: " << r.result.failure->message() << "\n";
            row.entry = {r.rank, r.file, r.host, {}, 0, std::nullopt, r.part};
            row.error = r.result.failure->where + ": " + r.result.failure->what;
        } else {
            row.entry = {r.rank, r.file,          r.host, std::move(figures[r.name()]),
                         0,      spans[r.name()], r.part};
            anyLoaded = true;
        }
        job.ranks.push_back(std::move(row));
    }
    if (!anyLoaded) return out;
    try {
        out.result = computeAnalysis(a, job, line.options);
    } catch (const std::exception& e) {
        log << "gapscope-cli " << a.id << ": " << e.what() << "\n";
        return out;
    }
    out.status = 0;
    out.subject.path = job.path;  // what the HTML page is named after
    return out;
}

int runRankJobCommand(const Analysis& a, int argc, char** argv) {
    unsigned workers = RankLoadOptions{}.workers;
    std::vector<char*> rest;
    if (!takeWorkers(argc, argv, rest, workers)) return 1;
    int status = 1;
    std::optional<CommandLine> line =
        parseCommandLine(a, static_cast<int>(rest.size()), rest.data(), status);
    if (!line) return status;
    const ComparisonOutcome outcome = computeRankJob(a, *line, workers, std::cerr);
    if (!outcome.result) return outcome.status;
    return finishCommand(a, outcome.subject, *outcome.result, *line);
}

}  // namespace gapscope::cli
