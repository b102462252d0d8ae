#include "timeline/timeline_painter.h"

#include <QFontMetrics>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "analysis/gpu_activity.h"
#include "model/device_properties.h"
#include "timeline/counter_columns.h"
#include "timeline/path_overlay.h"

namespace gapscope::ui {

namespace {

constexpr double kMinSliceWidth = 1.0;  // narrower slices fold into blocks
constexpr double kMergePx = 2.0;        // a block absorbs slices starting within this
constexpr double kLabelMinWidth = 24.0;

struct Ctx {
    QPainter& p;
    const PaintInputs& in;
    const Trace& t;
    TimeAxis axis;
    double x0;  // left edge of the track area
    double right;
    PaintStats stats;
};

// Rows [first, last) drawn at content y minus `offset`, inside [top, bottom)
// of the widget: the pinned rows (not scrolled), then the rest.
struct Region {
    size_t first = 0, last = 0;
    int offset = 0;
    double top = 0, bottom = 0;
    template <typename F>
    void forEachRow(const Ctx& c, F&& f) const {
        const auto& rows = c.in.layout->rows();
        for (size_t r = first; r < last; ++r) {
            const double y = rows[r].y - offset;
            if (y >= bottom) break;
            if (y + rows[r].height <= top) continue;
            f(rows[r], y);
        }
    }
};

std::vector<Region> regionsOf(const PaintInputs& in) {
    const TimelineLayout& l = *in.layout;
    const int pinned = l.pinnedHeight();
    std::vector<Region> out;
    const int first = l.rowAt(pinned + in.scrollY);
    if (first >= 0)
        out.push_back({static_cast<size_t>(first), l.rows().size(), in.scrollY,
                       static_cast<double>(pinned), static_cast<double>(in.size.height())});
    if (pinned > 0)
        out.push_back({0, l.pinnedRows(), 0, 0.0, std::min<double>(pinned, in.size.height())});
    return out;
}

// Shades the idle gaps of each GPU over its rows: a band over its tracks
// and a strip at the bottom of its header.
void paintGapsOver(Ctx& c, size_t device, double headerTop, double top, double bottom) {
    const auto& gaps = (*c.in.gaps)[device];
    if (gaps.empty()) return;
    const std::vector<QColor>* colors = c.in.gapColors && device < c.in.gapColors->size() &&
                                                (*c.in.gapColors)[device].size() == gaps.size()
                                            ? &(*c.in.gapColors)[device]
                                            : nullptr;
    const TimeWindow w = c.axis.window();
    auto it = std::lower_bound(gaps.begin(), gaps.end(), w.start,
                               [](const Interval& g, TimeNs v) { return g.end < v; });
    double lastRight = -1e9;
    for (; it != gaps.end() && it->start <= w.end; ++it) {
        const double gx0 = std::max(c.x0, c.x0 + c.axis.toX(it->start));
        const double gx1 = std::min(c.right, c.x0 + c.axis.toX(it->end));
        if (gx1 - gx0 < 0.5 || gx1 <= lastRight) continue;  // sub-pixel gap at this zoom
        lastRight = gx1;
        QColor fill = c.in.colors.gapFill, head = c.in.colors.gapHeader, edge = c.in.colors.gapEdge;
        const QColor cause = colors ? (*colors)[static_cast<size_t>(it - gaps.begin())] : QColor();
        if (cause.isValid()) {
            fill = cause;
            fill.setAlpha(c.in.colors.dark ? 60 : 50);
            head = cause;
            edge = cause;
            edge.setAlpha(170);
        }
        if (bottom > top) c.p.fillRect(QRectF(gx0, top, gx1 - gx0, bottom - top), fill);
        if (headerTop < top) c.p.fillRect(QRectF(gx0, top - 5, gx1 - gx0, 5), head);
        if (gx1 - gx0 > 6 && bottom > top) {
            c.p.fillRect(QRectF(gx0, top, 1, bottom - top), edge);
            c.p.fillRect(QRectF(gx1 - 1, top, 1, bottom - top), edge);
        }
    }
}

void paintGaps(Ctx& c, const Region& region) {
    if (!c.in.gaps) return;
    // Per GPU process: its entry in gpuDevices and in the gaps.
    auto deviceOf = [&](uint32_t process) -> size_t {
        const int device = c.t.processes[process].gpuDevice;
        if (c.t.processes[process].kind != ProcessKind::Gpu || device < 0) return SIZE_MAX;
        for (size_t d = 0; d < c.t.gpuDevices.size() && d < c.in.gaps->size(); ++d)
            if (c.t.gpuDevices[d].index == device) return d;
        return SIZE_MAX;
    };
    // Runs of consecutive rows of one process.
    uint32_t process = kNone;
    double headerTop = 0, top = 0, bottom = 0;
    auto flush = [&] {
        if (process == kNone) return;
        const size_t d = deviceOf(process);
        if (d != SIZE_MAX) paintGapsOver(c, d, headerTop, top, bottom);
        process = kNone;
    };
    region.forEachRow(c, [&](const DisplayRow& dr, double y) {
        const bool header = dr.kind == DisplayRow::Kind::ProcessHeader;
        const bool group =
            dr.kind == DisplayRow::Kind::RankHeader || dr.kind == DisplayRow::Kind::PinnedHeader;
        if (group || header || dr.process != process) {
            flush();
            if (group) return;
            process = dr.process;
            headerTop = y;
            top = header ? y + dr.height : y;
            bottom = top;
            if (header) return;
        }
        bottom = y + dr.height;
    });
    flush();
}

}  // namespace

QString sliceLabel(const Trace& t, NameColors& names, const Track& track, const Slice& slice) {
    if (track.kind == TrackKind::GpuStream && activityKind(slice) == ActivityKind::Kernel)
        return names.kernelLabel(slice.name);
    const std::string_view name = t.str(slice.name);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

namespace {

void paintSliceRow(Ctx& c, const DisplayRow& dr, double y) {
    const Track& track = c.t.tracks[dr.track];
    if (dr.row >= track.rows.size()) return;
    const Row& row = track.rows[dr.row];
    const TimeWindow w = c.axis.window();
    const auto [lo, hi] = c.t.visibleInRow(row, w.start, w.end);
    const double h = dr.height - 2;
    const QFontMetrics fm = c.p.fontMetrics();
    const auto& slices = c.t.slices;
    RunBreakIndex unindexed;  // a trace not built by the TraceBuilder
    const RunBreakIndex& breaks = dr.row < track.rowBreaks.size()
                                      ? track.rowBreaks[dr.row]
                                      : (unindexed.build(slices, row.begin, row.end), unindexed);
    // The pixel thresholds in whole ns, so that drawing and folding agree:
    // a slice of at least `wideNs` is drawn alone, a gap of `mergeGapNs`
    // ends a block.
    const double nsPerPx = 1.0 / c.axis.pixelsPerNs();
    const auto ns = [](double v) { return static_cast<TimeNs>(std::min(std::ceil(v), 4.0e18)); };
    const TimeNs wideNs = std::max<TimeNs>(1, ns(kMinSliceWidth * nsPerPx));
    const TimeNs mergeGapNs = std::max<TimeNs>(1, ns(kMergePx * nsPerPx));
    uint32_t i = lo;
    while (i < hi) {
        const Slice& s = slices[i];
        const double sx0 = c.axis.toX(s.start);
        if (s.dur >= wideNs) {
            const double sx1 = c.axis.toX(s.end());
            const double a = std::max(sx0, -2.0), b = std::min(sx1, c.right - c.x0 + 2);
            const QRectF r(c.x0 + a, y + 1, b - a, h);
            const QColor fill = c.in.names->color(s.name);
            c.p.fillRect(r, fill);
            const bool match = c.in.searchNames && s.name < c.in.searchNames->size() &&
                               (*c.in.searchNames)[s.name];
            if (match) {
                c.p.setPen(QPen(c.in.colors.searchMatch, 2));
                c.p.drawRect(r.adjusted(1, 1, -1, -1));
            }
            if (r.width() >= kLabelMinWidth) {
                c.p.setPen(NameColors::textOn(fill));
                const int room = static_cast<int>(r.width()) - 6;
                const QString label =
                    fm.elidedText(sliceLabel(c.t, *c.in.names, track, s), Qt::ElideRight, room);
                if (!label.isEmpty()) {
                    c.p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
                    ++c.stats.labels;
                }
            }
            ++c.stats.slicesDrawn;
            ++i;
            continue;
        }
        // Fold a run of sub-pixel slices into one block (Tracy's approach):
        // the block ends before the next slice of a pixel or more, or after
        // the slice that a gap of kMergePx follows. One query per block.
        const uint32_t k = breaks.firstBreak(slices, i, hi, wideNs, mergeGapNs);
        const uint32_t next = k == hi || slices[k].dur >= wideNs ? k : k + 1;
        const double blockEnd = c.axis.toX(slices[next - 1].end());
        const double a = std::max(sx0, -2.0);
        const double b = std::max(a + 1.0, std::min(blockEnd, c.right - c.x0 + 2));
        QColor fill = c.in.names->color(s.name);
        fill = c.in.colors.dark ? fill.darker(135) : fill.darker(118);
        c.p.fillRect(QRectF(c.x0 + a, y + 1, b - a, h), fill);
        ++c.stats.mergedBlocks;
        i = next;
    }
}

void paintInstants(Ctx& c, const Track& track, double y, double h) {
    const TimeWindow w = c.axis.window();
    const auto first = c.t.instants.begin() + track.instantBegin;
    const auto last = c.t.instants.begin() + track.instantEnd;
    auto it = std::lower_bound(first, last, w.start,
                               [](const Instant& in, TimeNs v) { return in.ts < v; });
    c.p.setPen(Qt::NoPen);
    while (it != last && it->ts <= w.end) {
        const double x = c.x0 + c.axis.toX(it->ts);
        QColor col = c.in.names->color(it->name);
        c.p.setBrush(col.darker(140));
        const double cy = y + h / 2, r = std::min(4.0, h / 2 - 1);
        const QPointF diamond[4] = {{x, cy - r}, {x + r, cy}, {x, cy + r}, {x - r, cy}};
        c.p.drawPolygon(diamond, 4);
        // Skip instants that would land on the same 3 pixels.
        const TimeNs next = c.axis.toTime(x - c.x0 + 3.0);
        it = std::lower_bound(it + 1, last, next,
                              [](const Instant& in, TimeNs v) { return in.ts < v; });
    }
    c.p.setBrush(Qt::NoBrush);
}

void paintCounter(Ctx& c, const DisplayRow& dr, double y) {
    const CounterSeries& cs = c.t.counters[dr.counter];
    if (cs.ts.empty()) return;
    const MinMax all = cs.extremes.overall();
    const double lo = std::min(0.0, all.min), hi = std::max(all.max, lo + 1e-12);
    const double top = y + 4, bottom = y + dr.height - 2;
    auto yOf = [&](double v) { return bottom - (v - lo) / (hi - lo) * (bottom - top); };
    QPainterPath path;
    QVector<QLineF> ranges;  // columns whose samples vary: min..max, so dips show too
    const int width = static_cast<int>(c.right - c.x0);
    bool started = false;
    double prevY = bottom;
    forEachCounterColumn(cs, c.axis, width, [&](int x, MinMax m) {
        const double vy = yOf(m.max);
        if (!started) {
            path.moveTo(c.x0 + x, bottom);
            path.lineTo(c.x0 + x, vy);
            started = true;
        } else {
            path.lineTo(c.x0 + x, prevY);
            path.lineTo(c.x0 + x, vy);
        }
        if (m.min < m.max) ranges.push_back(QLineF(c.x0 + x + 0.5, yOf(m.min), c.x0 + x + 0.5, vy));
        prevY = vy;
    });
    if (!started) return;
    path.lineTo(path.currentPosition().x(), bottom);
    path.closeSubpath();
    c.p.fillPath(path, c.in.colors.counterFill);
    c.p.setPen(QPen(c.in.colors.counterLine, 1));
    c.p.drawPath(path);
    if (!ranges.isEmpty()) c.p.drawLines(ranges);
}

// "▾ rank 3 · host · worker3.pt.trace.json (aligned +1.20 ms)" across the gutter.
void paintRankHeader(Ctx& c, const DisplayRow& dr, double y) {
    const TraceRank& rank = c.t.ranks[dr.process];
    c.p.fillRect(QRectF(0, y, c.x0, dr.height), c.in.colors.rankHeader);
    c.p.setPen(c.in.colors.headerText);
    QString title = QStringLiteral("rank %1").arg(rank.rank);
    const QString file = QString::fromStdString(rank.file).section('/', -1);
    const QString host = QString::fromStdString(rank.host);
    // A host's file ("10.0.0.2_6009.xplane.pb") names its host already.
    if (!host.isEmpty() && !file.startsWith(host)) title += " · " + host;
    // The ranks of one file are told apart by their process (the file is
    // every rank's, and the window's title names it).
    title += " · " + (rank.part.empty() ? file : QString::fromStdString(rank.part));
    if (rank.offset != 0)
        title += QStringLiteral(" (shifted %1%2 µs)")
                     .arg(rank.offset > 0 ? "+" : "")
                     .arg(static_cast<double>(rank.offset) / 1000.0, 0, 'f', 1);
    QFont bold = c.p.font();
    bold.setBold(true);
    c.p.setFont(bold);
    const bool collapsed = c.in.layout->isRankCollapsed(dr.process);
    c.p.drawText(
        QRectF(4, y, c.x0 - 6, dr.height), Qt::AlignVCenter,
        QString(collapsed ? "▸ " : "▾ ") +
            QFontMetrics(bold).elidedText(title, Qt::ElideMiddle, static_cast<int>(c.x0) - 24));
    c.p.setFont(QFont(c.p.font().family(), c.p.font().pointSize()));
}

void paintBoldLine(Ctx& c, QRectF box, const QString& mark, const QString& title) {
    QFont bold = c.p.font();
    bold.setBold(true);
    c.p.setFont(bold);
    c.p.drawText(box, Qt::AlignVCenter,
                 mark + QFontMetrics(bold).elidedText(title, Qt::ElideMiddle,
                                                      static_cast<int>(box.width()) - 16));
    c.p.setFont(QFont(c.p.font().family(), c.p.font().pointSize()));
}

void paintProcessHeader(Ctx& c, const DisplayRow& dr, double y) {
    // The gutter part only: the track part (gap markers, range) is already drawn.
    c.p.fillRect(QRectF(0, y, c.x0, dr.height), c.in.colors.header);
    c.p.setPen(c.in.colors.headerText);
    QString title = processTitle(c.t, dr.process);
    // Say what is not under it, so that a person finds it again.
    int hidden = 0, pinned = 0;
    for (const TrackItem i : c.in.layout->arrangement().hidden)
        hidden +=
            (i.counter ? c.t.counters[i.index].process : c.t.tracks[i.index].process) == dr.process;
    for (const TrackItem i : c.in.layout->arrangement().pinned)
        pinned +=
            (i.counter ? c.t.counters[i.index].process : c.t.tracks[i.index].process) == dr.process;
    if (pinned > 0) title += QStringLiteral(" · %1 pinned").arg(pinned);
    if (hidden > 0) title += QStringLiteral(" · %1 hidden").arg(hidden);
    const bool collapsed = c.in.layout->isProcessCollapsed(dr.process);
    paintBoldLine(c, QRectF(6, y, c.x0 - 8, dr.height), collapsed ? "▸ " : "▾ ", title);
}

void paintGutter(Ctx& c, const Region& region) {
    const QFontMetrics fm = c.p.fontMetrics();
    c.p.setClipRect(QRectF(0, region.top, c.x0, region.bottom - region.top));
    c.p.fillRect(QRectF(0, region.top, c.x0, region.bottom - region.top), c.in.colors.gutter);
    region.forEachRow(c, [&](const DisplayRow& dr, double y) {
        if (dr.kind == DisplayRow::Kind::RankHeader) return paintRankHeader(c, dr, y);
        if (dr.kind == DisplayRow::Kind::ProcessHeader) return paintProcessHeader(c, dr, y);
        if (dr.kind == DisplayRow::Kind::PinnedHeader) {
            c.p.fillRect(QRectF(0, y, c.x0, dr.height), c.in.colors.rankHeader);
            c.p.setPen(c.in.colors.headerText);
            paintBoldLine(
                c, QRectF(6, y, c.x0 - 8, dr.height), QStringLiteral("▪ "),
                QStringLiteral("Pinned (%1)").arg(c.in.layout->arrangement().pinned.size()));
            return;
        }
        if (!dr.firstOfTrack) return;
        QString label;
        QString mark = QStringLiteral("   ");
        if (dr.kind != DisplayRow::Kind::Counter && c.t.tracks[dr.track].rows.size() > 1)
            mark = c.in.layout->isTrackCollapsed(dr.track) ? "▸ " : "▾ ";
        label = mark + (dr.pinned ? itemPrefix(c.t, dr.process) : QString()) +
                itemName(c.t, *dr.item());
        c.p.setPen(c.in.colors.gutterText);
        // Cut in the middle: the end ("stream 7", a thread id) tells tracks apart.
        c.p.drawText(QRectF(16, y, c.x0 - 20, TimelineLayout::kRowHeight), Qt::AlignVCenter,
                     fm.elidedText(label, dr.pinned ? Qt::ElideMiddle : Qt::ElideRight,
                                   static_cast<int>(c.x0) - 22));
    });
    c.p.setClipping(false);
}

// A content y of the scrolled rows that is hidden under the pinned ones.
bool underPinned(const Ctx& c, int contentY) {
    const int pinned = c.in.layout->pinnedHeight();
    return contentY >= pinned && contentY + TimelineLayout::kRowHeight - c.in.scrollY <= pinned;
}

void paintFlows(Ctx& c) {
    const uint32_t sel = c.in.selectedSlice;
    if (sel == kNone) return;
    c.p.setRenderHint(QPainter::Antialiasing, true);
    for (const Flow& f : c.t.flows) {
        if (f.from != sel && f.to != sel) continue;
        const int y0 = c.in.layout->yOfSlice(f.from), y1 = c.in.layout->yOfSlice(f.to);
        if (y0 < 0 || y1 < 0 || underPinned(c, y0) || underPinned(c, y1)) continue;
        const QPointF a(c.x0 + c.axis.toX(c.t.slices[f.from].start),
                        c.in.layout->screenY(y0, c.in.scrollY) + TimelineLayout::kRowHeight / 2.0);
        const QPointF b(c.x0 + c.axis.toX(c.t.slices[f.to].start),
                        c.in.layout->screenY(y1, c.in.scrollY) + TimelineLayout::kRowHeight / 2.0);
        QPainterPath path(a);
        const double dx = std::max(30.0, std::abs(b.x() - a.x()) / 2);
        path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b);
        c.p.setPen(QPen(c.in.colors.flow, 1.6));
        c.p.drawPath(path);
        c.p.setBrush(c.in.colors.flow);
        const QPointF head[3] = {b, b + QPointF(-8, -4), b + QPointF(-8, 4)};
        c.p.drawPolygon(head, 3);
        c.p.setBrush(Qt::NoBrush);
    }
    c.p.setRenderHint(QPainter::Antialiasing, false);
}

void outlineSlice(Ctx& c, uint32_t slice, const QColor& color, double width) {
    if (slice == kNone || slice >= c.t.slices.size()) return;
    const int y = c.in.layout->yOfSlice(slice);
    if (y < 0) return;
    // A slice scrolled partly under the pinned rows is outlined below them only.
    const int pinned = c.in.layout->pinnedHeight();
    if (y >= pinned && pinned > 0)
        c.p.setClipRect(QRectF(c.x0, pinned, c.right - c.x0, c.in.size.height() - pinned));
    const Slice& s = c.t.slices[slice];
    const double a = std::max(c.axis.toX(s.start), -3.0);
    const double b = std::max(a + 2.0, std::min(c.axis.toX(s.end()), c.right - c.x0 + 3));
    c.p.setPen(QPen(color, width));
    c.p.drawRect(QRectF(c.x0 + a, c.in.layout->screenY(y, c.in.scrollY) + 1, b - a,
                        TimelineLayout::kRowHeight - 2));
    c.p.setClipRect(QRectF(c.x0, 0, c.right - c.x0, c.in.size.height()));
}

}  // namespace

QString processTitle(const Trace& t, uint32_t process) {
    const Process& proc = t.processes[process];
    QString title = QString::fromStdString(proc.displayName);
    if (proc.kind == ProcessKind::Gpu) {
        for (const GpuDevice& d : t.gpuDevices) {
            if (d.index == proc.gpuDevice && !d.name.empty())
                title += " · " + QString::fromStdString(shortDeviceName(d.name));
        }
    }
    return title;
}

// (Processes of ranks merged into one trace are named "rank 3 · …" already.)
QString itemPrefix(const Trace& t, uint32_t process) {
    if (process >= t.processes.size()) return {};
    return QString::fromStdString(t.processes[process].displayName) + " › ";
}

QString itemName(const Trace& t, TrackItem item) {
    if (!item.counter) return QString::fromStdString(t.tracks[item.index].displayName);
    const std::string_view name = t.str(t.counters[item.index].name);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

PaintStats paintTimeline(QPainter& p, const PaintInputs& in) {
    Ctx c{p,
          in,
          *in.trace,
          trackAxis(in),
          static_cast<double>(in.gutterWidth),
          static_cast<double>(in.size.width()),
          {}};
    p.fillRect(QRect(QPoint(0, 0), in.size), in.colors.background);
    // Only the rows on screen are visited (a trace may have a million
    // threads). The scrolled rows first, the pinned ones over them.
    const std::vector<Region> regions = regionsOf(in);
    for (const Region& region : regions) {
        p.setClipRect(QRectF(c.x0, region.top, c.right - c.x0, region.bottom - region.top));
        p.fillRect(QRectF(c.x0, region.top, c.right - c.x0, region.bottom - region.top),
                   in.colors.background);
        // Alternate tracks get a faint band to guide the eye along a row.
        region.forEachRow(c, [&](const DisplayRow& dr, double y) {
            const uint32_t id = dr.kind == DisplayRow::Kind::Counter ? dr.counter : dr.track;
            if (dr.kind == DisplayRow::Kind::ProcessHeader) {
                p.fillRect(QRectF(c.x0, y, c.right - c.x0, dr.height), in.colors.header);
            } else if (dr.kind == DisplayRow::Kind::RankHeader ||
                       dr.kind == DisplayRow::Kind::PinnedHeader) {
                p.fillRect(QRectF(c.x0, y, c.right - c.x0, dr.height), in.colors.rankHeader);
            } else if (id & 1) {
                p.fillRect(QRectF(c.x0, y, c.right - c.x0, dr.height),
                           in.colors.alternateBackground);
            }
        });
        paintGaps(c, region);
        region.forEachRow(c, [&](const DisplayRow& dr, double y) {
            if (dr.kind == DisplayRow::Kind::Slices) {
                paintSliceRow(c, dr, y);
            } else if (dr.kind == DisplayRow::Kind::Instants) {
                paintInstants(c, c.t.tracks[dr.track], y, dr.height);
            } else if (dr.kind == DisplayRow::Kind::Counter) {
                paintCounter(c, dr, y);
            }
        });
    }
    p.setClipRect(QRectF(c.x0, 0, c.right - c.x0, in.size.height()));
    if (in.range) {
        const double a = c.x0 + c.axis.toX(in.range->start), b = c.x0 + c.axis.toX(in.range->end);
        p.fillRect(QRectF(a, 0, std::max(1.0, b - a), in.size.height()), in.colors.rangeFill);
        p.fillRect(QRectF(a, 0, 1, in.size.height()), in.colors.rangeEdge);
        p.fillRect(QRectF(b, 0, 1, in.size.height()), in.colors.rangeEdge);
    }
    if (in.path) paintPathOverlay(p, in, *in.path, in.pathDimmed);
    outlineSlice(c, in.hoverSlice, in.colors.hover, 1);
    outlineSlice(c, in.selectedSlice, in.colors.selection, 2.5);
    for (const uint32_t s : in.alsoSelected)
        outlineSlice(c, s, in.colors.selection, 1.5);
    paintFlows(c);
    p.setClipping(false);
    p.fillRect(QRectF(0, 0, c.x0, in.size.height()), in.colors.gutter);
    for (const Region& region : regions)
        paintGutter(c, region);
    p.fillRect(QRectF(c.x0 - 1, 0, 1, in.size.height()), in.colors.grid);
    // The pinned rows' lower edge: the rest scrolls under it.
    if (const int h = in.layout->pinnedHeight(); h > 1 && h < in.size.height())
        p.fillRect(QRectF(0, h - 2, c.right, 2), in.colors.grid);
    return c.stats;
}

}  // namespace gapscope::ui
