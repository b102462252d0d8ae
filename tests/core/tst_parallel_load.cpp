// Every way of using the second core builds the very model the
// single-threaded loader builds: the pipelined reader (threads = 2) and the
// read-ahead decompressor (auto, compressed input). Canonical dumps, ids and
// args text included, are byte-identical on every real trace in
// ../shared/traces, on generated ones, and with buffers small enough to split
// every event. Errors, stream problems and cancellation travel between the
// threads.

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdlib>
#include <cstring>

#include "io/memory_source.h"
#include "io/read_ahead_source.h"
#include "loader/loader.h"
#include "report/canonical_dump.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"
#include "util/load_error.h"

using namespace gapscope;

namespace {

LoadResult loadWithThreads(const std::string& path, int threads) {
    LoadOptions options;
    options.mode = threads == 0   ? ReadingMode::Auto
                   : threads == 1 ? ReadingMode::OneThread
                                  : ReadingMode::Pipelined;
    return loadTrace(path, options);
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
            const std::string reference = canonicalDump(*one.trace);
            QVERIFY2(canonicalDump(*two.trace) == reference, path.c_str());
            if (one.trace->compression != Compression::None) {
                const LoadResult ahead = loadWithThreads(path, 0);
                QVERIFY2(ahead.trace && canonicalDump(*ahead.trace) == reference, path.c_str());
            }
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
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
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
        const LoadResult ahead = loadWithThreads(path, 0);
        QVERIFY(ahead.trace);
        QVERIFY(canonicalDump(*ahead.trace) == canonicalDump(*one.trace));
    }

    // The read-ahead source hands out the wrapped stream byte for byte,
    // whatever the block size and however much each read asks for.
    void readAheadIsTransparent() {
        std::string bytes(1 << 20, '\0');
        for (size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
        for (size_t block : {size_t(1), size_t(1000), size_t(1 << 16)}) {
            for (size_t ask : {size_t(7), size_t(4096), size_t(3 << 20)}) {
                ReadAheadSource ahead(std::make_unique<MemorySource>(bytes, 777), block, 3);
                std::string out;
                std::vector<char> buf(ask);
                while (const size_t n = ahead.read(buf.data(), buf.size()))
                    out.append(buf.data(), n);
                QCOMPARE(out.size(), bytes.size());
                QVERIFY(out == bytes);
                QVERIFY(!ahead.problem());
                QCOMPARE(ahead.filePosition(), uint64_t(bytes.size()));
            }
        }
    }

    // Skipping hands out the bytes after the ones passed over, and a tap
    // sees the whole stream in order, then its end, before the reader does.
    void readAheadSkipsAndTaps() {
        std::string bytes(3 << 20, '\0');
        for (size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<char>((i * 2654435761u) >> 11);
        class Recording final : public StreamTap {
          public:
            void onBytes(uint64_t offset, const char* data, size_t size) noexcept override {
                if (offset != seen.size() || ended) ordered = false;
                seen.append(data, size);
            }
            void onEnd(uint64_t size) noexcept override {
                ended = true;
                endSize = size;
            }
            std::string seen;
            bool ordered = true, ended = false;
            uint64_t endSize = 0;
        };
        for (size_t block : {size_t(1000), size_t(1 << 16)}) {
            for (uint64_t skipBy : {uint64_t(1), uint64_t(999), uint64_t(70000)}) {
                Recording tap;
                std::string out, expected;
                uint64_t at = 0;
                {
                    ReadAheadSource ahead(std::make_unique<MemorySource>(bytes, 777), block, 3,
                                          &tap);
                    char buf[5000];
                    for (;;) {
                        const size_t n = ahead.read(buf, sizeof buf);
                        if (n == 0) break;
                        out.append(buf, n);
                        expected.append(bytes, at, n);
                        at += n;
                        const uint64_t skipped = ahead.skip(skipBy);
                        QCOMPARE(skipped, std::min<uint64_t>(skipBy, bytes.size() - at));
                        at += skipped;
                    }
                    QCOMPARE(ahead.skip(10), uint64_t(0));  // at the end
                }
                QCOMPARE(at, uint64_t(bytes.size()));
                QVERIFY(out == expected);
                QVERIFY(tap.ordered && tap.ended);
                QVERIFY(tap.seen == bytes);
                QCOMPARE(tap.endSize, uint64_t(bytes.size()));
            }
        }
    }

    void readAheadPassesOnProblemsAndErrors() {
        // A stream problem (truncated gzip) arrives after the good bytes.
        const std::string json =
            "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]";
        std::string gz = test::gzipBytes(json + std::string(5000, ' '));
        gz.resize(gz.size() / 2);
        OpenedSource direct = openMemorySource(gz);
        OpenedSource wrapped = openMemorySource(gz);
        ReadAheadSource ahead(std::move(wrapped.source), 64, 2);
        std::string a, b;
        char buf[100];
        while (const size_t n = direct.source->read(buf, sizeof buf))
            a.append(buf, n);
        while (const size_t n = ahead.read(buf, sizeof buf))
            b.append(buf, n);
        QCOMPARE(b, a);
        QVERIFY(direct.source->problem() && ahead.problem());
        QCOMPARE(*ahead.problem(), *direct.source->problem());

        // An exception of the wrapped source is rethrown to the reader.
        class Failing final : public ByteSource {
          public:
            size_t read(char* dst, size_t capacity) override {
                if (served_ >= 3000) throw LoadError("byte 3000", "read failed: I/O error");
                const size_t n = std::min<size_t>(capacity, 1000);
                std::memset(dst, 'x', n);
                served_ += n;
                return n;
            }
            uint64_t filePosition() const override { return served_; }

          private:
            size_t served_ = 0;
        };
        ReadAheadSource failing(std::make_unique<Failing>(), 512, 2);
        size_t total = 0;
        bool threw = false;
        try {
            while (const size_t n = failing.read(buf, sizeof buf))
                total += n;
        } catch (const LoadError& e) {
            threw = std::string(e.what()).find("I/O error") != std::string::npos;
        }
        QVERIFY(threw);
        // Everything the wrapped source served before it threw arrived.
        QVERIFY2(total >= 3000 && total < 4000, std::to_string(total).c_str());
    }

    void readAheadCanBeAbandonedMidStream() {
        // Cancel: the reader stops reading and destroys the source while the
        // producer is blocked on a full queue.
        for (int i = 0; i < 20; ++i) {
            ReadAheadSource ahead(std::make_unique<MemorySource>(std::string(1 << 20, 'y')), 4096,
                                  2);
            char buf[10];
            QVERIFY(ahead.read(buf, sizeof buf) == sizeof buf);
        }
    }

    void compressedBrokenInputReportsAlike_data() {
        QTest::addColumn<int>("compression");
        QTest::addColumn<QString>("damage");
        QTest::newRow("gzip truncated") << int(Compression::Gzip) << "truncate";
        QTest::newRow("gzip corrupt") << int(Compression::Gzip) << "corrupt";
        QTest::newRow("zstd truncated") << int(Compression::Zstd) << "truncate";
        QTest::newRow("zstd corrupt") << int(Compression::Zstd) << "corrupt";
    }
    void compressedBrokenInputReportsAlike() {
        QFETCH(int, compression);
        QFETCH(QString, damage);
        std::string json = "[";
        for (int i = 0; i < 20000; ++i)
            json += "{\"ph\":\"X\",\"name\":\"n" + std::to_string(i % 50) +
                    "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) + ",\"dur\":1},";
        json.back() = ']';
        std::string bytes =
            compression == int(Compression::Gzip) ? test::gzipBytes(json) : test::zstdBytes(json);
        if (damage == "truncate") bytes.resize(bytes.size() * 2 / 3);
        if (damage == "corrupt")
            for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
                bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
        QTemporaryDir dir;
        const std::string path = dir.filePath("broken.json").toStdString();
        QVERIFY(test::writeFile(path, bytes));
        const LoadResult one = loadWithThreads(path, 1);
        const LoadResult ahead = loadWithThreads(path, 0);
        const LoadResult two = loadWithThreads(path, 2);
        const auto describe = [](const LoadResult& r) {
            return r.trace ? std::string("trace") : r.failure ? r.failure->message() : "cancelled";
        };
        QVERIFY2(describe(ahead).substr(0, 5) == describe(one).substr(0, 5),
                 (describe(ahead) + " vs " + describe(one)).c_str());
        QCOMPARE(bool(ahead.trace), bool(one.trace));
        QCOMPARE(bool(two.trace), bool(one.trace));
        if (!one.trace) {
            QCOMPARE(ahead.failure->message(), one.failure->message());
            QCOMPARE(two.failure->message(), one.failure->message());
            return;
        }
        QVERIFY(one.trace->report.truncated && ahead.trace->report.truncated);
        QCOMPARE(canonicalDump(*two.trace), canonicalDump(*one.trace));
        if (compression == int(Compression::Zstd) && damage == "corrupt") {
            // zstd drops what it decoded in the call that meets the damage,
            // and the read-ahead asks in bigger steps than the direct reader:
            // the two may keep different amounts, each within one zstd block
            // (128 KiB, about 2 200 of these events) of the damage.
            const auto a = static_cast<int64_t>(ahead.trace->report.events);
            const auto b = static_cast<int64_t>(one.trace->report.events);
            QVERIFY2(a > 0 && std::abs(a - b) <= 2500,
                     (std::to_string(a) + " vs " + std::to_string(b)).c_str());
        } else {
            QCOMPARE(canonicalDump(*ahead.trace), canonicalDump(*one.trace));
        }
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
            const auto t = test::loadInChunks(text, chunk, true);
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
            QCOMPARE(canonicalDump(*test::loadInChunks(text, chunk, true)), reference);
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
        std::string text = test::manyEvents(20000);
        text.back() = ',';
        text += "{\"ph\":\"X\",\"name\":\"" + std::string(3 << 20, 'x') + "\"}]";
        LoadOptions options;
        options.maxEventBytes = 1 << 20;
        options.mode = ReadingMode::OneThread;
        const LoadResult one = loadTraceFromBytes(text, "big.json", options);
        options.mode = ReadingMode::Pipelined;
        const LoadResult two = loadTraceFromBytes(text, "big.json", options);
        QVERIFY(one.failure && two.failure);
        QCOMPARE(two.failure->message(), one.failure->message());
        QVERIFY(two.failure->what.find("larger than the limit") != std::string::npos);
    }

    void aBuilderErrorStopsTheReader() {
        // The memory limit trips on the builder thread while the reader is
        // still going: the load fails cleanly with the builder's message.
        const std::string text = test::manyEvents(300000, true);
        LoadOptions options;
        options.memoryLimitBytes = 1 << 20;
        options.mode = ReadingMode::OneThread;
        const LoadResult one = loadTraceFromBytes(text, "mem.json", options);
        options.mode = ReadingMode::Pipelined;
        const LoadResult two = loadTraceFromBytes(text, "mem.json", options);
        QVERIFY(one.failure && two.failure);
        QCOMPARE(two.failure->message(), one.failure->message());
    }

    void cancelStopsTheReadAhead() {
        const std::string text = test::manyEvents(200000);
        QTemporaryDir dir;
        const std::string path = dir.filePath("cancel.json.zst").toStdString();
        QVERIFY(test::writeFile(path, test::zstdBytes(text)));
        CancelToken cancel;
        LoadOptions options;
        options.mode = ReadingMode::Auto;
        options.cancel = &cancel;
        int calls = 0;
        options.progress = [&](LoadPhase, uint64_t, uint64_t) {
            if (++calls == 2) cancel.cancel();
        };
        const LoadResult r = loadTrace(path, options);
        QVERIFY(r.cancelled);
        QVERIFY(!r.trace);
    }

    void cancelStopsBothThreads() {
        const std::string text = test::manyEvents(200000);
        CancelToken cancel;
        LoadOptions options;
        options.mode = ReadingMode::Pipelined;
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

GAPSCOPE_TEST_GUILESS_MAIN(TestParallelLoad)
#include "tst_parallel_load.moc"
