#include "ranks/ranks_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "analysis/distribution.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "ranks/rank_heat_map.h"

namespace gapscope::ui {

namespace {

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
      order_(new QComboBox(this)),
      filter_(new QLineEdit(this)),
      outliersOnly_(new QCheckBox(tr("Outliers only"), this)),
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
    metric_->addItem(tr("Step duration"));
    metric_->addItem(tr("Idle share"));
    metric_->addItem(tr("Wait in the collective"));
    metric_->setAccessibleName(tr("heat map colour"));
    pick->addWidget(metric_);
    pick->addSpacing(12);
    pick->addWidget(new QLabel(tr("Sort:"), this));
    for (const QString& o :
         {tr("Rank"), tr("Step time (slowest first)"), tr("GPU busy (least first)"),
          tr("Wait (longest first)"), tr("Host"), tr("Outliers first")})
        order_->addItem(o);
    order_->setAccessibleName(tr("heat map order"));
    pick->addWidget(order_);
    filter_->setPlaceholderText(tr("Filter: rank or host"));
    filter_->setClearButtonEnabled(true);
    filter_->setAccessibleName(tr("filter ranks"));
    pick->addWidget(filter_, 1);
    outliersOnly_->setToolTip(
        tr("Only the ranks that stand apart from the others in step time, GPU busy or wait "
           "(a modified z-score over 3.5; the Ranks table's Outlier column)"));
    pick->addWidget(outliersOnly_);
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
    // The start of each straggler's entry is in the exports; the panel's
    // row leads to the step on the timeline instead.
    stragglers_->setHiddenColumns({"entered_ns", "waiting_ranks"});
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this](int i) { heatMap_->setMetric(static_cast<RankHeatMap::Metric>(i)); });
    connect(order_, &QComboBox::currentIndexChanged, this,
            [this](int i) { heatMap_->setOrder(static_cast<RankHeatMap::Order>(i)); });
    auto refilter = [this] { heatMap_->setFilter(filter_->text(), outliersOnly_->isChecked()); };
    connect(filter_, &QLineEdit::textChanged, this, refilter);
    connect(outliersOnly_, &QCheckBox::toggled, this, refilter);
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
        // The others' waits added up per step (not one rank's wait).
        text += "<br>" + tr("<b>Rank %1</b> entered the collective last in %2 of %3 steps; in "
                            "each, the other ranks' waits for it add up to %4 (the median "
                            "over those steps).")
                             .arg(order[i].second)
                             .arg(list.size())
                             .arg(stepsWithOne)
                             .arg(shortDuration(medianOf(std::move(waits))));
        text += " " + tr("Worst: step %1, %2 in all (rank %3 longest, %4).")
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
    // Clocks that cannot be one make every wait above wrong: said first.
    const auto& clocks = doc_->comparison.clockDisagreements;
    if (!clocks.empty())
        text = "<b>" +
               tr("The ranks' clocks disagree in %n step(s):", nullptr,
                  static_cast<int>(clocks.size())) +
               "</b> " + QString::fromStdString(clocks.front().sentence()).toHtmlEscaped() + ". " +
               (doc_->comparison.alignedOn
                    ? tr("No collective can end before every rank has entered it, even with "
                         "the ranks aligned on step %1.")
                          .arg(*doc_->comparison.alignedOn)
                    : tr("No collective can end before every rank has entered it: align the "
                         "ranks on a step (View → Align Ranks on Step).")) +
               "<br>" + text;
    summary_->setText(text);
}

void RanksPanel::fillTables() {
    const std::vector<RankRow> none;
    const RankComparison noComparison;
    const auto& rows = doc_ ? doc_->ranks : none;
    const auto& comparison = doc_ ? doc_->comparison : noComparison;
    // Points in time (a straggler's entry, in the exports) read from the
    // job's first step.
    TimeNs origin = std::numeric_limits<TimeNs>::max();
    for (const RankRow& r : rows)
        for (const RankStep& s : r.entry.figures.steps)
            origin = std::min(origin, s.span.start);
    if (origin == std::numeric_limits<TimeNs>::max()) origin = 0;
    // The registered `ranks` analysis's tables (report/rank_tables.cpp) of
    // the document's ranks and the comparison the loader or the fleet tool
    // made of them, which the summary above and the heat map read too.
    ranks_->model()->setResult(resultRows(rankTable(rows, comparison), origin));
    ranks_->setDefaultSort(0, Qt::AscendingOrder);
    stragglers_->model()->setResult(resultRows(stragglerTable(comparison), origin));
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
        if (s.number == step) emit frameRankStep(r.entry.rank, s.span);
}

}  // namespace gapscope::ui
