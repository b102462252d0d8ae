// Args are extracted while an event is read, in the same pass. The
// reference is extractArgs over the event's args text afterwards, the two
// passes every reader made before: on every event of the real traces and of
// a generated Kineto trace, and on awkward hand-made events (escapes, loose
// JSON, ph after args, duplicate keys), both give the same fields, and an
// event cut anywhere before its end asks for more bytes. A few cases also
// have their expected fields written out by hand.

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "format/import_report.h"
#include "format/trace_json_reader.h"
#include "fuzz/args_agreement.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;

namespace {

// Compares, for every event a reader delivers, its fields with those
// extracted again from its args text.
class AgreementSink final : public EventSink {
  public:
    void onEvent(const RawEvent& ev) override {
        ++events;
        if (ev.args.size() > 2) ++withArgs;
        RawEvent again = ev;
        clearExtractedArgs(again);
        extractArgs(again);
        const test::ExtractedFields inPlace(ev), fromText(again);
        if (!(inPlace == fromText) && firstProblem.empty()) {
            firstProblem = "event " + std::to_string(ev.index) + " " + std::string(ev.args) +
                           "\nwhile reading: " + inPlace.describe() +
                           "\nfrom the text: " + fromText.describe();
        }
    }
    void onMetadata(std::string_view, std::string_view) override {}

    uint64_t events = 0, withArgs = 0;
    std::string firstProblem;
};

// Reads `path` (plain or compressed) with the sequential reader.
AgreementSink readAll(const std::string& path) {
    AgreementSink sink;
    OpenedSource opened = openTraceSource(path);
    ImportReport report;
    ReaderOptions options;
    options.decompressed = opened.compression != Compression::None;
    try {
        TraceJsonReader(*opened.source, sink, report, options).run();
    } catch (const std::exception&) {
        // Not a trace at all: whatever was delivered before was compared.
    }
    return sink;
}

}  // namespace

class TestArgsInPlace : public QObject {
    Q_OBJECT
  private slots:
    void awkwardEventsAgree_data() {
        QTest::addColumn<QString>("event");
        // One event per line (a file: moc does not read raw string literals).
        QFile file(test::fixture("awkward_args.jsonl"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        int rows = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (line.isEmpty()) continue;
            QTest::newRow(line.constData()) << QString::fromUtf8(line);
            ++rows;
        }
        QVERIFY(rows > 30);
    }
    void awkwardEventsAgree() {
        QFETCH(QString, event);
        // Something after the event, as in a file: nothing may depend on where the bytes end.
        const test::ArgsCheck check = test::checkArgsAgreement(event.toStdString() + ",{\"ph\"");
        QCOMPARE(check.status, json::Status::Ok);
        QVERIFY2(check.problem.empty(), check.problem.c_str());
    }

    // Expected fields worked out by hand for a few of the events above.
    void fieldsAreTheOnesWritten() {
        auto read = [](const std::string& text) {
            EventParser parser;
            RawEvent ev;
            json::Cursor c{text.data(), text.data() + text.size()};
            if (parser.parse(c, 0, ev) != json::Status::Ok)
                QTest::qFail("parse", __FILE__, __LINE__);
            return test::ExtractedFields(ev);
        };
        const auto kernel = read(
            "{\"ph\":\"X\",\"args\":{\"device\":1,\"stream\":7,\"correlation\":5,\"grid\":[1,2,3],"
            "\"block\":[4,5,6]}}");
        QVERIFY(kernel.hasKnown);
        QCOMPARE(kernel.known.device, 1);
        QCOMPARE(kernel.known.stream, 7);
        QCOMPARE(kernel.known.correlation, int64_t{5});
        QCOMPARE(kernel.known.grid[2], 3);
        QCOMPARE(kernel.known.block[0], 4);
        // Up to the member that cannot be read ("\q" is no escape).
        const auto cut = read("{\"ph\":\"X\",\"args\":{\"device\":2,\"x\":\"\\q\",\"stream\":3}}");
        QCOMPARE(cut.known.device, 2);
        QCOMPARE(cut.known.stream, -1);
        // ph after the args: they are metadata all the same.
        const auto late =
            read("{\"args\":{\"name\":\"before ph\"},\"ph\":\"M\",\"name\":\"process_name\"}");
        QVERIFY(late.hasMetaName);
        QCOMPARE(late.metaName, std::string("before ph"));
        // ph again after the args: the last one decides (here: not metadata).
        const auto again =
            read("{\"ph\":\"M\",\"args\":{\"name\":\"p\",\"device\":3},\"ph\":\"X\"}");
        QVERIFY(!again.hasMetaName);
        QCOMPARE(again.known.device, 3);
        // The second args object is the event's.
        const auto twice = read("{\"ph\":\"X\",\"args\":{\"device\":1},\"args\":{\"stream\":2}}");
        QCOMPARE(twice.known.device, -1);
        QCOMPARE(twice.known.stream, 2);
        const auto counters =
            read("{\"ph\":\"C\",\"args\":{\"a\\\"b\":1,\"c\":\"2.5\",\"d\":\"x\"}}");
        QCOMPARE(counters.counters.size(), size_t{2});
        QCOMPARE(counters.counters[0].first, std::string("a\"b"));
        QCOMPARE(counters.counters[1].second, 2.5);
    }

    void realTracesAgree() {
        GAPSCOPE_REQUIRE_SHARED();
        QDirIterator it(test::sharedTraces(), QDir::Files, QDirIterator::Subdirectories);
        int traces = 0;
        uint64_t withArgs = 0;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            if (path.find(".json") == std::string::npos) continue;  // XSpace, notes
            const AgreementSink sink = readAll(path);
            QVERIFY2(sink.firstProblem.empty(), (path + ": " + sink.firstProblem).c_str());
            traces += sink.events > 0;
            withArgs += sink.withArgs;
        }
        QVERIFY(traces > 100);
        QVERIFY(withArgs > 100000);
        qInfo("%d traces, %llu events with args: the same fields both ways", traces,
              static_cast<unsigned long long>(withArgs));
    }

    void aGeneratedTraceAgrees() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QTemporaryDir dir;
        const test::Generated gen =
            test::generateTrace(dir.path(), "k.json", {"--profile", "kineto", "--steps", "4"});
        QVERIFY2(gen.error.isEmpty(), qPrintable(gen.error));
        const AgreementSink sink = readAll(gen.trace.toStdString());
        QVERIFY2(sink.firstProblem.empty(), sink.firstProblem.c_str());
        QVERIFY(sink.withArgs > 5000);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestArgsInPlace)
#include "tst_args_in_place.moc"
