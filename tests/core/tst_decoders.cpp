// Decoders and the format sniffer at the byte level: gzip and zstd give the
// same bytes, the same end and the same problem whatever the caller's read
// sizes (including reads that end exactly where a stream ends), the head
// source replays what it read ahead, and the sniffer tells JSON from XSpace.

#include <QRandomGenerator>
#include <QTest>
#include <memory>
#include <string>

#include "format/input_format.h"
#include "io/compress.h"
#include "io/gzip_source.h"
#include "io/head_source.h"
#include "io/memory_source.h"
#include "io/zstd_source.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

struct Drained {
    std::string bytes;
    std::optional<std::string> problem;
};

// Reads a source to its end with reads of `step` bytes (0: random sizes).
Drained drain(ByteSource& s, size_t step, quint32 seed = 1) {
    QRandomGenerator rng(seed);
    Drained out;
    std::string buf(1 << 20, '\0');
    for (;;) {
        const size_t want = step ? step : 1 + rng.bounded(70000u);
        const size_t n = s.read(buf.data(), std::min(want, buf.size()));
        if (n == 0) break;
        out.bytes.append(buf.data(), n);
    }
    out.problem = s.problem();
    return out;
}

std::string text(size_t n) {
    std::string t;
    t.reserve(n);
    QRandomGenerator rng(42);
    while (t.size() < n)
        t += "{\"ph\":\"X\",\"name\":\"k" + std::to_string(rng.bounded(500)) + "\",\"ts\":1},";
    t.resize(n);
    return t;
}

std::unique_ptr<ByteSource> gzipOf(const std::string& compressed) {
    return std::make_unique<GzipSource>(std::make_unique<MemorySource>(compressed));
}

std::unique_ptr<ByteSource> zstdOf(const std::string& compressed) {
    return std::make_unique<ZstdSource>(std::make_unique<MemorySource>(compressed));
}

}  // namespace

class TestDecoders : public QObject {
    Q_OBJECT
  private slots:
    void sameBytesWhateverTheReadSizes_data() {
        QTest::addColumn<bool>("zstd");
        QTest::addColumn<int>("size");
        for (const bool z : {false, true})
            for (const int size : {1, 1000, 256 * 1024, 1 << 20, 3 * (1 << 20) + 17})
                QTest::addRow("%s %d", z ? "zstd" : "gzip", size) << z << size;
    }
    void sameBytesWhateverTheReadSizes() {
        QFETCH(bool, zstd);
        QFETCH(int, size);
        const std::string raw = text(size_t(size));
        const std::string packed = zstd ? zstdCompress(raw) : gzipCompress(raw);
        // Reads of exactly the inflated size end where the stream ends: the
        // next read must see a clean end, not a truncated stream.
        for (const size_t step :
             {size_t(size), size_t(1), size_t(64), size_t(4096), size_t(256 * 1024), size_t(0)}) {
            auto source = zstd ? zstdOf(packed) : gzipOf(packed);
            const Drained d = drain(*source, step);
            QVERIFY2(d.bytes == raw, qPrintable(QStringLiteral("step %1").arg(step)));
            QVERIFY2(!d.problem, d.problem ? d.problem->c_str() : "");
        }
    }

    void aTruncatedStreamKeepsTheSameBytesWhateverTheReadSizes_data() {
        QTest::addColumn<bool>("zstd");
        QTest::newRow("gzip") << false;
        QTest::newRow("zstd") << true;
    }
    void aTruncatedStreamKeepsTheSameBytesWhateverTheReadSizes() {
        QFETCH(bool, zstd);
        const std::string raw = text(2 << 20);
        std::string packed = zstd ? zstdCompress(raw) : gzipCompress(raw);
        packed.resize(packed.size() * 2 / 3);
        auto reference = zstd ? zstdOf(packed) : gzipOf(packed);
        const Drained big = drain(*reference, 1 << 20);
        QVERIFY(big.problem);
        QVERIFY(big.bytes.size() > raw.size() / 3);
        QVERIFY(raw.compare(0, big.bytes.size(), big.bytes) == 0);  // a prefix of the original
        for (const size_t step : {size_t(1), size_t(64), size_t(4096), size_t(0)}) {
            auto source = zstd ? zstdOf(packed) : gzipOf(packed);
            const Drained d = drain(*source, step, quint32(step + 3));
            QCOMPARE(d.bytes.size(), big.bytes.size());
            QVERIFY(d.bytes == big.bytes);
            QVERIFY(d.problem && *d.problem == *big.problem);
        }
    }

    void headSourceReplaysTheHeadThenTheRest() {
        const std::string raw = text(700'000);
        for (const size_t step : {size_t(1), size_t(100), size_t(0)}) {
            HeadSource head(std::make_unique<MemorySource>(raw, 333), 64);
            QVERIFY(head.head().size() >= 64);
            QVERIFY(raw.compare(0, head.head().size(), head.head()) == 0);
            const Drained d = drain(head, step);
            QVERIFY(d.bytes == raw);
            QVERIFY(!d.problem);
        }
        // A short stream: the head is all of it.
        HeadSource tiny(std::make_unique<MemorySource>(std::string("[]")), 64);
        QCOMPARE(std::string(tiny.head()), std::string("[]"));
        QCOMPARE(drain(tiny, 10).bytes, std::string("[]"));
        // The wrapped decoder's problem is passed on at the end.
        std::string packed = gzipCompress(raw);
        packed.resize(packed.size() / 2);
        HeadSource broken(gzipOf(packed), 64);
        const Drained d = drain(broken, 4096);
        QVERIFY(d.problem && d.problem->find("truncated") != std::string::npos);
    }

    void sniffer_data() {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<int>("format");
        const int json = int(InputFormat::ChromeJson), xspace = int(InputFormat::XSpace),
                  unknown = int(InputFormat::Unknown);
        QTest::newRow("array") << QByteArray("[{\"ph\":\"X\"}]") << json;
        QTest::newRow("object after whitespace") << QByteArray(" \n\t{\"traceEvents\":[]}") << json;
        QTest::newRow("BOM") << QByteArray("\xEF\xBB\xBF[]") << json;
        QTest::newRow("plane with a name")
            << QByteArray("\x0a\xa6\xa1\x87\x01\x12\x09/host:CPU", 15) << xspace;
        QTest::newRow("plane with an id") << QByteArray("\x0a\x05\x08\x01", 4) << xspace;
        QTest::newRow("plane tag, bad field") << QByteArray("\x0a\x05\x10\x01", 4) << unknown;
        QTest::newRow("plane tag, id not varint") << QByteArray("\x0a\x05\x0a\x01", 4) << unknown;
        QTest::newRow("varint too long")
            << QByteArray("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x12", 12) << unknown;
        QTest::newRow("another protobuf (stats)")
            << QByteArray("\x22\x96\x1b\x0a\x58", 5) << unknown;
        QTest::newRow("text") << QByteArray("hello") << unknown;
        QTest::newRow("empty") << QByteArray() << unknown;
        QTest::newRow("whitespace only") << QByteArray("   \n") << unknown;
    }
    void sniffer() {
        QFETCH(QByteArray, head);
        QFETCH(int, format);
        QCOMPARE(int(detectInputFormat(std::string_view(head.constData(), size_t(head.size())))),
                 format);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestDecoders)
#include "tst_decoders.moc"
