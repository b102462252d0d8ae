#pragma once
// The options the analysis commands share (timeline, kernels, and the
// ones to come): --format, --range, --by-device, --top. They are taken out
// of argv first; the rest goes to parseLoadArgs.

#include <optional>
#include <string>
#include <vector>

#include "index/interval_set.h"
#include "load_args.h"

namespace gapscope {
struct Table;
}

namespace gapscope::cli {

enum class OutputFormat { Table, Csv, Markdown, Json };

struct AnalysisArgs {
    OutputFormat format = OutputFormat::Table;
    std::optional<Interval> range;  // absolute ns, [START, END)
    bool byDevice = false;
    size_t top = 0;                  // 0: all
    std::optional<TimeNs> minGapNs;  // --min-gap-us
    LoadArgs load;
};

inline constexpr const char* kAnalysisOptionsHelp =
    "  --format table|csv|md|json   output (default table); JSON times are integer ns\n"
    "  --range START:END   only [START, END), absolute ns as in `info --json`\n";

// `extra` lists which of --by-device / --top / --min-gap-us the command takes.
std::optional<AnalysisArgs> parseAnalysisArgs(const char* command, int argc, char** argv,
                                              const std::vector<std::string>& extra);

// When argv asks for --help: prints `help` and the shared options, true.
bool printedHelp(int argc, char** argv, const char* help);

// Prints a table in the chosen text format (not JSON).
void printTable(const Table& table, OutputFormat format);

}  // namespace gapscope::cli
