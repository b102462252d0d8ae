#pragma once
// The summary of one trace as tables, the same in every format: per GPU
// busy and idle by cause, steps, the top kernels and ops, the input
// pipeline's verdict, memory peaks and growth, and the advice: the
// registered `summary` analysis's tables (report/analyses/summary.cpp) and
// the viewer's report. Every table is an analysis's result table (or a projection
// of one): exact values, headers with their units.

#include <string>
#include <vector>

#include "analysis/steps.h"
#include "model/trace.h"
#include "report/result_table.h"

namespace gapscope {

// `options.index` may be null (then one is built); the whole trace.
// Each table's id ("gpus", "steps", ...) is its CSV file name and JSON key.
std::vector<ResultTable> summaryTables(const Trace& trace, const StepOptions& options,
                                       size_t top = 10);

}  // namespace gapscope
