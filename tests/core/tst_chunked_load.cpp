// Plain JSON parsed in chunks on a second core (format/chunked_events.h)
// builds the very model the single-threaded reader builds: byte-identical
// canonical dumps on every JSON trace in ../shared/traces (decompressed to a
// plain file) and on generated ones, with chunks small enough to put chunk
// starts everywhere, inside strings that look like event boundaries, after
// separators the chunk scan does not recognise, and in events too long for
// a chunk. Errors, truncation, limits and cancel come out word for word as
// the sequential reader's. Each test also checks that events really were
// parsed ahead (eventsParsedAhead), so a path that silently fell back to
// one thread would fail (a chunk size asked for puts every chunk through
// the chunk path, whatever the threads' timing).

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "loader/loader.h"
#include "report/canonical_dump.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

LoadResult loadSequential(const std::string& path, LoadOptions options = {}) {
    options.threads = 1;
    return loadTrace(path, options);
}

LoadResult loadChunked(const std::string& path, size_t chunkBytes, LoadOptions options = {}) {
    options.threads = 0;
    options.chunkBytes = chunkBytes;
    return loadTrace(path, options);
}

// The same model, or the same failure word for word; returns the events
// parsed ahead (0 for a failure).
uint64_t compareLoads(const std::string& path, size_t chunkBytes, const LoadOptions& options = {}) {
    const LoadResult one = loadSequential(path, options);
    const LoadResult chunked = loadChunked(path, chunkBytes, options);
    const std::string what = path + " in chunks of " + std::to_string(chunkBytes);
    if (!one.trace) {
        if (!one.failure || !chunked.failure) {
            QTest::qFail(("one load failed, the other did not: " + what).c_str(), __FILE__,
                         __LINE__);
            return 0;
        }
        if (chunked.failure->message() != one.failure->message()) {
            QTest::qFail(("different failures: " + what + "\n  " + one.failure->message() + "\n  " +
                          chunked.failure->message())
                             .c_str(),
                         __FILE__, __LINE__);
        }
        return 0;
    }
    // The CLI's dump: every field of the model, the args' text, the report.
    if (!chunked.trace || canonicalDump(*chunked.trace) != canonicalDump(*one.trace))
        QTest::qFail(("different models: " + what).c_str(), __FILE__, __LINE__);
    if (!chunked.trace) return 0;
    return chunked.trace->report.eventsParsedAhead;
}

// The JSON text of a (possibly compressed) trace, as the reader sees it.
std::string jsonOf(const std::string& path) {
    OpenedSource opened = openTraceSource(path);
    std::string json;
    char block[65536];
    while (const size_t n = opened.source->read(block, sizeof block))
        json.append(block, n);
    return json;
}

// prefix + n (built by append: GCC 12 at -O3 warns falsely on "literal" + string).
std::string numbered(std::string prefix, int n) {
    prefix.append(std::to_string(n));
    return prefix;
}

std::string completeEvent(const std::string& name, int ts, const std::string& args = "{}") {
    return "{\"ph\":\"X\",\"name\":\"" + name +
           "\",\"cat\":\"kernel\",\"pid\":1,\"tid\":7,\"ts\":" + std::to_string(ts) +
           ",\"dur\":1,\"args\":" + args + "}";
}

}  // namespace

class TestChunkedLoad : public QObject {
    Q_OBJECT
  private slots:
    void realTracesBuildIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        QTemporaryDir dir;
        QDirIterator it(test::sharedTraces(), QDir::Files, QDirIterator::Subdirectories);
        int compared = 0;
        uint64_t ahead = 0;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            if (path.find(".json") == std::string::npos) continue;  // XSpace, notes
            std::string json;
            try {
                json = jsonOf(path);
            } catch (const std::exception&) {
                continue;  // not readable at all: the same for every reader
            }
            const std::string plain = dir.filePath("plain.json").toStdString();
            QVERIFY(test::writeFile(plain, json));
            // A few chunks, and many small ones (fewer for the big files).
            for (size_t chunk :
                 {json.size() / 5 + 16, json.size() < (4u << 20) ? size_t(1009) : size_t(65536)})
                ahead += compareLoads(plain, chunk);
            ++compared;
        }
        QVERIFY(compared > 100);
        QVERIFY2(ahead > 100000, "hardly any events were parsed ahead");
        qInfo("%d JSON traces identical in chunks; %llu events parsed ahead", compared,
              static_cast<unsigned long long>(ahead));
    }

    void aGeneratedTraceBuildsIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QTemporaryDir dir;
        const QString out = dir.filePath("k.json");
        QProcess gen;
        gen.start(test::python(),
                  {test::sharedDir() + "/tools/gen_trace.py", "--out", out, "--quiet", "--profile",
                   "kineto", "--gpus", "2", "--steps", "8"});
        QVERIFY(gen.waitForFinished(180000) && gen.exitCode() == 0);
        const std::string path = out.toStdString();
        // The default size (chunks parsed ahead as the threads' timing
        // allows), and sizes asked for (every chunk through the chunk path).
        compareLoads(path, 0);
        for (size_t chunk : {size_t(4096), size_t(100003)}) {
            const uint64_t ahead = compareLoads(path, chunk);
            QVERIFY2(ahead > 1000, std::to_string(chunk).c_str());
        }
    }

    // Chunk starts guessed inside strings that hold "},{" and whole fake
    // events, events joined by ",," or nothing at all, events longer than a
    // chunk and its slack, escaped text, counters and metadata: every chunk
    // size from 16 bytes up puts a chunk start at every position.
    void hostileTextBuildsIdentically() {
        std::string text = "{\"otherData\":{\"a\":[{\"x\":1},{\"y\":2}]},\"traceEvents\":[";
        const std::string fake = "x},{\\\"ph\\\":\\\"X\\\",\\\"name\\\":\\\"fake\\\"},  {y";
        for (int i = 0; i < 400; ++i) {
            switch (i % 9) {
                case 0:
                    text += completeEvent(fake + std::to_string(i), i) + ",";
                    break;
                case 1:
                    text += completeEvent("n", i, "{\"s\":\"},{\",\"t\":[{},{}]}") + ",,";
                    break;
                case 2:
                    text += completeEvent("joined", i) + " \n\t";  // no comma before the next one
                    break;
                case 3:
                    text += completeEvent(std::string(6000, 'L'), i) + ",\n  ";
                    break;
                case 4:
                    text += "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":" + std::to_string(i) +
                            ",\"args\":{\"a\\u0062\":" + std::to_string(i) + "}},";
                    break;
                case 5:
                    text +=
                        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":7,"
                        "\"args\":{\"name\":\"w\\u00f6rker\"}} , ";
                    break;
                default:
                    text += completeEvent(numbered("k\\\"", i), i) + ",";
            }
        }
        text += completeEvent("last", 1000) + "],\"displayTimeUnit\":\"ns\"}";
        QTemporaryDir dir;
        const std::string path = dir.filePath("hostile.json").toStdString();
        QVERIFY(test::writeFile(path, text));
        uint64_t ahead = 0;
        for (size_t chunk = 16; chunk < 9000; chunk = chunk * 5 / 4 + 1)
            ahead += compareLoads(path, chunk);
        QVERIFY(ahead > 1000);
    }

    // The reader's errors and warnings, with their offsets and event
    // numbers, whichever chunk the bad text falls in.
    void brokenInputFailsAndWarnsAlike_data() {
        QTest::addColumn<QString>("tail");
        QTest::newRow("truncated in an event") << "{\"ph\":\"X\",\"name\":\"cut";
        QTest::newRow("truncated between events") << "";
        QTest::newRow("malformed event") << "{\"ph\":\"X\",\"ts\":1,,}, {\"ph\":\"X\"}]";
        QTest::newRow("not an object") << "42, {\"ph\":\"X\"}]";
        QTest::newRow("trailing data") << "{\"ph\":\"i\",\"ts\":5}] garbage";
        QTest::newRow("array then more keys")
            << "{\"ph\":\"i\",\"ts\":5}], \"traceEvents\": [{\"ph\":\"i\",\"ts\":6}]}";
    }
    void brokenInputFailsAndWarnsAlike() {
        QFETCH(QString, tail);
        // Small files, and one past the reader's 4 MiB buffer (where the
        // bytes it read before stopping depend on its buffering).
        for (int events : {3000, 80000}) {
            std::string text = "{\"traceEvents\":[";
            for (int i = 0; i < events; ++i)
                text += completeEvent(numbered("e", i % 50), i) + ",";
            text += tail.toStdString();
            if (events > 10000) text.append(6u << 20, ' ');  // so the reader stops before the end
            QTemporaryDir dir;
            const std::string path = dir.filePath("broken.json").toStdString();
            QVERIFY(test::writeFile(path, text));
            QVERIFY(events < 10000 || text.size() > (5u << 20));
            uint64_t ahead = 0;
            for (size_t chunk : {size_t(977), size_t(4096), size_t(50001), size_t(524288)})
                ahead += compareLoads(path, chunk);
            QVERIFY(ahead > 1000);
        }
    }

    void limitsFailAlike() {
        std::string text = "[";
        for (int i = 0; i < 20000; ++i)
            text += completeEvent(numbered("n", i), i) + ",";
        text += completeEvent(std::string(300000, 'x'), 1) + "]";
        QTemporaryDir dir;
        const std::string path = dir.filePath("big.json").toStdString();
        QVERIFY(test::writeFile(path, text));
        LoadOptions options;
        options.maxEventBytes = 100000;  // the last event is over it
        compareLoads(path, 8192, options);
        QVERIFY(loadChunked(path, 8192, options).failure->what.find("larger than the limit") !=
                std::string::npos);
        // An event over the limit that a chunk holds whole.
        std::string small = "[";
        for (int i = 0; i < 40000; ++i)
            small += completeEvent(i == 20000 ? std::string(6000, 'y') : "s", i) + ",";
        small.back() = ']';
        const std::string smallPath = dir.filePath("small.json").toStdString();
        QVERIFY(test::writeFile(smallPath, small));
        options.maxEventBytes = 5000;
        compareLoads(smallPath, 65536, options);
        QVERIFY(loadChunked(smallPath, 65536, options).failure);
        QVERIFY(compareLoads(smallPath, 65536) > 1000);
        options = {};
        options.memoryLimitBytes = 1 << 20;  // the builder's limit, mid-stream
        compareLoads(path, 8192, options);
        QVERIFY(loadChunked(path, 8192, options).failure);
    }

    void cancelStopsTheChunks() {
        const std::string text = test::manyEvents(200000);
        QTemporaryDir dir;
        const std::string path = dir.filePath("cancel.json").toStdString();
        QVERIFY(test::writeFile(path, text));
        CancelToken cancel;
        LoadOptions options;
        options.cancel = &cancel;
        int calls = 0;
        options.progress = [&](LoadPhase, uint64_t, uint64_t) {
            if (++calls == 3) cancel.cancel();
        };
        const LoadResult r = loadChunked(path, 4096, options);
        QVERIFY(r.cancelled);
        QVERIFY(!r.trace);
        QVERIFY(calls >= 3);
    }
};

QTEST_GUILESS_MAIN(TestChunkedLoad)
#include "tst_chunked_load.moc"
