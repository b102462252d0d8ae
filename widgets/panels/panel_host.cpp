#include "panels/panel_host.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QRegularExpression>
#include <QShortcut>
#include <QToolBar>
#include <cmath>

#include "analysis/gap_causes.h"
#include "jobs/coalescing_runner.h"
#include "panels/analysis_panel.h"
#include "panels/cause_colors.h"
#include "panels/dock_content.h"
#include "panels/memory_chart.h"
#include "panels/memory_panel.h"
#include "panels/overview_panel.h"
#include "panels/panel_registry.h"
#include "panels/utilization_panel.h"
#include "picture/gap_colours.h"
#include "search/search_bar.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::ui {

namespace {
enum ScopeChoice { kWhole, kSelection, kVisible, kStep };
}

PanelHost::PanelHost(QMainWindow* window, TracePage* page)
    : QObject(window),
      window_(window),
      page_(page),
      session_(new AnalysisSession(this)),
      gapColours_(new CoalescingRunner(this)) {
    connect(session_, &AnalysisSession::indexReady, this, &PanelHost::colourGaps);
    connect(session_, &AnalysisSession::gapThresholdChanged, this, &PanelHost::colourGaps);
    panels_ = createPanels(session_, page_->state());
    connect(session_, &AnalysisSession::navigateRequested, this, &PanelHost::navigate);
    connect(session_, &AnalysisSession::scopeChanged, this, &PanelHost::showScope);
    ViewState* state = page_->state();
    // A new Shift+drag selection becomes the scope (as Perfetto's area selection).
    connect(state, &ViewState::selectedRangeChanged, this, [this, state] {
        if (navigating_) return;
        const auto r = state->selectedRange();
        if (r && r->span() > 0) {
            AnalysisScope s;
            s.kind = AnalysisScope::Kind::Selection;
            s.window = {r->start, r->end};
            session_->setScope(s);
        } else if (session_->scope().kind == AnalysisScope::Kind::Selection) {
            session_->setWholeTrace();
        }
    });
    connect(state, &ViewState::visibleChanged, this, [this](TimeWindow w) {
        if (session_->scope().kind != AnalysisScope::Kind::Visible) return;
        AnalysisScope s;
        s.kind = AnalysisScope::Kind::Visible;
        s.window = {w.start, w.end};
        session_->setScope(s);
    });
    for (AnalysisPanel* p : panels_) {
        if (auto* overview = qobject_cast<OverviewPanel*>(p))
            connect(overview, &OverviewPanel::panelRequested, this, &PanelHost::raisePanel);
        TimelineView* timeline = page_->timeline();
        // Charts on the time axis line up with the timeline's track area.
        auto trackArea = [timeline] {
            const TimeAxis axis = timeline->axis();
            const int left = timeline->mapToGlobal(QPoint(timeline->gutterWidth(), 0)).x();
            return std::pair{
                left, static_cast<int>(std::lround(axis.pixelsPerNs() *
                                                   static_cast<double>(axis.window().span())))};
        };
        if (auto* utilization = qobject_cast<UtilizationPanel*>(p))
            utilization->chart()->setTrackArea(trackArea);
        if (auto* memory = qobject_cast<MemoryPanel*>(p)) {
            memory->chart()->setTrackArea(trackArea);
            // The chart's cursor line follows the timeline's.
            connect(page_->timeline(), &TimelineView::hoverTimeChanged, memory->chart(),
                    [chart = memory->chart()](TimeNs t, bool inside) {
                        chart->setCursor(inside ? std::optional<TimeNs>(t) : std::nullopt);
                    });
        }
    }
}

void PanelHost::install(QMenu* viewMenu, QToolBar* toolbar) {
    QDockWidget* first = nullptr;
    for (AnalysisPanel* p : panels_) {
        auto* dock = new QDockWidget(p->title(), window_);
        dock->setObjectName(p->dockName());
        dock->setWidget(fittingDockContent(p));
        // Also when its tab becomes (or stops being) the current one.
        connect(dock, &QDockWidget::visibilityChanged, p, &AnalysisPanel::setInView);
        window_->addDockWidget(Qt::BottomDockWidgetArea, dock);
        if (first)
            window_->tabifyDockWidget(first, dock);
        else
            first = dock;
        viewMenu->addAction(dock->toggleViewAction());
        docks_.push_back(dock);
    }
    if (first) first->raise();
    viewMenu->addSeparator();
    viewMenu->addAction(tr("Reset &Layout"), this, &PanelHost::resetLayout);
    QAction* prev =
        viewMenu->addAction(tr("Previous Step"), session_, &AnalysisSession::previousStep);
    prev->setShortcut(QKeySequence(Qt::Key_BracketLeft));
    QAction* next = viewMenu->addAction(tr("Next Step"), session_, &AnalysisSession::nextStep);
    next->setShortcut(QKeySequence(Qt::Key_BracketRight));
    QAction* whole = viewMenu->addAction(tr("Analyse the Whole Trace"), session_,
                                         &AnalysisSession::setWholeTrace);
    whole->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));

    toolbar->addSeparator();
    scope_ = new QComboBox(toolbar);
    scope_->setObjectName("scopePicker");
    scope_->setToolTip(tr("What the panels analyse ([ / ] step through the steps)"));
    scope_->addItems({tr("Whole trace"), tr("Selection"), tr("Visible window"), tr("Step")});
    // One width for every scope ("Step 1234 (56.7 ms)"): a combo that grew
    // with its text relaid the toolbar, and repainted half the window, with
    // every step.
    scope_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    scope_->setMinimumContentsLength(24);
    connect(scope_, &QComboBox::activated, this, &PanelHost::applyScopeChoice);
    toolbar->addWidget(scope_);
}

void PanelHost::applyScopeChoice(int index) {
    ViewState* state = page_->state();
    AnalysisScope s;
    switch (index) {
        case kSelection:
            if (const auto r = state->selectedRange(); r && r->span() > 0) {
                s.kind = AnalysisScope::Kind::Selection;
                s.window = {r->start, r->end};
            }
            break;
        case kVisible:
            s.kind = AnalysisScope::Kind::Visible;
            s.window = {state->visible().start, state->visible().end};
            break;
        case kStep:
            session_->nextStep();
            return;
        default:
            break;
    }
    session_->setScope(s);
    showScope();
}

void PanelHost::showScope() {
    if (!scope_) return;
    const auto kind = session_->scope().kind;
    scope_->setCurrentIndex(kind == AnalysisScope::Kind::Selection ? kSelection
                            : kind == AnalysisScope::Kind::Visible ? kVisible
                            : kind == AnalysisScope::Kind::Step    ? kStep
                                                                   : kWhole);
    scope_->setItemText(kStep, session_->scope().step ? session_->scopeText() : tr("Step"));
    // A step scope shows its step on the timeline.
    if (kind == AnalysisScope::Kind::Step) {
        const Interval w = session_->scope().window;
        page_->state()->fit({w.start, w.end});
    }
}

void PanelHost::setTrace(std::shared_ptr<const Trace> trace, std::string indexCache) {
    hasLastName_ = false;
    session_->setTrace(std::move(trace), std::move(indexCache));
}

AnalysisPanel* PanelHost::panel(const QString& dockName) const {
    for (AnalysisPanel* p : panels_)
        if (p->dockName() == dockName) return p;
    return nullptr;
}

void PanelHost::raisePanel(const QString& dockName) {
    for (QDockWidget* d : docks_) {
        if (d->objectName() != dockName) continue;
        d->show();
        d->raise();
    }
}

void PanelHost::resetLayout() {
    for (QDockWidget* d : docks_) {
        d->setFloating(false);
        window_->addDockWidget(Qt::BottomDockWidgetArea, d);
        d->show();
    }
    for (size_t i = 1; i < docks_.size(); ++i)
        window_->tabifyDockWidget(docks_.front(), docks_[i]);
    for (QDockWidget* d : tabbedOnDemand_) {
        const bool shown = d->isVisible();
        d->setFloating(false);
        window_->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (!docks_.empty()) window_->tabifyDockWidget(docks_.front(), d);
        d->setVisible(shown);
    }
    if (!docks_.empty()) docks_.front()->raise();
    fitDockHeight();
}

void PanelHost::tabWithPanels(QDockWidget* dock) {
    tabbedOnDemand_.push_back(dock);
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (!docks_.empty()) window_->tabifyDockWidget(docks_.front(), dock);
}

void PanelHost::fitDockHeight() {
    if (docks_.empty()) return;
    // About two fifths of the height for the panels; a third on a laptop
    // screen (768 px), where the timeline needs the rows.
    const int h = window_->height() >= 1000 ? window_->height() * 2 / 5 : window_->height() / 3;
    window_->resizeDocks({docks_.front()}, {h}, Qt::Vertical);
}

void PanelHost::colourGaps() {
    const auto indexed = session_->indexed();
    if (!indexed) return;
    const TimeNs threshold = session_->gapThreshold();
    const bool dark = window_->palette().color(QPalette::Window).lightness() < 128;
    TimelineView* timeline = page_->timeline();
    gapColours_->submit([indexed, threshold, dark, timeline,
                         this](const CancelToken& cancel) -> std::function<void()> {
        GapOptions o;
        o.minGapNs = threshold;
        o.index = indexed->index.get();
        o.cancel = &cancel;
        auto colours = std::make_shared<GapColorList>(gapCauseColours(*indexed->trace, o, dark));
        if (cancel.isCancelled()) return {};
        return [this, indexed, colours, timeline] {
            if (indexed != session_->indexed()) return;
            timeline->setGapCauseColors(*colours);
        };
    });
}

void PanelHost::navigate(const NavTarget& target) {
    const auto trace = page_->trace();
    if (!trace) return;
    ViewState* state = page_->state();
    auto frame = [&](Interval r) {
        const TimeNs pad = std::max<TimeNs>(r.length() / 4, 1000);
        state->fit({r.start - pad, std::max(r.end, r.start + 1) + pad});
    };
    switch (target.kind) {
        case NavTarget::Kind::Slice: {
            if (target.slice >= trace->slices.size()) return;
            const Slice& s = trace->slices[target.slice];
            state->setSelectedSlice(target.slice);
            Interval shown{s.start, s.end()};
            if (target.range.length() > 0) {  // the slice and a span of its (a lifetime)
                navigating_ = true;
                state->setSelectedRange(TimeWindow{target.range.start, target.range.end});
                navigating_ = false;
                shown = {std::min(shown.start, target.range.start),
                         std::max(shown.end, target.range.end)};
            }
            const TimeWindow v = state->visible();
            if (shown.start < v.start || shown.end > v.end) frame(shown);
            page_->timeline()->revealSlice(target.slice);
            break;
        }
        case NavTarget::Kind::Range: {
            navigating_ = true;
            state->setSelectedRange(TimeWindow{target.range.start, target.range.end});
            navigating_ = false;
            frame(target.range);
            break;
        }
        case NavTarget::Kind::Step:
            session_->setStepScope(target.step);
            break;
        case NavTarget::Kind::Name: {
            // Every slice of the name is highlighted; again: the next one.
            if (hasLastName_ && lastName_ == target.name) {
                target.backwards ? page_->search()->previous() : page_->search()->next();
                break;
            }
            lastName_ = target.name;
            hasLastName_ = true;
            const QString name = QString::fromUtf8(trace->str(target.name));
            page_->search()->setQuery(
                QStringLiteral("^") + QRegularExpression::escape(name) + QStringLiteral("$"), true);
            page_->search()->next();
            break;
        }
        case NavTarget::Kind::None:
            break;
    }
}

}  // namespace gapscope::ui
