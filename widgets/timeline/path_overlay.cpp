#include "timeline/path_overlay.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_set>

#include "timeline/timeline_painter.h"

namespace gapscope::ui {

namespace {

// Splits `items` (by length) into the `kept` longest and the rest; the
// length that no item of the rest exceeds.
template <class T, class Length>
TimeNs splitLongest(std::vector<T>& items, std::vector<T>& longest, size_t kept, Length length) {
    if (items.size() <= kept) {
        longest = std::move(items);
        items.clear();
        return 0;
    }
    std::nth_element(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kept), items.end(),
                     [&](const T& a, const T& b) { return length(a) > length(b); });
    longest.assign(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kept));
    items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kept));
    TimeNs most = 0;
    for (const T& item : items)
        most = std::max(most, length(item));
    return most;
}

}  // namespace

PathOverlay::PathOverlay(std::shared_ptr<const Trace> owner, std::vector<Point> points)
    : trace_(std::move(owner)) {
    const Trace& trace = *trace_;
    std::vector<uint32_t> slices;
    std::vector<Hop> hops;
    for (size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        if (p.slice >= trace.slices.size()) continue;
        slices.push_back(p.slice);
        // Only from one track to another (a launch to its kernel, a kernel
        // to the wait it ended, a stream to another's): along a thread the
        // outlines show the chain, and arrows between nested ops hide it.
        if (i + 1 < points.size() && points[i + 1].slice < trace.slices.size() &&
            trace.trackOfSlice(points[i + 1].slice) != trace.trackOfSlice(p.slice))
            hops.push_back({p, points[i + 1]});
    }
    std::sort(slices.begin(), slices.end());
    slices.erase(std::unique(slices.begin(), slices.end()), slices.end());
    shortestLong_ = splitLongest(slices, longSlices_, kLongKept,
                                 [&](uint32_t s) { return trace.slices[s].dur; });
    shortSlices_ = std::move(slices);
    for (auto* list : {&shortSlices_, &longSlices_})
        std::stable_sort(list->begin(), list->end(), [&](uint32_t a, uint32_t b) {
            return trace.slices[a].start < trace.slices[b].start;
        });
    // (Clocks that disagree can send a hop back in time: it is found by
    // its earlier point either way.)
    longestShortHop_ =
        splitLongest(hops, longHops_, kLongKept, [](const Hop& h) { return h.hi() - h.lo(); });
    shortHops_ = std::move(hops);
    std::sort(shortHops_.begin(), shortHops_.end(),
              [](const Hop& a, const Hop& b) { return a.lo() < b.lo(); });
}

std::vector<uint32_t> PathOverlay::slicesIn(TimeWindow w) const {
    const auto& slices = trace_->slices;
    auto in = [&](uint32_t s) { return slices[s].start <= w.end && slices[s].end() >= w.start; };
    // The short ones from the first that can reach the window (none starts
    // longer before it than the longest lasts) to the first after it.
    std::vector<uint32_t> shortIn;
    const TimeNs from = w.start > INT64_MIN + shortestLong_ ? w.start - shortestLong_ : INT64_MIN;
    auto it = std::lower_bound(shortSlices_.begin(), shortSlices_.end(), from,
                               [&](uint32_t s, TimeNs t) { return slices[s].start < t; });
    for (; it != shortSlices_.end() && slices[*it].start <= w.end; ++it)
        if (in(*it)) shortIn.push_back(*it);
    std::vector<uint32_t> out;
    out.reserve(shortIn.size() + longSlices_.size());
    std::vector<uint32_t> longIn;
    for (const uint32_t s : longSlices_)
        if (in(s)) longIn.push_back(s);
    std::merge(shortIn.begin(), shortIn.end(), longIn.begin(), longIn.end(),
               std::back_inserter(out),
               [&](uint32_t a, uint32_t b) { return slices[a].start < slices[b].start; });
    return out;
}

std::vector<std::pair<PathOverlay::Point, PathOverlay::Point>> PathOverlay::hopsIn(
    TimeWindow w) const {
    std::vector<std::pair<Point, Point>> out;
    auto in = [&](const Hop& h) { return h.hi() >= w.start && h.lo() <= w.end; };
    const TimeNs from =
        w.start > INT64_MIN + longestShortHop_ ? w.start - longestShortHop_ : INT64_MIN;
    auto it = std::lower_bound(shortHops_.begin(), shortHops_.end(), from,
                               [](const Hop& h, TimeNs t) { return h.lo() < t; });
    for (; it != shortHops_.end() && it->lo() <= w.end; ++it)
        if (in(*it)) out.emplace_back(it->from, it->to);
    for (const Hop& h : longHops_)
        if (in(h)) out.emplace_back(h.from, h.to);
    return out;
}

namespace {

QColor pathColor(bool dark) {
    // Not the selection's blue nor the flows': a warm red that reads on
    // every slice colour, as an outline.
    return dark ? QColor(255, 110, 90) : QColor(200, 30, 30);
}

}  // namespace

void paintPathOverlay(QPainter& p, const PaintInputs& in, const PathOverlay& path, bool dimmed) {
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
    // Each row's outlines (by screen y), those a pixel apart folded into one.
    std::map<int, std::vector<QRectF>> rows;
    for (const uint32_t s : path.slicesIn(in.window)) {
        const auto y = screenRow(s);
        if (!y) continue;
        const Slice& slice = in.trace->slices[s];
        const double a = std::max(axis.toX(slice.start), -3.0);
        const double b = std::max(a + 2.0, std::min(axis.toX(slice.end()), right - x0 + 3));
        std::vector<QRectF>& row = rows[static_cast<int>(*y)];
        if (!row.empty() && x0 + a <= row.back().right() + 1) {
            row.back().setRight(std::max(row.back().right(), x0 + b));
            continue;
        }
        row.emplace_back(x0 + a, *y + 1, b - a, rowH - 2);
    }
    p.save();
    p.setClipRect(QRectF(x0, 0, right - x0, in.size.height()));
    if (dimmed) {
        // A veil on everything but the path's slices: the rows without one
        // whole, a row with some between them (linear in what is drawn).
        QColor veil = in.colors.background;
        veil.setAlpha(in.colors.dark ? 170 : 150);
        double top = 0;
        for (const auto& [y, rects] : rows) {
            if (y > top) p.fillRect(QRectF(x0, top, right - x0, y - top), veil);
            double x = x0;
            for (const QRectF& r : rects) {
                if (r.left() - 1 > x) p.fillRect(QRectF(x, y, r.left() - 1 - x, rowH), veil);
                x = std::max(x, r.right() + 1);
            }
            if (right > x) p.fillRect(QRectF(x, y, right - x, rowH), veil);
            top = std::max(top, static_cast<double>(y + rowH));
        }
        if (in.size.height() > top)
            p.fillRect(QRectF(x0, top, right - x0, in.size.height() - top), veil);
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
