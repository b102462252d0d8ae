#include "panels/steps_panel.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "analysis/distribution.h"
#include "panels/analysis_table.h"
#include "panels/cause_colors.h"
#include "panels/result_rows.h"
#include "panels/step_bars.h"
#include "panels/units.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

struct StepsPanel::Shown {
    std::shared_ptr<const std::vector<StepReport>> steps;
    std::shared_ptr<const ResultRows> rows;
    QString summary;
    bool whole = false;
    std::optional<int64_t> current;  // the step in view when it was asked for
    const Trace* of = nullptr;       // the trace it is of
    StepBars::Picture bars;          // drawn on the worker for the bars' size then
};

void StepsPanel::show(const Shown& shown, std::optional<int64_t> current) {
    table_->model()->setResult(*shown.rows);
    table_->setDefaultSort(0, Qt::AscendingOrder);
    bars_->setSteps(shown.steps, shown.bars);
    bars_->setCurrent(current);
    summary_->setText(shown.summary);
}

StepsPanel::StepsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent),
      table_(new AnalysisTable(this)),
      bars_(new StepBars(this)),
      summary_(new QLabel(this)) {
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(bars_);
    split->addWidget(table_);
    split->setStretchFactor(1, 1);
    body()->addWidget(summary_);
    body()->addWidget(split, 1);
    // The copies by direction and the points in time stay in the exports
    // (and a click on the header shows them).
    QStringList hidden = {"slow", "start_ns", "end_ns", "gpu_window_start_ns", "window_from"};
    for (size_t d = 0; d < kCopyDirectionCount; ++d)
        hidden << QStringLiteral("exposed_memcpy_%1_ns").arg(copyDirectionName(CopyDirection(d)));
    table_->setHiddenColumns(hidden);
    connect(bars_, &StepBars::stepClicked, session, &AnalysisSession::setStepScope);
    connect(table_, &AnalysisTable::activated, this, [session](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) session->setStepScope(t.step);
    });
}

void StepsPanel::clearContents() {
    table_->model()->clearRows();
    bars_->setSteps(nullptr);
    bars_->setCurrent(std::nullopt);
    summary_->clear();
    all_.reset();
    allOf_ = nullptr;
}

namespace {

// What the worker needs from the GUI thread: the palette, the step in
// view, whether every step is asked for, and the bars' size to draw for.
struct StepsInputs {
    bool dark = false;
    std::optional<int64_t> current;
    bool allSteps = false;
    QSize barsSize;
    qreal barsDpr = 1;
    QPalette barsPalette;
};

std::optional<std::shared_ptr<const StepsPanel::Shown>> computeSteps(
    const AnalysisPanel::Request& request, const StepsInputs& in) {
    // The steps analysis over the scope (every step when the panel lists
    // them all): its figures for the summary, its steps for the bars.
    AnalysisPanel::Request scoped = request;
    if (in.allSteps) scoped.scope = AnalysisScope{};
    const AnalysisResult figures = scoped.compute("steps");
    auto shown = std::make_shared<StepsPanel::Shown>();
    shown->whole = in.allSteps;
    shown->current = in.current;
    shown->of = request.indexed->trace.get();
    // The same computation as the figures' (the index keeps it: not redone).
    StepsResult result = stepAnalysis(request.trace(), stepsAnalysisOptions(scoped.coreScope()));
    if (request.cancelled()) return std::nullopt;
    const ResultTable* table = figures.table("steps");
    if (!table) return std::nullopt;
    auto rows = std::make_shared<const ResultRows>(resultRows(*table, request.trace().spanStart));
    if (result.steps.empty()) {
        shown->summary =
            StepsPanel::tr("No steps in this scope (ProfilerStep#N, TensorFlow step markers).");
    } else {
        auto figure = [&](const char* key) { return integerOr(figures.figure(key)); };
        shown->summary =
            StepsPanel::tr(
                "%1 steps (%2) lasted: mean %3, median %4, slowest %5; %6 slow (> 1.5 × median).")
                .arg(figure("step_count"))
                .arg(QString::fromStdString(textOr(figures.figure("source"))))
                .arg(shortDuration(figure("mean_duration_ns")))
                .arg(shortDuration(figure("listed_median_ns")))
                .arg(shortDuration(figure("slowest_ns")))
                .arg(figure("slow_count"));
        shown->summary += "<br>";
        for (size_t p = 0; p < kStepPartCount; ++p)
            shown->summary +=
                QStringLiteral("<span style='color:%1'>■</span> %2 &nbsp; ")
                    .arg(stepPartColor(StepPart(p), in.dark).name(), stepPartLabel(StepPart(p)));
    }
    shown->steps = std::make_shared<const std::vector<StepReport>>(std::move(result.steps));
    shown->rows = std::move(rows);
    if (request.cancelled()) return std::nullopt;
    shown->bars = StepBars::draw(shown->steps, in.barsSize, in.barsDpr, in.barsPalette);
    return std::shared_ptr<const StepsPanel::Shown>(std::move(shown));
}

}  // namespace

AnalysisPanel::Work StepsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                        AnalysisScope scope, TimeNs threshold) {
    StepsInputs in;
    in.dark = palette().color(QPalette::Window).lightness() < 128;
    in.current = scope.step;
    in.allSteps = shownScope(scope).whole();
    if (in.allSteps && all_ && allOf_ == indexed->trace.get()) {
        // Moving between steps: the list is the same, only the outline moves.
        auto all = all_;
        const std::optional<int64_t> current = in.current;
        return showOnly([this, all, current] { show(*all, current); });
    }
    in.barsSize = bars_->size();
    in.barsDpr = bars_->devicePixelRatioF();
    in.barsPalette = bars_->palette();
    return computeThen(indexed, scope, threshold, in, &computeSteps, &StepsPanel::present);
}

void StepsPanel::present(const std::shared_ptr<const Shown>& shown) {
    if (shown->whole) {
        all_ = shown;
        allOf_ = shown->of;
    }
    show(*shown, shown->current);
}

}  // namespace gapscope::ui
