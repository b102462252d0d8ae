#include "panels/kernels_panel.h"

#include <QTabWidget>
#include <QVBoxLayout>

#include "analysis/kernel_stats.h"
#include "analysis/memcpy_stats.h"
#include "panels/analysis_table.h"

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
    kernels_->model()->setColumns({{tr("Kernel"), CellKind::Text},
                                   {tr("Count"), CellKind::Count},
                                   {tr("Total"), CellKind::Duration},
                                   {tr("Mean"), CellKind::Duration},
                                   {tr("Median"), CellKind::Duration},
                                   {tr("p95"), CellKind::Duration},
                                   {tr("Max"), CellKind::Duration},
                                   {tr("% busy"), CellKind::Percent},
                                   {tr("Tensor Cores"), CellKind::Text},
                                   {tr("Launched by"), CellKind::Text},
                                   {tr("Grid × block"), CellKind::Text}});
    copies_->model()->setColumns({{tr("GPU"), CellKind::Count},
                                  {tr("Kind"), CellKind::Text},
                                  {tr("Name"), CellKind::Text},
                                  {tr("Direction"), CellKind::Text},
                                  {tr("Host memory"), CellKind::Text},
                                  {tr("Count"), CellKind::Count},
                                  {tr("Total"), CellKind::Duration},
                                  {tr("Bytes"), CellKind::Bytes},
                                  {tr("GB/s"), CellKind::Number}});
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
        auto kernelRows = std::make_shared<std::vector<TableRow>>();
        for (const KernelStats& k : stats) {
            TableRow r;
            QString grid;
            if (k.launch)
                grid = QStringLiteral("%1×%2×%3 × %4×%5×%6")
                           .arg(k.launch->grid[0])
                           .arg(k.launch->grid[1])
                           .arg(k.launch->grid[2])
                           .arg(k.launch->block[0])
                           .arg(k.launch->block[1])
                           .arg(k.launch->block[2]);
            r.cells = {TableCell::ofText(QString::fromUtf8(t.str(k.name))),
                       TableCell::of(static_cast<double>(k.count)),
                       TableCell::of(static_cast<double>(k.total)),
                       TableCell::of(k.mean),
                       TableCell::of(static_cast<double>(k.median)),
                       TableCell::of(static_cast<double>(k.p95)),
                       TableCell::of(static_cast<double>(k.max)),
                       TableCell::of(k.shareOfBusyTime),
                       TableCell::ofText(k.tensorCores == TensorCoreUse::Yes  ? tr("yes")
                                         : k.tensorCores == TensorCoreUse::No ? tr("no")
                                                                              : tr("unknown")),
                       k.launchedBy ? TableCell::ofText(QString::fromUtf8(t.str(*k.launchedBy)))
                                    : TableCell::none(),
                       grid.isEmpty() ? TableCell::none() : TableCell::ofText(grid)};
            r.target.kind = NavTarget::Kind::Name;
            r.target.name = k.name;
            r.target.slice = k.firstSlice;
            kernelRows->push_back(std::move(r));
        }
        auto copyRows = std::make_shared<std::vector<TableRow>>();
        for (const CopyStats& c : copies) {
            TableRow r;
            const char* memory = c.memory == HostMemory::Pageable ? "pageable"
                                 : c.memory == HostMemory::Pinned ? "pinned"
                                                                  : nullptr;
            r.cells = {
                TableCell::of(c.device),
                TableCell::ofText(c.kind == ActivityKind::Memset ? tr("memset") : tr("memcpy")),
                TableCell::ofText(QString::fromUtf8(t.str(c.name))),
                c.direction ? TableCell::ofText(copyDirectionName(*c.direction))
                            : TableCell::none(),
                memory ? TableCell::ofText(memory) : TableCell::none(),
                TableCell::of(static_cast<double>(c.count)),
                TableCell::of(static_cast<double>(c.total)),
                c.bytes ? TableCell::of(static_cast<double>(*c.bytes)) : TableCell::none(),
                c.bandwidthGBps ? TableCell::of(*c.bandwidthGBps) : TableCell::none()};
            r.target.kind = NavTarget::Kind::Name;
            r.target.name = c.name;
            r.target.slice = c.longestSlice;
            copyRows->push_back(std::move(r));
        }
        return [this, kernelRows, copyRows] {
            kernels_->model()->setRows(kernelRows);
            kernels_->setDefaultSort(2, Qt::DescendingOrder);
            copies_->model()->setRows(copyRows);
            copies_->setDefaultSort(6, Qt::DescendingOrder);
        };
    };
}

}  // namespace gapscope::ui
