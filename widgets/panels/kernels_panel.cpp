#include "panels/kernels_panel.h"

#include <QTabWidget>
#include <QVBoxLayout>
#include <variant>

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

struct KernelsPanel::Computed {
    ResultRows kernels, copies;
};

namespace {

std::optional<KernelsPanel::Computed> computeKernels(const AnalysisPanel::Request& request,
                                                     const std::monostate&) {
    const Trace& t = request.trace();
    KernelStatsOptions o;
    o.window = request.scope.window;
    o.index = request.indexed->index.get();
    o.cancel = request.cancel;
    const auto stats = kernelStats(t, o);
    const auto copies = memcpyStats(t, request.scope.window, request.cancel);
    if (request.cancelled()) return std::nullopt;
    return KernelsPanel::Computed{resultRows(kernelTable(t, stats, false), t.spanStart),
                                  resultRows(copyTable(t, copies), t.spanStart)};
}

}  // namespace

AnalysisPanel::Work KernelsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                          AnalysisScope scope, TimeNs threshold) {
    return computeThen(indexed, scope, threshold, std::monostate{}, &computeKernels,
                       &KernelsPanel::present);
}

void KernelsPanel::present(const Computed& c) {
    kernels_->model()->setResult(c.kernels);
    kernels_->setDefaultSort(2, Qt::DescendingOrder);
    copies_->model()->setResult(c.copies);
    copies_->setDefaultSort(6, Qt::DescendingOrder);
}

}  // namespace gapscope::ui
