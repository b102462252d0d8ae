// A job's ranks reopen from one index cache entry: the merged trace (every
// field and every event's args text, by canonical dump), the ranks' figures
// and their comparison equal the job loaded from its files, whatever the
// ranks' formats (JSON plain or compressed, XSpace, an Nsight export's
// processes); an entry that cannot be trusted (a file changed, another
// alignment, a damaged body, a rank that failed) is never used.

#include <sys/time.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "cache/index_cache.h"
#include "io/compress.h"
#include "loader/job_cache.h"
#include "loader/path_meaning.h"
#include "loader/rank_view.h"
#include "report/canonical_dump.h"
#include "report/ranks_report.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

// One rank of a small job: two ProfilerSteps, each a CPU op with args, a
// launch and its kernel, then an all-reduce the rank enters `late` us
// after the others.
std::string rankTrace(int rank, int late, size_t padding = 0) {
    json events = json::array();
    for (int s = 0; s < 2; ++s) {
        const int base = 1000 + 1000 * s, correlation = 10 * s + 1;
        events.push_back({{"ph", "X"},
                          {"cat", "user_annotation"},
                          {"name", "ProfilerStep#" + std::to_string(s + 1)},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", base},
                          {"dur", 900}});
        events.push_back({{"ph", "X"},
                          {"cat", "cpu_op"},
                          {"name", "aten::mm"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", base + 10},
                          {"dur", 100},
                          {"args", {{"Input Dims", {{4, 4}, {4, 4}}}, {"note", rank * 10 + s}}}});
        events.push_back({{"ph", "X"},
                          {"cat", "cuda_runtime"},
                          {"name", "cudaLaunchKernel"},
                          {"pid", 1},
                          {"tid", 1},
                          {"ts", base + 20},
                          {"dur", 5},
                          {"args", {{"correlation", correlation}}}});
        events.push_back({{"ph", "X"},
                          {"cat", "kernel"},
                          {"name", "gemm_kernel"},
                          {"pid", 0},
                          {"tid", 7},
                          {"ts", base + 30},
                          {"dur", 200},
                          {"args", {{"correlation", correlation}, {"device", 0}, {"stream", 7}}}});
        events.push_back({{"ph", "X"},
                          {"cat", "kernel"},
                          {"name", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"},
                          {"pid", 0},
                          {"tid", 7},
                          {"ts", base + 300 + late},
                          {"dur", 400 - late},
                          {"args", {{"device", 0}, {"stream", 7}}}});
    }
    json trace = {{"distributedInfo", {{"rank", rank}, {"world_size", 4}, {"backend", "nccl"}}},
                  {"traceEvents", events}};
    // (Keys are written in order: "_padding" before distributedInfo.)
    if (padding) trace["_padding"] = std::string(padding, 'x');
    return trace.dump();
}

// A trace cut short.
const char* const kCutTrace = "{\"traceEvents\": [{\"ph\": \"X\",";

void setMtime(const std::string& path, long seconds) {
    const struct timeval times[2] = {{seconds, 0}, {seconds, 0}};
    QVERIFY(::utimes(path.c_str(), times) == 0);
}

RankView open(const std::vector<RankSource>& sources, const std::string& path,
              const IndexCache* cache, std::optional<int64_t> align = std::nullopt) {
    RankViewOptions options;
    options.load.load.cache = cache;
    options.load.workers = 2;
    options.alignOnStep = align;
    return loadRankView(sources, path, options);
}

std::string dumpOf(const RankView& view) {
    return view.trace ? canonicalDump(*view.trace) : std::string("(no trace)");
}

// Everything the view holds beside its trace: each rank's figures (with
// the comparison's offsets and waits) and how it was known, and the
// comparison as the CLI and the Ranks panel write it.
std::string figuresOf(const RankView& view) {
    std::vector<RankRow> rows;
    for (const RankEntry& e : view.ranks)
        rows.push_back({e, rankOriginName(view.origins.at(e.source())), ""});
    return encodeJobRecord({view.ranks, view.origins, view.warnings}) +
           ranksJson(rows, view.comparison);
}

// The job opened twice: loaded then restored, the same view.
void expectRestoredAsLoaded(const std::vector<RankSource>& sources, const std::string& path,
                            const IndexCache& cache, std::optional<int64_t> align = std::nullopt) {
    const RankView loaded = open(sources, path, &cache, align);
    QVERIFY(loaded.trace);
    QVERIFY(!loaded.trace->fromCache);
    QVERIFY2(loaded.cacheNote == "miss (no entry); written", loaded.cacheNote.c_str());
    const RankView restored = open(sources, path, &cache, align);
    QVERIFY(restored.trace);
    QVERIFY(restored.trace->fromCache);
    QCOMPARE(restored.cacheNote, std::string("hit"));
    QCOMPARE(restored.trace->path, loaded.trace->path);
    QCOMPARE(dumpOf(restored), dumpOf(loaded));
    QCOMPARE(figuresOf(restored), figuresOf(loaded));
    // Every event's args text is in the dump: make sure there were some.
    size_t args = 0;
    for (size_t i = 0; i < restored.trace->args.size(); ++i)
        args += restored.trace->argsText(static_cast<uint32_t>(i)).json.empty() ? 0 : 1;
    QVERIFY(args > 0);
}

}  // namespace

class TestJobCache : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    // The four ranks' files (rank 2 late) in `folder`, compressed as asked.
    std::vector<std::string> writeJob(const QString& folder, Compression compression,
                                      int late = 150) {
        std::filesystem::create_directories(folder.toStdString());
        std::vector<std::string> files;
        for (int r = 0; r < 4; ++r) {
            std::string bytes = rankTrace(r, r == 2 ? late : 0);
            QString name = QStringLiteral("rank%1.json").arg(r);
            if (compression == Compression::Gzip) {
                bytes = test::gzipBytes(bytes);
                name += ".gz";
            } else if (compression == Compression::Zstd) {
                bytes = test::zstdBytes(bytes);
                name += ".zst";
            }
            files.push_back((folder + "/" + name).toStdString());
            test::writeFile(files.back(), bytes);
        }
        return files;
    }

  private slots:
    void aJobReopensFromItsOwnEntry_data() {
        QTest::addColumn<int>("compression");
        QTest::addColumn<int>("align");  // -1: not aligned
        QTest::newRow("plain") << int(Compression::None) << -1;
        QTest::newRow("plain, aligned") << int(Compression::None) << 2;
        QTest::newRow("gzip") << int(Compression::Gzip) << -1;
        QTest::newRow("zstd, aligned") << int(Compression::Zstd) << 1;
    }
    void aJobReopensFromItsOwnEntry() {
        QFETCH(int, compression);
        QFETCH(int, align);
        const QString folder =
            dir_.filePath(QStringLiteral("job-%1-%2").arg(compression).arg(align));
        const std::vector<std::string> files = writeJob(folder, Compression(compression));
        const IndexCache cache((folder + "/cache").toStdString());
        const std::optional<int64_t> aligned =
            align < 0 ? std::nullopt : std::optional<int64_t>(align);
        expectRestoredAsLoaded(wholeFiles(files), folder.toStdString(), cache, aligned);
        // The straggler found from the restored figures is the planted one.
        const RankView view = open(wholeFiles(files), folder.toStdString(), &cache, aligned);
        QCOMPARE(view.cacheNote, std::string("hit"));
        QVERIFY(!view.comparison.stragglers.empty());
        for (const StepStraggler& s : view.comparison.stragglers)
            QCOMPARE(s.rank, int64_t(2));
    }

    // What the entry holds while it holds: the files as stamped, the same
    // sources in the same order, the same alignment; a damaged entry is
    // read as a miss and written again; a job with a rank that failed is
    // not written.
    void anEntryThatCannotBeTrustedIsNotUsed() {
        const QString folder = dir_.filePath("untrusted");
        std::vector<std::string> files = writeJob(folder, Compression::None);
        const std::string path = folder.toStdString();
        const IndexCache cache((folder + "/cache").toStdString());
        QVERIFY(open(wholeFiles(files), path, &cache).cacheNote.find("written") !=
                std::string::npos);
        QCOMPARE(open(wholeFiles(files), path, &cache).cacheNote, std::string("hit"));

        // Another alignment, or the files in another order: another entry.
        QCOMPARE(open(wholeFiles(files), path, &cache, 1).cacheNote,
                 std::string("miss (no entry); written"));
        std::vector<std::string> reversed(files.rbegin(), files.rend());
        QCOMPARE(open(wholeFiles(reversed), path, &cache).cacheNote,
                 std::string("miss (no entry); written"));
        // The same files named otherwise (the view names them as given,
        // and a relative name reopens from another folder): another entry.
        std::vector<std::string> renamed;
        for (const std::string& f : files)
            renamed.push_back(path + "/./" + std::filesystem::path(f).filename().string());
        QCOMPARE(open(wholeFiles(renamed), path, &cache).cacheNote,
                 std::string("miss (no entry); written"));

        // Rank 2 rewritten later, entering the all-reduce 300 us late.
        writeJob(folder, Compression::None, 300);
        setMtime(files[2], 2000000000);
        const RankView changed = open(wholeFiles(files), path, &cache);
        QVERIFY2(changed.cacheNote.rfind("stale", 0) == 0, changed.cacheNote.c_str());
        const RankView fresh = open(wholeFiles(files), path, nullptr);
        QCOMPARE(dumpOf(changed), dumpOf(fresh));
        QCOMPARE(open(wholeFiles(files), path, &cache).cacheNote, std::string("hit"));

        // A byte of the body flipped: a miss that says so, then rewritten.
        const std::optional<JobCacheEntry> entry = [&] {
            RankViewOptions options;
            options.load.load.cache = &cache;
            return jobCacheEntry(wholeFiles(files), options);
        }();
        QVERIFY(entry);
        const QString entryFile = QString::fromStdString(cache.mergedEntryPath(path, entry->key));
        QFile f(entryFile);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        QVERIFY(bytes.size() > 4096);
        bytes[bytes.size() - 2000] = char(bytes[bytes.size() - 2000] ^ 0x5a);
        QVERIFY(f.seek(0));
        QCOMPARE(f.write(bytes), qint64(bytes.size()));
        f.close();
        const RankView damaged = open(wholeFiles(files), path, &cache);
        QVERIFY2(damaged.cacheNote.rfind("corrupt", 0) == 0 &&
                     damaged.cacheNote.find("; written") != std::string::npos,
                 damaged.cacheNote.c_str());
        QCOMPARE(dumpOf(damaged), dumpOf(fresh));

        // A file that does not load: the others open, the job is not written.
        const std::string broken = (folder + "/rank4.json").toStdString();
        test::writeFile(broken, kCutTrace);
        files.push_back(broken);
        const RankView partial = open(wholeFiles(files), path, &cache);
        QVERIFY(partial.trace);
        QCOMPARE(partial.failed.size(), size_t(1));
        QVERIFY2(partial.cacheNote == "miss (no entry); not written: a rank failed to load",
                 partial.cacheNote.c_str());
        QVERIFY(!partial.cacheEntry);
    }

    // The ways ranks come to be known and ordered, each restored as loaded:
    // a rank two files claim (renumbered, with a warning), files whose names
    // state no rank (ranked by the heads of their traces), and such files
    // whose ranks are stated past the head (loaded twice, merged at the end).
    void everyWayOfKnowingRanksIsRestored() {
        const QString folder = dir_.filePath("known");
        const std::vector<std::string> files = writeJob(folder, Compression::None);
        std::vector<std::string> twice = files;
        twice.push_back((folder + "/again.json").toStdString());
        QVERIFY(test::writeFile(twice.back(), rankTrace(1, 0)));
        std::vector<std::string> unnamed, late;
        for (int r = 3; r >= 0; --r) {
            unnamed.push_back((folder + "/" + QChar('a' + 3 - r) + ".json").toStdString());
            QVERIFY(test::writeFile(unnamed.back(), rankTrace(r, r == 2 ? 150 : 0)));
            late.push_back((folder + "/late_" + QChar('a' + 3 - r) + ".json").toStdString());
            QVERIFY(test::writeFile(late.back(), rankTrace(r, r == 2 ? 150 : 0, 70000)));
        }
        const IndexCache cache((folder + "/cache").toStdString());
        const std::string path = folder.toStdString();
        for (const auto* sources : {&twice, &unnamed, &late}) {
            const RankView plain = open(wholeFiles(*sources), path, nullptr);
            QVERIFY(plain.trace);
            if (sources == &twice) QVERIFY(!plain.warnings.empty());
            if (sources == &unnamed) QCOMPARE(plain.origins.at(unnamed[0]), RankOrigin::Trace);
            QCOMPARE(plain.mergedAsLoaded, sources != &late);
            expectRestoredAsLoaded(wholeFiles(*sources), path, cache);
        }
        // A load cancelled before it ends writes nothing.
        CancelToken cancelled;
        cancelled.cancel();
        RankViewOptions options;
        options.load.load.cache = &cache;
        options.load.load.cancel = &cancelled;
        const RankView none = loadRankView(wholeFiles(files), path, options);
        QVERIFY(none.cancelled && !none.trace);
        const std::optional<JobCacheEntry> entry = jobCacheEntry(wholeFiles(files), options);
        QVERIFY(entry);
        QVERIFY(!QFile::exists(QString::fromStdString(cache.mergedEntryPath(path, entry->key))));
    }

    // The viewer shows the job first and writes its entry after.
    void theEntryCanBeWrittenLater() {
        const QString folder = dir_.filePath("later");
        const std::vector<std::string> files = writeJob(folder, Compression::Gzip);
        const IndexCache cache((folder + "/cache").toStdString());
        RankViewOptions options;
        options.load.load.cache = &cache;
        options.storeJobInCache = false;
        const RankView loaded = loadRankView(wholeFiles(files), folder.toStdString(), options);
        QCOMPARE(loaded.cacheNote, std::string("miss (no entry)"));
        QVERIFY(loaded.cacheEntry);
        QCOMPARE(storeJob(cache, *loaded.trace, *loaded.cacheEntry), std::string());
        const RankView restored = loadRankView(wholeFiles(files), folder.toStdString(), options);
        QCOMPARE(restored.cacheNote, std::string("hit"));
        QVERIFY(!restored.cacheEntry);
        QCOMPARE(dumpOf(restored), dumpOf(loaded));
        QCOMPARE(figuresOf(restored), figuresOf(loaded));
        // A view found by a step regex is not cached (the key cannot hold one).
        const std::regex steps("ProfilerStep#\\d+");
        options.figures.stepRegex = &steps;
        QVERIFY(!jobCacheEntry(wholeFiles(files), options));
    }

    // The record beside the trace, cut anywhere or with a count that
    // overruns it, is refused with a reason, never read past its end.
    void aCutRecordIsRefused() {
        const QString folder = dir_.filePath("record");
        const std::vector<std::string> files = writeJob(folder, Compression::None);
        const RankView view = open(wholeFiles(files), folder.toStdString(), nullptr);
        QVERIFY(view.trace);
        const std::string record = encodeJobRecord({view.ranks, view.origins, view.warnings});
        const JobRecord back = decodeJobRecord(record);
        QCOMPARE(encodeJobRecord(back), record);
        for (size_t n = 0; n < record.size(); ++n)
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeJobRecord(record.substr(0, n)));
        std::string overrun = record;
        const uint64_t huge = uint64_t{1} << 60;
        std::memcpy(overrun.data(), &huge, sizeof huge);  // the rank count
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeJobRecord(overrun));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeJobRecord(record + "x"));
    }

    // Real ranks: PyTorch's (DLRM, 8 plain JSON files, unaligned and on
    // step 10), two XSpace hosts of a TensorFlow run (args decoded from
    // their files) and the two processes of one Nsight Systems export.
    void realJobsReopenIdentically() {
        const QString nsys = dir_.filePath("nsys");
        QProcess gen;
        gen.start("python3", {test::sourceDir() + "/tests/tools/make_nsys_fixtures.py", nsys});
        QVERIFY(gen.waitForFinished(60000));
        QCOMPARE(gen.exitCode(), 0);
        const std::string exportFile = (nsys + "/nsys_2024_two_ranks.sqlite").toStdString();
        const PathMeaning processes = meaningOfPaths({exportFile});
        QCOMPARE(processes.sources.size(), size_t(2));
        const IndexCache cache(dir_.filePath("real-cache").toStdString());
        expectRestoredAsLoaded(processes.sources, exportFile, cache);

        GAPSCOPE_REQUIRE_SHARED();
        const std::string dlrm =
            (test::sharedTraces() +
             "/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto")
                .toStdString();
        const std::vector<std::string> files = rankFilesOf({dlrm}).files;
        QCOMPARE(files.size(), size_t(8));
        expectRestoredAsLoaded(wholeFiles(files), dlrm, cache);
        expectRestoredAsLoaded(wholeFiles(files), dlrm, cache, 10);
        const std::string run =
            (test::sharedTraces() + "/xprof/demo/plugins/profile/GPU-multi-worker").toStdString();
        const RankFileList hosts =
            rankFilesOf({(test::sharedTraces() + "/xprof/demo").toStdString()});
        QCOMPARE(hosts.files.size(), size_t(2));
        expectRestoredAsLoaded(wholeFiles(hosts.files), run, cache);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestJobCache)
#include "tst_job_cache.moc"
