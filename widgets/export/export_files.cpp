#include "export/export_files.h"

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QWidget>

#include "picture/annotation_files.h"
#include "util/atomic_file.h"

namespace gapscope::ui {

QStringList protectedFiles(const std::string& tracePath) {
    if (tracePath.empty()) return {};
    return {QString::fromStdString(tracePath), QString::fromStdString(sidecarPathFor(tracePath)),
            QString::fromStdString(sidecarLocation(tracePath).path)};
}

bool isProtected(const QString& path, const QStringList& protect) {
    const QString target = QFileInfo(path).canonicalFilePath();
    if (target.isEmpty()) return false;  // does not exist yet
    for (const QString& p : protect)
        if (!p.isEmpty() && QFileInfo(p).canonicalFilePath() == target) return true;
    return false;
}

bool writeExportFile(const QString& path, const QByteArray& bytes, QString* error,
                     const QStringList& protect) {
    if (isProtected(path, protect)) {
        if (error)
            *error = QObject::tr("%1: this is the trace or its annotations; choose another name")
                         .arg(path);
        return false;
    }
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

void runExport(TaskGroup& tasks, QObject* owner, QWidget* window, const QString& title,
               std::function<bool(QString* message)> job,
               std::function<void(const QString& message)> done) {
    QPointer<QObject> alive(owner);
    QPointer<QWidget> parent(window);
    tasks.add(
        sharedExecutor(Priority::Work).submit([=, job = std::move(job), done = std::move(done)] {
            QString message;
            bool ok = false;
            try {
                ok = job(&message);
            } catch (const std::exception& e) {  // e.g. out of memory drawing a huge picture
                message = QString::fromUtf8(e.what());
            }
            QMetaObject::invokeMethod(
                qApp,
                [=] {
                    if (!alive) return;
                    if (!ok) QMessageBox::warning(parent, title, message);
                    done(message);
                },
                Qt::QueuedConnection);
        }));
}

namespace {
constexpr const char* kSaveFolderKey = "export/lastFolder";
}  // namespace

QString suggestedSavePath(const QString& fileName, const QString& fallbackFolder) {
    QString folder = QSettings().value(QLatin1String(kSaveFolderKey)).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = fallbackFolder;
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return QDir(folder).filePath(fileName);
}

void rememberSaveFolder(const QString& savedPath) {
    QSettings().setValue(QLatin1String(kSaveFolderKey), QFileInfo(savedPath).absolutePath());
}

}  // namespace gapscope::ui
