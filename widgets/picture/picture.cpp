#include "picture/picture.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <set>

#include "analysis/idle_gaps.h"
#include "panels/cause_colors.h"
#include "picture/annotation_painter.h"
#include "timeline/ruler_painter.h"
#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"

namespace gapscope::ui {

namespace {

constexpr int kGutter = kPictureGutter;

QString tr(const char* text) {
    return QCoreApplication::translate("gapscope::ui::Picture", text);
}

int lineHeight(const PictureSpec& spec) {
    return QFontMetrics(spec.font).height() + 12;
}

// Where each part goes, in logical pixels.
struct Parts {
    QRect title, ruler, tracks, legend;
};

Parts partsOf(const PictureSpec& spec, const TimelineLayout& layout) {
    const int line = lineHeight(spec);
    Parts parts;
    const int w = std::max(kGutter + 100, spec.width);
    parts.title = QRect(0, 0, w, line);
    const int ruler = rulerHeight(QFontMetricsF(spec.font), !spec.annotations.empty());
    parts.ruler = QRect(0, line, w, ruler);
    const int fixed = 2 * line + ruler;
    const int rows =
        spec.height > 0 ? std::max(0, spec.height - fixed)
                        : std::min({layout.totalHeight(), spec.maxTracksHeight, kPictureMaxHeight});
    parts.tracks = QRect(0, parts.ruler.bottom() + 1, w, std::min(rows, kPictureMaxHeight));
    parts.legend = QRect(0, parts.tracks.bottom() + 1, w, line);
    return parts;
}

TimelineLayout layoutOf(const PictureSpec& spec) {
    TimelineLayout layout;
    layout.setTrace(spec.trace);
    if (!spec.arrangement.empty()) {
        // Pinned rows the export's selection leaves out stay out.
        TrackArrangement arrangement = spec.arrangement;
        if (!spec.tracks.all())
            std::erase_if(arrangement.pinned, [&](TrackItem i) {
                const auto& shown = i.counter ? spec.tracks.counters : spec.tracks.tracks;
                return i.index >= shown.size() || !shown[i.index];
            });
        layout.setArrangement(std::move(arrangement));
    }
    if (!spec.tracks.all()) layout.setShown(spec.tracks.tracks, spec.tracks.counters);
    return layout;
}

QString titleText(const PictureSpec& spec) {
    const TimeWindow r = spec.range;
    const TimeNs resolution = std::max<TimeNs>(1, r.span() / 1000);
    auto at = [&](TimeNs t) {
        return t == spec.origin ? tr("the start") : formatDuration(t - spec.origin, resolution);
    };
    return tr("%1 — %2 to %3 (%4)")
        .arg(spec.title, at(r.start), at(r.end), formatDuration(r.span(), resolution));
}

void paintLegend(QPainter& p, const QRect& area, const PictureSpec& spec,
                 const TimelineColors& colours) {
    p.fillRect(area, colours.header);
    const QFontMetrics fm(p.font());
    int x = area.left() + 8;
    const int sw = fm.height() - 4;
    const int cy = area.center().y();
    auto item = [&](QColor swatch, const QString& label, bool line = false) {
        if (line) {
            p.fillRect(QRect(x, cy - sw / 2, 3, sw), swatch);
        } else {
            p.fillRect(QRect(x, cy - sw / 2, sw, sw), swatch);
        }
        x += sw + 4;
        p.setPen(colours.headerText);
        p.drawText(QRect(x, area.top(), fm.horizontalAdvance(label) + 2, area.height()),
                   Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label) + 16;
    };
    p.setPen(colours.headerText);
    const QString idle =
        tr("GPU idle ≥ %1:").arg(formatDuration(spec.gapThreshold, spec.gapThreshold));
    p.drawText(QRect(x, area.top(), fm.horizontalAdvance(idle) + 2, area.height()),
               Qt::AlignVCenter, idle);
    x += fm.horizontalAdvance(idle) + 10;
    // The causes that the shading shows, in the causes' order.
    std::set<QRgb> shown;
    for (const auto& device : spec.gapColours)
        for (const auto& g : device)
            shown.insert(g.second.rgb());
    bool any = false;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        const QColor colour = causeColor(GapCause(c), spec.dark);
        if (!shown.count(colour.rgb())) continue;
        item(colour, causeLabel(GapCause(c)));
        any = true;
    }
    if (!any) item(colours.gapFill, tr("idle"));
    if (!spec.annotations.empty()) {
        x += 8;
        item(QColor(QString::fromStdString(spec.annotations.front().color)), tr("annotation"),
             true);
    }
}

}  // namespace

QPalette picturePalette(bool dark) {
    QPalette p;
    if (dark) {
        p.setColor(QPalette::Window, QColor(45, 47, 51));
        p.setColor(QPalette::WindowText, QColor(225, 225, 225));
        p.setColor(QPalette::Base, QColor(30, 32, 35));
        p.setColor(QPalette::AlternateBase, QColor(45, 47, 51));
        p.setColor(QPalette::Text, QColor(225, 225, 225));
        p.setColor(QPalette::Button, QColor(55, 57, 61));
        p.setColor(QPalette::ButtonText, QColor(225, 225, 225));
        p.setColor(QPalette::Mid, QColor(80, 82, 86));
        p.setColor(QPalette::Highlight, QColor(70, 140, 230));
        p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
        p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        // Links readable on the dark base (Qt's default blue is not).
        p.setColor(QPalette::Link, QColor(110, 170, 255));
        p.setColor(QPalette::LinkVisited, QColor(180, 150, 255));
        // Disabled items and actions greyed, as the light palette's are.
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            p.setColor(QPalette::Disabled, role, QColor(125, 127, 131));
    } else {
        p.setColor(QPalette::Window, QColor(239, 239, 239));
        p.setColor(QPalette::WindowText, QColor(0, 0, 0));
        p.setColor(QPalette::Base, QColor(255, 255, 255));
        p.setColor(QPalette::AlternateBase, QColor(247, 247, 247));
        p.setColor(QPalette::Text, QColor(0, 0, 0));
        p.setColor(QPalette::Button, QColor(239, 239, 239));
        p.setColor(QPalette::ButtonText, QColor(0, 0, 0));
        p.setColor(QPalette::Mid, QColor(184, 184, 184));
        p.setColor(QPalette::Highlight, QColor(48, 140, 198));
        p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
        p.setColor(QPalette::PlaceholderText, QColor(120, 120, 120));
        p.setColor(QPalette::Link, QColor(0, 90, 180));
        p.setColor(QPalette::LinkVisited, QColor(110, 60, 170));
    }
    return p;
}

QSize pictureSize(const PictureSpec& spec) {
    const TimelineLayout layout = layoutOf(spec);
    const Parts parts = partsOf(spec, layout);
    return {parts.title.width(), parts.legend.bottom() + 1};
}

void paintPicture(QPainter& p, const PictureSpec& spec) {
    if (!spec.trace) return;
    const TimelineLayout layout = layoutOf(spec);
    const Parts parts = partsOf(spec, layout);
    const TimelineColors colours = TimelineColors::fromPalette(picturePalette(spec.dark));
    p.save();
    p.setFont(spec.font);
    // Title.
    p.fillRect(parts.title, colours.header);
    QFont bold = spec.font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(colours.headerText);
    p.drawText(
        parts.title.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(bold).elidedText(titleText(spec), Qt::ElideMiddle, parts.title.width() - 16));
    p.setFont(spec.font);
    const TimeAxis axis(spec.range, parts.tracks.width() - kGutter);
    // Ruler.
    RulerInputs ruler;
    ruler.area = parts.ruler;
    ruler.gutterWidth = kGutter;
    ruler.axis = axis;
    ruler.origin = spec.origin;
    ruler.range = spec.selection;
    ruler.colors = colours;
    {
        AnnotationArea flagsOf;
        flagsOf.ruler = parts.ruler;
        flagsOf.gutterWidth = kGutter;
        flagsOf.axis = axis;
        ruler.flags = rulerFlags(flagsOf, spec.annotations);
    }
    paintRuler(p, ruler);
    // Tracks, by the timeline's painter.
    // The timeline's shading: the account's caused gaps, else the idle gaps.
    const ShadedGaps shaded =
        shadedGaps(spec.gapColours.empty() ? idleGapsPerDevice(*spec.trace, spec.gapThreshold)
                                           : std::vector<std::vector<Interval>>{},
                   spec.gapColours);
    const std::vector<std::vector<Interval>>& gaps = shaded.gaps;
    const std::vector<std::vector<QColor>>& gapColours = shaded.colours;
    NameColors names;
    names.reset(spec.trace.get(), spec.dark);
    PaintInputs in;
    in.trace = spec.trace.get();
    in.layout = &layout;
    in.window = spec.range;
    in.gutterWidth = kGutter;
    in.size = parts.tracks.size();
    in.gaps = &gaps;
    in.gapColors = &gapColours;
    in.range = spec.selection;
    in.colors = colours;
    in.names = &names;
    p.save();
    p.translate(parts.tracks.topLeft());
    p.setClipRect(QRect(QPoint(0, 0), parts.tracks.size()));
    paintTimeline(p, in);
    p.restore();
    // Annotations over both.
    AnnotationArea area;
    area.trace = spec.trace.get();
    area.layout = &layout;
    area.ruler = parts.ruler;
    area.tracks = parts.tracks;
    area.gutterWidth = kGutter;
    area.axis = axis;
    area.dark = spec.dark;
    paintAnnotations(p, area, spec.annotations);
    paintLegend(p, parts.legend, spec, colours);
    p.restore();
}

QImage renderPicture(const PictureSpec& spec, QString* error) {
    const QSize size = pictureSize(spec);
    const QSize device = size * spec.scale;
    const qint64 pixels = qint64{device.width()} * device.height();
    if (pixels > kPictureMaxPixels) {
        if (error)
            *error = tr("the picture would be %1 × %2 px (%3 Mpx), more than one image may hold "
                        "(%4 Mpx): choose fewer tracks, a narrower width or scale 1")
                         .arg(device.width())
                         .arg(device.height())
                         .arg(pixels >> 20)
                         .arg(kPictureMaxPixels >> 20);
        return {};
    }
    QImage image(device, QImage::Format_RGB32);
    if (image.isNull()) {
        if (error)
            *error = tr("not enough memory for a %1 × %2 px picture")
                         .arg(device.width())
                         .arg(device.height());
        return {};
    }
    image.setDevicePixelRatio(spec.scale);
    image.fill(picturePalette(spec.dark).color(QPalette::Base));
    QPainter p(&image);
    paintPicture(p, spec);
    return image;
}

QByteArray renderSvg(const PictureSpec& spec, QString* error) {
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    const QSize size = pictureSize(spec);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(titleText(spec));
    svg.setDescription(tr("Exported by Gapscope"));
    QPainter p;
    if (!p.begin(&svg)) {
        if (error) *error = tr("could not start the SVG writer");
        return {};
    }
    p.fillRect(QRect(QPoint(0, 0), size), picturePalette(spec.dark).color(QPalette::Base));
    paintPicture(p, spec);
    p.end();
    // UTF-8 never uses bytes below 0x80 inside a character, so each such
    // byte is the control character itself.
    out.removeIf([](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && u != '\t' && u != '\n' && u != '\r';
    });
    return out;
}

}  // namespace gapscope::ui
