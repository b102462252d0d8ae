// Traces from ../shared/tools/gen_trace.py (Kineto and TensorFlow styles,
// plain, gzip and zstd) against the generator's ground-truth sidecar.

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "loader/loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

class TestGeneratedTraces : public QObject {
    Q_OBJECT
  private slots:
    void matchesGroundTruth_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("extension");
        QTest::addColumn<QString>("tsStyle");
        QTest::addColumn<int>("gpus");
        for (const char* profile : {"kineto", "tensorflow"}) {
            for (const char* ext : {".json", ".json.gz", ".json.zst"}) {
                QTest::addRow("%s%s", profile, ext) << profile << ext << "relative" << 2;
            }
        }
        QTest::newRow("kineto epoch timestamps") << "kineto"
                                                 << ".json.gz"
                                                 << "epoch" << 3;
    }

    void matchesGroundTruth() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QFETCH(QString, profile);
        QFETCH(QString, extension);
        QFETCH(QString, tsStyle);
        QFETCH(int, gpus);
        QTemporaryDir dir;
        const QString trace = dir.filePath("gen" + extension);
        const QString truth = dir.filePath("truth.json");
        QStringList args{test::sharedDir() + "/tools/gen_trace.py",
                         "--profile",
                         profile,
                         "--gpus",
                         QString::number(gpus),
                         "--steps",
                         "3",
                         "--seed",
                         "7",
                         "--out",
                         trace,
                         "--truth",
                         truth,
                         "--quiet"};
        if (profile == "kineto") args << "--ts-style" << tsStyle;
        QProcess gen;
        gen.start(test::python(), args);
        QVERIFY(gen.waitForFinished(120000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());

        QFile tf(truth);
        QVERIFY(tf.open(QIODevice::ReadOnly));
        const json t = json::parse(tf.readAll().toStdString());
        const LoadResult r = loadTrace(trace.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        const Trace& m = *r.trace;
        QVERIFY(!m.report.truncated);
        QCOMPARE(m.report.events, t["event_counts"]["total"].get<uint64_t>());
        for (const auto& [ph, n] : t["event_counts"]["by_phase"].items()) {
            if (ph == "none") {
                QCOMPARE(m.report.withoutPhase, n.get<uint64_t>());
            } else {
                QCOMPARE(m.report.phases.at(ph), n.get<uint64_t>());
            }
        }
        QCOMPARE(m.gpuDevices.size(), t["devices"].size());
        for (const GpuDevice& d : m.gpuDevices) {
            const json& want = t["devices"][std::to_string(d.index)];
            QCOMPARE(d.busyNs, want["busy_ns"].get<int64_t>());
            QCOMPARE(d.busy.front().start, want["span_start_ns"].get<int64_t>());
            QCOMPARE(d.busy.back().end, want["span_end_ns"].get<int64_t>());
        }
    }

    // The reader hands the builder identical events whatever the input
    // chunking: the whole model is identical when read 1 MiB or 4 KiB at a time.
    void chunkingDoesNotChangeTheModel() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QTemporaryDir dir;
        const QString trace = dir.filePath("gen.json");
        QProcess gen;
        gen.start(test::python(), {test::sharedDir() + "/tools/gen_trace.py", "--profile", "kineto",
                                   "--steps", "2", "--out", trace, "--quiet"});
        QVERIFY(gen.waitForFinished(120000));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        const std::string big = test::canonicalDump(*test::loadInChunks(text, 1 << 20));
        QCOMPARE(test::canonicalDump(*test::loadInChunks(text, 4093)), big);
        QCOMPARE(test::canonicalDump(*test::loadInChunks(text, 65536 + 7)), big);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestGeneratedTraces)
#include "tst_generated_traces.moc"
