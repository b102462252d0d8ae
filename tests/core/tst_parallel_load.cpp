// The pipelined loader (reader thread -> builder thread) builds the very
// model the single-threaded loader builds: canonical dumps, ids and args
// text included, are byte-identical on every real trace in ../shared/traces,
// on generated ones, and with buffers small enough to split every event.
// Errors and cancellation travel between the threads.

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "format/pipelined_reader.h"
#include "io/memory_source.h"
#include "loader.h"
#include "model/trace_builder.h"
#include "report/canonical_dump.h"
#include "support/test_paths.h"
#include "support/trace_files.h"
#include "util/load_error.h"

using namespace gapscope;

namespace {

LoadResult loadWithThreads(const std::string& path, int threads) {
    LoadOptions options;
    options.threads = threads;
    return loadTrace(path, options);
}

// Reads `json` through the pipeline with a reader buffer of `chunk` bytes.
std::shared_ptr<const Trace> pipelinedInChunks(const std::string& json, size_t chunk) {
    auto trace = std::make_shared<Trace>();
    MemorySource source(json, chunk);
    TraceBuilder builder(*trace);
    ReaderOptions options;
    options.initialBufferBytes = chunk;
    const ReaderResult rr = readPipelined(source, builder, trace->report, options);
    trace->objectForm = rr.objectForm;
    trace->decompressedSize = rr.bytesRead;
    builder.finish(nullptr);
    return trace;
}

std::string generate(const QString& dir, const QStringList& extra, const QString& name) {
    const QString out = dir + "/" + name;
    QProcess gen;
    gen.start(
        test::python(),
        QStringList{test::sharedDir() + "/tools/gen_trace.py", "--out", out, "--quiet"} + extra);
    if (!gen.waitForFinished(180000) || gen.exitCode() != 0) return {};
    return out.toStdString();
}

}  // namespace

class TestParallelLoad : public QObject {
    Q_OBJECT
  private slots:
    void realTracesBuildIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        QDirIterator it(test::sharedTraces(), QDir::Files, QDirIterator::Subdirectories);
        int compared = 0, failedAlike = 0;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            const LoadResult one = loadWithThreads(path, 1);
            const LoadResult two = loadWithThreads(path, 2);
            QCOMPARE(bool(two.trace), bool(one.trace));
            if (!one.trace) {
                // Not a trace: the same error, word for word.
                QVERIFY2(one.failure && two.failure, path.c_str());
                QCOMPARE(two.failure->message(), one.failure->message());
                ++failedAlike;
                continue;
            }
            QVERIFY2(canonicalDump(*two.trace) == canonicalDump(*one.trace), path.c_str());
            ++compared;
        }
        QVERIFY(compared > 100);
        qInfo("%d traces identical, %d failures identical", compared, failedAlike);
    }

    void generatedTracesBuildIdentically_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("name");
        QTest::newRow("kineto json")
            << QStringList{"--profile", "kineto", "--gpus", "4"} << "k.json";
        QTest::newRow("kineto zstd") << QStringList{"--profile", "kineto"} << "k.json.zst";
        QTest::newRow("kineto gzip")
            << QStringList{"--profile", "kineto", "--ts-style", "epoch"} << "k.json.gz";
        QTest::newRow("tensorflow") << QStringList{"--profile", "tensorflow"} << "tf.json";
    }
    void generatedTracesBuildIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        if (test::python().isEmpty()) QSKIP("no python3 for the generator");
        QFETCH(QStringList, args);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const std::string path = generate(dir.path(), args + QStringList{"--steps", "6"}, name);
        QVERIFY(!path.empty());
        const LoadResult one = loadWithThreads(path, 1);
        const LoadResult two = loadWithThreads(path, 2);
        QVERIFY(one.trace && two.trace);
        QVERIFY(one.trace->slices.size() > 1000);
        QVERIFY(canonicalDump(*two.trace) == canonicalDump(*one.trace));
    }

    // Every split point: the reader's buffer starts tiny and the source hands
    // out a few bytes per read, so events straddle buffers all the time and
    // escaped (unescaped-copy) strings must survive the hand-over.
    void smallBuffersBuildIdentically() {
        const std::string text =
            "{\"displayTimeUnit\":\"ns\",\"traceEvents\":["
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"py\\u0074hon\"}"
            "},"
            "{\"ph\":\"X\",\"name\":\"esc\\\"aped\",\"cat\":\"c\\\\at\",\"pid\":\"1\",\"tid\":2,"
            "\"ts\":1.5,\"dur\":2,\"args\":{\"k\":\"v\"}},"
            "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":3,\"args\":{\"a\\u0062\":1,\"c\":2}},"
            "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":4},"
            "{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":5},"
            "{\"ph\":\"s\",\"id\":\"0x1\",\"name\":\"f\",\"cat\":\"x\",\"pid\":1,\"tid\":2,\"ts\":"
            "1.5},"
            "{\"ph\":\"f\",\"id\":\"0x1\",\"name\":\"f\",\"cat\":\"x\",\"pid\":1,\"tid\":2,\"ts\":"
            "4,"
            "\"bp\":\"e\"}],"
            "\"otherData\":{\"version\":\"x\"}}";
        const auto direct = test::loadInChunks(text, 1 << 20);
        const std::string reference = canonicalDump(*direct);
        QVERIFY(direct->metadata.count("otherData"));
        QCOMPARE(direct->counters.size(), size_t(2));
        for (size_t chunk : {size_t(1), size_t(7), size_t(64), size_t(4093)}) {
            const auto t = pipelinedInChunks(text, chunk);
            QCOMPARE(canonicalDump(*t), reference);
            QCOMPARE(t->displayTimeUnit, std::string("ns"));
        }
    }

    // Unescaped text lives in the parser's scratch and the event's own
    // storage, which the reader reuses at once: thousands of distinct
    // escaped names and counter keys catch any view that was not copied.
    void escapedTextSurvivesTheHandOver() {
        std::string text = "[";
        for (int i = 0; i < 3000; ++i) {
            const std::string n = std::to_string(i);
            text += "{\"ph\":\"X\",\"name\":\"k\\u0041" + n + "\",\"pid\":1,\"tid\":1,\"ts\":" + n +
                    ",\"dur\":1},{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":" + n +
                    ",\"args\":{\"q\\u0042" + std::to_string(i % 7) + "\":" + n + "}},";
        }
        text.back() = ']';
        const std::string reference = canonicalDump(*test::loadInChunks(text, 1 << 20));
        for (size_t chunk : {size_t(64), size_t(4093)})
            QCOMPARE(canonicalDump(*pipelinedInChunks(text, chunk)), reference);
    }

    void aTruncatedTraceKeepsTheSameEventsAndReport() {
        const LoadResult whole = loadTrace(test::samplePath().toStdString());
        QVERIFY(whole.trace);
        // Cut the decompressed JSON in the middle of an event.
        QTemporaryDir dir;
        const std::string cut = dir.filePath("cut.json").toStdString();
        // The sample's JSON, inflated by the reader's own source.
        OpenedSource opened = openTraceSource(test::samplePath().toStdString());
        QByteArray json;
        char chunk[65536];
        while (const size_t n = opened.source->read(chunk, sizeof chunk))
            json.append(chunk, static_cast<qsizetype>(n));
        QVERIFY(json.size() > 100000);
        QVERIFY(test::writeFile(cut, json.left(json.size() / 2 + 17).toStdString()));
        const LoadResult one = loadWithThreads(cut, 1);
        const LoadResult two = loadWithThreads(cut, 2);
        QVERIFY(one.trace && two.trace);
        QVERIFY(two.trace->report.truncated);
        QVERIFY(!two.trace->report.warnings.empty());
        QVERIFY(canonicalDump(*two.trace) == canonicalDump(*one.trace));
    }

    void aReaderErrorFailsTheLoadAlike() {
        // An event over the size limit is a fatal reader error mid-stream.
        std::string text = "[";
        for (int i = 0; i < 20000; ++i)
            text += "{\"ph\":\"X\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) +
                    ",\"dur\":1},";
        text += "{\"ph\":\"X\",\"name\":\"" + std::string(3 << 20, 'x') + "\"}]";
        LoadOptions options;
        options.maxEventBytes = 1 << 20;
        options.threads = 1;
        const LoadResult one = loadTraceFromBytes(text, "big.json", options);
        options.threads = 2;
        const LoadResult two = loadTraceFromBytes(text, "big.json", options);
        QVERIFY(one.failure && two.failure);
        QCOMPARE(two.failure->message(), one.failure->message());
        QVERIFY(two.failure->what.find("larger than the limit") != std::string::npos);
    }

    void aBuilderErrorStopsTheReader() {
        // The memory limit trips on the builder thread while the reader is
        // still going: the load fails cleanly with the builder's message.
        std::string text = "[";
        for (int i = 0; i < 300000; ++i)
            text += "{\"ph\":\"X\",\"name\":\"n" + std::to_string(i) +
                    "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) + ",\"dur\":1},";
        text.back() = ']';
        LoadOptions options;
        options.memoryLimitBytes = 1 << 20;
        options.threads = 1;
        const LoadResult one = loadTraceFromBytes(text, "mem.json", options);
        options.threads = 2;
        const LoadResult two = loadTraceFromBytes(text, "mem.json", options);
        QVERIFY(one.failure && two.failure);
        QCOMPARE(two.failure->message(), one.failure->message());
    }

    void cancelStopsBothThreads() {
        std::string text = "[";
        for (int i = 0; i < 200000; ++i)
            text += "{\"ph\":\"X\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) +
                    ",\"dur\":1},";
        text.back() = ']';
        CancelToken cancel;
        LoadOptions options;
        options.threads = 2;
        options.cancel = &cancel;
        int calls = 0;
        options.progress = [&](LoadPhase, uint64_t, uint64_t) {
            if (++calls == 3) cancel.cancel();
        };
        const LoadResult r = loadTraceFromBytes(text, "cancel.json", options, 4096);
        QVERIFY(r.cancelled);
        QVERIFY(!r.trace);
    }
};

QTEST_GUILESS_MAIN(TestParallelLoad)
#include "tst_parallel_load.moc"
