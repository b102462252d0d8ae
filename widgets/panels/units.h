#pragma once
// Numbers in the panels as a person reads them: core's readable units
// (util/readable_units.h, the same text as the CLI and the reports) as
// QString, and the exact figure for tooltips.

#include <QString>

#include "util/types.h"

namespace gapscope::ui {

// "850 ns", "12.30 µs", "4.56 ms", "1.23 s" (timeline/time_axis.h's
// formatDuration instead follows a resolution, for the ruler).
QString shortDuration(TimeNs ns);
QString formatBytes(double bytes);    // "512 B", "1.5 KiB", "23.4 MiB"
QString formatPercent(double share);  // 0.123 -> "12.3 %"
QString exactNs(TimeNs ns);           // "12 345 678 ns"
QString exactBytes(double bytes);     // "1 572 864 bytes"
QString groupedInteger(qint64 v);     // "12 345 678"

}  // namespace gapscope::ui
