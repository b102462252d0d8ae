// Writes are atomic and never replace a file the user did not ask to replace.

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "support/suite_main.h"
#include "util/atomic_file.h"

using namespace gapscope;

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
  private slots:
    void writesANewFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.csv");
        QCOMPARE(writeFileAtomically(path.toStdString(), "a,b\n1,2\n", Overwrite::No),
                 std::string());
        QCOMPARE(readAll(path), QByteArray("a,b\n1,2\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(),
                 1);  // no temporary left
    }

    void neverReplacesUnlessAsked() {
        QTemporaryDir dir;
        const QString path = dir.filePath("trace.json");
        QVERIFY(QFile(path).open(QIODevice::WriteOnly));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious");
        f.close();
        const std::string error = writeFileAtomically(path.toStdString(), "other", Overwrite::No);
        QCOMPARE(error, std::string("the file exists already"));
        QCOMPARE(readAll(path), QByteArray("precious"));
        QCOMPARE(writeFileAtomically(path.toStdString(), "replaced", Overwrite::Yes),
                 std::string());
        QCOMPARE(readAll(path), QByteArray("replaced"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void reportsAMissingFolder() {
        const std::string error =
            writeFileAtomically("/nonexistent-folder/x.csv", "x", Overwrite::Yes);
        QVERIFY(error.find("No such file") != std::string::npos);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
