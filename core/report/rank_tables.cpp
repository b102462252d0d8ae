#include <algorithm>

#include "analysis/rank_totals.h"
#include "report/ranks_report.h"

namespace gapscope {

namespace {

std::string workText(const std::optional<RankWork>& w) {
    return w ? (w->gpu ? "GPU " : "CPU ") + w->name : std::string();
}

ResultRef stepRef(int64_t step, size_t row) {
    ResultRef ref;
    ref.kind = ResultRef::Kind::Step;
    ref.step = step;
    ref.slice = static_cast<uint32_t>(row);  // the rank's row in the job
    return ref;
}

}  // namespace

ResultTable rankTable(const std::vector<RankRow>& ranks, const RankComparison& comparison) {
    ResultTable table;
    table.id = "ranks";
    table.title = "Ranks";
    table.columns = {{"rank", "Rank", Unit::Count},
                     {"host", "Host", Unit::Text},
                     {"steps", "Steps", Unit::Count},
                     {"step_time_ns", "Step duration", Unit::Duration, 0},
                     {"busy_share", "GPU busy", Unit::Share},
                     {"comm_ns", "Communication", Unit::Duration},
                     {"exposed_comm_ns", "Exposed comm", Unit::Duration},
                     {"wait_ns", "Waited", Unit::Duration},
                     {"transfer_ns", "In transfer", Unit::Duration},
                     {"straggler_in", "Straggler in", Unit::Count},
                     {"file", "File", Unit::Text},
                     {"part", "Process", Unit::Text},
                     {"origin", "Rank from", Unit::Text},
                     {"offset_ns", "Shifted by", Unit::Duration},
                     {"aligned", "Aligned", Unit::Flag},
                     {"error", "Error", Unit::Text}};
    table.columns[static_cast<size_t>(table.column("file"))].path = true;
    // The process of a file of several ranks (an Nsight Systems export).
    table.columns[static_cast<size_t>(table.column("part"))].sparse = true;
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankRow& r = ranks[i];
        const RankTotals t = rankTotals(r.entry.figures);
        const auto n = static_cast<int64_t>(r.entry.figures.steps.size());
        const auto straggles = std::count_if(
            comparison.stragglers.begin(), comparison.stragglers.end(),
            [&](const StepStraggler& s) { return s.rank == r.entry.rank && r.error.empty(); });
        ResultRow row;
        row.cells = {r.entry.rank, r.entry.host, n,
                     n ? ResultCell(double(t.duration) / double(n)) : ResultCell(),
                     t.gpuTime > 0 ? ResultCell(double(t.busy) / double(t.gpuTime)) : ResultCell(),
                     t.comm, t.exposedComm, t.wait, t.transfer, int64_t{straggles}, r.entry.file,
                     r.entry.part.empty() ? ResultCell() : ResultCell(r.entry.part),
                     r.origin.empty() ? ResultCell() : ResultCell(r.origin), r.entry.offset,
                     // Aligned on a step: whether it has that step (else left as it was).
                     comparison.alignedOn && r.error.empty()
                         ? ResultCell(int64_t(std::find(comparison.unaligned.begin(),
                                                        comparison.unaligned.end(), r.entry.rank) ==
                                              comparison.unaligned.end()))
                         : ResultCell(),
                     r.error.empty() ? ResultCell() : ResultCell(r.error)};
        if (n) row.ref = stepRef(r.entry.figures.steps.front().number, i);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ResultTable rankStepTable(const std::vector<RankRow>& ranks) {
    ResultTable table;
    table.id = "rank_steps";
    table.title = "Steps of each rank";
    table.columns = {{"rank", "Rank", Unit::Count},
                     {"host", "Host", Unit::Text},
                     {"step", "Step", Unit::Count},
                     {"start_ns", "Start", Unit::Time},
                     {"duration_ns", "Duration", Unit::Duration},
                     {"busy_share", "Busy", Unit::Share},
                     {"busy_ns", "Busy time", Unit::Duration},
                     {"idle_ns", "Idle", Unit::Duration}};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        table.columns.push_back({std::string("idle_") + gapCauseName(GapCause(c)) + "_ns",
                                 std::string("Idle: ") + gapCauseName(GapCause(c)),
                                 Unit::Duration});
    table.columns.insert(table.columns.end(),
                         {{"idle_short_ns", "Idle: short gaps", Unit::Duration},
                          {"comm_ns", "Communication", Unit::Duration},
                          {"exposed_comm_ns", "Exposed comm", Unit::Duration},
                          {"entered_ns", "Entered the collective", Unit::Time},
                          {"wait_ns", "Waited", Unit::Duration},
                          {"transfer_ns", "In transfer", Unit::Duration},
                          {"error", "Error", Unit::Text}});
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankRow& r = ranks[i];
        const RankEntry& e = r.entry;
        if (!r.error.empty()) {
            ResultRow row;
            row.cells.assign(table.columns.size(), ResultCell());
            row.cells[0] = e.rank;
            row.cells[1] = e.host;
            row.cells.back() = r.error;
            table.rows.push_back(std::move(row));
            continue;
        }
        for (const RankStep& s : e.figures.steps) {
            ResultRow row;
            row.cells = {
                e.rank,
                e.host,
                s.number,
                s.span.start,
                s.duration(),
                s.gpuTime() > 0 ? ResultCell(double(s.busy) / double(s.gpuTime())) : ResultCell(),
                s.busy,
                s.idle};
            for (size_t c = 0; c < kGapCauseCount; ++c)
                row.cells.push_back(s.idleByCause[c]);
            row.cells.insert(row.cells.end(),
                             {s.idleShort, s.comm, s.exposedComm, cellOf(s.collectiveEnter),
                              cellOf(s.wait), cellOf(s.transfer), ResultCell()});
            row.ref = stepRef(s.number, i);
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

ResultTable stragglerTable(const RankComparison& comparison) {
    ResultTable table;
    table.id = "stragglers";
    table.title = "Stragglers";
    table.columns = {{"step", "Step", Unit::Count},
                     {"rank", "Straggler", Unit::Count},
                     symbolColumn("collective", "In collective"),
                     {"entered_ns", "Entered", Unit::Time},
                     {"others_wait_ns", "Others waited", Unit::Duration},
                     {"waiting_ranks", "Waiting ranks", Unit::Count},
                     {"longest_wait_ns", "Longest wait", Unit::Duration},
                     {"longest_wait_rank", "By rank", Unit::Count},
                     {"instead", "Its longest work before", Unit::Text},
                     {"instead_ns", "For", Unit::Duration}};
    for (const StepStraggler& s : comparison.stragglers) {
        ResultRow row;
        row.cells = {s.step,
                     s.rank,
                     s.collective.empty() ? ResultCell() : ResultCell(s.collective),
                     s.enteredAt,
                     s.othersWait,
                     int64_t{s.waitingRanks},
                     s.longestWait,
                     s.longestWaitRank,
                     s.instead ? ResultCell(workText(s.instead)) : ResultCell(),
                     s.instead ? ResultCell(s.instead->ns()) : ResultCell()};
        row.ref = stepRef(s.step, s.entry);
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace gapscope
