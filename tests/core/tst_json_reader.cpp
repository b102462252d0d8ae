// The streaming reader: both document forms, metadata before and after the
// events, truncation, trailing commas, compression, errors with offsets, and
// identical results whatever the split points of the input.

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "format/json_lexer.h"
#include "model/args_json.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using namespace gapscope::test;

namespace {

std::string objectTrace() {
    QFile f(fixture("object_form.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

}  // namespace

class TestJsonReader : public QObject {
    Q_OBJECT
  private slots:
    // Strings are scanned 16 bytes at a time: a quote, a backslash or the end
    // of the buffer at every offset of those blocks, in strings of 0 to 40
    // bytes, gives the text built piece by piece beside the JSON.
    void stringsAtEveryOffset() {
        struct Piece {
            std::string json, text;
        };
        const Piece pieces[] = {
            {"\\\"", "\""}, {"\\\\", "\\"}, {"\\n", "\n"}, {"\\u00e9", "\xc3\xa9"}, {"\\/", "/"}};
        int cases = 0;
        for (size_t length = 0; length <= 40; ++length) {
            for (size_t at = 0; at <= length; ++at) {
                for (const Piece* piece = nullptr; piece != std::end(pieces);
                     piece = piece ? piece + 1 : pieces) {
                    std::string json = "\"", text;
                    for (size_t i = 0; i < length; ++i) {
                        if (i == at && piece) json += piece->json, text += piece->text;
                        const char plain = static_cast<char>('a' + i % 26);
                        json += plain;
                        text += plain;
                    }
                    if (at == length && piece) json += piece->json, text += piece->text;
                    json += "\"";
                    const std::string withTail = json + ",\"next\"";
                    json::Cursor c{withTail.data(), withTail.data() + withTail.size()};
                    std::string scratch;
                    std::string_view out;
                    QCOMPARE(json::scanString(c, scratch, out), json::Status::Ok);
                    QCOMPARE(std::string(out), text);
                    QCOMPARE(c.p, withTail.data() + json.size());
                    // Cut anywhere before the closing quote: more is needed.
                    for (size_t cut = 1; cut < json.size(); ++cut) {
                        json::Cursor part{json.data(), json.data() + cut};
                        const json::Status st = json::scanString(part, scratch, out);
                        QVERIFY2(st == json::Status::NeedMore,
                                 qPrintable(QString::fromStdString(json.substr(0, cut))));
                    }
                    json::Cursor skip{withTail.data(), withTail.data() + withTail.size()};
                    QCOMPARE(json::skipString(skip), json::Status::Ok);
                    QCOMPARE(skip.p, withTail.data() + json.size());
                    ++cases;
                }
            }
        }
        QCOMPARE(cases, 861 * 6);  // lengths 0..40, each offset, no piece or one of five
    }

    void objectFormKeepsMetadataAfterEvents() {
        const LoadResult r = loadJsonText(objectTrace());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        const Trace& t = *r.trace;
        QVERIFY(t.objectForm);
        QCOMPARE(t.report.events, uint64_t(5));
        QVERIFY(!t.report.truncated);
        QCOMPARE(t.displayTimeUnit, std::string("ms"));
        QVERIFY(t.metadata.count("traceName"));
        QVERIFY(t.metadata.count("deviceProperties"));
        QCOMPARE(t.metadata.at("baseTimeNanoseconds"), std::string("1700000000000000000"));
        QCOMPARE(t.spanStart, int64_t(9000));
        QCOMPARE(t.spanEnd, int64_t(13250));
        QCOMPARE(t.gpuDevices.size(), size_t(1));
        QCOMPARE(t.gpuDevices[0].name, std::string("Test GPU \xc3\xa9"));
        QCOMPARE(t.gpuDevices[0].busyNs, int64_t(2000));
        // The escaped name is unescaped; args stay raw and intact.
        const Track& stream = t.tracks[t.processes[0].tracks[0]];
        QCOMPARE(stream.displayName, std::string("stream 7"));
        const Slice& k = t.slices[stream.sliceBegin];
        QCOMPARE(std::string(t.str(k.name)), std::string("k\"1\""));
        const auto x = t.extractedArgs(k.args);
        QVERIFY(x);
        QCOMPARE(x->correlation, int64_t(11));
        QCOMPARE(x->grid[0], 4);
        QCOMPARE(x->block[0], 128);
        QVERIFY(t.argsText(k.args).json.find("\"correlation\": 11") != std::string::npos);
        // Parsed only on demand, keys in file order.
        const std::string pretty = prettyArgs(t, k.args).json;
        QVERIFY(pretty.find("\"device\": 0,\n  \"stream\": 7") != std::string::npos);
        QCOMPARE(prettyArgs(t, kNone).json, std::string());
        QVERIFY(prettyArgs(t, kNone).ok());
    }

    void arrayForm() {
        const LoadResult r =
            loadJsonText("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]");
        QVERIFY(r.trace);
        QVERIFY(!r.trace->objectForm);
        QCOMPARE(r.trace->slices.size(), size_t(1));
    }

    void byteOrderMarkAndWhitespace() {
        const LoadResult r =
            loadJsonText("\xEF\xBB\xBF  \n[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1}]\n");
        QVERIFY(r.trace);
        QCOMPARE(r.trace->slices.size(), size_t(1));
    }

    void everySplitPointGivesTheSameModel() {
        const std::string whole = canonicalDump(*loadInChunks(objectTrace(), 1 << 20));
        for (size_t chunk = 1; chunk <= 17; ++chunk) {
            QCOMPARE(canonicalDump(*loadInChunks(objectTrace(), chunk)), whole);
        }
    }

    void compressedFormsGiveTheSameModel() {
        const std::string plain = canonicalDump(*loadJsonText(objectTrace()).trace);
        const LoadResult gz = loadJsonText(objectTrace(), Compression::Gzip);
        const LoadResult zst = loadJsonText(objectTrace(), Compression::Zstd);
        QVERIFY(gz.trace && zst.trace);
        QCOMPARE(gz.trace->compression, Compression::Gzip);
        QCOMPARE(zst.trace->compression, Compression::Zstd);
        QCOMPARE(canonicalDump(*gz.trace), plain);
        QCOMPARE(canonicalDump(*zst.trace), plain);
    }

    void truncatedKeepsEventsBeforeTheCut() {
        // Cut at every byte after the first complete event: the events
        // before the cut survive, with a truncation warning, never an error.
        const std::string text = objectTrace();
        const size_t firstEventEnd = text.find("}},") + 2;
        for (size_t cut = firstEventEnd; cut < text.find("\"displayTimeUnit\""); cut += 7) {
            const LoadResult r = loadJsonText(text.substr(0, cut));
            QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "null");
            QVERIFY(r.trace->report.truncated);
            QVERIFY(r.trace->report.events >= 1);
            QVERIFY(!r.trace->report.warnings.empty());
        }
    }

    void truncatedGzipKeepsWhatDecompressed() {
        std::string big = "[";
        for (int i = 0; i < 20000; ++i) {
            big += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i % 50) +
                   "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i * 10) + ",\"dur\":5},";
        }
        big += "]";
        std::string gz = gzipBytes(big);
        gz.resize(gz.size() / 2);
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.json.gz").toStdString();
        QVERIFY(writeFile(path, gz));
        const LoadResult r = loadTrace(path);
        QVERIFY(r.trace);
        QVERIFY(r.trace->report.truncated);
        QVERIFY(r.trace->report.events > 1000 && r.trace->report.events < 20000);
        bool sawGzipWarning = false;
        for (const auto& w : r.trace->report.warnings)
            sawGzipWarning |= w.message.find("gzip") != std::string::npos;
        QVERIFY(sawGzipWarning);
    }

    void trailingCommasAccepted() {
        const LoadResult r = loadJsonText(
            "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"args\":{\"k\":1,},"
            "},],\"x\":[1,2,],}");
        QVERIFY(r.trace);
        QVERIFY(!r.trace->report.truncated);
        QCOMPARE(r.trace->slices.size(), size_t(1));
    }

    void errors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("what");
        QTest::newRow("empty") << QByteArray() << "byte 0"
                               << "empty";
        QTest::newRow("whitespace") << QByteArray("  \n ") << "byte 4"
                                    << "no JSON";
        QTest::newRow("not json") << QByteArray("hello") << "byte 0"
                                  << "expected '[' or '{'";
        QTest::newRow("binary") << QByteArray("\x0a\xa6\x01", 3) << "byte 1"
                                << "binary data";
        QTest::newRow("no traceEvents") << QByteArray("{\"spans\": []}") << "top-level object"
                                        << "no \"traceEvents\" array (keys: spans)";
        QTest::newRow("traceEvents not array") << QByteArray("{\"traceEvents\": 5}") << "byte 16"
                                               << "must be an array";
        QTest::newRow("array of arrays") << QByteArray("[[1,2]]") << "byte 1"
                                         << "not a Chrome trace";
        QTest::newRow("bad first event") << QByteArray("[{\"ph\" \"X\"}]") << "byte 7"
                                         << "expected ':'";
        QTest::newRow("zip") << QByteArray("PK\x03\x04rest", 8) << "byte 0"
                             << "ZIP archive";
        QTest::newRow("truncated before any event")
            << QByteArray("{\"traceEvents\": [{\"ph\":") << "byte"
            << "no event could be read";
    }
    void errors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, where);
        QFETCH(QString, what);
        const LoadResult r = loadJsonText(bytes.toStdString());
        QVERIFY(!r.trace);
        QVERIFY(r.failure);
        QVERIFY2(r.failure->where.find(where.toStdString()) == 0, r.failure->message().c_str());
        QVERIFY2(r.failure->what.find(what.toStdString()) != std::string::npos,
                 r.failure->message().c_str());
        QVERIFY(r.failure->message().find(".json: ") != std::string::npos);  // names the file
    }

    void malformedAfterGoodEventsIsAWarning() {
        const LoadResult r = loadJsonText(
            "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"name\":\"b\",\"ts\":"
            "2,\"dur\":1},{\"ph\" \"X\"}]");
        QVERIFY(r.trace);
        QCOMPARE(r.trace->report.events, uint64_t(2));
        QVERIFY(r.trace->report.truncated);
        QVERIFY(r.trace->report.warnings.front().message.find("malformed JSON in event 2") !=
                std::string::npos);
        QCOMPARE(r.trace->report.warnings.front().offset,
                 uint64_t(81));  // the '"' where ':' belongs
    }

    void argsOfAPlainFileAreReadBackFromIt() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("plain.json").toStdString();
        QVERIFY(writeFile(
            path, "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"args\":{\"k\": 42}}]"));
        const LoadResult r = loadTrace(path);
        QVERIFY(r.trace);
        QVERIFY(r.trace->argsStore.fileBacked());  // not copied into memory
        const uint32_t args = r.trace->slices[0].args;
        QCOMPARE(r.trace->argsText(args).json, std::string("{\"k\": 42}"));
        // Deleting (or replacing) the file does not matter: the descriptor is kept.
        QVERIFY(QFile::remove(QString::fromStdString(path)));
        QCOMPARE(r.trace->argsText(args).json, std::string("{\"k\": 42}"));
        QVERIFY(!r.trace->argsStore.fileChanged());
    }

    void argsOfARewrittenFileAreNotMisread() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("plain.json").toStdString();
        QVERIFY(writeFile(
            path, "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"args\":{\"k\": 42}}]"));
        const LoadResult r = loadTrace(path);
        QVERIFY(r.trace);
        // Rewritten in place (same inode, other bytes): args must not be misread.
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadWrite | QIODevice::Truncate));
        f.write("[]");
        f.close();
        const ArgsText text = r.trace->argsText(r.trace->slices[0].args);
        QCOMPARE(text.json, std::string());
        QVERIFY2(text.error.find("changed on disk") != std::string::npos, text.error.c_str());
        QVERIFY(r.trace->argsStore.fileChanged());
    }

    void fileErrors() {
        QTemporaryDir dir;
        LoadResult r = loadTrace(dir.path().toStdString());
        QVERIFY(!r.trace);
        // A folder is looked at as a TensorBoard log folder: none here.
        QCOMPARE(r.failure->where, std::string("folder"));
        QVERIFY2(r.failure->what.find("no *.xplane.pb profile") != std::string::npos,
                 r.failure->what.c_str());
        r = loadTrace(dir.filePath("missing.json").toStdString());
        QVERIFY(!r.trace);
        QVERIFY(r.failure->what.find("No such file") != std::string::npos);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestJsonReader)
#include "tst_json_reader.moc"
