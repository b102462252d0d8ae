#include "timeline/time_ruler.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QMenu>
#include <QPainter>
#include <algorithm>

#include "picture/annotation_painter.h"
#include "timeline/ruler_painter.h"

namespace gapscope::ui {

TimeRuler::TimeRuler(ViewState* state, int gutterWidth, QWidget* parent)
    : QWidget(parent), state_(state), gutter_(gutterWidth) {
    fitHeight();
    connect(state_, &ViewState::visibleChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &ViewState::selectedRangeChanged, this, qOverload<>(&QWidget::update));
}

void TimeRuler::setAnnotations(std::vector<Annotation> annotations, uint64_t current) {
    annotations_ = std::move(annotations);
    currentAnnotation_ = current;
    fitHeight();
    update();
}

void TimeRuler::setCountFrom(TimeNs origin) {
    if (origin == origin_) return;
    origin_ = origin;
    update();
    emit originChanged(origin_);
}

std::vector<std::pair<QString, TimeNs>> TimeRuler::originChoices(TimeNs t) const {
    std::vector<std::pair<QString, TimeNs>> out;
    out.push_back({tr("Count Time from the Trace's Start"), defaultOrigin_});
    // The step under the point (the latest that starts before it).
    const auto after = std::upper_bound(
        steps_.begin(), steps_.end(), t,
        [](TimeNs at, const std::pair<int64_t, Interval>& s) { return at < s.second.start; });
    if (after != steps_.begin() && t < std::prev(after)->second.end)
        out.push_back({tr("Count Time from the Start of Step %1").arg(std::prev(after)->first),
                       std::prev(after)->second.start});
    if (const auto range = state_->selectedRange())
        out.push_back({tr("Count Time from the Selection's Start"), range->start});
    out.push_back({tr("Count Time from Here"), t});
    return out;
}

void TimeRuler::contextMenuEvent(QContextMenuEvent* e) {
    const TimeAxis axis(state_->visible(), width() - gutter_ - rightMargin_);
    const int x =
        std::clamp(e->pos().x() - gutter_, 0, std::max(0, width() - gutter_ - rightMargin_));
    QMenu menu(this);
    for (const auto& [text, origin] : originChoices(axis.toTime(x))) {
        QAction* a = menu.addAction(text);
        a->setCheckable(true);
        a->setChecked(origin == origin_ && text != tr("Count Time from Here"));
        connect(a, &QAction::triggered, this, [this, origin = origin] { setCountFrom(origin); });
    }
    menu.exec(e->globalPos());
}

void TimeRuler::fitHeight() {
    setFixedHeight(rulerHeight(QFontMetricsF(font()), !annotations_.empty()));
}

void TimeRuler::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange) fitHeight();
    QWidget::changeEvent(e);
}

void TimeRuler::paintEvent(QPaintEvent*) {
    QPainter p(this);
    RulerInputs in;
    in.area = rect();
    in.gutterWidth = gutter_;
    in.axis = TimeAxis(state_->visible(), width() - gutter_ - rightMargin_);
    in.origin = origin_;
    in.range = state_->selectedRange();
    in.colors = TimelineColors::fromPalette(palette());
    in.note = note_;
    AnnotationArea area;
    area.ruler = rect();
    area.gutterWidth = gutter_;
    area.axis = in.axis;
    area.dark = in.colors.dark;
    area.current = currentAnnotation_;
    in.flags = rulerFlags(area, annotations_);
    paintRuler(p, in);
    paintAnnotations(p, area, annotations_);
}

}  // namespace gapscope::ui
