// The args store: file-backed args and owned blocks side by side, every
// failure reported with its reason (never an empty string passed off as
// "no args"), and fetches from many threads while the file changes (run
// under ThreadSanitizer in CI: the tsan preset).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <thread>

#include "model/args_store.h"
#include "support/suite_main.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

// A store backed by `path`, as the loader sets it up.
ArgsStore fileStore(const std::string& path) {
    ArgsStore store;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    ::fstat(fd, &st);
    store.useFile(UniqueFd(fd), static_cast<uint64_t>(st.st_size),
                  st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
    return store;
}

}  // namespace

class TestArgsStore : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void fileArgsAndOwnedArgsSideBySide() {
        const std::string path = dir_.filePath("a.json").toStdString();
        QVERIFY(test::writeFile(path, R"(xx{"k": 1}yy)"));
        ArgsStore store = fileStore(path);
        // A reader that composed args itself (not JSON text of the file)
        // keeps them in the store's own blocks, even when the file backs the rest.
        const uint64_t owned = store.append(R"({"stat": "from a binary format"})");
        QVERIFY(owned & ArgsStore::kOwnedBit);
        store.seal();
        QCOMPARE(store.fetch(2, 8).json, std::string(R"({"k": 1})"));
        QCOMPARE(store.fetch(owned, 32).json, std::string(R"({"stat": "from a binary format"})"));
        QVERIFY(store.fetch(2, 8).ok() && store.fetch(owned, 32).ok());
    }

    void manyBlocksRoundTrip() {
        ArgsStore store;
        std::vector<std::pair<uint64_t, std::string>> kept;
        for (int i = 0; i < 20000; ++i) {
            std::string text = "{\"i\": " + std::to_string(i) + ", \"pad\": \"" +
                               std::string(size_t(i % 97), 'x') + "\"}";
            kept.emplace_back(store.append(text), text);
            if (i == 100)
                QCOMPARE(store.fetch(kept[50].first, uint32_t(kept[50].second.size())).json,
                         kept[50].second);  // before sealing, from the open block
        }
        store.seal();
        QVERIFY(store.frames().size() > 2);
        for (size_t i = 0; i < kept.size(); i += 37)
            QCOMPARE(store.fetch(kept[i].first, uint32_t(kept[i].second.size())).json,
                     kept[i].second);
    }

    // Full blocks are compressed on the store's own thread while appends go
    // on: every text reads back before sealing (from a compressed block,
    // the one being compressed, or the open one) and after, the frames are
    // what zstd makes of each block alone at level 1 (so index cache
    // entries do not change), and a store moved or dropped mid-way is fine.
    void blocksCompressedAlongsideReadBack() {
        ArgsStore store;
        std::vector<std::pair<uint64_t, std::string>> kept;
        std::string all;  // the raw text of the owned blocks, in order
        size_t blocks = 0, pendingReads = 0;
        for (int i = 0; i < 60000; ++i) {
            std::string text = "{\"n\": " + std::to_string(i * 7919 % 100003) + ", \"s\": \"" +
                               std::string(size_t(i % 131), char('a' + i % 26)) + "\"}";
            kept.emplace_back(store.append(text), text);
            all += text;
            if (store.blockStarts().size() != blocks) {  // a block was just handed over
                blocks = store.blockStarts().size();
                if (kept.size() >= 2) {
                    const auto& [at, before] = kept[kept.size() - 2];  // in the block handed over
                    QCOMPARE(store.fetch(at, uint32_t(before.size())).json, before);
                    ++pendingReads;
                }
                const auto& [first, firstText] = kept[size_t(i) / 2];
                QCOMPARE(store.fetch(first, uint32_t(firstText.size())).json, firstText);
            }
            if (i == 30000) store = ArgsStore(std::move(store));  // moved while compressing
        }
        QVERIFY(pendingReads > 15);
        store.seal();
        const auto& frames = store.frames();
        const auto& starts = store.blockStarts();
        QCOMPARE(frames.size(), starts.size());
        for (size_t b = 0; b < frames.size(); ++b) {
            const uint64_t end = b + 1 < starts.size() ? starts[b + 1] : all.size();
            const std::string raw = all.substr(size_t(starts[b]), size_t(end - starts[b]));
            std::vector<char> alone(ZSTD_compressBound(raw.size()));
            const size_t n = ZSTD_compress(alone.data(), alone.size(), raw.data(), raw.size(), 1);
            QVERIFY(!ZSTD_isError(n));
            alone.resize(n);
            QVERIFY2(frames[b] == alone, qPrintable(QString("block %1").arg(b)));
        }
        for (size_t i = 0; i < kept.size(); i += 41)
            QCOMPARE(store.fetch(kept[i].first, uint32_t(kept[i].second.size())).json,
                     kept[i].second);
        // Dropped with a block being compressed: the thread is stopped and joined.
        for (int round = 0; round < 20; ++round) {
            ArgsStore dropped;
            for (int i = 0; i < 4000; ++i)
                dropped.append(kept[size_t(i)].second);
        }
    }

    void everyFailureSaysWhy() {
        ArgsStore store;
        const uint64_t at = store.append("{\"a\": 1}");
        store.seal();
        // Out of range.
        ArgsText t = store.fetch(at + 100, 4);
        QVERIFY(!t.ok() && t.json.empty());
        QVERIFY2(t.error.find("outside the store") != std::string::npos, t.error.c_str());
        // A file offset in a store that has no file.
        t = store.fetch(5, 4);
        QVERIFY2(t.error.find("file not kept") != std::string::npos, t.error.c_str());
        // A damaged block (as from a corrupt cache entry).
        ArgsStore::Blocks b;
        b.frames = {std::vector<char>{'n', 'o', 't', ' ', 'z', 's', 't', 'd'}};
        b.starts = {0};
        b.rawBytes = 8;
        ArgsStore damaged;
        damaged.restore(std::move(b));
        t = damaged.fetch(ArgsStore::kOwnedBit, 4);
        QVERIFY2(t.error.find("could not be decompressed") != std::string::npos, t.error.c_str());
        // Past the end of the file.
        const std::string path = dir_.filePath("short.json").toStdString();
        QVERIFY(test::writeFile(path, "{}"));
        ArgsStore fs = fileStore(path);
        t = fs.fetch(1, 100);
        QVERIFY2(t.error.find("past the end") != std::string::npos, t.error.c_str());
        // No args is not an error.
        QVERIFY(fs.fetch(0, 0).ok());
    }

    void aRewrittenFileIsReportedNotMisread() {
        const std::string path = dir_.filePath("changing.json").toStdString();
        QVERIFY(test::writeFile(path, R"({"k": 42})"));
        ArgsStore store = fileStore(path);
        QCOMPARE(store.fetch(0, 9).json, std::string(R"({"k": 42})"));
        QVERIFY(!store.fileChanged());
        QVERIFY(test::writeFile(path, R"({"k": 99, "more": true})"));  // other size
        const ArgsText t = store.fetch(0, 9);
        QVERIFY(t.json.empty());
        QVERIFY2(t.error.find("changed on disk") != std::string::npos, t.error.c_str());
        QVERIFY(store.fileChanged());
    }

    // Fetches from four threads while the GUI thread polls fileChanged() and
    // the file is rewritten: each fetch gives the right text or the changed
    // error, never other bytes. ThreadSanitizer checks the sharing.
    void concurrentFetchesWhileTheFileChanges() {
        const std::string path = dir_.filePath("shared.json").toStdString();
        const std::string text = R"({"k": 42})";
        QVERIFY(test::writeFile(path, text));
        ArgsStore store = fileStore(path);
        const uint64_t owned = store.append(text);
        store.seal();
        std::atomic<bool> stop{false};
        std::atomic<int> wrong{0}, changedSeen{0};
        int polls = 0, polledChanged = 0;
        std::vector<std::thread> readers;
        for (int r = 0; r < 4; ++r) {
            readers.emplace_back([&] {
                while (!stop.load()) {
                    const ArgsText f = store.fetch(0, uint32_t(text.size()));
                    if (f.ok() ? f.json != text : f.error.find("changed") == std::string::npos)
                        ++wrong;
                    if (!f.ok()) ++changedSeen;
                    if (store.fetch(owned, uint32_t(text.size())).json != text) ++wrong;
                }
            });
        }
        // Until a reader saw the change (30 s at most: the readers are
        // slow under ThreadSanitizer), polling the flag meanwhile.
        for (int i = 0; i < 6000 && changedSeen.load() == 0; ++i) {
            polledChanged += store.fileChanged() ? 1 : 0;  // read while readers may write it
            ++polls;
            if (i == 20) QVERIFY(test::writeFile(path, R"({"k": 7, "x": 1})"));
            QTest::qWait(5);
        }
        stop = true;
        for (auto& t : readers)
            t.join();
        QCOMPARE(wrong.load(), 0);
        QVERIFY(changedSeen.load() > 0);
        QVERIFY(store.fileChanged());
        QVERIFY2(polls > 20, "the file must change while the flag is being polled");
        QVERIFY(polledChanged <= polls);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestArgsStore)
#include "tst_args_store.moc"
