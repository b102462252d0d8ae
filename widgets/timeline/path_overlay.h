#pragma once
// The critical path over the timeline (gapscope-cli critical-path): its
// slices outlined, its hops from one track to another drawn as arrows, the
// rest dimmed on request. Made once per result; a frame finds what is in
// view by binary search (a whole trace's path has a node per slice end),
// and folds what shares a pixel, so that it costs O(what is on screen).

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
    PathOverlay(std::shared_ptr<const Trace> trace, std::vector<Point> points, bool dimRest);

    const Trace* trace() const { return trace_.get(); }

    bool dimRest() const { return dimRest_; }
    void setDimRest(bool dim) { dimRest_ = dim; }
    size_t sliceCount() const { return slices_.size(); }
    size_t hopCount() const { return hops_.size(); }
    // The slices on the path that intersect [start, end], in start order.
    std::vector<uint32_t> slicesIn(TimeWindow window) const;
    // The hops from one track to another (a launch to its kernel, a kernel
    // to the wait it ended) that reach into the window, each as (from, to).
    std::vector<std::pair<Point, Point>> hopsIn(TimeWindow window) const;

  private:
    std::shared_ptr<const Trace> trace_;
    bool dimRest_;
    std::vector<uint32_t> slices_;  // distinct, by start
    std::vector<TimeNs> reach_;     // the latest end of slices_[0..i]
    struct Hop {
        Point from, to;
        TimeNs lo() const { return std::min(from.at, to.at); }
        TimeNs hi() const { return std::max(from.at, to.at); }
    };
    std::vector<Hop> hops_;            // in the path's order
    std::vector<TimeNs> hopReach_;     // the latest hi() of hops_[0..i]
    std::vector<TimeNs> hopEarliest_;  // the earliest lo() of hops_[i..]
};

// Draws it over the tracks of a frame (after the slices, before the
// selection's outline).
void paintPathOverlay(QPainter& p, const PaintInputs& in, const PathOverlay& path);

}  // namespace gapscope::ui
