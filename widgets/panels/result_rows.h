#pragma once
// A core result table (report/result_table.h) as a panel's model shows it:
// its columns, its rows as typed cells (made off the GUI thread), and the
// result itself, which the model keeps so that the panel's exports are the
// CLI's renderings of the same table.

#include <memory>
#include <vector>

#include "panels/analysis_table.h"
#include "report/result_table.h"

namespace gapscope::ui {

struct ResultRows {
    std::shared_ptr<const ResultTable> result;
    std::vector<TableColumn> columns;
    AnalysisTableModel::Rows rows;
    TimeNs origin = 0;  // points in time are shown from here (the trace's start)
};

ResultRows resultRows(ResultTable table, TimeNs origin);
NavTarget navTargetOf(const ResultRef& ref);

}  // namespace gapscope::ui
