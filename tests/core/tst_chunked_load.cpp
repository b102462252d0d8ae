// JSON parsed in chunks on a second core (format/chunked_events.h), from a
// plain file or from a compressed one's decompressing thread, builds the
// very model the single-threaded reader builds: byte-identical canonical
// dumps on every JSON trace in ../shared/traces (as it is, and decompressed
// to a plain file) and on generated ones (plain, zstd and gzip), with chunks
// small enough to put chunk
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
#include <chrono>
#include <thread>

#include "format/chunked_events.h"
#include "io/memory_source.h"
#include "io/read_ahead_source.h"
#include "loader/loader.h"
#include "report/canonical_dump.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

LoadResult loadSequential(const std::string& path, LoadOptions options = {}) {
    options.mode = ReadingMode::OneThread;
    return loadTrace(path, options);
}

LoadResult loadChunked(const std::string& path, size_t chunkBytes, LoadOptions options = {}) {
    options.mode = ReadingMode::Auto;
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

// `text` written as `name` in `dir`, and zstd and gzip copies of it: the
// three ways chunks get their text.
std::vector<std::string> writeVariants(const QTemporaryDir& dir, const std::string& name,
                                       const std::string& text) {
    const std::string plain = dir.filePath(QString::fromStdString(name)).toStdString();
    std::vector<std::string> paths;
    if (test::writeFile(plain, text)) paths.push_back(plain);
    if (test::writeFile(plain + ".zst", test::zstdBytes(text))) paths.push_back(plain + ".zst");
    if (test::writeFile(plain + ".gz", test::gzipBytes(text))) paths.push_back(plain + ".gz");
    if (paths.size() != 3) QTest::qFail("could not write the test's files", __FILE__, __LINE__);
    return paths;
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

// Each event as a line (its number, offset, name and times).
class RecordingSink final : public EventSink {
  public:
    void onEvent(const RawEvent& ev) override {
        lines += std::to_string(ev.index) + " " + std::to_string(ev.offset) + " " +
                 std::string(ev.name) + " " + std::to_string(ev.ts.ns) + " " +
                 std::to_string(ev.dur.ns) + "\n";
    }
    void onMetadata(std::string_view key, std::string_view value) override {
        lines.append(key).append("=").append(value).append("\n");
    }
    std::string lines;
};

// A stream that is slow to produce (a slow disk, a busy core), so that the
// reader gets ahead of the inflating thread.
class SlowSource final : public ByteSource {
  public:
    explicit SlowSource(std::string bytes) : inner_(std::move(bytes), 32 * 1024) {}
    size_t read(char* dst, size_t capacity) override {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return inner_.read(dst, capacity);
    }
    uint64_t filePosition() const override { return inner_.filePosition(); }

  private:
    MemorySource inner_;
};

}  // namespace

class TestChunkedLoad : public QObject {
    Q_OBJECT
  private slots:
    void realTracesBuildIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        QTemporaryDir dir;
        QDirIterator it(test::sharedTraces(), QDir::Files, QDirIterator::Subdirectories);
        int compared = 0, compressedCompared = 0;
        uint64_t ahead = 0, compressedAhead = 0;
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
            // A compressed trace as it is too: its chunks come from the decompressing thread.
            const bool compressed = openTraceSource(path).compression != Compression::None;
            // A few chunks, and many small ones (fewer for the big files);
            // compressed, a few (the small ones are the generated tests' below).
            const size_t few = json.size() / 5 + 16;
            for (size_t chunk : {few, json.size() < (4u << 20) ? size_t(1009) : size_t(65536)})
                ahead += compareLoads(plain, chunk);
            if (compressed) compressedAhead += compareLoads(path, few);
            ++compared;
            compressedCompared += compressed;
        }
        QVERIFY(compared > 100);
        QVERIFY(compressedCompared > 10);
        QVERIFY2(ahead > 100000, "hardly any events were parsed ahead");
        QVERIFY2(compressedAhead > 10000, "hardly any compressed events were parsed ahead");
        qInfo(
            "%d JSON traces identical in chunks (%d compressed ones as they are too); %llu events "
            "parsed ahead (%llu from compressed files)",
            compared, compressedCompared, static_cast<unsigned long long>(ahead),
            static_cast<unsigned long long>(compressedAhead));
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
        const std::string json = jsonOf(out.toStdString());
        QVERIFY(json.size() > (4u << 20));  // several default chunks
        for (const std::string& path : writeVariants(dir, "variant.json", json)) {
            // The default size (chunks parsed ahead as the threads' timing
            // allows), and sizes asked for (every chunk through the chunk path).
            compareLoads(path, 0);
            for (size_t chunk : {size_t(4096), size_t(100003), size_t(1u << 20)}) {
                const uint64_t ahead = compareLoads(path, chunk);
                QVERIFY2(ahead > 1000, (path + " " + std::to_string(chunk)).c_str());
            }
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
        for (const std::string& path : writeVariants(dir, "hostile.json", text)) {
            uint64_t ahead = 0;
            for (size_t chunk = 16; chunk < 9000; chunk = chunk * 5 / 4 + 1)
                ahead += compareLoads(path, chunk);
            QVERIFY2(ahead > 1000, path.c_str());
        }
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
            QVERIFY(events < 10000 || text.size() > (5u << 20));
            const std::vector<std::string> paths = writeVariants(dir, "broken.json", text);
            for (const std::string& path : paths) {
                // Every size for the plain file; one for the compressed ones
                // (small chunks on the small file, large on the large one).
                uint64_t ahead = 0;
                for (size_t chunk : {size_t(977), size_t(4096), size_t(50001), size_t(524288)}) {
                    if (path == paths.front() || chunk == (events > 10000 ? 524288u : 4096u))
                        ahead += compareLoads(path, chunk);
                }
                QVERIFY2(ahead > 1000, path.c_str());
            }
        }
    }

    void limitsFailAlike() {
        std::string text = "[";
        for (int i = 0; i < 20000; ++i)
            text += completeEvent(numbered("n", i), i) + ",";
        text += completeEvent(std::string(300000, 'x'), 1) + "]";
        // An event over the limit that a chunk holds whole.
        std::string small = "[";
        for (int i = 0; i < 40000; ++i)
            small += completeEvent(i == 20000 ? std::string(6000, 'y') : "s", i) + ",";
        small.back() = ']';
        QTemporaryDir dir;
        const std::vector<std::string> bigPaths = writeVariants(dir, "big.json", text);
        const std::vector<std::string> smallPaths = writeVariants(dir, "small.json", small);
        for (size_t v = 0; v < bigPaths.size() && v < smallPaths.size(); ++v) {
            const std::string& path = bigPaths[v];
            const std::string& smallPath = smallPaths[v];
            LoadOptions options;
            options.maxEventBytes = 100000;  // the last event is over it
            compareLoads(path, 8192, options);
            QVERIFY(loadChunked(path, 8192, options).failure->what.find("larger than the limit") !=
                    std::string::npos);
            options.maxEventBytes = 5000;
            compareLoads(smallPath, 65536, options);
            QVERIFY(loadChunked(smallPath, 65536, options).failure);
            QVERIFY(compareLoads(smallPath, 65536) > 1000);
            options = {};
            options.memoryLimitBytes = 1 << 20;  // the builder's limit, mid-stream
            compareLoads(path, 8192, options);
            QVERIFY(loadChunked(path, 8192, options).failure);
        }
    }

    // A compressed stream cut short or damaged: the events before the
    // damage, the warning and its offset, whatever the chunks.
    void damagedCompressedStreamsReportAlike() {
        std::string text = "{\"traceEvents\":[";
        for (int i = 0; i < 80000; ++i)
            text += completeEvent(numbered("d", i % 70), i) + ",";
        text += completeEvent("end", 80000) + "]}";
        QTemporaryDir dir;
        int damaged = 0;
        for (const std::string& compressed : {test::zstdBytes(text), test::gzipBytes(text)}) {
            std::string cut = compressed.substr(0, compressed.size() / 2);
            std::string corrupt = compressed;
            for (size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i)
                corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
            for (const std::string& bytes : {cut, corrupt}) {
                const std::string path =
                    dir.filePath(QString::fromStdString(numbered("damaged", damaged++)))
                        .toStdString();
                QVERIFY(test::writeFile(path, bytes));
                const LoadResult one = loadSequential(path);
                QVERIFY(one.trace && one.trace->report.truncated);
                uint64_t ahead = 0;
                for (size_t chunk : {size_t(977), size_t(65536)})
                    ahead += compareLoads(path, chunk);
                QVERIFY2(ahead > 1000, path.c_str());
            }
        }
    }

    // The reader ahead of the inflating thread, waiting for the rest of a
    // chunk's text (as tests and the fuzzer have it do): the text keeps
    // coming to the chunk the reader is in, so the wait ends, and the events
    // are the one-thread reader's. Chunks of 1 MiB need the next block too.
    void theReaderWaitsForTheTextOfItsChunk() {
        const std::string text = test::manyEvents(200000);
        QVERIFY(text.size() > (8u << 20));
        RecordingSink one, chunked;
        ImportReport oneReport, chunkedReport;
        {
            MemorySource source(text);
            TraceJsonReader(source, one, oneReport, {}).run();
        }
        for (size_t chunk : {size_t(1u << 20), size_t(300007)}) {
            chunked.lines.clear();
            chunkedReport = {};
            ChunkedEvents::Options co;
            co.chunkBytes = chunk;
            co.readerParsesChunks = true;
            ChunkedEvents chunks(co);
            ReaderOptions ro;
            ro.jumps = &chunks;
            ro.initialBufferBytes = 1u << 20;
            ro.decompressed = true;
            {
                ReadAheadSource source(std::make_unique<SlowSource>(text),
                                       ReadAheadSource::kBlockBytes, ReadAheadSource::kBlocks,
                                       &chunks);
                TraceJsonReader(source, chunked, chunkedReport, ro).run();
            }
            QCOMPARE(chunkedReport.events, oneReport.events);
            QVERIFY(chunked.lines == one.lines);
            QVERIFY2(chunks.jumpedEvents() > 50000, std::to_string(chunk).c_str());
        }
    }

    void cancelStopsTheChunks() {
        const std::string text = test::manyEvents(200000);
        QTemporaryDir dir;
        for (const std::string& path : writeVariants(dir, "cancel.json", text)) {
            CancelToken cancel;
            LoadOptions options;
            options.cancel = &cancel;
            int calls = 0;
            options.progress = [&](LoadPhase, uint64_t, uint64_t) {
                if (++calls == 3) cancel.cancel();
            };
            const LoadResult r = loadChunked(path, 4096, options);
            QVERIFY2(r.cancelled, path.c_str());
            QVERIFY(!r.trace);
            QVERIFY(calls >= 3);
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestChunkedLoad)
#include "tst_chunked_load.moc"
