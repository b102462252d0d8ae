#include "index/interval_set.h"

#include <algorithm>
#include <optional>

namespace gapscope {

void mergeIntervals(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) {
        return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    size_t out = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i].end <= v[i].start) continue;
        if (out > 0 && v[i].start <= v[out - 1].end) {
            v[out - 1].end = std::max(v[out - 1].end, v[i].end);
        } else {
            v[out++] = v[i];
        }
    }
    v.resize(out);
    v.shrink_to_fit();
}

namespace {

// Appends [s, e) to a merged list being built in order, joining a touching tail.
void appendMerged(std::vector<Interval>& out, TimeNs s, TimeNs e) {
    if (e <= s) return;
    if (!out.empty() && s <= out.back().end) {
        out.back().end = std::max(out.back().end, e);
    } else {
        out.push_back({s, e});
    }
}

}  // namespace

std::vector<Interval> unionOf(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const bool takeA = j >= b.size() || (i < a.size() && a[i].start <= b[j].start);
        const Interval& x = takeA ? a[i++] : b[j++];
        appendMerged(out, x.start, x.end);
    }
    return out;
}

std::vector<Interval> intersectionOf(const std::vector<Interval>& a,
                                     const std::vector<Interval>& b) {
    std::vector<Interval> out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs s = std::max(a[i].start, b[j].start);
        const TimeNs e = std::min(a[i].end, b[j].end);
        appendMerged(out, s, e);
        if (a[i].end < b[j].end) {
            ++i;
        } else {
            ++j;
        }
    }
    return out;
}

std::vector<Interval> differenceOf(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    size_t j = 0;
    for (const Interval& x : a) {
        TimeNs s = x.start;
        while (j < b.size() && b[j].end <= s)
            ++j;
        size_t k = j;
        while (k < b.size() && b[k].start < x.end) {
            appendMerged(out, s, b[k].start);
            s = std::max(s, b[k].end);
            if (b[k].end > x.end) break;
            ++k;
        }
        appendMerged(out, s, x.end);
    }
    return out;
}

size_t firstEndingAfter(const std::vector<Interval>& merged, TimeNs t) {
    const auto it = std::upper_bound(merged.begin(), merged.end(), t,
                                     [](TimeNs v, const Interval& x) { return v < x.end; });
    return static_cast<size_t>(it - merged.begin());
}

std::vector<Interval> clippedTo(const std::vector<Interval>& merged, Interval window) {
    std::vector<Interval> out;
    for (size_t i = firstEndingAfter(merged, window.start);
         i < merged.size() && merged[i].start < window.end; ++i) {
        appendMerged(out, std::max(merged[i].start, window.start),
                     std::min(merged[i].end, window.end));
    }
    return out;
}

TimeNs totalLength(const std::vector<Interval>& merged) {
    TimeNs total = 0;
    for (const Interval& x : merged)
        total += x.length();
    return total;
}

TimeNs lengthWithin(const std::vector<Interval>& merged, Interval window) {
    TimeNs total = 0;
    for (size_t i = firstEndingAfter(merged, window.start);
         i < merged.size() && merged[i].start < window.end; ++i) {
        total += std::min(merged[i].end, window.end) - std::max(merged[i].start, window.start);
    }
    return total;
}

std::vector<Interval> gapsBetween(const std::vector<Interval>& merged, TimeNs minLength) {
    std::vector<Interval> gaps;
    for (size_t i = 1; i < merged.size(); ++i) {
        const TimeNs len = merged[i].start - merged[i - 1].end;
        if (len >= minLength && len > 0) gaps.push_back({merged[i - 1].end, merged[i].start});
    }
    return gaps;
}

std::vector<TimeNs> pointsOutside(std::vector<TimeNs> points, const std::vector<Interval>& merged) {
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    std::erase_if(points, [&](TimeNs p) {
        const size_t k = firstEndingAfter(merged, p);  // the first with end > p
        const bool atEnd = k > 0 && merged[k - 1].end == p;
        return atEnd || (k < merged.size() && merged[k].start <= p);
    });
    return points;
}

std::vector<Interval> gapsBetween(const std::vector<Interval>& merged,
                                  const std::vector<TimeNs>& points, TimeNs minLength) {
    std::vector<Interval> gaps;
    std::optional<TimeNs> previousEnd;
    auto next = [&](TimeNs start, TimeNs end) {
        if (previousEnd && start - *previousEnd >= minLength && start > *previousEnd)
            gaps.push_back({*previousEnd, start});
        previousEnd = end;
    };
    size_t p = 0;
    for (const Interval& i : merged) {
        for (; p < points.size() && points[p] < i.start; ++p)
            next(points[p], points[p]);
        next(i.start, i.end);
    }
    for (; p < points.size(); ++p)
        next(points[p], points[p]);
    return gaps;
}

std::vector<Interval> splitAt(const std::vector<Interval>& merged,
                              const std::vector<TimeNs>& points) {
    std::vector<Interval> out;
    auto p = points.begin();
    for (const Interval& i : merged) {
        p = std::upper_bound(p, points.end(), i.start);
        TimeNs from = i.start;
        for (; p != points.end() && *p < i.end; ++p) {
            if (*p == from) continue;  // a repeated point
            out.push_back({from, *p});
            from = *p;
        }
        out.push_back({from, i.end});
    }
    return out;
}

std::vector<TimeNs> pointsWithin(const std::vector<TimeNs>& points, Interval window) {
    if (window.end <= window.start) return {};
    return {std::lower_bound(points.begin(), points.end(), window.start),
            std::lower_bound(points.begin(), points.end(), window.end)};
}

}  // namespace gapscope
