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
    const AnalysisResult kernels = request.compute("kernels");
    const AnalysisResult copies = request.compute("memcpy");
    if (request.cancelled() || !kernels.table("kernels") || !copies.table("copies"))
        return std::nullopt;
    const TimeNs origin = request.trace().spanStart;
    return KernelsPanel::Computed{resultRows(*kernels.table("kernels"), origin),
                                  resultRows(*copies.table("copies"), origin)};
}

}  // namespace

AnalysisPanel::Work KernelsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                          AnalysisScope scope, TimeNs threshold) {
    return computeThen(indexed, scope, threshold, std::monostate{}, &computeKernels,
                       &KernelsPanel::present);
}

void KernelsPanel::present(const Computed& c) {
    kernels_->model()->setResult(c.kernels);
    kernels_->setDefaultSort(QStringLiteral("total_ns"), Qt::DescendingOrder);
    copies_->model()->setResult(c.copies);
    copies_->setDefaultSort(QStringLiteral("total_ns"), Qt::DescendingOrder);
}

}  // namespace gapscope::ui
