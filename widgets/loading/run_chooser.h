#pragma once
// Which profile run of a folder to open (a TensorBoard logdir holds one per
// profiling session): the one asked for by name, the only one, or, when
// there are several, the one the user picks from a list (newest first and
// preselected; non-interactive: the newest).

#include <QString>
#include <QStringList>
#include <optional>

class QWidget;

namespace gapscope::ui {

struct RunChoice {
    QString folder;  // the run's folder, to load; empty when nothing is to be opened
    QString error;   // why not ("" when the user cancelled)
};

RunChoice chooseProfileRun(QWidget* parent, const QString& folder, const QString& run,
                           bool interactive);

// Which of one profiler's cycles (io/rank_files.h, profilerCyclesOf; oldest
// first) to open: the user picks from a list, newest first and preselected
// (non-interactive: the newest). Empty when the user cancelled.
QString chooseProfilerCycle(QWidget* parent, const QStringList& cycles, bool interactive);

}  // namespace gapscope::ui
