#pragma once
// A person's arrangement of the timeline's rows, remembered per trace file
// (QSettings) and restored when it is opened again. Processes, tracks and
// counters are named, not numbered ("rank 1/GPU 0/stream 7"), so that the
// arrangement survives a reload, the index cache and a new recording of the
// same program; names that are no longer there are dropped.

#include <QString>
#include <QVariantMap>

#include "timeline/timeline_layout.h"

namespace gapscope::ui {

QVariantMap arrangementToVariant(const Trace& trace, const TrackArrangement& arrangement);
TrackArrangement arrangementFromVariant(const Trace& trace, const QVariantMap& saved);

// Under the settings' "arrangements" group, keyed by the file's absolute
// path; the oldest beyond kRememberedArrangements are forgotten.
inline constexpr int kRememberedArrangements = 64;
void saveArrangement(const QString& tracePath, const Trace& trace,
                     const TrackArrangement& arrangement);
TrackArrangement loadArrangement(const QString& tracePath, const Trace& trace);

}  // namespace gapscope::ui
