#include "picture/annotation_painter.h"

#include <QFontMetrics>
#include <algorithm>

#include "timeline/timeline_colors.h"

namespace gapscope::ui {

namespace {

QColor colourOf(const Annotation& a) {
    QColor c(QString::fromStdString(a.color));
    return c.isValid() ? c : QColor(0xe6, 0x9f, 0x00);
}

// A box with the text's first lines, its left edge at x, clamped to `bounds`.
void callout(QPainter& p, const QRect& bounds, double x, double y, const QString& text,
             QColor colour, bool dark) {
    const QFontMetrics fm(p.font());
    QStringList lines = text.split('\n');
    while (lines.size() > 3)
        lines.removeLast();
    int w = 0;
    for (QString& l : lines) {
        l = fm.elidedText(l, Qt::ElideRight, 320);
        w = std::max(w, fm.horizontalAdvance(l));
    }
    const int h = fm.height() * static_cast<int>(lines.size()) + 6;
    QRectF box(x, y, w + 10, h);
    if (box.right() > bounds.right()) box.moveRight(bounds.right());
    if (box.left() < bounds.left()) box.moveLeft(bounds.left());
    if (box.bottom() > bounds.bottom()) box.moveBottom(bounds.bottom());
    if (box.top() < bounds.top()) box.moveTop(bounds.top());
    p.setPen(QPen(colour, 1.5));
    p.setBrush(dark ? QColor(30, 32, 35, 235) : QColor(255, 255, 255, 235));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(dark ? QColor(230, 230, 230) : QColor(20, 20, 20));
    for (int i = 0; i < lines.size(); ++i)
        p.drawText(QPointF(box.left() + 5, box.top() + 3 + fm.ascent() + i * fm.height()),
                   lines[i]);
}

}  // namespace

QString annotationHeadline(const Annotation& a) {
    const QString text = QString::fromStdString(a.text);
    const qsizetype nl = text.indexOf('\n');
    return nl < 0 ? text : text.left(nl);
}

uint32_t annotatedSlice(const Trace& t, const Annotation& a) {
    if (a.kind != Annotation::Kind::Slice) return kNone;
    for (const Track& track : t.tracks) {
        if (track.displayName != a.track) continue;
        for (const Row& row : track.rows) {
            const auto [lo, hi] = t.visibleInRow(row, a.start, a.start + 1);
            for (uint32_t i = lo; i < hi; ++i) {
                const Slice& s = t.slices[i];
                if (s.start == a.start && t.str(s.name) == a.slice) return i;
            }
        }
    }
    return kNone;
}

void paintAnnotations(QPainter& p, const AnnotationArea& in,
                      const std::vector<Annotation>& annotations) {
    if (annotations.empty()) return;
    p.save();
    const int left = in.tracks.left() + in.gutterWidth;
    const QRect trackPart(left, in.tracks.top(), static_cast<int>(in.axis.width()),
                          in.tracks.height());
    const QRect rulerPart(left, in.ruler.top(), static_cast<int>(in.axis.width()),
                          in.ruler.height());
    const TimeWindow w = in.axis.window();
    auto xOf = [&](TimeNs t) { return left + in.axis.toX(t); };
    // Bands under outlines under markers, so that a marker's flag stays readable.
    std::vector<const Annotation*> order;
    for (const Annotation& a : annotations)
        order.push_back(&a);
    auto rank = [](const Annotation* a) {
        return a->kind == Annotation::Kind::Range ? 0 : a->kind == Annotation::Kind::Slice ? 1 : 2;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const Annotation* x, const Annotation* y) { return rank(x) < rank(y); });
    for (const Annotation* pa : order) {
        const Annotation& a = *pa;
        if (a.end < w.start || a.start > w.end) continue;
        const QColor c = colourOf(a);
        const bool current = a.id != 0 && a.id == in.current;
        const QString headline = annotationHeadline(a);
        const double x0 = std::clamp(xOf(a.start), double(left), double(trackPart.right()));
        const double x1 = std::clamp(xOf(a.end), double(left), double(trackPart.right()));
        uint32_t slice = kNone;
        int sliceY = -1;
        if (a.kind == Annotation::Kind::Slice && in.trace && in.layout) {
            slice = annotatedSlice(*in.trace, a);
            if (slice != kNone) sliceY = in.layout->yOfSlice(slice);
        }
        // Over the tracks.
        p.setClipRect(trackPart);
        if (in.tracks.isEmpty()) {
            // only the ruler
        } else if (a.kind == Annotation::Kind::Marker) {
            QPen pen(c, current ? 2.5 : 1.5);
            pen.setStyle(Qt::DashLine);
            p.setPen(pen);
            p.drawLine(QPointF(x0, trackPart.top()), QPointF(x0, trackPart.bottom()));
        } else if (a.kind == Annotation::Kind::Range || sliceY < 0) {
            QColor band = c;
            band.setAlpha(current ? 70 : 45);
            p.fillRect(QRectF(x0, trackPart.top(), std::max(1.0, x1 - x0), trackPart.height()),
                       band);
            p.setPen(QPen(c, current ? 2 : 1));
            p.drawLine(QPointF(x0, trackPart.top()), QPointF(x0, trackPart.bottom()));
            p.drawLine(QPointF(x1, trackPart.top()), QPointF(x1, trackPart.bottom()));
        } else {
            const double y = in.tracks.top() + in.layout->screenY(sliceY, in.scrollY);
            const QRectF outline(x0 - 1, y, std::max(3.0, x1 - x0 + 2), TimelineLayout::kRowHeight);
            p.setPen(QPen(c, current ? 3 : 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(outline);
            if (!headline.isEmpty() || !a.text.empty()) {
                const double cy = y + TimelineLayout::kRowHeight + 6;
                p.drawLine(QPointF(outline.left() + 4, outline.bottom()),
                           QPointF(outline.left() + 10, cy));
                callout(p, trackPart, outline.left() + 6, cy, QString::fromStdString(a.text), c,
                        in.dark);
            }
        }
    }
    // On the ruler: flags where the ruler's label layout puts them.
    if (!in.ruler.isEmpty()) {
        p.setClipRect(rulerPart);
        const std::vector<RulerFlag> flags = rulerFlags(in, annotations);
        RulerLabelInputs li;
        li.left = rulerPart.left();
        li.right = rulerPart.left() + in.axis.width();
        li.top = rulerPart.top();
        li.height = rulerPart.height();
        li.flags = flags;
        for (const RulerLabel& l : layoutRulerLabels(li, QFontMetricsF(p.font()))) {
            const RulerFlag& f = flags[l.source];
            p.fillRect(l.rect, f.colour);
            p.setPen(NameColors::textOn(f.colour));
            p.drawText(l.rect.adjusted(kFlagPad, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       l.text);
            if (f.marker)
                p.fillRect(QRectF(f.x0 - 1, rulerPart.top(), 2, rulerPart.height()), f.colour);
        }
    }
    p.restore();
}

std::vector<RulerFlag> rulerFlags(const AnnotationArea& in,
                                  const std::vector<Annotation>& annotations) {
    std::vector<RulerFlag> flags;
    const double left = in.ruler.left() + in.gutterWidth;
    const TimeWindow w = in.axis.window();
    for (const Annotation& a : annotations) {
        if (a.end < w.start || a.start > w.end) continue;
        RulerFlag f;
        f.marker = a.kind == Annotation::Kind::Marker;
        f.x0 = left + in.axis.toX(std::max(a.start, w.start));
        f.x1 = f.marker ? f.x0 : std::max(f.x0 + 2, left + in.axis.toX(std::min(a.end, w.end)));
        f.text = annotationHeadline(a);
        f.colour = colourOf(a);
        flags.push_back(std::move(f));
    }
    return flags;
}

}  // namespace gapscope::ui
