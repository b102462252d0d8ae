#pragma once
// A comparison of two runs (report/run_diff.h) as typed tables: the one
// definition the Compare panel shows, its exports write and `gapscope-cli
// diff` prints. Each row has BASE's and NEW's figure, the change and the
// change relative to BASE (a share: -0.31 is −31 %).

#include <cstddef>

#include "report/fail_if.h"
#include "report/ranks_report.h"
#include "report/result_table.h"
#include "report/run_diff.h"

namespace gapscope {

// The headline figures (step time, GPU busy, idle by cause, memory, ...),
// each in its own unit, and for the step times whether their change is
// "beyond noise" or "within noise".
ResultTable diffFigureTable(const RunDiff& diff);
// Each GPU's time account in both runs, one row per GPU and figure.
ResultTable diffGpuTable(const RunDiff& diff);
// Kernels and ops by impact; `changedOnly` leaves out those that did not
// change, `top` keeps the first rows (0: all).
ResultTable diffKernelTable(const RunDiff& diff, bool changedOnly = false, size_t top = 0);
ResultTable diffOpTable(const RunDiff& diff, bool changedOnly = false, size_t top = 0);
// Kernel time by scope (the named ranges around the launches) by impact;
// empty where neither run has a named range around a kernel's launch.
ResultTable diffScopeTable(const RunDiff& diff, bool changedOnly = false, size_t top = 0);
// The advice: findings new, resolved and still there.
ResultTable diffFindingTable(const RunDiff& diff);
// The regression gate: each --fail-if condition, both runs' value, what
// was compared with the threshold, whether it crossed, and where it asked
// for one, the test against noise; a condition a run cannot answer has
// its error.
ResultTable diffGateTable(const std::vector<FailIf>& gates,
                          const std::vector<FailIfResult>& results);
// Both runs' steps side by side in order: number and duration (the step
// strip's figures).
ResultTable diffStepTable(const RunMetrics& base, const RunMetrics& now);

// Two jobs of ranks: each rank's figures (rankTable's: step time, GPU
// busy, exposed communication, the wait in collectives, how often it was
// the straggler) in both, matched by rank number; a rank whose file failed
// to load has none on that side.
ResultTable diffRankTable(const std::vector<RankRow>& base, const RankComparison& baseRanks,
                          const std::vector<RankRow>& now, const RankComparison& newRanks);
// The job's straggler figures in both: the steps with a straggler, the
// other ranks' wait for it in all, per such step and at most, and the rank
// that was the straggler most often.
ResultTable diffStragglerTable(const RankComparison& base, const RankComparison& now);

// Two tables of one kind side by side, rows matched on the `key` column's
// value: the key, then for each of `figures` BASE's, NEW's and the change
// (JSON: {"base": {...}, "new": {...}, "delta": {...}}); a key one table
// lacks has none on that side.
ResultTable sideBySide(const ResultTable& base, const ResultTable& now, const std::string& key,
                       const std::vector<std::string>& figures);

// "Step time, median", "Idle: input", ...: a headline figure for people.
std::string figureTitle(const std::string& metric);

}  // namespace gapscope
