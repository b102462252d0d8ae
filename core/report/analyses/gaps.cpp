// Each GPU's idle gaps with their cause: the idle of the GPU time account
// (analysis/gpu_time_account.h, analysis/gap_causes.h).

#include "analysis/gpu_time_account.h"
#include "analysis/slice_queries.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// Per device: its time, busy, idle by cause and the short gaps.
ResultTable gapTotals(const TimeAccount& account, const std::vector<DeviceGaps>& devices) {
    ResultTable table;
    table.id = "gap_totals";
    table.title = "Idle time by cause";
    table.columns = {{"device", "GPU", Unit::Count},
                     {"denominator", "Over", Unit::Text},
                     {"time_ns", "Time", Unit::Duration},
                     {"busy_ns", "Busy", Unit::Duration}};
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        const std::string cause = gapCauseName(static_cast<GapCause>(c));
        std::string title = cause;
        title[0] = static_cast<char>(title[0] - 'a' + 'A');
        table.columns.push_back({"by_cause." + cause, title, Unit::Duration});
    }
    table.columns.push_back({"short_gaps.count", "Short gaps", Unit::Count});
    table.columns.push_back({"short_gaps.total_ns", "Short gaps' time", Unit::Duration});
    for (size_t i = 0; i < devices.size(); ++i) {
        const DeviceGaps& d = devices[i];
        const GpuTimeAccount& a = account.devices[i];
        ResultRow r;
        r.cells = {int64_t{d.device}, std::string(denominatorName(a.denominator)), a.time, d.busy};
        for (const TimeNs ns : d.byCause)
            r.cells.push_back(ns);
        r.cells.push_back(static_cast<int64_t>(d.shortCount));
        r.cells.push_back(d.shortTotal);
        table.rows.push_back(std::move(r));
    }
    return table;
}

// The CPU slices behind each listed gap's cause.
ResultTable gapEvidence(const Trace& t, const std::vector<DeviceGaps>& devices) {
    ResultTable table;
    table.id = "gap_evidence";
    table.title = "Evidence";
    table.columns = {{"device", "GPU", Unit::Count},    {"gap_start_ns", "Gap start", Unit::Time},
                     symbolColumn("name", "CPU slice"), {"start_ns", "Start", Unit::Time},
                     {"end_ns", "End", Unit::Time},     {"track", "Track", Unit::Text}};
    for (const DeviceGaps& d : devices) {
        for (const CausedGap& g : d.gaps) {
            for (const uint32_t s : g.evidence) {
                ResultRow r;
                r.cells = {
                    int64_t{d.device}, g.gap.start,       std::string(t.str(t.slices[s].name)),
                    t.slices[s].start, t.slices[s].end(), trackLabel(t, t.trackOfSlice(s))};
                r.ref.kind = ResultRef::Kind::Slice;
                r.ref.slice = s;
                table.rows.push_back(std::move(r));
            }
        }
    }
    return table;
}

}  // namespace

Analysis gapsAnalysis() {
    Analysis a;
    a.id = "gaps";
    a.title = "Idle gaps";
    a.what =
        "each GPU's idle gaps with their cause (input,\nsynchronization, communication, host, "
        "other) and the\nevidence";
    a.help =
        "Each GPU's idle gaps of at least N us (default 100), with the first cause that\n"
        "holds: input (the host was in a DataLoader __next__ / IteratorGetNext /\n"
        "Iterator:: for at least half of the gap), synchronization (a cuda*Synchronize or\n"
        "a blocking device-to-host read for half of it), communication (the gap ends in a\n"
        "collective kernel, or the host waited in one for half of it), host (the kernel\n"
        "that ends the gap was launched after the gap began: host-bound), other. Shorter\n"
        "gaps are totalled as short gaps. Evidence: the CPU slices behind the cause.\n"
        "The gaps are the idle time of the GPU time account: with steps, of each GPU's\n"
        "step time (the steps' lead-ins and GPU windows; a gap that crosses a step\n"
        "boundary is one gap), else of its active span; per cause they add up to the\n"
        "idle that every other command reports. --step keeps that step, --range the\n"
        "steps that start inside it (both: their intersection as the range), whole (a\n"
        "gap is cut where their time ends); without steps in it, the range itself.";
    a.usesGapThreshold = true;
    a.options = {{"active-span", OptionSpec::Kind::Flag,
                  "every GPU over its active span (first to last activity),\n"
                  "steps or not: HTA's idle time breakdown's time"}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        StepOptions options = scope.stepOptions();
        // Step N alone: that step whole; with a range too: their
        // intersection as any range (the steps that start inside it).
        if (scope.step && !scope.range) options.onlyNumber = *scope.step;
        GapOptions spanOptions;  // --active-span: no steps, the window
        spanOptions.window = options.window;
        spanOptions.minGapNs = options.minGapNs;
        spanOptions.index = scope.index;
        spanOptions.cancel = scope.cancel;
        const TimeAccount account =
            o.flag("active-span")
                ? timeAccount({}, timeBreakdowns(t, options.window), gapsWithCauses(t, spanOptions))
                : timeAccountOf(t, options);
        const std::vector<DeviceGaps> devices = accountGaps(account);
        AnalysisResult r;
        r.addFigure({"threshold_ns", "Threshold", Unit::Duration}, options.minGapNs);
        // All GPUs together: their time, busy, idle by cause and short gaps.
        std::array<TimeNs, kGapCauseCount> byCause{};
        TimeNs busy = 0, shortTotal = 0;
        int64_t shortCount = 0, listed = 0;
        for (const DeviceGaps& d : devices) {
            for (size_t c = 0; c < kGapCauseCount; ++c)
                byCause[c] += d.byCause[c];
            busy += d.busy;
            shortTotal += d.shortTotal;
            shortCount += static_cast<int64_t>(d.shortCount);
            listed += static_cast<int64_t>(d.gaps.size());
        }
        r.addFigure({"time_ns", "GPUs' time", Unit::Duration}, account.time());
        r.addFigure({"busy_ns", "Busy", Unit::Duration}, busy);
        r.addFigure({"gap_count", "Gaps listed", Unit::Count}, listed);
        for (size_t c = 0; c < kGapCauseCount; ++c) {
            const std::string cause = gapCauseName(static_cast<GapCause>(c));
            ResultColumn column{"idle_by_cause." + cause, "Idle: " + cause, Unit::Duration};
            column.of = "time_ns";
            r.addFigure(column, byCause[c]);
        }
        r.addFigure({"short_gaps.count", "Short gaps", Unit::Count}, shortCount);
        r.addFigure({"short_gaps.total_ns", "Short gaps' time", Unit::Duration}, shortTotal);
        r.tables.push_back(gapTable(t, devices));
        r.tables.push_back(gapTotals(account, devices));
        r.tables.push_back(gapEvidence(t, devices));
        if (devices.empty()) r.empty = scope.nothing("GPU activity");
        return r;
    };
    return a;
}

}  // namespace gapscope
