#pragma once
// What every export shares: an atomic write with a message that names the
// file, and a PNG's bytes.

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <string>

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

}  // namespace gapscope::ui
