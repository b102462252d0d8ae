#pragma once
// The critical path over the timeline (gapscope-cli critical-path): its
// slices outlined, its hops from one track to another drawn as arrows, the
// rest dimmed on request (ViewState::pathDimmed). Made once per result; a
// frame finds what is in view by binary search (a whole trace's path has a
// node per slice end) and folds what shares a pixel, so that it costs
// O(what is on screen), whatever the path's length.

#include <QPainter>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "timeline/time_axis.h"

namespace gapscope::ui {

struct PaintInputs;

class PathOverlay {
  public:
    struct Point {
        uint32_t slice = kNone;
        TimeNs at = 0;
    };
    // The path's nodes, first to last (the critical-path analysis's
    // "path" table), over `trace`'s slices.
    PathOverlay(std::shared_ptr<const Trace> trace, std::vector<Point> points);

    const Trace* trace() const { return trace_.get(); }
    size_t sliceCount() const { return shortSlices_.size() + longSlices_.size(); }
    size_t hopCount() const { return shortHops_.size() + longHops_.size(); }
    // The slices on the path that intersect [start, end], in start order.
    std::vector<uint32_t> slicesIn(TimeWindow window) const;
    // The hops from one track to another (a launch to its kernel, a kernel
    // to the wait it ended) that reach into the window, each as (from, to).
    std::vector<std::pair<Point, Point>> hopsIn(TimeWindow window) const;

    // The few longest are apart (a step's own slice spans every other):
    // the rest are found by their start within their longest length.
    static constexpr size_t kLongKept = 64;

  private:
    std::shared_ptr<const Trace> trace_;
    std::vector<uint32_t> shortSlices_, longSlices_;  // distinct, each by start
    TimeNs shortestLong_ = 0;                         // no short slice lasts longer
    struct Hop {
        Point from, to;
        TimeNs lo() const { return std::min(from.at, to.at); }
        TimeNs hi() const { return std::max(from.at, to.at); }
    };
    std::vector<Hop> shortHops_, longHops_;  // the short ones by lo()
    TimeNs longestShortHop_ = 0;
};

// Draws it over the tracks of a frame (after the slices, before the
// selection's outline), the rest of the tracks veiled when `dimmed`.
void paintPathOverlay(QPainter& p, const PaintInputs& in, const PathOverlay& path, bool dimmed);

}  // namespace gapscope::ui
