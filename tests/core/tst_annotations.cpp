// Annotation sidecars: a round trip keeps every field (line breaks and
// non-ASCII text included); writing replaces the file atomically and
// leaves nothing else in the folder; the trace's bytes are the same after
// annotating; unreadable and newer-version sidecars are reported, named
// and must be kept; a trace in a folder that cannot be written gets its
// sidecar in the fallback folder, apart for two traces of one name.

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "report/annotations.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

bool writeText(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

std::vector<Annotation> sample() {
    Annotation marker;
    marker.kind = Annotation::Kind::Marker;
    marker.id = 1;
    marker.start = marker.end = 1'700'000'000'123'456'789;
    marker.text = "step 5 starts late";
    Annotation range;
    range.kind = Annotation::Kind::Range;
    range.id = 2;
    range.start = 100;
    range.end = 250'000;
    range.text = "input stall:\nDataLoader waits — 12 ms «here»";
    range.color = "#56b4e9";
    Annotation slice;
    slice.kind = Annotation::Kind::Slice;
    slice.id = 7;
    slice.start = 5000;
    slice.end = 9000;
    slice.track = "stream 7";
    slice.slice = "void gemm<float, 128>(\"x\")";
    slice.text = "";
    slice.color = "#CC79A7";
    return {marker, range, slice};
}

}  // namespace

class TestAnnotations : public QObject {
    Q_OBJECT
  private slots:
    void roundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.pt.trace.json.gz.gapscope.json").toStdString();
        QCOMPARE(readSidecar(path).status, SidecarStatus::Missing);
        QVERIFY(mayReplace(SidecarStatus::Missing));
        QCOMPARE(writeSidecar(path, sample(), "run.pt.trace.json.gz"), std::string());
        const SidecarRead r = readSidecar(path);
        QCOMPARE(r.status, SidecarStatus::Loaded);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.annotations == sample());
        QVERIFY(mayReplace(r.status));
        // An empty list is a valid sidecar too.
        QCOMPARE(writeSidecar(path, {}, "run"), std::string());
        QCOMPARE(readSidecar(path).status, SidecarStatus::Loaded);
        QVERIFY(readSidecar(path).annotations.empty());
    }

    void theSidecarSitsBesideTheTrace() {
        QCOMPARE(sidecarPathFor("/data/run.pt.trace.json.gz"),
                 std::string("/data/run.pt.trace.json.gz.gapscope.json"));
    }

    void writesAreAtomicAndLeaveTheTraceAlone() {
        QTemporaryDir dir;
        const QString trace = dir.filePath("t.json");
        QVERIFY(writeText(trace, R"({"traceEvents": []})"));
        const QByteArray before = sha256(trace);
        const std::string path = sidecarPathFor(trace.toStdString());
        for (int i = 0; i < 5; ++i) {
            std::vector<Annotation> a = sample();
            a.resize(static_cast<size_t>(i % 3) + 1);
            QCOMPARE(writeSidecar(path, a, "t.json"), std::string());
            QCOMPARE(readSidecar(path).annotations.size(), a.size());
        }
        QCOMPARE(sha256(trace), before);
        // Only the trace and its sidecar: no temporary file left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 (QStringList{"t.json", "t.json.gapscope.json"}));
    }

    void unreadableSidecarsAreReportedAndKept_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("garbage") << QByteArray("\x89PNG\r\n") << "not JSON";
        QTest::newRow("truncated")
            << QByteArray(R"({"format": "gapscope-annotations", "vers)") << "not JSON";
        QTest::newRow("another format")
            << QByteArray(R"({"traceEvents": []})") << "not a Gapscope annotations file";
        QTest::newRow("no version")
            << QByteArray(R"({"format": "gapscope-annotations", "annotations": []})")
            << "\"version\"";
        QTest::newRow("start as text")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "marker", "start_ns": "5", "end_ns": 5}]})")
            << "annotation 1: \"start_ns\" is not integer ns";
        QTest::newRow("end before start")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "marker", "start_ns": 5, "end_ns": 5},
                 {"id": 2, "kind": "range", "start_ns": 9, "end_ns": 3}]})")
            << "annotation 2: end_ns is before start_ns";
        QTest::newRow("start far before any trace")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "range", "start_ns": -9223372036854775808, "end_ns": 5}]})")
            << "annotation 1: start_ns or end_ns is out of range";
        QTest::newRow("end far beyond any trace")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "range", "start_ns": 0, "end_ns": 9223372036854775807}]})")
            << "annotation 1: start_ns or end_ns is out of range";
        QTest::newRow("unknown kind")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "arrow", "start_ns": 5, "end_ns": 5}]})")
            << "unknown kind \"arrow\"";
        QTest::newRow("bad colour")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1, "kind": "marker", "start_ns": 5, "end_ns": 5, "color": "red"}]})")
            << "\"color\" is not #rrggbb";
        // (Found by fuzz_sidecar: this one used to end the viewer.)
        QTest::newRow("a number out of range")
            << QByteArray(R"({"format": "gapscope-annotations", "version": 1, "annotations":
                [{"id": 1e999, "kind": "marker", "start_ns": 5, "end_ns": 5}]})")
            << "not JSON we can read";
        QTest::newRow("format as a number")  // (found by fuzz_sidecar too)
            << QByteArray(R"({"format": 1, "version": 1, "annotations": []})")
            << "not a Gapscope annotations file";
    }

    // A track and a slice belong to slice notes: on a range they are not
    // kept, as the writer would not write them (found by fuzz_sidecar).
    void aRangeKeepsNoTrackOrSlice() {
        QTemporaryDir dir;
        const QString path = dir.filePath("x.json.gapscope.json");
        QVERIFY(writeText(path, R"({"format": "gapscope-annotations", "version": 1, "annotations":
            [{"id": 2, "kind": "range", "start_ns": 5, "end_ns": 9, "track": "GPU 0",
              "slice": "gemm"}]})"));
        const SidecarRead r = readSidecar(path.toStdString());
        QCOMPARE(r.status, SidecarStatus::Loaded);
        QCOMPARE(r.annotations.size(), size_t(1));
        QVERIFY(r.annotations[0].track.empty());
        QVERIFY(r.annotations[0].slice.empty());
    }

    void unreadableSidecarsAreReportedAndKept() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = dir.filePath("x.json.gapscope.json");
        QVERIFY(writeText(path, bytes));
        const SidecarRead r = readSidecar(path.toStdString());
        QCOMPARE(r.status, SidecarStatus::Unreadable);
        QVERIFY(r.annotations.empty());
        QVERIFY2(QString::fromStdString(r.error).startsWith(path + ": "), r.error.c_str());
        QVERIFY2(QString::fromStdString(r.error).contains(says), r.error.c_str());
        QVERIFY(!mayReplace(r.status));
        QCOMPARE(sha256(path), QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
    }

    void aNewerSidecarIsKept() {
        QTemporaryDir dir;
        const QString path = dir.filePath("x.json.gapscope.json");
        QVERIFY(writeText(path, R"({"format": "gapscope-annotations", "version": 2,
                                    "annotations": [{"id": 1, "kind": "hologram"}]})"));
        const SidecarRead r = readSidecar(path.toStdString());
        QCOMPARE(r.status, SidecarStatus::Newer);
        QVERIFY2(r.error.find("version 2 is newer") != std::string::npos, r.error.c_str());
        QVERIFY(!mayReplace(r.status));
    }

    void aReadOnlyFolderFallsBack() {
        QTemporaryDir data;
        const auto no = [](const std::string&) { return false; };
        const auto yes = [](const std::string&) { return true; };
        const SidecarLocation beside =
            locateSidecar("/runs/a/trace.json", data.path().toStdString(), yes);
        QVERIFY(!beside.fallback);
        QCOMPARE(beside.path, std::string("/runs/a/trace.json.gapscope.json"));
        const SidecarLocation a =
            locateSidecar("/runs/a/trace.json", data.path().toStdString(), no);
        const SidecarLocation b =
            locateSidecar("/runs/b/trace.json", data.path().toStdString(), no);
        QVERIFY(a.fallback && b.fallback);
        QVERIFY(QString::fromStdString(a.path).startsWith(data.path() + "/"));
        QVERIFY(QString::fromStdString(a.path).endsWith("-trace.json.gapscope.json"));
        QVERIFY(a.path != b.path);
        QCOMPARE(locateSidecar("/runs/a/trace.json", data.path().toStdString(), no).path, a.path);
        QCOMPARE(beside.readPath, beside.path);
        QCOMPARE(a.readPath, a.path);  // nothing beside the trace either
        // The real check: a folder that exists and one that does not.
        QVERIFY(folderWritable(data.path().toStdString()));
        QVERIFY(!folderWritable(data.filePath("missing").toStdString()));
        QCOMPARE(QDir(data.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // A sidecar shipped beside a trace in a read-only folder is read until
    // the data folder has a copy of its own; changes go to the copy.
    void aReadOnlyFolderReadsTheSidecarBesideTheTrace() {
        QTemporaryDir runs, data;
        const std::string trace = runs.filePath("trace.json").toStdString();
        const auto no = [](const std::string&) { return false; };
        QVERIFY(writeText(QString::fromStdString(sidecarPathFor(trace)), "{}"));
        const SidecarLocation shipped = locateSidecar(trace, data.path().toStdString(), no);
        QVERIFY(shipped.fallback);
        QCOMPARE(shipped.readPath, sidecarPathFor(trace));
        QVERIFY(QString::fromStdString(shipped.path).startsWith(data.path() + "/"));
        QVERIFY(writeText(QString::fromStdString(shipped.path), "{}"));
        const SidecarLocation copied = locateSidecar(trace, data.path().toStdString(), no);
        QCOMPARE(copied.readPath, shipped.path);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestAnnotations)
#include "tst_annotations.moc"
