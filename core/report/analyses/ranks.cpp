// The ranks of a job side by side (analysis/rank_comparison.h): each rank's
// figures, its steps, each step's straggler, and clocks that disagree.

#include <algorithm>

#include "report/analyses/builtin_analyses.h"
#include "report/ranks_report.h"
#include "util/readable_units.h"

namespace gapscope {

namespace {

ResultTable clockTable(const RankComparison& c) {
    ResultTable t;
    t.id = "clock_disagreements";
    t.title = "Clocks that disagree";
    t.columns = {{"step", "Step", Unit::Count},
                 symbolColumn("collective", "Collective"),
                 {"ended_rank", "Ended on rank", Unit::Count},
                 {"ended_ns", "Ended", Unit::Time},
                 {"entered_rank", "Before rank", Unit::Count},
                 {"entered_ns", "Entered", Unit::Time},
                 {"by_ns", "By at least", Unit::Duration}};
    for (const ClockDisagreement& d : c.clockDisagreements) {
        ResultRow r;
        r.cells = {d.step,        d.collective, d.endedRank, d.endedAt,
                   d.enteredRank, d.enteredAt,  d.by()};
        t.rows.push_back(std::move(r));
    }
    return t;
}

// Each disagreement of the clocks (first: it puts the rest in doubt) and
// each step's straggler, in words, with the figures behind them and the
// time the others waited.
std::vector<Finding> verdicts(const RankComparison& c) {
    std::vector<Finding> out;
    for (const ClockDisagreement& d : c.clockDisagreements) {
        Finding f;
        f.rule = "clocks-disagree";
        f.severity = Severity::High;
        f.message = "The ranks' clocks disagree: " + d.sentence() +
                    "; no collective can, so waits and stragglers between them are off" +
                    (c.alignedOn ? "" : " (--align-step N aligns them)") + ".";
        f.figures = {FindingFigure::count("step", d.step),
                     FindingFigure::duration("by_ns", d.by())};
        f.ranges.push_back({d.endedAt, std::max(d.endedAt, d.enteredAt)});
        out.push_back(std::move(f));
    }
    for (const StepStraggler& s : c.stragglers) {
        Finding f;
        f.rule = "straggler";
        f.severity = Severity::Medium;
        f.message =
            "Step " + std::to_string(s.step) + ": rank " + std::to_string(s.rank) + " entered " +
            (s.collective.empty() ? std::string("the collective") : s.collective) +
            " last; the other " + std::to_string(s.waitingRanks) + " waited " +
            readableDuration(s.othersWait) + " in all (rank " + std::to_string(s.longestWaitRank) +
            " longest, " + readableDuration(s.longestWait) + ").";
        if (s.instead)
            f.message += " Before it entered, its longest work was " +
                         std::string(s.instead->gpu ? "GPU " : "CPU ") + s.instead->name + " (" +
                         readableDuration(s.instead->ns()) + ").";
        f.figures = {FindingFigure::count("step", s.step), FindingFigure::count("rank", s.rank),
                     FindingFigure::duration("others_wait_ns", s.othersWait),
                     FindingFigure::duration("longest_wait_ns", s.longestWait),
                     FindingFigure::count("longest_wait_rank", s.longestWaitRank)};
        f.ranges.push_back({s.enteredAt - s.longestWait, s.enteredAt});
        out.push_back(std::move(f));
    }
    return out;
}

AnalysisResult compareJob(const RankJob& job, const AnalysisOptions& options) {
    // The ranks that loaded, compared (aligned when asked); those that did
    // not keep their row, with their error.
    std::vector<RankEntry> entries;
    std::vector<RankRow> rows;
    for (const RankRow& r : job.ranks)
        if (r.error.empty())
            entries.push_back(r.entry);
        else
            rows.push_back(r);
    const auto loaded = static_cast<int64_t>(entries.size());
    RankComparison comparison = compareRanks(entries, options.value("align-step"));
    for (RankEntry& e : entries) {
        RankRow row;
        for (const RankRow& r : job.ranks)
            if (r.error.empty() && r.entry.file == e.file && r.entry.part == e.part)
                row.origin = r.origin;
        row.entry = std::move(e);
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const RankRow& a, const RankRow& b) {
        return a.entry.rank < b.entry.rank;
    });
    // A straggler names its rank by its row (failed files have rows too).
    for (StepStraggler& s : comparison.stragglers)
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].entry.rank == s.rank && rows[i].error.empty()) s.entry = i;

    AnalysisResult r;
    r.addFigure({"ranks_compared", "Ranks compared", Unit::Count}, loaded);
    r.addFigure({"failed", "Files that failed", Unit::Count},
                static_cast<int64_t>(job.ranks.size()) - loaded);
    r.addFigure({"aligned_on_step", "Aligned on step", Unit::Count}, cellOf(comparison.alignedOn));
    r.addFigure(
        {"unaligned_ranks", "Ranks without that step", Unit::Count},
        comparison.alignedOn ? ResultCell(int64_t(comparison.unaligned.size())) : ResultCell());
    r.addFigure({"stragglers_found", "Steps with a straggler", Unit::Count},
                static_cast<int64_t>(comparison.stragglers.size()));
    r.tables = {rankTable(rows, comparison), rankStepTable(rows), rankCollectiveTable(rows),
                stragglerTable(comparison), clockTable(comparison)};
    r.findings = verdicts(comparison);
    if (rows.empty()) r.empty = "No ranks.";
    return r;
}

}  // namespace

Analysis ranksAnalysis() {
    Analysis a;
    a.id = "ranks";
    a.title = "Ranks";
    a.arguments = "DIR|FILE...";
    a.input = AnalysisInput::Ranks;
    a.scoped = false;
    a.usesGapThreshold = true;
    a.hasFindings = true;
    a.what =
        "the ranks of a distributed job side by side: per rank and\nstep, GPU busy, idle by "
        "cause, communication, when each\nentered the step's collective; each step's straggler";
    a.help =
        "The ranks of a distributed job side by side: every trace file given (or in\n"
        "DIR) is a rank (distributedInfo.rank, else worker<N> / rank<N> in the file\n"
        "name, else the order). Per rank and step: step time, GPU busy, idle by cause,\n"
        "communication and exposed communication, when the rank entered the step's\n"
        "collective (its first communication kernel) and how long it waited there.\n"
        "Each step's straggler is the rank that entered last: the others waited for\n"
        "it; a finding says how long in all, and the straggler's longest work before\n"
        "it entered. Files load in parallel (--workers, default the cores); a file\n"
        "that fails is reported and the others are compared.";
    a.options = {{"align-step", OptionSpec::Kind::Index,
                  "shift each rank's times so that its step N starts with\nthe first rank's "
                  "(for ranks whose clocks differ)"}};
    a.helpNotes =
        "Loading the ranks:\n"
        "  --workers N         files opened at once (default: the machine's cores)\n";
    a.primaryTable = "ranks";
    // The terminal's: the figures people compare; every other format writes
    // all (the fleet tool rebuilds each rank from them).
    a.textColumns["ranks"] = {"rank",
                              "host",
                              "steps",
                              "step_time_ns",
                              "busy_share",
                              "comm_ns",
                              "exposed_comm_ns",
                              "wait_ns",
                              "transfer_ns",
                              "straggler_in",
                              "file",
                              "part",
                              "origin",
                              "offset_ns",
                              "aligned",
                              "error"};
    a.textColumns["collectives"] = {
        "rank", "step", "collective", "enter_ns", "end_ns", "work_before.name", "work_before.ns"};
    std::vector<std::string>& steps = a.textColumns["rank_steps"];
    steps = {"rank", "host", "step", "start_ns", "duration_ns", "busy_share", "busy_ns", "idle_ns"};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        steps.push_back(std::string("idle_") + gapCauseName(GapCause(c)) + "_ns");
    steps.insert(steps.end(), {"idle_short_ns", "comm_ns", "exposed_comm_ns", "entered_ns",
                               "wait_ns", "transfer_ns", "error"});
    a.schemaVersion = 2;
    a.compareRanks = compareJob;
    return a;
}

}  // namespace gapscope
