#include "panels/steps_panel.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

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
    StepBars::Picture bars;  // drawn on the worker for the bars' size then
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
    table_->setHiddenColumns({"slow"});
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

AnalysisPanel::Work StepsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                        AnalysisScope scope, TimeNs threshold) {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const std::optional<int64_t> current = scope.step;
    const bool allSteps = scope.kind == AnalysisScope::Kind::Step || scope.whole();
    if (allSteps && all_ && allOf_ == indexed->trace.get()) {
        // Moving between steps: the list is the same, only the outline moves.
        auto all = all_;
        return [this, all, current](const CancelToken&) -> Show {
            return [this, all, current] { show(*all, current); };
        };
    }
    const QSize barsSize = bars_->size();
    const qreal barsDpr = bars_->devicePixelRatioF();
    const QPalette barsPalette = bars_->palette();
    return [this, indexed, scope, threshold, dark, current, allSteps, barsSize, barsDpr,
            barsPalette](const CancelToken& cancel) -> Show {
        StepOptions o;
        o.index = indexed->index.get();
        o.minGapNs = threshold;
        o.cancel = &cancel;
        if (!allSteps) {
            o.window = scope.window;
            o.onlyNumber = scope.step;
        }
        auto shown = std::make_shared<Shown>();
        shown->whole = allSteps;
        StepsResult result = stepAnalysis(*indexed->trace, o);
        if (cancel.isCancelled()) return {};
        TimeNs total = 0, slowest = 0;
        size_t slow = 0;
        for (const StepReport& s : result.steps) {
            total += s.duration;
            slowest = std::max(slowest, s.duration);
            slow += s.slow;
        }
        auto rows = std::make_shared<const ResultRows>(
            resultRows(stepTable(result), indexed->trace->spanStart));
        if (result.steps.empty()) {
            shown->summary =
                tr("No steps in this scope (ProfilerStep#N, TensorFlow step markers).");
        } else {
            shown->summary =
                tr("%1 steps (%2): mean %3, median %4, slowest %5; %6 slow (> 1.5 × median).")
                    .arg(result.steps.size())
                    .arg(QString::fromLatin1(stepSourceName(result.source)))
                    .arg(shortDuration(total / static_cast<TimeNs>(result.steps.size())))
                    .arg(shortDuration(result.medianDuration.value_or(0)))
                    .arg(shortDuration(slowest))
                    .arg(slow);
            shown->summary += "<br>";
            for (size_t p = 0; p < kStepPartCount; ++p)
                shown->summary +=
                    QStringLiteral("<span style='color:%1'>■</span> %2 &nbsp; ")
                        .arg(stepPartColor(StepPart(p), dark).name(), stepPartLabel(StepPart(p)));
        }
        shown->steps = std::make_shared<const std::vector<StepReport>>(std::move(result.steps));
        shown->rows = std::move(rows);
        if (cancel.isCancelled()) return {};
        shown->bars = StepBars::draw(shown->steps, barsSize, barsDpr, barsPalette);
        const Trace* of = indexed->trace.get();
        return [this, shown, current, of] {
            if (shown->whole) {
                all_ = shown;
                allOf_ = of;
            }
            show(*shown, current);
        };
    };
}

}  // namespace gapscope::ui
