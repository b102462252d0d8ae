#include "analysis/slice_queries.h"
#include "report/analysis_tables.h"

namespace gapscope {

ResultTable healthTable(const Trace& t, const TraceHealth& health) {
    ResultTable table;
    table.id = "health";
    table.title = "Trace health";
    // What it means before the first instance: an instance's name or a
    // profiler's message can be long.
    table.columns = {{"check", "Check", Unit::Text},          {"title", "What", Unit::Text},
                     {"severity", "Severity", Unit::Text},    {"count", "Count", Unit::Count},
                     {"effect", "What it means", Unit::Text}, {"first_ns", "First at", Unit::Time},
                     {"first", "First", Unit::Text}};
    for (const HealthCheck& c : health.checks) {
        ResultRow r;
        const bool example = !c.examples.empty();
        r.cells = {c.id,
                   c.title,
                   std::string(healthSeverityName(c.severity)),
                   static_cast<int64_t>(c.count),
                   c.effect,
                   example ? ResultCell(t.slices[c.examples.front()].start) : ResultCell(),
                   example ? ResultCell(std::string(t.str(t.slices[c.examples.front()].name)))
                   : c.detail.empty() ? ResultCell()
                                      : ResultCell(c.detail)};
        if (example) {
            r.ref.kind = ResultRef::Kind::Slice;
            r.ref.slice = c.examples.front();
        }
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultTable healthInstancesTable(const Trace& t, const TraceHealth& health) {
    ResultTable table;
    table.id = "health_instances";
    table.title = "First instances";
    // The check's id, as the health table's; people read its title.
    ResultColumn checkColumn{"check", "Check", Unit::Text};
    for (const HealthCheck& c : health.checks)
        checkColumn.labels.emplace_back(c.id, c.title);
    table.columns = {checkColumn,
                     {"start_ns", "Start", Unit::Time},
                     {"duration_ns", "Duration", Unit::Duration},
                     symbolColumn("name", "Name"),
                     {"track", "Track", Unit::Text}};
    for (const HealthCheck& check : health.checks) {
        for (const uint32_t i : check.examples) {
            const Slice& s = t.slices[i];
            ResultRow r;
            r.cells = {check.id, s.start, s.dur, std::string(t.str(s.name)),
                       trackLabel(t, t.trackOfSlice(i))};
            r.ref.kind = ResultRef::Kind::Slice;
            r.ref.slice = i;
            table.rows.push_back(std::move(r));
        }
    }
    return table;
}

}  // namespace gapscope
