// The on-disk index cache: a reopen restores the very model a parse builds
// (canonical dumps compared byte for byte), and every entry that cannot be
// trusted (stale, corrupt, truncated, another version, another path) is
// ignored and rebuilt, never an error and never a crash.

#include <sys/stat.h>
#include <sys/time.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "cache/index_cache.h"
#include "loader/loader.h"
#include "report/canonical_dump.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

// A little of everything the model holds: metadata, X with args and ids,
// a launch, a flow, a counter, an unclosed B.
std::string smallTrace() {
    QFile f(test::fixture("cache/small_trace.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

std::string dumpOf(const Trace& t) {
    return canonicalDump(t);
}

void setMtime(const std::string& path, long seconds) {
    const struct timeval times[2] = {{seconds, 0}, {seconds, 0}};
    QVERIFY(::utimes(path.c_str(), times) == 0);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

}  // namespace

class TestIndexCache : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string cacheDir() const { return dir_.filePath("cache").toStdString(); }

    std::string writeTrace(const QString& name, Compression compression = Compression::None) {
        std::string bytes = smallTrace();
        if (bytes.empty()) qFatal("tests/fixtures/cache/small_trace.json is missing");
        if (compression == Compression::Gzip) bytes = test::gzipBytes(bytes);
        if (compression == Compression::Zstd) bytes = test::zstdBytes(bytes);
        const std::string path = dir_.filePath(name).toStdString();
        test::writeFile(path, bytes);
        return path;
    }

    static LoadResult open(const std::string& path, const IndexCache& cache) {
        LoadOptions options;
        options.cache = &cache;
        return loadTrace(path, options);
    }

  private slots:
    void aReopenRestoresTheSameModel_data() {
        QTest::addColumn<int>("compression");
        QTest::newRow("plain") << int(Compression::None);
        QTest::newRow("gzip") << int(Compression::Gzip);
        QTest::newRow("zstd") << int(Compression::Zstd);
    }
    void aReopenRestoresTheSameModel() {
        QFETCH(int, compression);
        const std::string path =
            writeTrace(QStringLiteral("same%1.json").arg(compression), Compression(compression));
        const IndexCache cache(cacheDir());
        const LoadResult parsed = open(path, cache);
        QVERIFY(parsed.trace);
        QVERIFY(!parsed.trace->fromCache);
        QVERIFY2(parsed.cacheNote.find("miss") == 0, parsed.cacheNote.c_str());
        QVERIFY2(parsed.cacheNote.find("written") != std::string::npos, parsed.cacheNote.c_str());
        QVERIFY(QFile::exists(QString::fromStdString(cache.entryPath(path))));

        const LoadResult reopened = open(path, cache);
        QVERIFY(reopened.trace);
        QVERIFY(reopened.trace->fromCache);
        QCOMPARE(reopened.cacheNote, std::string("hit"));
        QCOMPARE(dumpOf(*reopened.trace), dumpOf(*parsed.trace));
        // Args are readable after a reopen (from the file or from cached blocks).
        const Trace& t = *reopened.trace;
        bool sawArgs = false;
        for (const Slice& s : t.slices) {
            if (t.str(s.name) == "step") {
                QCOMPARE(t.argsText(s.args).json, std::string("{\"k\":\"v\"}"));
                sawArgs = true;
            }
        }
        QVERIFY(sawArgs);
    }

    void aChangedFileIsParsedAgain() {
        const std::string path = writeTrace("changed.json");
        const IndexCache cache(cacheDir());
        QVERIFY(open(path, cache).trace);
        QVERIFY(open(path, cache).trace->fromCache);
        // Same size, same mtime, different content in the head: the hash
        // of the head and tail catches what size and mtime would not.
        struct stat st {};
        QVERIFY(::stat(path.c_str(), &st) == 0);
        QByteArray bytes = readAll(QString::fromStdString(path));
        const qsizetype at = bytes.indexOf("python3");
        bytes.replace(at, 7, "python4");
        writeAll(QString::fromStdString(path), bytes);
        setMtime(path, st.st_mtim.tv_sec);
        const LoadResult again = open(path, cache);
        QVERIFY(again.trace);
        QVERIFY(!again.trace->fromCache);
        QVERIFY2(again.cacheNote.find("stale") == 0, again.cacheNote.c_str());
        bool renamed = false;
        for (const Process& p : again.trace->processes)
            renamed |= again.trace->str(p.name) == "python4";
        QVERIFY(renamed);
        // The rebuilt entry serves the new content.
        const LoadResult third = open(path, cache);
        QVERIFY(third.trace->fromCache);
        QCOMPARE(dumpOf(*third.trace), dumpOf(*again.trace));
    }

    void aTouchedFileIsParsedAgain() {
        const std::string path = writeTrace("touched.json");
        const IndexCache cache(cacheDir());
        QVERIFY(open(path, cache).trace);
        setMtime(path, 1000000000);
        const LoadResult again = open(path, cache);
        QVERIFY(!again.trace->fromCache);
        QVERIFY2(again.cacheNote.find("stale") == 0, again.cacheNote.c_str());
    }

    void aCorruptEntryIsIgnoredAndRebuilt_data() {
        QTest::addColumn<QString>("damage");
        QTest::newRow("one byte flipped in the body") << "flip";
        QTest::newRow("truncated") << "truncate";
        QTest::newRow("extended") << "extend";
        QTest::newRow("garbage") << "garbage";
        QTest::newRow("empty") << "empty";
    }
    void aCorruptEntryIsIgnoredAndRebuilt() {
        QFETCH(QString, damage);
        const std::string path = writeTrace("corrupt_" + damage + ".json.zst", Compression::Zstd);
        const IndexCache cache(cacheDir());
        const LoadResult parsed = open(path, cache);
        QVERIFY(parsed.trace);
        const QString entry = QString::fromStdString(cache.entryPath(path));
        QByteArray bytes = readAll(entry);
        QVERIFY(bytes.size() > 1000);
        if (damage == "flip") bytes[bytes.size() - 200] = char(bytes[bytes.size() - 200] ^ 0x10);
        if (damage == "truncate") bytes.truncate(bytes.size() / 2);
        if (damage == "extend") bytes.append("trailing");
        if (damage == "garbage") bytes = QByteArray(4096, 'x');
        if (damage == "empty") bytes.clear();
        writeAll(entry, bytes);

        const LoadResult again = open(path, cache);
        QVERIFY(again.trace);
        QVERIFY(!again.trace->fromCache);
        QVERIFY2(again.cacheNote.find("corrupt") == 0, again.cacheNote.c_str());
        QCOMPARE(dumpOf(*again.trace), dumpOf(*parsed.trace));
        QVERIFY(open(path, cache).trace->fromCache);  // rewritten
    }

    void anEntryFromAnotherVersionIsIgnored() {
        const std::string path = writeTrace("version.json.gz", Compression::Gzip);
        const IndexCache older(cacheDir(), IndexCache::kDefaultMaxBytes,
                               IndexCache::kFormatVersion + 1);
        QVERIFY(open(path, older).trace);
        QVERIFY(open(path, older).trace->fromCache);
        const IndexCache current(cacheDir());
        const LoadResult again = open(path, current);
        QVERIFY(again.trace);
        QVERIFY(!again.trace->fromCache);
        QVERIFY2(again.cacheNote.find("other version") == 0, again.cacheNote.c_str());
        QVERIFY(open(path, current).trace->fromCache);
    }

    void aConsistentButCraftedEntryCannotPointOutOfBounds_data() {
        QTest::addColumn<QString>("field");
        QTest::newRow("slice name") << "name";
        QTest::newRow("slice args") << "args";
        QTest::newRow("track range") << "track";
        QTest::newRow("flow end") << "flow";
    }
    void aConsistentButCraftedEntryCannotPointOutOfBounds() {
        // The checksum matches (the cache wrote it), the references do not.
        QFETCH(QString, field);
        const std::string path = writeTrace("crafted_" + field + ".json");
        const IndexCache cache(cacheDir());
        const LoadResult parsed = loadTrace(path);
        QVERIFY(parsed.trace && !parsed.trace->slices.empty() && !parsed.trace->flows.empty());
        auto& t = const_cast<Trace&>(*parsed.trace);
        if (field == "name") t.slices[0].name = 1u << 30;
        if (field == "args") t.slices[0].args = static_cast<uint32_t>(t.args.size());
        if (field == "track") t.tracks.back().sliceEnd = static_cast<uint32_t>(t.slices.size() + 1);
        if (field == "flow") t.flows[0].to = static_cast<uint32_t>(t.slices.size());
        QCOMPARE(cache.store(t), std::string());
        const LoadResult again = open(path, cache);
        QVERIFY(again.trace);
        QVERIFY(!again.trace->fromCache);
        QVERIFY2(again.cacheNote.find("corrupt") == 0, again.cacheNote.c_str());
    }

    void entriesAreKeyedByPath() {
        // Two identical files: each has its own entry, named after its path.
        const std::string a = writeTrace("twin_a.json");
        const std::string b = writeTrace("twin_b.json");
        const IndexCache cache(cacheDir());
        QVERIFY(cache.entryPath(a) != cache.entryPath(b));
        QVERIFY(open(a, cache).trace);
        const LoadResult first = open(b, cache);
        QVERIFY(!first.trace->fromCache);
        QCOMPARE(first.trace->path, b);
        QVERIFY(open(b, cache).trace->fromCache);
    }

    void anUnwritableCacheOnlyCostsTheCache() {
        const std::string path = writeTrace("unwritable.json");
        const IndexCache cache("/proc/gapscope-cannot-exist");
        const LoadResult r = open(path, cache);
        QVERIFY(r.trace);
        QVERIFY2(r.cacheNote.find("not written") != std::string::npos, r.cacheNote.c_str());
    }

    void oldEntriesArePrunedPastTheCap() {
        QTemporaryDir small;
        const IndexCache cache(small.path().toStdString(), 1);  // every entry is over the cap
        const std::string a = writeTrace("prune_a.json");
        const std::string b = writeTrace("prune_b.json");
        QVERIFY(open(a, cache).trace);
        QVERIFY(QFile::exists(QString::fromStdString(cache.entryPath(a))));
        QVERIFY(open(b, cache).trace);
        // The newest entry stays even over the cap; the older one goes.
        QVERIFY(QFile::exists(QString::fromStdString(cache.entryPath(b))));
        QVERIFY(!QFile::exists(QString::fromStdString(cache.entryPath(a))));
        QCOMPARE(QDir(small.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    void realTracesReopenIdentically() {
        GAPSCOPE_REQUIRE_SHARED();
        const IndexCache cache(dir_.filePath("real").toStdString());
        QDirIterator it(test::sharedTraces(), QDir::Files, QDirIterator::Subdirectories);
        int compared = 0;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            const LoadResult parsed = open(path, cache);
            if (!parsed.trace) continue;  // not a trace: covered by tst_real_traces
            const LoadResult reopened = open(path, cache);
            QVERIFY2(reopened.trace && reopened.trace->fromCache, path.c_str());
            QVERIFY2(dumpOf(*reopened.trace) == dumpOf(*parsed.trace), path.c_str());
            ++compared;
        }
        QVERIFY(compared > 100);
        qInfo("%d real traces reopened from the cache identically", compared);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestIndexCache)
#include "tst_index_cache.moc"
