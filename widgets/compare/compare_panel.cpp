#include "compare/compare_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
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
      swap_(new QPushButton(tr("Swap"), this)),
      report_(new QPushButton(tr("Export Report…"), this)),
      close_(new QPushButton(tr("Close Comparison"), this)),
      strip_(new StepStrip(this)),
      tabs_(new QTabWidget(this)) {
    setObjectName(QStringLiteral("comparePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* top = new QHBoxLayout;
    names_->setTextFormat(Qt::RichText);
    names_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(names_, 1);
    top->addWidget(new QLabel(tr("Line up on:"), this));
    align_->setObjectName(QStringLiteral("alignChoice"));
    align_->setToolTip(tr("The step whose start both timelines show at the same place"));
    align_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    align_->setMinimumContentsLength(24);
    top->addWidget(align_);
    swap_->setToolTip(tr("Make the candidate the baseline and the baseline the candidate"));
    top->addWidget(swap_);
    report_->setToolTip(
        tr("Both timelines as in view, the verdict and these tables, as HTML, Markdown or PDF"));
    top->addWidget(report_);
    top->addWidget(close_);
    layout->addLayout(top);
    verdict_->setObjectName(QStringLiteral("compareVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::PlainText);  // kernel names hold < > &
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = verdict_->font();
    big.setPointSizeF(big.pointSizeF() * 1.1);
    verdict_->setFont(big);
    // The verdict and the steps on the left, the tables on the right: the
    // tables keep the dock's height, which the two timelines above share.
    auto* split = new QSplitter(Qt::Horizontal, this);
    // The left column scrolls rather than hold the window taller than a
    // laptop's screen when the verdict wraps to many lines.
    auto* scroll = new QScrollArea(split);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* left = new QWidget(scroll);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 6, 0);
    leftLayout->addWidget(verdict_);
    leftLayout->addWidget(strip_);
    leftLayout->addStretch(1);
    scroll->setWidget(left);
    split->addWidget(scroll);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);

    // Each figure shows its unit; the column is for the exports.
    addTable(QStringLiteral("metrics"), tr("Figures"))->setHiddenColumns({QStringLiteral("unit")});
    addTable(QStringLiteral("gpus"), tr("GPU time"));
    AnalysisTable* kernels = addTable(QStringLiteral("kernels"), tr("Kernels"));
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
    connect(swap_, &QPushButton::clicked, this, &ComparePanel::swapRequested);
    connect(report_, &QPushButton::clicked, this, &ComparePanel::reportRequested);
    connect(close_, &QPushButton::clicked, this, &ComparePanel::closeRequested);
    clear();
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
    runs_ = std::move(runs);
    if (!runs_) return clear();
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
