#include "timeline/path_overlay.h"

#include <QPainterPath>
#include <QRegion>
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "timeline/timeline_painter.h"

namespace gapscope::ui {

PathOverlay::PathOverlay(std::shared_ptr<const Trace> owner, std::vector<Point> points,
                         bool dimRest)
    : trace_(std::move(owner)), dimRest_(dimRest) {
    const Trace& trace = *trace_;
    for (size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        if (p.slice >= trace.slices.size()) continue;
        slices_.push_back(p.slice);
        // Only from one track to another (a launch to its kernel, a kernel
        // to the wait it ended, a stream to another's): along a thread the
        // outlines show the chain, and arrows between nested ops hide it.
        if (i + 1 < points.size() && points[i + 1].slice < trace.slices.size() &&
            trace.trackOfSlice(points[i + 1].slice) != trace.trackOfSlice(p.slice))
            hops_.push_back({p, points[i + 1]});
    }
    std::sort(slices_.begin(), slices_.end());
    slices_.erase(std::unique(slices_.begin(), slices_.end()), slices_.end());
    std::stable_sort(slices_.begin(), slices_.end(), [&](uint32_t a, uint32_t b) {
        return trace.slices[a].start < trace.slices[b].start;
    });
    reach_.reserve(slices_.size());
    TimeNs reach = INT64_MIN;
    for (const uint32_t s : slices_)
        reach_.push_back(reach = std::max(reach, trace.slices[s].end()));
    // Clocks that disagree can send the path back in time: the hops keep
    // the path's order, and a window finds them by their reach either way.
    hopReach_.reserve(hops_.size());
    reach = INT64_MIN;
    for (const Hop& h : hops_)
        hopReach_.push_back(reach = std::max(reach, h.hi()));
    hopEarliest_.assign(hops_.size(), 0);
    TimeNs earliest = INT64_MAX;
    for (size_t i = hops_.size(); i-- > 0;)
        hopEarliest_[i] = earliest = std::min(earliest, hops_[i].lo());
}

std::vector<uint32_t> PathOverlay::slicesIn(TimeWindow w) const {
    std::vector<uint32_t> out;
    // reach_ never falls: the first that can reach the window, then all
    // until one starts after it (slices_ are in start order).
    size_t i = static_cast<size_t>(std::lower_bound(reach_.begin(), reach_.end(), w.start) -
                                   reach_.begin());
    for (; i < slices_.size(); ++i) {
        const Slice& s = trace_->slices[slices_[i]];
        if (s.start > w.end) break;
        if (s.end() >= w.start) out.push_back(slices_[i]);
    }
    return out;
}

std::vector<std::pair<PathOverlay::Point, PathOverlay::Point>> PathOverlay::hopsIn(
    TimeWindow w) const {
    std::vector<std::pair<Point, Point>> out;
    size_t i = static_cast<size_t>(std::lower_bound(hopReach_.begin(), hopReach_.end(), w.start) -
                                   hopReach_.begin());
    for (; i < hops_.size() && hopEarliest_[i] <= w.end; ++i)
        if (hops_[i].hi() >= w.start && hops_[i].lo() <= w.end)
            out.emplace_back(hops_[i].from, hops_[i].to);
    return out;
}

namespace {

QColor pathColor(bool dark) {
    // Not the selection's blue nor the flows': a warm red that reads on
    // every slice colour, as an outline.
    return dark ? QColor(255, 110, 90) : QColor(200, 30, 30);
}

}  // namespace

void paintPathOverlay(QPainter& p, const PaintInputs& in, const PathOverlay& path) {
    const TimeAxis axis = trackAxis(in);
    const double x0 = in.gutterWidth, right = in.size.width();
    const TimelineLayout& layout = *in.layout;
    const int pinned = layout.pinnedHeight();
    const int rowH = TimelineLayout::kRowHeight;
    // A row scrolled under the pinned ones is not drawn on.
    auto screenRow = [&](uint32_t slice) -> std::optional<double> {
        const int y = layout.yOfSlice(slice);
        if (y < 0) return std::nullopt;
        const int sy = layout.screenY(y, in.scrollY);
        if (y >= pinned && sy + rowH <= pinned) return std::nullopt;
        if (sy > in.size.height()) return std::nullopt;
        return sy;
    };
    // Each row's outlines, those a pixel apart folded into one.
    std::unordered_map<int, std::vector<QRectF>> rows;
    for (const uint32_t s : path.slicesIn(in.window)) {
        const auto y = screenRow(s);
        if (!y) continue;
        const Slice& slice = in.trace->slices[s];
        const double a = std::max(axis.toX(slice.start), -3.0);
        const double b = std::max(a + 2.0, std::min(axis.toX(slice.end()), right - x0 + 3));
        std::vector<QRectF>& row = rows[static_cast<int>(*y)];
        if (!row.empty() && a <= row.back().right() - x0 + 1) {
            row.back().setRight(std::max(row.back().right(), x0 + b));
            continue;
        }
        row.emplace_back(x0 + a, *y + 1, b - a, rowH - 2);
    }
    p.save();
    p.setClipRect(QRectF(x0, 0, right - x0, in.size.height()));
    if (path.dimRest()) {
        QRegion lit;
        for (const auto& [y, rects] : rows)
            for (const QRectF& r : rects)
                lit += r.toAlignedRect().adjusted(-1, -1, 1, 1);
        QColor veil = in.colors.background;
        veil.setAlpha(in.colors.dark ? 170 : 150);
        p.setClipRegion(
            QRegion(QRect(static_cast<int>(x0), 0, static_cast<int>(right - x0), in.size.height()))
                .subtracted(lit));
        p.fillRect(QRectF(x0, 0, right - x0, in.size.height()), veil);
        p.setClipRect(QRectF(x0, 0, right - x0, in.size.height()));
    }
    const QColor color = pathColor(in.colors.dark);
    p.setPen(QPen(color, 2));
    p.setBrush(Qt::NoBrush);
    for (const auto& [y, rects] : rows)
        for (const QRectF& r : rects)
            p.drawRect(r);
    // The hops: from a point of one slice to a point of another (a launch
    // to its kernel, a kernel to the wait that ended with it), once per
    // pixel pair.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(color, 1.4));
    std::unordered_set<uint64_t> drawn;
    for (const auto& [from, to] : path.hopsIn(in.window)) {
        const auto y0 = screenRow(from.slice), y1 = screenRow(to.slice);
        if (!y0 || !y1) continue;
        const QPointF a(x0 + std::clamp(axis.toX(from.at), -50.0, right - x0 + 50),
                        *y0 + rowH / 2.0);
        const QPointF b(x0 + std::clamp(axis.toX(to.at), -50.0, right - x0 + 50), *y1 + rowH / 2.0);
        const auto px = [](double v) { return static_cast<uint64_t>(std::lround(v) & 0xffff); };
        const uint64_t key = px(a.x()) << 48 | px(a.y()) << 32 | px(b.x()) << 16 | px(b.y());
        if (!drawn.insert(key).second) continue;
        if (std::abs(b.y() - a.y()) < 1 && std::abs(b.x() - a.x()) < 1) continue;
        p.drawLine(a, b);
        // An arrow's head where it goes, pointing along the line.
        const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
        if (len < 8) continue;
        const QPointF u((b.x() - a.x()) / len, (b.y() - a.y()) / len), n(-u.y(), u.x());
        const QPointF head[3] = {b, b - u * 7 + n * 3.5, b - u * 7 - n * 3.5};
        p.setBrush(color);
        p.drawPolygon(head, 3);
        p.setBrush(Qt::NoBrush);
    }
    p.restore();
}

}  // namespace gapscope::ui
