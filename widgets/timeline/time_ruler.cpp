#include "timeline/time_ruler.h"

#include <QEvent>
#include <QPainter>

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
