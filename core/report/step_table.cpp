#include <algorithm>
#include <optional>
#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

namespace {

std::string partTitle(StepPart p) {
    switch (p) {
        case StepPart::Compute:
            return "Compute";
        case StepPart::ExposedComm:
            return "Exposed comm";
        case StepPart::ExposedMemcpy:
            return "Exposed memcpy";
        case StepPart::IdleShort:
            return "Idle: short gaps";
        case StepPart::Cpu:
            return "CPU";
        default:
            break;
    }
    return std::string("Idle: ") +
           gapCauseName(GapCause(static_cast<int>(p) - static_cast<int>(StepPart::IdleInput)));
}

// The step's rank where ranks are merged; the readable views leave it out
// of a single trace's table.
ResultColumn rankColumn() {
    ResultColumn c{"rank", "Rank", Unit::Count};
    c.sparse = true;
    return c;
}

}  // namespace

namespace {

// The exposed copies of a breakdown by direction: a column each.
void addDirectionColumns(ResultTable& table) {
    for (size_t d = 0; d < kCopyDirectionCount; ++d) {
        const std::string dir = copyDirectionName(CopyDirection(d));
        table.columns.push_back(
            {"exposed_memcpy_" + dir + "_ns", "Exposed memcpy " + dir, Unit::Duration});
    }
}

void addDirectionCells(ResultRow& r, const GpuParts* b) {
    for (size_t d = 0; d < kCopyDirectionCount; ++d)
        r.cells.push_back(b ? ResultCell(b->memcpyByDirection[d]) : ResultCell());
}

}  // namespace

ResultTable stepTable(const StepsResult& steps) {
    ResultTable table;
    table.id = "steps";
    table.title = "Steps";
    // The lead-in, then the window and its parts: lead-in + window is the
    // step's share of the GPU's step time.
    table.columns = {{"step", "Step", Unit::Count}};
    table.columns.push_back(rankColumn());
    table.columns.insert(table.columns.end(), {{"device", "GPU", Unit::Count},
                                               {"start_ns", "Start", Unit::Time},
                                               {"end_ns", "End", Unit::Time},
                                               {"duration_ns", "Duration", Unit::Duration},
                                               {"lead_in_ns", "Lead-in", Unit::Duration}});
    ResultColumn causeColumn{"lead_in_cause", "Lead-in cause", Unit::Text};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        causeColumn.labels.emplace_back(gapCauseName(GapCause(c)), gapCauseName(GapCause(c)));
    table.columns.push_back(std::move(causeColumn));
    table.columns.push_back({"gpu_window_ns", "GPU window", Unit::Duration});
    table.columns.push_back({"gpu_window_start_ns", "GPU window start", Unit::Time});
    table.columns.push_back({"window_from", "Window from", Unit::Text});
    for (size_t p = 0; p < kStepPartCount; ++p)
        table.columns.push_back({std::string(stepPartName(StepPart(p))) + "_ns",
                                 partTitle(StepPart(p)), Unit::Duration});
    addDirectionColumns(table);
    table.columns.push_back({"slow", "Slow", Unit::Flag});
    ResultColumn because{"slower_because", "Slower because", Unit::Text};
    for (size_t p = 0; p < kStepPartCount; ++p)
        because.labels.emplace_back(stepPartName(StepPart(p)), partTitle(StepPart(p)));
    table.columns.push_back(std::move(because));
    table.columns.push_back({"grew_by_ns", "Grew by", Unit::Duration});
    for (const StepReport& s : steps.steps) {
        auto row = [&](const StepBreakdown* b, bool first) {
            ResultRow r;
            const std::optional<GapCause> leadInCause = b ? b->leadInCause() : std::nullopt;
            r.cells = {s.step.number};
            r.cells.push_back(s.rank ? ResultCell(*s.rank) : ResultCell());
            r.cells.insert(
                r.cells.end(),
                {b ? ResultCell(int64_t{b->device}) : ResultCell(), s.step.span.start,
                 s.step.span.end, s.duration, b ? ResultCell(b->leadIn.length()) : ResultCell(),
                 leadInCause ? ResultCell(std::string(gapCauseName(*leadInCause))) : ResultCell(),
                 b ? ResultCell(b->gpuWindow.length()) : ResultCell(),
                 b ? ResultCell(b->gpuWindow.start) : ResultCell(),
                 b ? ResultCell(std::string(windowSourceName(b->source))) : ResultCell()});
            for (size_t p = 0; p < kStepPartCount; ++p)
                r.cells.push_back(b ? ResultCell(b->part(StepPart(p))) : ResultCell());
            addDirectionCells(r, b);
            const bool why = first && s.slowerBecause;
            r.cells.push_back(int64_t{s.slow});
            r.cells.push_back(why ? ResultCell(std::string(stepPartName(*s.slowerBecause)))
                                  : ResultCell());
            r.cells.push_back(why ? ResultCell(s.grewBy) : ResultCell());
            r.ref.kind = ResultRef::Kind::Step;
            r.ref.slice = s.step.slice;
            r.ref.range = s.step.span;
            r.ref.step = s.step.number;
            table.rows.push_back(std::move(r));
        };
        if (s.devices.empty()) row(nullptr, true);
        for (const StepBreakdown& b : s.devices)
            row(&b, &b == &s.devices.front());
    }
    return table;
}

}  // namespace gapscope

namespace gapscope {

ResultTable leadInTable(const StepsResult& steps) {
    ResultTable table;
    table.id = "lead_ins";
    table.title = "Lead-ins";
    table.columns = {{"step", "Step", Unit::Count}};
    table.columns.push_back(rankColumn());
    table.columns.insert(table.columns.end(), {{"device", "GPU", Unit::Count},
                                               {"start_ns", "Start", Unit::Time},
                                               {"lead_in_ns", "Lead-in", Unit::Duration},
                                               {"cause", "Cause", Unit::Text}});
    for (size_t p = 0; p < kStepPartCount; ++p)
        table.columns.push_back({std::string(stepPartName(StepPart(p))) + "_ns",
                                 partTitle(StepPart(p)), Unit::Duration});
    addDirectionColumns(table);
    for (const StepReport& s : steps.steps) {
        for (const StepBreakdown& b : s.devices) {
            const std::optional<GapCause> cause = b.leadInCause();
            ResultRow r;
            r.cells = {s.step.number};
            r.cells.push_back(s.rank ? ResultCell(*s.rank) : ResultCell());
            r.cells.insert(r.cells.end(),
                           {int64_t{b.device}, b.leadIn.start, b.leadIn.length(),
                            cause ? ResultCell(std::string(gapCauseName(*cause))) : ResultCell()});
            for (size_t p = 0; p < kStepPartCount; ++p)
                r.cells.push_back(b.leadInParts.part(StepPart(p)));
            addDirectionCells(r, &b.leadInParts);
            r.ref.kind = ResultRef::Kind::Range;
            r.ref.range = b.leadIn;
            table.rows.push_back(std::move(r));
        }
    }
    return table;
}

}  // namespace gapscope
