#include <algorithm>
#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

ResultTable gapTable(const Trace& t, const std::vector<DeviceGaps>& devices) {
    ResultTable table;
    table.id = "gaps";
    table.title = "Idle gaps";
    table.columns = {{"device", "GPU", Unit::Count}, {"start_ns", "Start", Unit::Time},
                     {"end_ns", "End", Unit::Time},  {"duration_ns", "Duration", Unit::Duration},
                     {"cause", "Cause", Unit::Text}, {"evidence", "CPU was in", Unit::Text}};
    for (const DeviceGaps& d : devices) {
        for (const CausedGap& g : d.gaps) {
            std::vector<std::string> names;
            for (const uint32_t e : g.evidence) {
                std::string name(t.str(t.slices[e].name));
                if (std::find(names.begin(), names.end(), name) == names.end())
                    names.push_back(std::move(name));
            }
            ResultRow r;
            r.cells = {int64_t{d.device},
                       g.gap.start,
                       g.gap.end,
                       g.gap.length(),
                       std::string(gapCauseName(g.cause)),
                       names.empty() ? ResultCell() : ResultCell(std::move(names))};
            r.ref.kind = ResultRef::Kind::Range;
            r.ref.range = g.gap;
            table.rows.push_back(std::move(r));
        }
    }
    return table;
}

}  // namespace gapscope
