#pragma once
// What every export shares: an atomic write with a message that names the
// file, and a PNG's bytes.

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <functional>
#include <string>

#include "util/executor.h"

class QObject;
class QWidget;

namespace gapscope::ui {

// Replaces `path` atomically; false with "PATH: why" in `error`. Never a
// trace or a sidecar: `protect` lists files an export must not replace (the
// open trace and its annotations); a path that is one of them is refused.
bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error,
                     const QStringList& protect = {});
// The open trace's file and where its annotations are (beside it, or in
// the data folder): what no export may replace.
QStringList protectedFiles(const std::string& tracePath);
// Whether `path` names one of `protect` (following links).
bool isProtected(const QString& path, const QStringList& protect);
QByteArray pngBytes(const QImage& image);  // empty when it cannot be encoded

// Where a save dialog opens: `fileName` in the folder of the last export
// (any kind, remembered across sessions), else in `fallbackFolder`, else
// in the user's documents.
QString suggestedSavePath(const QString& fileName, const QString& fallbackFolder = {});
// Remembers the folder of a file just saved, for the next save dialog.
void rememberSaveFolder(const QString& savedPath);

// Runs `job` as a task of `tasks` on the shared executor (drawing, encoding
// and writing take a while); `job`
// returns whether it worked and sets the message either way. Back on the
// GUI thread, and only while `owner` lives, a failure is shown over
// `window` under `title`, and `done` gets the message (for the status bar).
void runExport(TaskGroup& tasks, QObject* owner, QWidget* window, const QString& title,
               std::function<bool(QString* message)> job,
               std::function<void(const QString& message)> done);

}  // namespace gapscope::ui
