#include <algorithm>

#include "analysis/rank_outliers.h"
#include "analysis/rank_totals.h"
#include "report/ranks_report.h"

namespace gapscope {

namespace {

std::string workText(const std::optional<RankWork>& w) {
    return w ? (w->gpu ? "GPU " : "CPU ") + w->name : std::string();
}

// A piece of work as nested columns (KEY.name, .where, .start_ns, .end_ns,
// .ns): null as a whole when there is none.
void addWorkColumns(ResultTable& table, const std::string& key, const std::string& title) {
    table.columns.insert(table.columns.end(), {{key + ".name", title, Unit::Text},
                                               {key + ".where", title + ": on", Unit::Text},
                                               {key + ".start_ns", title + ": start", Unit::Time},
                                               {key + ".end_ns", title + ": end", Unit::Time},
                                               {key + ".ns", title + ": for", Unit::Duration}});
    table.columns[table.columns.size() - 5].symbol = true;
}

void addWorkCells(ResultRow& row, const std::optional<RankWork>& w) {
    if (!w) {
        row.cells.resize(row.cells.size() + 5);
        return;
    }
    row.cells.insert(row.cells.end(), {w->name, std::string(w->gpu ? "gpu" : "cpu"), w->span.start,
                                       w->span.end, w->ns()});
}

ResultRef stepRef(int64_t step, size_t row) {
    ResultRef ref;
    ref.kind = ResultRef::Kind::Step;
    ref.step = step;
    ref.slice = static_cast<uint32_t>(row);  // the rank's row in the job
    return ref;
}

}  // namespace

std::vector<RankOutlier> rankOutliersOf(const std::vector<RankRow>& ranks) {
    std::vector<const RankFigures*> figures;
    for (const RankRow& r : ranks)
        figures.push_back(r.error.empty() ? &r.entry.figures : nullptr);
    return rankOutliers(figures);
}

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
                     {"outlier", "Outlier", Unit::Flag},
                     {"outlier_score", "Outlier score", Unit::Number, 2},
                     {"outlier_figure",
                      "Stands apart in",
                      Unit::Text,
                      1,
                      {{"step_time", "step time"}, {"busy_share", "GPU busy"}, {"wait", "wait"}}},
                     {"file", "File", Unit::Text},
                     {"part", "Process", Unit::Text},
                     {"origin", "Rank from", Unit::Text},
                     {"offset_ns", "Shifted by", Unit::Duration},
                     {"aligned", "Aligned", Unit::Flag},
                     {"device", "GPU", Unit::Count},
                     {"step_source", "Steps from", Unit::Text},
                     {"duration_ns", "Steps' time", Unit::Duration},
                     {"gpu_time_ns", "GPU time", Unit::Duration},
                     {"busy_ns", "Busy time", Unit::Duration},
                     {"error", "Error", Unit::Text}};
    table.columns[static_cast<size_t>(table.column("file"))].path = true;
    // The process of a file of several ranks (an Nsight Systems export).
    for (const char* key : {"part", "device", "step_source"})
        table.columns[static_cast<size_t>(table.column(key))].sparse = true;
    const std::vector<RankOutlier> outliers = rankOutliersOf(ranks);
    for (size_t i = 0; i < ranks.size(); ++i) {
        const RankRow& r = ranks[i];
        const RankTotals t = rankTotals(r.entry.figures);
        const RankOutlier& o = outliers[i];
        const auto n = static_cast<int64_t>(r.entry.figures.steps.size());
        const auto straggles = std::count_if(
            comparison.stragglers.begin(), comparison.stragglers.end(),
            [&](const StepStraggler& s) { return s.rank == r.entry.rank && r.error.empty(); });
        ResultRow row;
        row.cells = {r.entry.rank, r.entry.host, n,
                     n ? ResultCell(double(t.duration) / double(n)) : ResultCell(),
                     t.gpuTime > 0 ? ResultCell(double(t.busy) / double(t.gpuTime)) : ResultCell(),
                     t.comm, t.exposedComm, t.wait, t.transfer, int64_t{straggles},
                     o.score ? ResultCell(int64_t{o.outlier}) : ResultCell(), cellOf(o.score),
                     o.outlier ? ResultCell(std::string(rankFigureName(o.figure))) : ResultCell(),
                     r.entry.file, r.entry.part.empty() ? ResultCell() : ResultCell(r.entry.part),
                     r.origin.empty() ? ResultCell() : ResultCell(r.origin), r.entry.offset,
                     // Aligned on a step: whether it has that step (else left as it was).
                     comparison.alignedOn && r.error.empty()
                         ? ResultCell(int64_t(std::find(comparison.unaligned.begin(),
                                                        comparison.unaligned.end(), r.entry.rank) ==
                                              comparison.unaligned.end()))
                         : ResultCell(),
                     r.entry.figures.device >= 0 ? ResultCell(int64_t{r.entry.figures.device})
                                                 : ResultCell(),
                     r.entry.figures.source == StepSource::None
                         ? ResultCell()
                         : ResultCell(std::string(stepSourceName(r.entry.figures.source))),
                     r.error.empty() ? ResultCell(t.duration) : ResultCell(),
                     r.error.empty() ? ResultCell(t.gpuTime) : ResultCell(),
                     r.error.empty() ? ResultCell(t.busy) : ResultCell(),
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
                     {"name", "Step name", Unit::Text},
                     {"start_ns", "Start", Unit::Time},
                     {"end_ns", "End", Unit::Time},
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
                          symbolColumn("collective", "Collective"),
                          {"entered_ns", "Entered the collective", Unit::Time},
                          {"collective_end_ns", "Collective ended", Unit::Time},
                          {"wait_ns", "Waited", Unit::Duration},
                          {"transfer_ns", "In transfer", Unit::Duration},
                          {"collectives", "Collectives", Unit::Count}});
    addWorkColumns(table, "longest_work_before", "Longest work before it");
    table.columns.push_back({"error", "Error", Unit::Text});
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
                s.name,
                s.span.start,
                s.span.end,
                s.duration(),
                s.gpuTime() > 0 ? ResultCell(double(s.busy) / double(s.gpuTime())) : ResultCell(),
                s.busy,
                s.idle};
            for (size_t c = 0; c < kGapCauseCount; ++c)
                row.cells.push_back(s.idleByCause[c]);
            row.cells.insert(row.cells.end(),
                             {s.idleShort, s.comm, s.exposedComm,
                              s.collectiveEnter ? ResultCell(s.collectiveName) : ResultCell(),
                              cellOf(s.collectiveEnter), cellOf(s.collectiveEnd), cellOf(s.wait),
                              cellOf(s.transfer), static_cast<int64_t>(s.collectives.size())});
            addWorkCells(row, s.longestWorkBefore);
            row.cells.emplace_back();
            row.ref = stepRef(s.number, i);
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

ResultTable rankCollectiveTable(const std::vector<RankRow>& ranks) {
    ResultTable table;
    table.id = "collectives";
    table.title = "Collectives of each step";
    table.columns = {{"rank", "Rank", Unit::Count},
                     {"step", "Step", Unit::Count},
                     symbolColumn("collective", "Collective"),
                     {"enter_ns", "Entered", Unit::Time},
                     {"end_ns", "Ended", Unit::Time}};
    addWorkColumns(table, "work_before", "Longest work before it");
    for (size_t i = 0; i < ranks.size(); ++i) {
        if (!ranks[i].error.empty()) continue;
        const RankEntry& e = ranks[i].entry;
        for (const RankStep& s : e.figures.steps)
            for (const RankCollective& c : s.collectives) {
                ResultRow row;
                row.cells = {e.rank, s.number, c.name, c.enter, c.end};
                addWorkCells(row, c.workBefore);
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
