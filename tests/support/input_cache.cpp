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

namespace {

// Where `key` + `suffix` is kept ("" when the cache is off).
QString keptPath(const QByteArray& key, const QString& suffix) {
    const QString dir = cacheDir();
    return dir.isEmpty() ? QString() : dir + QLatin1Char('/') + QString::fromLatin1(key) + suffix;
}

// A kept file used now: its time is renewed (.ci/run prunes by it).
void markUsed(const QString& kept) {
    ::utime(QFile::encodeName(kept).constData(), nullptr);
}

// Writes a part file with `write`, then renames it into place: a reader
// never sees half a file, and two writers of one key write the same bytes.
template <class Write>
void keepWith(const QByteArray& key, const QString& suffix, Write write) {
    const QString kept = keptPath(key, suffix);
    if (kept.isEmpty() || !QDir().mkpath(QFileInfo(kept).path())) return;
    QTemporaryFile part(kept + QStringLiteral(".XXXXXX.part"));
    if (!part.open() || !write(part) || !part.flush()) return;
    // rename(2) replaces atomically; QFile::rename would refuse an existing file.
    if (std::rename(QFile::encodeName(part.fileName()).constData(),
                    QFile::encodeName(kept).constData()) == 0)
        part.setAutoRemove(false);
}

}  // namespace

bool fetchKept(const QByteArray& key, const QString& suffix, const QString& dest) {
    const QString kept = keptPath(key, suffix);
    if (kept.isEmpty() || !QFileInfo::exists(kept)) return false;
    markUsed(kept);
    QFile::remove(dest);
    return QFile::copy(kept, dest);
}

std::optional<QByteArray> fetchKeptText(const QByteArray& key, const QString& suffix) {
    const QString kept = keptPath(key, suffix);
    QFile in(kept);
    if (kept.isEmpty() || !in.open(QIODevice::ReadOnly)) return std::nullopt;
    markUsed(kept);
    return in.readAll();
}

void keep(const QByteArray& key, const QString& suffix, const QString& source) {
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly)) return;
    keepWith(key, suffix, [&](QFile& part) {
        while (!in.atEnd()) {
            const QByteArray block = in.read(1 << 20);
            if (part.write(block) != block.size()) return false;
        }
        return true;
    });
}

void keepText(const QByteArray& key, const QString& suffix, const QByteArray& text) {
    keepWith(key, suffix, [&](QFile& part) { return part.write(text) == text.size(); });
}

}  // namespace gapscope::test
