#pragma once
// Any registered analysis (report/analysis_registry.h) as a gapscope-cli
// command: its --help from the registration, the shared options (--format,
// --table, --out, --range, --step, --step-regex, --min-gap-us, --schema) and
// its own, then the result rendered by report/analysis_render.h.

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
std::optional<CommandLine> parseCommandLine(const Analysis& analysis, int argc, char** argv,
                                            int& status);
// Writes the result in the asked format (stdout, or files under --out),
// then, for a gate, says its verdict on stderr: the exit status. `subject`
// is what was read (its path names the HTML page; findings' slices).
int finishCommand(const Analysis& analysis, const Trace& subject, const AnalysisResult& result,
                  const CommandLine& line);

// The usage text of `--help`.
std::string analysisHelp(const Analysis& analysis);

}  // namespace gapscope::cli
