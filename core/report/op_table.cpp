#include "report/op_table.h"

#include <cstdio>

namespace gapscope {

Table opTable(const Trace& t, const std::vector<OpStats>& ops, size_t top,
              const std::function<std::string(std::string_view)>& name) {
    Table table;
    table.headers = {"op", "count", "inclusive ns", "self ns", "GPU ns", "% step"};
    table.numeric = {false, true, true, true, true, true};
    for (size_t i = 0; i < ops.size() && (top == 0 || i < top); ++i) {
        const OpStats& o = ops[i];
        std::string share = "-";
        if (o.shareOfStepTime) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2f", 100.0 * *o.shareOfStepTime);
            share = buf;
        }
        table.rows.push_back({name ? name(t.str(o.name)) : std::string(t.str(o.name)),
                              std::to_string(o.count), std::to_string(o.inclusive),
                              std::to_string(o.self), std::to_string(o.gpu), share});
    }
    return table;
}

}  // namespace gapscope
