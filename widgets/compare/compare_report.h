#pragma once
// The comparison report: a title naming both runs, each run's facts, the
// verdict, both timelines as they are lined up in the viewer (one picture
// per run, gaps shaded by cause), and the comparison's tables
// (report/diff_tables.h) as people read them. HTML (pictures inline),
// Markdown (PNGs beside it) or PDF, by the extension; written atomically,
// never over either run or its annotations.

#include <QString>

#include "compare/compared_runs.h"
#include "picture/picture.h"

namespace gapscope::ui {

bool writeComparisonReport(const QString& path, const PictureSpec& base, const PictureSpec& now,
                           const ComparedRuns& runs, QString* error);

}  // namespace gapscope::ui
