#pragma once
// Draws a trace's annotations over the timeline: a marker as a flag on the
// ruler and a line down the tracks, a range note as a bar on the ruler and a
// band over the tracks, a slice note as an outline round its slice and a
// callout with the text. The same in the viewer and in every export.

#include <QPainter>
#include <QRect>
#include <vector>

#include "model/trace.h"
#include "report/annotations.h"
#include "timeline/ruler_labels.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_layout.h"

namespace gapscope::ui {

struct AnnotationArea {
    const Trace* trace = nullptr;
    const TimelineLayout* layout = nullptr;
    int scrollY = 0;  // of the tracks
    QRect ruler;      // the ruler, gutter included (empty: no flags)
    QRect tracks;     // the tracks, gutter included
    int gutterWidth = 240;
    TimeAxis axis{TimeWindow{}, 1};  // over the track part
    bool dark = false;
    uint64_t current = 0;  // the annotation picked in the viewer, drawn bolder
};

void paintAnnotations(QPainter& p, const AnnotationArea& area,
                      const std::vector<Annotation>& annotations);

// The annotations in view as flags on the ruler (a marker's at its time, a
// note's over its span), for the ruler's label layout (timeline/ruler_labels.h).
std::vector<RulerFlag> rulerFlags(const AnnotationArea& area,
                                  const std::vector<Annotation>& annotations);

// The slice a slice note is on (its track's name, its name and start), or
// kNone when the trace no longer has it.
uint32_t annotatedSlice(const Trace& trace, const Annotation& a);

// The first line of an annotation's text, for flags and lists.
QString annotationHeadline(const Annotation& a);

}  // namespace gapscope::ui
