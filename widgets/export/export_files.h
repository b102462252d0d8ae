#pragma once
// What every export shares: an atomic write with a message that names the
// file, and a PNG's bytes.

#include <QByteArray>
#include <QImage>
#include <QString>

namespace gapscope::ui {

// Replaces `path` atomically; false with "PATH: why" in `error`.
bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error);
QByteArray pngBytes(const QImage& image);  // empty when it cannot be encoded

}  // namespace gapscope::ui
