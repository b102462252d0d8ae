#include "panels/critical_path_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "analysis/critical_path_what_if.h"
#include "timeline/path_overlay.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

namespace {

const Analysis& criticalPathAnalysis() {
    return *analysisRegistry().find("critical-path");
}

// The form's parts, as the CLI's --what-if names them; those with a name
// pattern first.
struct PartChoice {
    const char* title;
    const char* cli;      // "kernel" (takes ":PATTERN"), "input"
    const char* example;  // the name field's placeholder; null: no name
    bool median = false;  // "rank:N=median": no factor
};
constexpr PartChoice kParts[] = {{"Kernels named", "kernel", "*gemm*"},
                                 {"Ops named", "op", "aten::*"},
                                 {"Input wait", "input", nullptr},
                                 {"Launch overhead", "launch", nullptr},
                                 {"Communication", "comm", nullptr},
                                 {"Rank", "rank", "rank number"},
                                 {"Rank as fast as the median", "rank", "rank number", true}};

// The path's nodes from the result's "path" table, on the worker.
RegistryPanel::Derived overlayOf(const std::shared_ptr<const Trace>& trace,
                                 const AnalysisResult& result) {
    const ResultTable* path = result.table("path");
    if (!path || path->rows.empty()) return nullptr;
    const int at = path->column("at_ns");
    std::vector<PathOverlay::Point> points;
    points.reserve(path->rows.size());
    for (const ResultRow& row : path->rows)
        points.push_back({row.ref.slice, integerOr(row.cells[static_cast<size_t>(at)])});
    return std::make_shared<const PathOverlay>(trace, std::move(points));
}

}  // namespace

CriticalPathPanel::CriticalPathPanel(AnalysisSession* session, ViewState* view, QWidget* parent)
    : RegistryPanel(session, criticalPathAnalysis(), parent),
      view_(view),
      onTimeline_(new QCheckBox(tr("Show on the timeline"), this)),
      dimRest_(new QCheckBox(tr("Dim the rest"), this)),
      part_(new QComboBox(this)),
      pattern_(new QLineEdit(this)),
      factor_(new QDoubleSpinBox(this)),
      add_(new QPushButton(tr("Add"), this)),
      inEffect_(new QLabel(this)),
      clear_(new QPushButton(tr("Clear"), this)) {
    onTimeline_->setChecked(true);
    onTimeline_->setToolTip(
        tr("Outline the slices on the path and draw its hops (a launch to "
           "its kernel, a kernel to the wait it ended)."));
    for (const PartChoice& p : kParts)
        part_->addItem(tr(p.title), QString::fromLatin1(p.cli));
    pattern_->setPlaceholderText(tr(kParts[0].example));
    pattern_->setToolTip(tr("The name (* matches any run of characters), or the rank's number."));
    pattern_->setClearButtonEnabled(true);
    factor_->setRange(0, kMostWhatIfFactor);
    factor_->setDecimals(2);
    factor_->setSingleStep(0.1);
    factor_->setValue(0.5);
    factor_->setPrefix(QStringLiteral("× "));
    factor_->setToolTip(tr("Its time's new share: 0.5 halves it, 0 removes it."));
    inEffect_->setWordWrap(true);
    inEffect_->setTextFormat(Qt::PlainText);

    auto* shown = new QHBoxLayout;
    shown->addWidget(onTimeline_);
    shown->addWidget(dimRest_);
    shown->addSpacing(16);
    shown->addWidget(new QLabel(tr("What if"), this));
    shown->addWidget(part_);
    shown->addWidget(pattern_, 1);
    shown->addWidget(factor_);
    shown->addWidget(add_);
    auto* effect = new QHBoxLayout;
    effect->addWidget(inEffect_, 1);
    effect->addWidget(clear_);
    body()->insertLayout(0, shown);
    body()->insertLayout(1, effect);

    connect(onTimeline_, &QCheckBox::toggled, this, [this] {
        dimRest_->setEnabled(onTimeline_->isChecked());
        showOverlay();
    });
    connect(dimRest_, &QCheckBox::toggled, this, &CriticalPathPanel::showOverlay);
    connect(part_, &QComboBox::currentIndexChanged, this, [this](int index) {
        const PartChoice& p = kParts[std::max(0, index)];
        pattern_->setEnabled(p.example);
        pattern_->setPlaceholderText(p.example ? tr(p.example) : QString());
        factor_->setEnabled(!p.median);
    });
    connect(add_, &QPushButton::clicked, this, &CriticalPathPanel::addFromForm);
    connect(pattern_, &QLineEdit::returnPressed, this, &CriticalPathPanel::addFromForm);
    connect(clear_, &QPushButton::clicked, this, &CriticalPathPanel::clearWhatIfs);
    whatIfsChanged();
}

void CriticalPathPanel::addFromForm() {
    const PartChoice& p = kParts[std::max(0, part_->currentIndex())];
    QString text = QString::fromLatin1(p.cli);
    if (p.example) {
        const QString pattern = pattern_->text().trimmed();
        text += QLatin1Char(':') + (pattern.isEmpty() ? QStringLiteral("*") : pattern);
    }
    text += QLatin1Char('=') +
            (p.median ? QStringLiteral("median") : QString::number(factor_->value(), 'g', 6));
    addWhatIf(text);
}

bool CriticalPathPanel::addWhatIf(const QString& text) {
    std::string error;
    if (!parseWhatIf(text.toStdString(), error)) {
        inEffect_->setText(QString::fromStdString(error));
        return false;
    }
    if (!whatIfs_.contains(text)) whatIfs_ << text;
    whatIfsChanged();
    return true;
}

void CriticalPathPanel::clearWhatIfs() {
    if (whatIfs_.isEmpty()) return;
    whatIfs_.clear();
    whatIfsChanged();
}

void CriticalPathPanel::whatIfsChanged() {
    inEffect_->setText(whatIfs_.isEmpty()
                           ? tr("No what-if: the path as it ran.")
                           : tr("What-ifs: %1. The projection finds the path again on the graph "
                                "and assumes everything else unchanged.")
                                 .arg(whatIfs_.join(QStringLiteral(" · "))));
    clear_->setEnabled(!whatIfs_.isEmpty());
    recompute();
}

AnalysisOptions CriticalPathPanel::options() const {
    AnalysisOptions o;
    o.set("slices");  // the path itself: the timeline draws it, the tabs list it
    for (const QString& w : whatIfs_)
        o.add("what-if", w.toStdString());
    return o;
}

RegistryPanel::Derive CriticalPathPanel::derive() const {
    return &overlayOf;
}

void CriticalPathPanel::presentedDerived(const Derived& derived) {
    overlay_ = std::static_pointer_cast<const PathOverlay>(derived);
    showOverlay();
}

void CriticalPathPanel::clearContents() {
    RegistryPanel::clearContents();
    overlay_.reset();
    showOverlay();
}

void CriticalPathPanel::setShownOnTimeline(bool shown) {
    onTimeline_->setChecked(shown);
}

void CriticalPathPanel::setDimRest(bool dim) {
    dimRest_->setChecked(dim);
}

void CriticalPathPanel::showOverlay() {
    // Drawn while the panel is in view: out of it nothing here turns it off.
    view_->setPathDimmed(dimRest_->isChecked());
    view_->setPathOverlay(onTimeline_->isChecked() && inView() ? overlay_ : nullptr);
}

void CriticalPathPanel::inViewChanged() {
    showOverlay();
}

}  // namespace gapscope::ui
