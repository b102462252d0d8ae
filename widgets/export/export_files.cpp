#include "export/export_files.h"

#include <QBuffer>

#include "util/atomic_file.h"

namespace gapscope::ui {

bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error) {
    const std::string why = writeFileAtomically(
        path.toStdString(), std::string_view(bytes.constData(), size_t(bytes.size())),
        Overwrite::Yes);
    if (why.empty()) return true;
    if (error) *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(why));
    return false;
}

QByteArray pngBytes(const QImage& image) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return {};
    return png;
}

}  // namespace gapscope::ui
