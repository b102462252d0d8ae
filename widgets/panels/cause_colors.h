#pragma once
// One colour per idle cause (and per breakdown part), shared by the gap
// shading, the Gaps, Steps and Overview panels and their legends. From the
// Okabe–Ito palette (safe for the common colour-vision deficiencies), a
// little lighter on dark backgrounds.

#include <QColor>

#include "analysis/steps.h"

namespace gapscope::ui {

QColor causeColor(GapCause cause, bool dark);
QColor shortGapColor(bool dark);
// compute, exposed comm, exposed memcpy, then the idle causes, then short.
QColor stepPartColor(StepPart part, bool dark);
QString causeLabel(GapCause cause);  // "input", "sync", ...
QString stepPartLabel(StepPart part);

}  // namespace gapscope::ui
