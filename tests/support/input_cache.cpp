#include "support/input_cache.h"

#include <utime.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryFile>
#include <cstdio>

#include "support/test_paths.h"

namespace gapscope::test {

namespace {

QString cacheDir() {
    const QString env = qEnvironmentVariable("GAPSCOPE_TEST_INPUT_CACHE");
    if (env == QLatin1String("off")) return {};
    return env.isEmpty() ? sourceDir() + QStringLiteral("/build/test-inputs") : env;
}

// The interpreter's version (asked once per process): outputs are keyed to
// the Python that made them as well.
QByteArray pythonVersion() {
    static const QByteArray version = [] {
        QProcess p;
        p.start(python(), {QStringLiteral("-c"), QStringLiteral("import sys; print(sys.version)")});
        return p.waitForFinished(30000) ? p.readAllStandardOutput() : QByteArray("unknown");
    }();
    return version;
}

bool addFile(QCryptographicHash& hash, const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    hash.addData(&f);
    return true;
}

}  // namespace

QByteArray inputKey(const QStringList& scripts, const QStringList& parts) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(pythonVersion());
    for (const QString& script : scripts) {
        // The script itself, then the modules beside it that it may import.
        const QFileInfo info(script);
        hash.addData(QByteArrayView("script:"));
        hash.addData(info.fileName().toUtf8());
        QStringList files = info.dir().entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
        for (const QString& name : files) {
            hash.addData(name.toUtf8());
            addFile(hash, info.dir().filePath(name));
        }
    }
    for (const QString& part : parts) {
        const QFileInfo info(part);
        if (info.isFile()) {
            hash.addData("file:");
            addFile(hash, part);
        } else if (info.isDir()) {
            // A folder of inputs (a job's ranks): its path (outputs name
            // its files), and its files' names, sizes and times, which is
            // cheaper than their content and changes with it.
            hash.addData("folder:");
            hash.addData(info.absoluteFilePath().toUtf8());
            QDirIterator it(part, QDir::Files, QDirIterator::Subdirectories);
            QStringList entries;
            while (it.hasNext()) {
                const QFileInfo f(it.next());
                entries << QStringLiteral("%1 %2 %3")
                               .arg(QDir(part).relativeFilePath(f.filePath()))
                               .arg(f.size())
                               .arg(f.lastModified().toMSecsSinceEpoch());
            }
            entries.sort();
            hash.addData(entries.join(QLatin1Char('\n')).toUtf8());
        } else {
            hash.addData(part.toUtf8());
        }
        hash.addData(QByteArrayView("\0", 1));
    }
    return hash.result().toHex();
}

bool fetchKept(const QByteArray& key, const QString& suffix, const QString& dest) {
    const QString dir = cacheDir();
    if (dir.isEmpty()) return false;
    const QString kept = dir + QLatin1Char('/') + QString::fromLatin1(key) + suffix;
    if (!QFileInfo::exists(kept)) return false;
    ::utime(QFile::encodeName(kept).constData(), nullptr);  // used now: kept longer (.ci/run)
    QFile::remove(dest);
    return QFile::copy(kept, dest);
}

void keep(const QByteArray& key, const QString& suffix, const QString& source) {
    const QString dir = cacheDir();
    if (dir.isEmpty() || !QDir().mkpath(dir)) return;
    QTemporaryFile copy(dir + QStringLiteral("/XXXXXX.part"));
    QFile in(source);
    if (!copy.open() || !in.open(QIODevice::ReadOnly)) return;
    while (!in.atEnd()) {
        const QByteArray block = in.read(1 << 20);
        if (copy.write(block) != block.size()) return;
    }
    if (!copy.flush()) return;
    const QString kept = dir + QLatin1Char('/') + QString::fromLatin1(key) + suffix;
    // rename(2) replaces atomically; QFile::rename would refuse an existing file.
    if (std::rename(QFile::encodeName(copy.fileName()).constData(),
                    QFile::encodeName(kept).constData()) == 0)
        copy.setAutoRemove(false);
}

}  // namespace gapscope::test
