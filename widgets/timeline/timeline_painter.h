#pragma once
// Draws the timeline: process headers, track labels, GPU idle-gap shading,
// slices with level-of-detail merging, instants, counters, search matches,
// selection and flow arrows. Preprocess-then-paint per row: binary searches
// find the visible slices, runs of sub-pixel slices fold into one block, so a
// frame costs O(pixels x log n) per row, not O(events).

#include <QPainter>
#include <optional>
#include <vector>

#include "model/trace.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"

namespace gapscope::ui {

class PathOverlay;

struct PaintInputs {
    const Trace* trace = nullptr;
    const TimelineLayout* layout = nullptr;
    TimeWindow window;
    int gutterWidth = 240;
    int scrollY = 0;
    QSize size;
    // Idle gaps per entry of trace->gpuDevices, already filtered by threshold.
    const std::vector<std::vector<Interval>>* gaps = nullptr;
    // Optional, parallel to `gaps`: each gap's colour (its cause); an invalid
    // colour keeps the default shading. The header strip is drawn opaque.
    const std::vector<std::vector<QColor>>* gapColors = nullptr;
    const std::vector<uint8_t>* searchNames = nullptr;  // per StringId: 1 = matches
    uint32_t selectedSlice = kNone;
    std::vector<uint32_t> alsoSelected;  // outlined too (Ctrl+click)
    uint32_t hoverSlice = kNone;
    std::optional<TimeWindow> range;
    TimelineColors colors;
    NameColors* names = nullptr;
    const PathOverlay* path = nullptr;  // the critical path drawn over the tracks
    bool pathDimmed = false;            // the rest veiled
};

struct PaintStats {
    int slicesDrawn = 0;
    int mergedBlocks = 0;
    int labels = 0;
};

PaintStats paintTimeline(QPainter& p, const PaintInputs& in);

// The text of a slice's label, before it is elided to fit: a GPU kernel's
// short name, as the tables show it; any other slice's whole name (a copy's
// direction, a CPU op's, a Python frame's). The tooltip has the whole name.
QString sliceLabel(const Trace& t, NameColors& names, const Track& track, const Slice& slice);

// "rank 1 · GPU 0 · H100": a process's header (and the track filter's text).
QString processTitle(const Trace& t, uint32_t process);
// Where a track or counter of the process is: "rank 1 · GPU 0 › ", before
// its name on a pinned row.
QString itemPrefix(const Trace& t, uint32_t process);
// A track's or counter's own name: "stream 7", "GPU memory".
QString itemName(const Trace& t, TrackItem item);

// The track area's time axis for a widget of the given inputs.
inline TimeAxis trackAxis(const PaintInputs& in) {
    return TimeAxis(in.window, in.size.width() - in.gutterWidth);
}

}  // namespace gapscope::ui
