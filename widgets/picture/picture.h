#pragma once
// The exported picture of a trace: a title line (trace, range, duration),
// the ruler, the chosen tracks over the chosen range drawn by the timeline's
// own painter (GPU idle gaps shaded by cause), the annotations, and a
// legend. As an image (PNG at 1x or 2x) or as SVG (vector, text as text).
// Used by File > Export Image, Edit > Copy Image and `gapscope-cli render`.

#include <QFont>
#include <QImage>
#include <QString>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "picture/gap_colours.h"
#include "picture/track_selection.h"
#include "report/annotations.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_layout.h"

class QPainter;

namespace gapscope::ui {

inline constexpr int kPictureMaxHeight = 16000;  // logical px of tracks, whatever is asked
inline constexpr int kPictureGutter = 260;       // the track labels, as on screen
// Device pixels of one image (1 GiB at 4 bytes each): 20000 px wide at 2x
// with every row of a big trace would otherwise ask for several GB.
inline constexpr qint64 kPictureMaxPixels = qint64{1} << 28;

struct PictureSpec {
    std::shared_ptr<const Trace> trace;
    TimeWindow range;
    TrackSelection tracks;
    // As the person arranged the rows in the viewer (pinned first, hidden
    // left out, their order and collapsed groups); empty: the trace's own.
    TrackArrangement arrangement;
    int width = 1600;  // logical px
    int height = 0;    // logical px of the whole picture; 0: every chosen row
    // With height 0: the tracks' part at most this tall (rows below are cut).
    int maxTracksHeight = kPictureMaxHeight;
    qreal scale = 1;  // device pixels per logical px (PNG)
    bool dark = false;
    QString title;      // usually the trace's file name
    TimeNs origin = 0;  // the ruler counts from here (the trace's start)
    TimeNs gapThreshold = 0;
    GapColorList gapColours;  // from gapCauseColours; empty: plain shading
    std::vector<Annotation> annotations;
    std::optional<TimeWindow> selection;  // the viewer's Shift+drag range, if shown
    QFont font;
};

// The size in logical pixels.
QSize pictureSize(const PictureSpec& spec);
void paintPicture(QPainter& p, const PictureSpec& spec);
// Null, with why in `error`, when it would be over kPictureMaxPixels.
QImage renderPicture(const PictureSpec& spec, QString* error = nullptr);
// SVG text; `error` says why not when empty. Characters XML forbids (the
// C0 controls a hostile track name may hold) are left out.
QByteArray renderSvg(const PictureSpec& spec, QString* error = nullptr);

// The light and dark palettes of exports (fixed, so that the CLI's pictures
// do not depend on the desktop they are made on).
QPalette picturePalette(bool dark);

}  // namespace gapscope::ui
