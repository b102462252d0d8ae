#pragma once
// Interval algebra over sorted, disjoint interval lists: the basis of GPU
// busy time, idle gaps and the time breakdowns (compute, exposed
// communication, exposed memcpy). Intervals are half-open [start, end) for
// lengths; "merged" lists are sorted, disjoint and never touch.

#include <cstddef>
#include <vector>

#include "util/types.h"

namespace gapscope {

struct Interval {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs length() const { return end - start; }
    bool operator==(const Interval&) const = default;
};

// Sorts and merges `intervals` in place (touching intervals merge, empty
// ones vanish): afterwards the list is "merged".
void mergeIntervals(std::vector<Interval>& intervals);

// Operations on merged lists; each returns a merged list.
std::vector<Interval> unionOf(const std::vector<Interval>& a, const std::vector<Interval>& b);
std::vector<Interval> intersectionOf(const std::vector<Interval>& a,
                                     const std::vector<Interval>& b);
std::vector<Interval> differenceOf(const std::vector<Interval>& a,
                                   const std::vector<Interval>& b);  // a minus b
// The parts of a merged list inside [window.start, window.end).
std::vector<Interval> clippedTo(const std::vector<Interval>& merged, Interval window);

// Total length of a merged list, and of its part inside a window
// (O(log n + k) by binary search).
TimeNs totalLength(const std::vector<Interval>& merged);
TimeNs lengthWithin(const std::vector<Interval>& merged, Interval window);

// The gaps between consecutive intervals of a merged list that last at
// least minLength (and more than 0).
std::vector<Interval> gapsBetween(const std::vector<Interval>& merged, TimeNs minLength);

// Points in time (zero-length activity): sorted and unique, without those
// inside an interval of `merged` or at its ends.
std::vector<TimeNs> pointsOutside(std::vector<TimeNs> points, const std::vector<Interval>& merged);
// The gaps between consecutive elements of a merged list and of points
// outside it (as pointsOutside leaves them) that last at least minLength
// (and more than 0): a point splits a gap, and a point before the first or
// after the last interval opens one.
std::vector<Interval> gapsBetween(const std::vector<Interval>& merged,
                                  const std::vector<TimeNs>& points, TimeNs minLength);
// Each interval of a merged list cut at the sorted points strictly inside it.
std::vector<Interval> splitAt(const std::vector<Interval>& merged,
                              const std::vector<TimeNs>& points);
// The sorted points inside [window.start, window.end).
std::vector<TimeNs> pointsWithin(const std::vector<TimeNs>& points, Interval window);

// Index of the first interval of a merged list that ends after t.
size_t firstEndingAfter(const std::vector<Interval>& merged, TimeNs t);

}  // namespace gapscope
