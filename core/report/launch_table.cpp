#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

ResultTable launchTable(const Trace& t, const LaunchOverhead& launch) {
    ResultTable table;
    table.id = "launch";
    table.title = "Launch delay per kernel";
    table.columns = {symbolColumn("name", "Kernel"),
                     {"count", "Count", Unit::Count},
                     {"mean_delay_ns", "Mean delay", Unit::Duration},
                     {"max_delay_ns", "Max delay", Unit::Duration},
                     {"mean_launch_ns", "Mean launch call", Unit::Duration}};
    for (const KernelLaunchDelay& k : launch.byName) {
        ResultRow r;
        r.cells = {std::string(t.str(k.name)), static_cast<int64_t>(k.count), k.meanDelay,
                   k.maxDelay, k.meanLaunch};
        r.ref.kind = ResultRef::Kind::Name;
        r.ref.name = k.name;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
