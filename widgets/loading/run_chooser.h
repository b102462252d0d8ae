#pragma once
// Which profile run of a folder to open (a TensorBoard logdir holds one per
// profiling session): the one asked for by name, the only one, or, when
// there are several, the one the user picks from a list (newest first and
// preselected; non-interactive: the newest).

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QWidget;

namespace gapscope::ui {

struct RunChoice {
    QString folder;  // the run's folder, to load; empty when nothing is to be opened
    QString error;   // why not ("" when the user cancelled)
};

RunChoice chooseProfileRun(QWidget* parent, const QString& folder, const QString& run,
                           bool interactive);

// Which profiler cycle (io/rank_files.h, profilerCyclesOf; oldest first,
// each its files: one, or one per rank) to open: the user picks from a
// list, newest first and preselected (non-interactive: the newest).
// Returns its index, or -1 when the user cancelled.
int chooseProfilerCycle(QWidget* parent, const std::vector<QStringList>& cycles, bool interactive);

}  // namespace gapscope::ui
