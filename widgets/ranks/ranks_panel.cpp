#include "ranks/ranks_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "analysis/distribution.h"
#include "analysis/rank_totals.h"
#include "panels/analysis_table.h"
#include "panels/units.h"
#include "ranks/rank_heat_map.h"

namespace gapscope::ui {

namespace {

QString fileName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).fileName();
}

// A kernel's name can be kilobytes of template arguments.
QString elided(const QString& text, int keep = 90) {
    return text.size() <= keep ? text : text.left(keep * 2 / 3) + "…" + text.right(keep / 3);
}

QString workText(const std::optional<RankWork>& w) {
    if (!w) return {};
    return (w->gpu ? QObject::tr("GPU ") : QObject::tr("CPU ")) + QString::fromStdString(w->name);
}

}  // namespace

RanksPanel::RanksPanel(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      metric_(new QComboBox(this)),
      heatMap_(new RankHeatMap(this)),
      ranks_(new AnalysisTable(this)),
      stragglers_(new AnalysisTable(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Colour:"), this));
    metric_->addItem(tr("Step time"));
    metric_->addItem(tr("Idle share"));
    metric_->addItem(tr("Wait in the collective"));
    metric_->setAccessibleName(tr("heat map colour"));
    pick->addWidget(metric_);
    pick->addStretch(1);
    layout->addLayout(pick);
    split_ = new QSplitter(Qt::Horizontal, this);
    QSplitter* split = split_;
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(heatMap_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* tabs = new QTabWidget(split);
    tabs->setDocumentMode(true);
    tabs->addTab(ranks_, tr("Ranks"));
    tabs->addTab(stragglers_, tr("Stragglers"));
    split->addWidget(scroll);
    split->addWidget(tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    ranks_->setAccessibleName(tr("ranks"));
    stragglers_->setAccessibleName(tr("stragglers"));
    ranks_->model()->setColumns({{tr("Rank"), CellKind::Count},
                                 {tr("Host"), CellKind::Text},
                                 {tr("Steps"), CellKind::Count},
                                 {tr("Step time"), CellKind::Duration},
                                 {tr("GPU busy"), CellKind::Percent},
                                 {tr("Communication"), CellKind::Duration},
                                 {tr("Exposed comm"), CellKind::Duration},
                                 {tr("Waited"), CellKind::Duration},
                                 {tr("In transfer"), CellKind::Duration},
                                 {tr("Straggler in"), CellKind::Count},
                                 {tr("File"), CellKind::Text}});
    stragglers_->model()->setColumns({{tr("Step"), CellKind::Count},
                                      {tr("Straggler"), CellKind::Count},
                                      {tr("In collective"), CellKind::Text},
                                      {tr("Others waited"), CellKind::Duration},
                                      {tr("Longest wait"), CellKind::Duration},
                                      {tr("By rank"), CellKind::Count},
                                      {tr("Its longest work before"), CellKind::Text},
                                      {tr("For"), CellKind::Duration}});
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this](int i) { heatMap_->setMetric(static_cast<RankHeatMap::Metric>(i)); });
    connect(heatMap_, &RankHeatMap::cellActivated, this, &RanksPanel::activate);
    // Rows lead to a step of a rank: the target's step and, in `slice`,
    // the rank's row in the document.
    auto rowActivated = [this](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) activate(t.slice, t.step);
    };
    connect(ranks_, &AnalysisTable::activated, this, rowActivated);
    connect(stragglers_, &AnalysisTable::activated, this, rowActivated);
    setDocument(nullptr, false);
}

QString RanksPanel::summaryText() const {
    return summary_->text();
}

void RanksPanel::setDocument(std::shared_ptr<const RanksDocument> doc, bool withTrace) {
    doc_ = std::move(doc);
    withTrace_ = withTrace;
    heatMap_->setDocument(doc_);
    fillTables();
    // The heat map as wide as it wants, up to half the panel.
    const int total = std::max(split_->width(), 600);
    const int map = std::min(heatMap_->sizeHint().width() + 24, total / 2);
    split_->setSizes({map, total - map});
    if (!doc_) {
        summary_->setText(
            tr("Open a folder of per-rank traces, several traces at once, or a "
               "fleet table (*.fleet.json) to compare ranks."));
        return;
    }
    size_t loaded = 0, failed = 0;
    std::set<int64_t> steps;
    for (const RankRow& r : doc_->ranks) {
        (r.error.empty() ? loaded : failed) += 1;
        for (const RankStep& s : r.entry.figures.steps)
            steps.insert(s.number);
    }
    QString text = (loaded == 1 ? tr("<b>1 rank</b>") : tr("<b>%1 ranks</b>").arg(loaded)) + ", " +
                   (steps.size() == 1 ? tr("1 step") : tr("%1 steps").arg(steps.size()));
    if (doc_->fleet)
        text += tr(" (a fleet table of %1 traces%2)")
                    .arg(doc_->fleetTraces)
                    .arg(doc_->fleetFailed.empty()
                             ? QString()
                             : tr(", %1 could not be summarised").arg(doc_->fleetFailed.size()));
    if (failed) text += tr("; %1 files could not be read").arg(failed);
    if (doc_->comparison.alignedOn)
        text += tr("; aligned on step %1").arg(*doc_->comparison.alignedOn);
    text += ".";
    // Per straggling rank: how often, what it cost the others, and its worst step.
    std::map<int64_t, std::vector<const StepStraggler*>> byRank;
    for (const StepStraggler& st : doc_->comparison.stragglers)
        byRank[st.rank].push_back(&st);
    std::vector<std::pair<TimeNs, int64_t>> order;  // most costly first
    for (const auto& [rank, list] : byRank) {
        TimeNs cost = 0;  // saturating: waits summed over many steps and ranks
        for (const StepStraggler* st : list)
            if (__builtin_add_overflow(cost, st->othersWait, &cost)) cost = INT64_MAX;
        order.push_back({-std::min(cost, INT64_MAX - 1), rank});
    }
    std::sort(order.begin(), order.end());
    const size_t stepsWithOne = doc_->comparison.stragglers.size();
    for (size_t i = 0; i < order.size() && i < 3; ++i) {
        const std::vector<const StepStraggler*>& list = byRank[order[i].second];
        const StepStraggler* worst = *std::max_element(
            list.begin(), list.end(), [](const StepStraggler* a, const StepStraggler* b) {
                return a->othersWait < b->othersWait;
            });
        // Per step, as a step lasts: the median wait it caused, and the worst.
        std::vector<TimeNs> waits;
        for (const StepStraggler* st : list)
            waits.push_back(st->othersWait);
        text += "<br>" + tr("<b>Rank %1</b> entered the collective last in %2 of %3 steps; in "
                            "those the others waited a median of %4 per step for it.")
                             .arg(order[i].second)
                             .arg(list.size())
                             .arg(stepsWithOne)
                             .arg(shortDuration(medianOf(std::move(waits))));
        text += " " + tr("Worst: step %1, %2 (rank %3 longest, %4).")
                          .arg(worst->step)
                          .arg(shortDuration(worst->othersWait))
                          .arg(worst->longestWaitRank)
                          .arg(shortDuration(worst->longestWait));
        if (worst->instead)
            text += " " + tr("Before it entered, its longest work was %1 (%2).")
                              .arg(elided(workText(worst->instead)).toHtmlEscaped())
                              .arg(shortDuration(worst->instead->ns()));
    }
    if (order.size() > 3)
        text +=
            "<br>" + tr("… %1 more straggling ranks in the Stragglers tab.").arg(order.size() - 3);
    if (doc_->comparison.stragglers.empty() && loaded > 1)
        text += "<br>" + tr("No step has a collective on two ranks or more: no straggler to name.");
    summary_->setText(text);
}

void RanksPanel::fillTables() {
    std::vector<TableRow> ranks, stragglers;
    if (doc_) {
        for (size_t i = 0; i < doc_->ranks.size(); ++i) {
            const RankRow& r = doc_->ranks[i];
            const RankTotals t = rankTotals(r.entry.figures);
            const TimeNs duration = t.duration, busy = t.busy, comm = t.comm,
                         exposed = t.exposedComm, wait = t.wait, gpuTime = t.gpuTime;
            const size_t n = r.entry.figures.steps.size();
            const auto straggles = std::count_if(
                doc_->comparison.stragglers.begin(), doc_->comparison.stragglers.end(),
                [&](const StepStraggler& s) { return s.rank == r.entry.rank && r.error.empty(); });
            TableRow row;
            row.cells = {
                TableCell::of(static_cast<double>(r.entry.rank)),
                TableCell::ofText(QString::fromStdString(r.entry.host)),
                TableCell::of(static_cast<double>(n)),
                n ? TableCell::of(static_cast<double>(duration) / double(n)) : TableCell::none(),
                gpuTime > 0 ? TableCell::of(double(busy) / double(gpuTime)) : TableCell::none(),
                TableCell::of(static_cast<double>(comm)),
                TableCell::of(static_cast<double>(exposed)),
                TableCell::of(static_cast<double>(wait)),
                TableCell::of(static_cast<double>(t.transfer)),
                TableCell::of(static_cast<double>(straggles)),
                TableCell::ofText(r.error.empty() ? fileName(r.entry.file)
                                                  : fileName(r.entry.file) + " — " +
                                                        QString::fromStdString(r.error))};
            if (n) {
                row.target.kind = NavTarget::Kind::Step;
                row.target.step = r.entry.figures.steps.front().number;
                row.target.slice = static_cast<uint32_t>(i);
            }
            ranks.push_back(std::move(row));
        }
        for (const StepStraggler& s : doc_->comparison.stragglers) {
            TableRow row;
            row.cells = {TableCell::of(static_cast<double>(s.step)),
                         TableCell::of(static_cast<double>(s.rank)),
                         s.collective.empty()
                             ? TableCell::none()
                             : TableCell::ofText(QString::fromStdString(s.collective)),
                         TableCell::of(static_cast<double>(s.othersWait)),
                         TableCell::of(static_cast<double>(s.longestWait)),
                         TableCell::of(static_cast<double>(s.longestWaitRank)),
                         TableCell::ofText(workText(s.instead)),
                         s.instead ? TableCell::of(static_cast<double>(s.instead->ns()))
                                   : TableCell::none()};
            row.target.kind = NavTarget::Kind::Step;
            row.target.step = s.step;
            row.target.slice = static_cast<uint32_t>(s.entry);
            stragglers.push_back(std::move(row));
        }
    }
    ranks_->model()->setRows(std::move(ranks));
    ranks_->setDefaultSort(0, Qt::AscendingOrder);
    stragglers_->model()->setRows(std::move(stragglers));
    stragglers_->setDefaultSort(0, Qt::AscendingOrder);
}

void RanksPanel::activate(size_t rankRow, int64_t step) {
    if (!doc_ || rankRow >= doc_->ranks.size()) return;
    const RankRow& r = doc_->ranks[rankRow];
    if (!withTrace_) {
        const QString path = QString::fromStdString(r.entry.file);
        if (QFileInfo(path).isFile()) {
            emit openTrace(path);
        } else {
            summary_->setText(summary_->text() + "<br>" +
                              tr("Rank %1's trace is not reachable from here: %2")
                                  .arg(r.entry.rank)
                                  .arg(path.toHtmlEscaped()));
        }
        return;
    }
    for (const RankStep& s : r.entry.figures.steps)
        if (s.number == step) emit frameRange(s.span);
}

}  // namespace gapscope::ui
