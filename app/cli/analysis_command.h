#pragma once
// Any registered analysis (report/analysis_registry.h) as a gapscope-cli
// command: its --help from the registration, the shared options (--format,
// --table, --out, --range, --step, --step-regex, --min-gap-us, --schema) and
// its own, then the result rendered by report/analysis_render.h.

#include <iostream>
#include <string>

#include "analysis_args.h"
#include "report/analysis_registry.h"

namespace gapscope::cli {

int runAnalysisCommand(const Analysis& analysis, int argc, char** argv);
// The comparisons, which load what they compare: two runs
// (two_runs_command.cpp), a job's ranks (rank_job_command.cpp).
int runTwoRunsCommand(const Analysis& analysis, int argc, char** argv);
int runRankJobCommand(const Analysis& analysis, int argc, char** argv);

// A command line of an analysis: the shared options, its own, and the
// loading options with the paths.
struct CommandLine {
    AnalysisArgs args;
    AnalysisOptions options;
    std::string table, outDir;  // --table, --out
};
// Nullopt after --help or --schema (status 0) or a usage error said on
// stderr (status 1).
// Usage errors go to `err`.
std::optional<CommandLine> parseCommandLine(const Analysis& analysis, int argc, char** argv,
                                            int& status, std::ostream& err = std::cerr);
// Writes the result in the asked format (stdout, or files under --out),
// then, for a gate, says its verdict on stderr: the exit status. `subject`
// is what was read (its path names the HTML page; findings' slices).
int finishCommand(const Analysis& analysis, const Trace& subject, const AnalysisResult& result,
                  const CommandLine& line);

// Where the command line looks (--range, --step after stepWindowError,
// --step-regex, --min-gap-us, --peak); it points into `args`.
Scope scopeOf(const AnalysisArgs& args, std::string cacheNote = {});

// A comparison computed as its command computes it (loading what the
// command line names), what it says on the way written to `log`: the
// result, or none with the command's exit status.
struct ComparisonOutcome {
    std::optional<AnalysisResult> result;
    Trace subject;  // what the result is about (the HTML page's name)
    int status = 0;
};
ComparisonOutcome computeTwoRuns(const Analysis& analysis, CommandLine& line, std::ostream& log);
// `workers`: files read at once (0: the machine's cores).
ComparisonOutcome computeRankJob(const Analysis& analysis, CommandLine& line, unsigned workers,
                                 std::ostream& log);

// The usage text of `--help`.
std::string analysisHelp(const Analysis& analysis);

}  // namespace gapscope::cli
