// The MIME types the package installs, as a desktop sees them: the build's
// shared-mime-info package compiled by update-mime-database into a data
// folder ahead of the system's, then asked through Qt's QMimeDatabase (the
// same lookup a file manager does on double-click).

#include <QDir>
#include <QFile>
#include <QMimeDatabase>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "support/suite_main.h"
#include "support/test_paths.h"

namespace {
const char* kChromeTrace = "application/x-gapscope-chrome-trace";
const char* kXSpace = "application/x-gapscope-xspace";
}  // namespace

class TestMimeTypes : public QObject {
    Q_OBJECT
    QTemporaryDir data_;
    QString files_;

    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = files_ + '/' + name;
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(bytes);
        return path;
    }
    static QString typeOf(const QString& path) {
        return QMimeDatabase().mimeTypeForFile(path).name();
    }

  private slots:
    void initTestCase() {
        const QString tool = QStandardPaths::findExecutable("update-mime-database");
        if (tool.isEmpty()) {
            if (gapscope::test::inputsRequired())
                QFAIL("update-mime-database (shared-mime-info) is missing");
            QSKIP("update-mime-database (shared-mime-info) is not installed");
        }
        const QString packages = data_.filePath("mime/packages");
        QVERIFY(QDir().mkpath(packages));
        QVERIFY(
            QFile::copy(gapscope::test::sourceDir() +
                            QStringLiteral("/packaging/linux/io.github.gapscope.Gapscope.mime.xml"),
                        packages + "/io.github.gapscope.Gapscope.xml"));
        QProcess p;
        p.start(tool, {data_.filePath("mime")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        // Ours first, then the system's (for the types ours build on).
        qputenv("XDG_DATA_HOME", data_.path().toLocal8Bit());
        qputenv("XDG_DATA_DIRS", (data_.path() + ":/usr/local/share:/usr/share").toLocal8Bit());
        files_ = data_.filePath("files");
        QVERIFY(QDir().mkpath(files_));
    }

    void tracesAreKnownByTheirNames() {
        const QByteArray gz("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
        QCOMPARE(typeOf(write("worker0.1700000000.pt.trace.json.gz", gz)), kChromeTrace);
        QCOMPARE(typeOf(write("step.trace.json.gz", gz)), kChromeTrace);
        QCOMPARE(typeOf(write("run.pt.trace.json", "[]")), kChromeTrace);
        QCOMPARE(typeOf(write("big.json.zst", QByteArray("\x28\xb5\x2f\xfd", 4))), kChromeTrace);
        QCOMPARE(typeOf(write("10.0.0.1_6003.xplane.pb", QByteArray(16, '\0'))), kXSpace);
        // The types they refine are still theirs to a file manager.
        QVERIFY(QMimeDatabase().mimeTypeForName(kChromeTrace).inherits("application/json"));
    }

    void plainTracesAreKnownByTheirContent() {
        // The bundled sample, inflated, under a name that says nothing.
        QProcess gunzip;
        gunzip.start("gzip", {"-dc", gapscope::test::samplePath()});
        QVERIFY(gunzip.waitForFinished(60000));
        const QByteArray kineto = gunzip.readAllStandardOutput();
        QVERIFY(kineto.contains("\"schemaVersion\""));
        QCOMPARE(typeOf(write("profile-output", kineto)), kChromeTrace);
        QCOMPARE(typeOf(write("trace-events", "{\"traceEvents\": [{\"ph\": \"X\"}]}")),
                 kChromeTrace);
    }

    void otherFilesAreNotTraces() {
        QCOMPARE(typeOf(write("config.json", "{\"lr\": 0.1}")), QStringLiteral("application/json"));
        QCOMPARE(typeOf(write("data.gz", QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8))),
                 QStringLiteral("application/gzip"));
        QVERIFY(typeOf(write("notes", "traceEvents are described below\n")) != kChromeTrace);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestMimeTypes)
#include "tst_mime_types.moc"
