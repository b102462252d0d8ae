#pragma once
// The ranks of a job as tables (the registered `ranks` analysis's, the
// Ranks panel's) and as the nested JSON of the fleet table, which the fleet
// tool writes (each rank nested from the registered tables of its file's
// `ranks` result) and the viewer reads back: one row per rank and step, the
// stragglers.
//
// JSON (times absolute integer ns, shifted when aligned):
//   {"aligned_on_step": N|null,
//    "clock_disagreements": [{"step", "collective", "ended_rank", "ended_ns",
//                             "entered_rank", "entered_ns", "by_ns"}],
//    "ranks": [{"rank", "file", "part" (its process, in a file of several ranks),
//               "host", "origin", "device", "offset_ns",
//               "error" (a file that failed; then no steps),
//               "steps": [{"name", "number", "start_ns", "end_ns",
//                          "duration_ns", "busy_ns", "idle_ns", "idle_by_cause",
//                          "comm_ns", "exposed_comm_ns",
//                          "collective", "collective_enter_ns",
//                          "collective_end_ns", "wait_ns", "transfer_ns",
//                          "longest_work_before",
//                          "collectives": [{"name", "enter_ns", "end_ns",
//                                           "work_before"}]}],
//               "totals": {"steps", "duration_ns", "busy_ns", "comm_ns",
//                          "exposed_comm_ns", "wait_ns"}}],
//    "stragglers": [{"step", "name", "rank", "collective", "entered_ns", "others_wait_ns",
//                    "waiting_ranks", "longest_wait_ns", "longest_wait_rank",
//                    "instead"}]}

#include <string>
#include <vector>

#include "analysis/rank_comparison.h"
#include "analysis/rank_outliers.h"
#include "report/result_table.h"

namespace gapscope {

// A rank for the report: its entry, or a file that failed (`error` set).
struct RankRow {
    RankEntry entry;
    std::string origin;  // "trace", "file name", "order"
    std::string error;
};

// Per rank, over its steps: step time (mean), GPU busy (a share of the
// steps' GPU time), communication, exposed communication, the wait in the
// step's collective and the transfer, how often it was the straggler.
ResultTable rankTable(const std::vector<RankRow>& ranks, const RankComparison& comparison);
// Who stands apart (analysis/rank_outliers.h), one per row; a failed file's
// row has no score. The table's columns and the heat map's marks.
std::vector<RankOutlier> rankOutliersOf(const std::vector<RankRow>& ranks);
// One row per rank and step (a failed file: one row with its error).
ResultTable rankStepTable(const std::vector<RankRow>& ranks);
// One row per rank, step and collective of the step, in the order of the
// steps (each step's row says how many it has): what the fleet tool
// gathers from each file to compare the ranks of a whole job.
ResultTable rankCollectiveTable(const std::vector<RankRow>& ranks);
// One row per step with a straggler.
ResultTable stragglerTable(const RankComparison& comparison);

std::string ranksJson(const std::vector<RankRow>& ranks, const RankComparison& comparison);

// That JSON read back: a fleet table of tools/fleet (with a "fleet"
// object), or the same without one, for the viewer's Ranks panel. Values of the wrong type are
// errors naming their place.
struct RanksDocument {
    std::vector<RankRow> ranks;
    RankComparison comparison;
    bool fleet = false;        // it has a "fleet" object
    uint64_t fleetTraces = 0;  // traces the fleet was asked to summarise
    std::vector<std::pair<std::string, std::string>> fleetFailed;  // file, error
    std::vector<std::string> warnings;  // rank collisions (the loader's, or the fleet's)
};
std::optional<RanksDocument> parseRanksJson(std::string_view text, std::string& error);

}  // namespace gapscope
