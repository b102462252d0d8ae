// A comparison of two runs (gapscope-cli diff BASE NEW) as a command: the
// registration's options, then BASE and NEW loaded (a trace, or a job's
// ranks merged as the viewer merges them), each run's figures, and the
// result rendered as every analysis's is.

#include <filesystem>
#include <iostream>

#include "analysis/analysis_index.h"
#include "analysis_command.h"
#include "loader/path_meaning.h"
#include "loader/rank_view.h"

namespace gapscope::cli {

namespace {

// What the viewer opens as the ranks of a job (a folder of rank traces, a
// profile run of several hosts, the ranks' processes of one export): the
// ranks merged into one trace as the viewer merges them (`trace`, null on
// failure, said on stderr), and the job. None for anything else, or with
// --process (one rank), `trace` untouched.
std::optional<RankJob> loadJob(const AnalysisArgs& args, std::shared_ptr<const Trace>& trace,
                               std::ostream& log) {
    PathChoices choices;
    choices.run = args.load.options.run;
    const PathMeaning meaning = meaningOfPaths({args.load.path}, choices);
    if (meaning.kind != PathMeaning::Kind::Ranks || args.load.process) return std::nullopt;
    RankViewOptions options;
    options.load.load = args.load.options;
    const StepOptions steps = args.stepOptions();
    options.figures.stepRegex = steps.regex;
    options.figures.minGapNs = steps.minGapNs;
    RankView view = loadRankView(meaning.sources, meaning.path, options);
    for (const std::string& w : view.warnings)
        log << "gapscope: " << w << "\n";
    RankJob job;
    job.path = args.load.path;
    if (!view.trace) {
        log << "gapscope: "
            << (view.failure ? view.failure->message() : args.load.path + ": no ranks") << "\n";
        return job;
    }
    for (RankEntry& e : view.ranks)
        job.ranks.push_back({std::move(e), "", ""});
    for (const RankFailure& f : view.failed) {
        log << "gapscope: " << f.failure.message() << "\n";
        RankRow row;
        row.entry.rank = f.rank;
        row.entry.file = f.failure.path;
        row.entry.part = f.part;
        row.error = f.failure.where + ": " + f.failure.what;
        job.ranks.push_back(std::move(row));
    }
    std::stable_sort(job.ranks.begin(), job.ranks.end(), [](const RankRow& a, const RankRow& b) {
        return a.entry.rank < b.entry.rank;
    });
    job.comparison = std::move(view.comparison);
    trace = std::move(view.trace);
    return job;
}

}  // namespace

ComparisonOutcome computeTwoRuns(const Analysis& a, CommandLine& line, std::ostream& log) {
    const std::string name = "gapscope-cli " + a.id;
    ComparisonOutcome out;
    out.status = a.gate ? 2 : 1;
    AnalysisArgs& args = line.args;
    const std::vector<std::string> paths = args.load.paths;
    if (paths.size() != 2) {
        log << name << ": needs BASE and NEW (see --help)\n";
        return out;
    }
    TwoRuns runs;
    runs.basePath = paths[0];
    runs.newPath = paths[1];
    out.status = 2;
    for (size_t k = 0; k < 2; ++k) {
        args.load.path = paths[k];
        std::shared_ptr<const Trace> trace;
        std::optional<RankJob> job = loadJob(args, trace, log);
        if (!job && !trace) {
            const OpenedTrace opened = openTrace(args.load);
            for (const std::string& n : opened.notes)
                log << "gapscope: " << n << "\n";
            if (!opened.trace) log << "gapscope: " << opened.error << "\n";
            trace = opened.trace;
        }
        if (!trace) return out;
        (k == 0 ? runs.baseJob : runs.newJob) = std::move(job);
        const AnalysisIndex index(*trace);
        StepOptions options = args.stepOptions();
        options.index = &index;
        (k == 0 ? runs.base : runs.now) = runMetrics(*trace, options);
    }
    if (runs.baseJob.has_value() != runs.newJob.has_value())
        log << name << ": only " << (runs.baseJob ? "BASE" : "NEW")
            << " is a job of ranks: its ranks are compared as one trace\n";
    try {
        out.result = computeAnalysis(a, runs, line.options);
    } catch (const std::exception& e) {
        log << name << ": " << e.what() << "\n";
        return out;
    }
    out.status = 0;
    // What the HTML page is named after.
    out.subject.path = std::filesystem::path(runs.basePath).filename().string() + " vs " +
                       std::filesystem::path(runs.newPath).filename().string();
    return out;
}

int runTwoRunsCommand(const Analysis& a, int argc, char** argv) {
    int status = 1;
    std::optional<CommandLine> line = parseCommandLine(a, argc, argv, status);
    // A usage error of a gate is bad input (exit 2: "cannot say").
    if (!line) return status == 0 ? 0 : a.gate ? 2 : status;
    const ComparisonOutcome outcome = computeTwoRuns(a, *line, std::cerr);
    if (!outcome.result) return outcome.status;
    return finishCommand(a, outcome.subject, *outcome.result, *line);
}

}  // namespace gapscope::cli
