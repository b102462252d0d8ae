#pragma once
// The summary of one trace as tables, the same in every format: per GPU
// busy and idle by cause, steps, the top kernels and ops, the input
// pipeline's verdict, memory peaks and growth, and the advice. Written by
// `gapscope-cli summary` (Markdown, CSV, JSON, HTML) and, later, the
// viewer's report. Times are integer ns, shares percent with 2 decimals.

#include <string>
#include <vector>

#include "analysis/steps.h"
#include "model/trace.h"
#include "report/table.h"

namespace gapscope {

struct SummaryTable {
    std::string id;     // "gpus", "steps", ...: the CSV file name and JSON key
    std::string title;  // "GPU time", ...
    Table table;
};

// `options.index` may be null (then one is built); the whole trace.
std::vector<SummaryTable> summaryTables(const Trace& trace, const StepOptions& options,
                                        size_t top = 10);

// One document: Markdown (`# title`, a table per section) or a
// self-contained HTML page; everything from the trace is escaped.
std::string summaryDocument(const std::string& traceName, const std::vector<SummaryTable>& tables,
                            TableFormat format);

}  // namespace gapscope
