#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

ResultTable accountTable(const TimeAccount& account,
                         const std::vector<GpuTimeBreakdown>& breakdowns) {
    ResultTable table;
    table.id = "gpus";
    table.title = "GPU time";
    table.columns = {{"device", "GPU", Unit::Count},
                     {"of", "Of", Unit::Text},
                     {"steps", "Steps", Unit::Count},
                     {"time_ns", "Time", Unit::Duration},
                     {"busy_share", "Busy", Unit::Share},
                     {"busy_ns", "Busy time", Unit::Duration},
                     {"computation_ns", "Computation", Unit::Duration},
                     {"exposed_comm_ns", "Exposed communication", Unit::Duration},
                     {"exposed_memcpy_ns", "Exposed memcpy", Unit::Duration},
                     {"idle_ns", "Idle", Unit::Duration}};
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        const std::string name = gapCauseName(GapCause(c));
        table.columns.push_back({"idle_" + name + "_ns", "Idle: " + name, Unit::Duration});
    }
    table.columns.push_back({"idle_short_ns", "Idle: short gaps", Unit::Duration});
    table.columns.push_back({"active_from_ns", "First activity", Unit::Time});
    table.columns.push_back({"active_to_ns", "Last activity", Unit::Time});
    for (const GpuTimeAccount& d : account.devices) {
        ResultRow r;
        r.cells = {
            int64_t{d.device},
            std::string(denominatorName(d.denominator)),
            d.denominator == Denominator::StepTime ? ResultCell(int64_t(d.steps)) : ResultCell(),
            d.time,
            d.time > 0 ? ResultCell(double(d.busy()) / double(d.time)) : ResultCell(),
            d.busy(),
            d.computation,
            d.exposedComm,
            d.exposedMemcpy,
            d.idle()};
        for (const TimeNs v : d.idleByCause)
            r.cells.push_back(v);
        r.cells.push_back(d.idleShort);
        std::optional<Interval> span;
        for (const GpuTimeBreakdown& b : breakdowns)
            if (b.device == d.device) span = b.activeSpan;
        r.cells.push_back(span ? ResultCell(span->start) : ResultCell());
        r.cells.push_back(span ? ResultCell(span->end) : ResultCell());
        r.ref.kind = span ? ResultRef::Kind::Range : ResultRef::Kind::None;
        if (span) r.ref.range = *span;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable breakdownTable(const std::vector<GpuTimeBreakdown>& breakdowns) {
    ResultTable table;
    table.id = "timeline";
    table.title = "GPU time breakdown";
    table.columns = {{"device", "GPU", Unit::Count},
                     {"computation_ns", "Computation", Unit::Duration},
                     {"exposed_comm_ns", "Exposed communication", Unit::Duration},
                     {"exposed_memcpy_ns", "Exposed memcpy", Unit::Duration},
                     {"busy_ns", "Busy time", Unit::Duration},
                     {"idle_ns", "Idle", Unit::Duration},
                     {"total_ns", "Active span", Unit::Duration},
                     {"busy_share", "Busy of active span", Unit::Share},
                     {"total_comm_ns", "Communication", Unit::Duration},
                     {"total_memcpy_ns", "Memcpy", Unit::Duration},
                     {"comm_overlap", "Communication overlapped", Unit::Share}};
    for (const GpuTimeBreakdown& b : breakdowns) {
        ResultRow r;
        r.cells = {int64_t{b.device},
                   b.computation,
                   b.exposedComm,
                   b.exposedMemcpy,
                   b.busy,
                   b.idle,
                   b.total,
                   b.total > 0 ? ResultCell(double(b.busy) / double(b.total)) : ResultCell(),
                   b.totalComm,
                   b.totalMemcpy,
                   cellOf(b.commOverlap)};
        if (b.activeSpan) {
            r.ref.kind = ResultRef::Kind::Range;
            r.ref.range = *b.activeSpan;
        }
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
