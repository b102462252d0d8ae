#include "panels/kernels_panel.h"

#include <QTabWidget>
#include <QVBoxLayout>

#include "analysis/kernel_stats.h"
#include "analysis/memcpy_stats.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

KernelsPanel::KernelsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent),
      kernels_(new AnalysisTable(this)),
      copies_(new AnalysisTable(this)) {
    auto* tabs = new QTabWidget(this);
    tabs->setDocumentMode(true);
    tabs->addTab(kernels_, tr("Kernels"));
    tabs->addTab(copies_, tr("Copies and memsets"));
    kernels_->setAccessibleName(tr("kernels"));            // in export titles
    copies_->setAccessibleName(tr("copies and memsets"));  // in export titles
    body()->addWidget(tabs, 1);
    // The result's columns; the launch details and the spread are a
    // right-click on the header away (and in the exports).
    kernels_->setHiddenColumns({"min_ns", "median_ns", "stddev_ns", "share_of_kernel_time",
                                "communication", "streams", "launch.registers_per_thread",
                                "launch.shared_memory_bytes", "launch.occupancy_percent"});
    connect(kernels_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
    connect(copies_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
}

void KernelsPanel::clearContents() {
    kernels_->model()->clearRows();
    copies_->model()->clearRows();
}

AnalysisPanel::Work KernelsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                          AnalysisScope scope, TimeNs) {
    return [this, indexed, scope](const CancelToken& cancel) -> Show {
        const Trace& t = *indexed->trace;
        KernelStatsOptions o;
        o.window = scope.window;
        o.index = indexed->index.get();
        o.cancel = &cancel;
        const auto stats = kernelStats(t, o);
        const auto copies = memcpyStats(t, scope.window, &cancel);
        if (cancel.isCancelled()) return {};
        auto kernelRows = std::make_shared<const ResultRows>(
            resultRows(kernelTable(t, stats, false), t.spanStart));
        auto copyRows =
            std::make_shared<const ResultRows>(resultRows(copyTable(t, copies), t.spanStart));
        return [this, kernelRows, copyRows] {
            kernels_->model()->setResult(*kernelRows);
            kernels_->setDefaultSort(2, Qt::DescendingOrder);
            copies_->model()->setResult(*copyRows);
            copies_->setDefaultSort(6, Qt::DescendingOrder);
        };
    };
}

}  // namespace gapscope::ui
