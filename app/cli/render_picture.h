#pragma once
// The exported picture of a loaded trace (File > Export Image's), drawn
// without a display on Qt's offscreen platform: what `gapscope-cli render`
// writes, the Python module's `Trace.render` and the agent tool's image.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/idle_gaps.h"
#include "model/trace.h"

namespace gapscope::cli {

struct PictureRequest {
    std::optional<Interval> range;  // absolute ns; none: the whole trace
    std::string tracks = "all";     // gpu, cpu, all or a regular expression
    int width = 1600;               // pixels
    int height = 0;                 // 0: every chosen row, up to 16000
    int maxTracksHeight = 16000;    // with height 0: the tracks' part at most this tall
    int scale = 1;                  // device pixels per pixel (PNG)
    bool svg = false;               // SVG, else PNG
    bool dark = false;
    bool annotations = true;  // the trace's sidecar, where there is one
    TimeNs minGapNs = kDefaultGapThresholdNs;
    std::string tracePath;  // where the trace was opened from: title and sidecar
};

struct Picture {
    std::string bytes;                  // the PNG or SVG file
    std::string error;                  // why there is none
    bool badRequest = false;            // … the request's fault (no such tracks)
    std::vector<std::string> warnings;  // what was left out (annotations)
};

// A Qt GUI application on the offscreen platform where the process has
// none, alive as long as what is returned (null where there was one
// already); Qt's errors go to stderr after "WHO: ". The C library's locale
// is left as it was.
[[nodiscard]] std::shared_ptr<void> offscreenGui(const std::string& who);

// Needs a Qt GUI application (ensureOffscreenGui).
Picture renderTracePicture(const std::shared_ptr<const Trace>& trace, const PictureRequest& r);

}  // namespace gapscope::cli
