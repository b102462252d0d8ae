#pragma once
// The summary of one trace as tables, the same in every format: per GPU
// busy and idle by cause, steps, the top kernels and ops, the input
// pipeline's verdict, memory peaks and growth, and the advice. Written by
// `gapscope-cli summary` (Markdown, CSV, JSON, HTML) and, later, the
// viewer's report. Every table is an analysis's result table (or a projection
// of one): exact values, headers with their units.

#include <string>
#include <vector>

#include "analysis/steps.h"
#include "model/trace.h"
#include "report/result_table.h"

namespace gapscope {

// What `gapscope-cli summary` writes, for its usage line and the panel that
// shows it: a document made of the registered analyses' summary parts.
inline constexpr const char* kSummaryWhat =
    "the summary tables (GPU time, steps, top kernels and ops,\ninput pipeline, memory, "
    "advice) as md, csv, json or html";

// `options.index` may be null (then one is built); the whole trace.
// Each table's id ("gpus", "steps", ...) is its CSV file name and JSON key.
std::vector<ResultTable> summaryTables(const Trace& trace, const StepOptions& options,
                                       size_t top = 10);

// One document: Markdown (`# title`, a table per section) or a
// self-contained HTML page; everything from the trace is escaped.
std::string summaryDocument(const std::string& traceName, const std::vector<ResultTable>& tables,
                            OutputFormat format);

}  // namespace gapscope
