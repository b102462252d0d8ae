#include "compare/compare_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include "compare/step_strip.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/diff_tables.h"

namespace gapscope::ui {

namespace {

StripRun stripRun(const QString& label, const RunMetrics& m) {
    StripRun r;
    r.label = label;
    r.durations = m.stepDurations;
    for (const Step& s : m.steps)
        r.numbers.push_back(s.number);
    auto ns = [&](const char* metric) {
        const std::optional<double> v = m.metric(metric);
        return v ? std::optional<TimeNs>(static_cast<TimeNs>(std::llround(*v))) : std::nullopt;
    };
    r.median = m.metric("step_time_median");
    r.p10 = ns("step_time_p10");
    r.p90 = ns("step_time_p90");
    return r;
}

QString runSwatch(int run, bool dark) {
    return QStringLiteral("<span style='color:%1'>■</span>")
        .arg(StepStrip::runColour(run, dark).name());
}

}  // namespace

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent),
      names_(new QLabel(this)),
      verdict_(new QLabel(this)),
      align_(new QComboBox(this)),
      scale_(new QComboBox(this)),
      swap_(new QPushButton(tr("Swap"), this)),
      report_(new QPushButton(tr("Export Report…"), this)),
      close_(new QPushButton(tr("Close Comparison"), this)),
      strip_(new StepStrip(this)),
      tabs_(new QTabWidget(this)) {
    setObjectName(QStringLiteral("comparePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // The controls on one row; the runs' names head the verdict below.
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Line up on:"), this));
    align_->setObjectName(QStringLiteral("alignChoice"));
    align_->setToolTip(tr("The step whose start both timelines show at the same place"));
    align_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    align_->setMinimumContentsLength(18);
    top->addWidget(align_);
    top->addSpacing(6);
    top->addWidget(new QLabel(tr("Scale:"), this));
    scale_->setObjectName(QStringLiteral("scaleChoice"));
    scale_->addItem(tr("the same for both"));
    scale_->addItem(tr("each fitted to its step"));
    scale_->setToolTip(
        tr("The same: a millisecond is as wide in both timelines, so a faster run is shorter.\n"
           "Each fitted: each run's lined-up step fills its timeline, so runs of very different "
           "speed compare part by part; zooming either keeps them lined up."));
    top->addWidget(scale_);
    top->addStretch(1);
    swap_->setToolTip(tr("Make the candidate the baseline and the baseline the candidate"));
    top->addWidget(swap_);
    report_->setToolTip(
        tr("Both timelines as in view, the verdict and these tables, as HTML, Markdown or PDF"));
    top->addWidget(report_);
    top->addWidget(close_);
    layout->addLayout(top);
    names_->setTextFormat(Qt::RichText);
    names_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    names_->setWordWrap(true);
    verdict_->setObjectName(QStringLiteral("compareVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::PlainText);  // kernel names hold < > &
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wide, the verdict and the steps on the left, the tables on the right:
    // the tables keep the dock's height, which the two timelines above
    // share, and most of its width. Narrow, the verdict is the first tab.
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->setObjectName(QStringLiteral("compareSplit"));
    // The verdict's column scrolls rather than hold the window taller than
    // a laptop's screen when the verdict wraps to many lines.
    verdictArea_ = new QScrollArea(split_);
    verdictArea_->setObjectName(QStringLiteral("compareVerdictArea"));
    verdictArea_->setFrameShape(QFrame::NoFrame);
    verdictArea_->setWidgetResizable(true);
    verdictArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* left = new QWidget(verdictArea_);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 6, 0);
    leftLayout->addWidget(names_);
    leftLayout->addWidget(verdict_);
    leftLayout->addWidget(strip_);
    leftLayout->addStretch(1);
    verdictArea_->setWidget(left);
    split_->addWidget(verdictArea_);
    split_->addWidget(tabs_);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 2);
    split_->setSizes({1000, 2000});  // a third and two thirds, until a person drags
    split_->setChildrenCollapsible(false);
    layout->addWidget(split_, 1);

    // Each figure shows its unit; the column is for the exports.
    addTable(QStringLiteral("metrics"), tr("Figures"))->setHiddenColumns({QStringLiteral("unit")});
    addTable(QStringLiteral("gpus"), tr("GPU time"));
    AnalysisTable* kernels = addTable(QStringLiteral("kernels"), tr("Kernels"));
    // Where each kernel was launched from and its scope are long paths that
    // would take the names' room; the header's menu and the exports have them.
    kernels->setHiddenColumns({QStringLiteral("op_path"), QStringLiteral("scope")});
    AnalysisTable* ops = addTable(QStringLiteral("ops"), tr("Ops"));
    // Kernel time by named range: shown where a run has one.
    AnalysisTable* scopes = addTable(QStringLiteral("scopes"), tr("Scopes"));
    addTable(QStringLiteral("advice"), tr("Advice"));
    addTable(QStringLiteral("steps"), tr("Steps"));
    // Two jobs of ranks: each rank and the stragglers (hidden otherwise).
    addTable(QStringLiteral("ranks"), tr("Ranks"));
    addTable(QStringLiteral("stragglers"), tr("Stragglers"));
    // A kernel or an op picked: its name (the whole, not the short form
    // shown), and a renamed kernel's name in BASE.
    auto textOf = [](const AnalysisTable* table, int row, const char* key) -> QString {
        const auto& result = table->model()->result();
        if (!result || row < 0 || size_t(row) >= result->rows.size()) return {};
        const auto* text = std::get_if<std::string>(&result->at(size_t(row), key));
        return text ? QString::fromStdString(*text) : QString();
    };
    connect(kernels, &AnalysisTable::rowActivated, this, [this, kernels, textOf](int row) {
        if (const QString n = textOf(kernels, row, "name"); !n.isEmpty())
            emit kernelChosen(n, textOf(kernels, row, "base_name"));
    });
    connect(ops, &AnalysisTable::rowActivated, this, [this, ops, textOf](int row) {
        if (const QString n = textOf(ops, row, "name"); !n.isEmpty()) emit opChosen(n);
    });
    connect(scopes, &AnalysisTable::rowActivated, this, [this, scopes, textOf](int row) {
        // The innermost range of the path: "## mlp ## > nn.Module: Linear_0".
        const QString path = textOf(scopes, row, "name");
        const QString innermost = path.section(QStringLiteral(" > "), -1);
        if (!innermost.isEmpty()) emit scopeChosen(innermost);
    });
    connect(align_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (filling_ || i < 0) return;
        const QVariant v = align_->itemData(i);
        emit alignmentChosen(v.isValid() ? std::optional<size_t>(v.toULongLong()) : std::nullopt);
    });
    connect(scale_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!filling_ && i >= 0) emit fittedChosen(i == 1);
    });
    connect(swap_, &QPushButton::clicked, this, &ComparePanel::swapRequested);
    connect(report_, &QPushButton::clicked, this, &ComparePanel::reportRequested);
    connect(close_, &QPushButton::clicked, this, &ComparePanel::closeRequested);
    clear();
}

namespace {
// The panel's width below which the verdict becomes a tab, and above which
// it goes back beside the tables (apart, so a width between keeps either).
constexpr int kNarrowBelow = 1400;
constexpr int kWideFrom = 1480;
}  // namespace

bool ComparePanel::verdictBesideTables() const {
    return verdictArea_->parentWidget() == split_;
}

void ComparePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (verdictBesideTables() && width() < kNarrowBelow) placeVerdict(false);
    if (!verdictBesideTables() && width() >= kWideFrom) placeVerdict(true);
}

void ComparePanel::placeVerdict(bool beside) {
    QWidget* current = tabs_->currentWidget();
    if (beside) {
        tabs_->removeTab(tabs_->indexOf(verdictArea_));
        split_->insertWidget(0, verdictArea_);
        split_->setSizes({1000, 2000});
        if (current == verdictArea_) current = tabs_->widget(0);
    } else {
        tabs_->insertTab(0, verdictArea_, tr("Verdict"));
    }
    verdictArea_->show();
    tabs_->setCurrentWidget(current ? current : verdictArea_);
}

AnalysisTable* ComparePanel::addTable(const QString& id, const QString& title) {
    auto* table = new AnalysisTable(tabs_);
    table->setObjectName(QStringLiteral("compare_") + id);
    table->setAccessibleName(tr("Comparison: %1").arg(title.toLower()));  // export titles
    // Core's order (by the size of the change), until a person sorts.
    table->setDefaultSort(-1, Qt::AscendingOrder);
    tabs_->addTab(table, title);
    tables_.emplace_back(id, table);
    return table;
}

AnalysisTable* ComparePanel::table(const QString& id) const {
    for (const auto& [name, table] : tables_)
        if (name == id) return table;
    return nullptr;
}

void ComparePanel::setNames(const QString& base, const QString& now) {
    baseName_ = base;
    newName_ = now;
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    names_->setText(tr("%1 <b>Base</b> %2 &nbsp; %3 <b>New</b> %4")
                        .arg(runSwatch(0, dark), base.toHtmlEscaped(), runSwatch(1, dark),
                             now.toHtmlEscaped()));
}

void ComparePanel::setFitted(bool fitted) {
    filling_ = true;
    scale_->setCurrentIndex(fitted ? 1 : 0);
    filling_ = false;
}

void ComparePanel::setComputing(bool computing) {
    if (computing) verdict_->setText(tr("Comparing the two runs…"));
}

void ComparePanel::clear() {
    runs_.reset();
    verdict_->setText(tr("Open a run, then File → Compare With… another."));
    strip_->clear();
    for (const auto& [id, table] : tables_)
        table->model()->clearRows();
    for (const char* id : {"scopes", "ranks", "stragglers"})
        tabs_->setTabVisible(tabs_->indexOf(table(QString::fromLatin1(id))), false);
    filling_ = true;
    align_->clear();
    filling_ = false;
    align_->setEnabled(false);
}

void ComparePanel::fillAlignChoice(const StepAlignment& a, std::optional<size_t> index) {
    filling_ = true;
    align_->clear();
    const auto& bs = runs_->input.base.steps;
    const auto& ns = runs_->input.now.steps;
    if (!a.baseStep || !a.newStep) {
        align_->addItem(tr("the runs' starts (no steps)"));
    } else {
        align_->addItem(tr("the median step of each (%1 · %2)")
                            .arg(bs[*medianStepIndex(runs_->input.base)].number)
                            .arg(ns[*medianStepIndex(runs_->input.now)].number));
        for (size_t i = 0; i < std::min(bs.size(), ns.size()); ++i) {
            const QString text = bs[i].number == ns[i].number
                                     ? tr("step %1").arg(bs[i].number)
                                     : tr("step %1 · %2").arg(bs[i].number).arg(ns[i].number);
            align_->addItem(text, QVariant::fromValue<qulonglong>(i));
        }
        // The step chosen before stays chosen (a new gap threshold recomputes).
        if (index && *index + 1 < size_t(align_->count())) align_->setCurrentIndex(int(*index) + 1);
    }
    filling_ = false;
    align_->setEnabled(align_->count() > 1);
}

void ComparePanel::setRuns(std::shared_ptr<const ComparedRuns> runs, const StepAlignment& alignment,
                           std::optional<size_t> alignIndex) {
    const bool first = !runs_;
    runs_ = std::move(runs);
    if (!runs_) return clear();
    if (first && !verdictBesideTables()) tabs_->setCurrentWidget(verdictArea_);
    verdict_->setText(QString::fromStdString(runs_->verdict()));
    strip_->setRuns(stripRun(tr("Base"), runs_->input.base), stripRun(tr("New"), runs_->input.now));
    // The registered comparison's tables, each in its tab.
    const bool jobs = runs_->jobs();
    for (const char* id : {"metrics", "gpus", "kernels", "ops", "scopes", "advice", "steps",
                           "ranks", "stragglers"}) {
        AnalysisTable* t = table(QString::fromLatin1(id));
        t->model()->setResult(resultRows(runs_->table(id), 0));
        const bool shown = std::string_view(id) == "scopes" ? !runs_->table(id).rows.empty()
                           : std::string_view(id) == "ranks" || std::string_view(id) == "stragglers"
                               ? jobs
                               : true;
        tabs_->setTabVisible(tabs_->indexOf(t), shown);
    }
    fillAlignChoice(alignment, alignIndex);
}

}  // namespace gapscope::ui
