// An Nsight Systems export on disk keeps each row's args in the export: an
// event of a GPU table, of the CUDA API or of the OS runtime holds its
// table and rowid, and the args are composed when a person looks. They must
// be the very text the reader composes at load for the same export held in
// memory (a compressed copy), through every path that opens a trace: one
// thread or two, an export's processes opened as ranks, the index cache.

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/critical_path.h"
#include "io/compress.h"
#include "loader/loader.h"
#include "loader/path_meaning.h"
#include "loader/rank_view.h"
#include "model/trace.h"
#include "report/analysis_registry.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using namespace gapscope::test;
using nlohmann::json;

namespace {

std::string readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

}  // namespace

class TestNsight : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString fixtures_;

  private slots:
    void initTestCase() {
        GAPSCOPE_SKIP_IF_MISSING(python().isEmpty(), "no Python interpreter to write the exports");
        fixtures_ = dir_.filePath("nsys");
        QProcess gen;
        gen.start(python(), {sourceDir() + "/tests/tools/make_nsys_fixtures.py", fixtures_});
        QVERIFY(gen.waitForFinished(60000));
        QCOMPARE(gen.exitCode(), 0);
        // The 2024 export with rows no fixture has, and tables whose rows
        // have no rowid to keep (they are composed at load instead): an OS
        // call without a return value, sync types the reader does not know,
        // copies whose "rowid" is a generated column, memsets in a WITHOUT
        // ROWID table.
        QProcess odd;
        odd.start(python(),
                  {sourceDir() + "/tests/tools/make_odd_nsys_export.py",
                   fixtures_ + "/nsys_2024_schema.sqlite", fixtures_ + "/odd_rows.sqlite"});
        QVERIFY(odd.waitForFinished(60000));
        QVERIFY2(odd.exitCode() == 0, odd.readAllStandardError().constData());
    }

    void rowArgsAreComposedWhenAPersonLooks_data() {
        QTest::addColumn<QString>("source");
        QTest::newRow("2024 schema") << "nsys_2024_schema.sqlite";
        QTest::newRow("2021 schema") << "nsys_2021_schema.sqlite";
        QTest::newRow("two ranks") << "nsys_2024_two_ranks.sqlite";
        QTest::newRow("odd rows") << "odd_rows.sqlite";
        if (!sharedDir().isEmpty())
            QTest::newRow("cloverleaf")
                << sharedTraces() +
                       "/pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";
    }

    void rowArgsAreComposedWhenAPersonLooks() {
        QFETCH(QString, source);
        const QString from = source.startsWith('/') ? source : fixtures_ + "/" + source;
        const std::string raw = readAll(from);
        QVERIFY(!raw.empty());
        QTemporaryDir dir;
        const QString plain = dir.filePath("t.sqlite"), packed = dir.filePath("t.sqlite.gz");
        QVERIFY(writeFile(plain.toStdString(), raw));
        QVERIFY(writeFile(packed.toStdString(), gzipCompress(raw, 1)));
        const LoadResult a = loadTrace(plain.toStdString()), b = loadTrace(packed.toStdString());
        QVERIFY(a.trace && b.trace);
        // Which profiler wrote it, decided at import.
        QCOMPARE(a.trace->producer, Producer::NsightSystems);
        QVERIFY(a.trace->argsStore.fileBacked());
        QVERIFY(!b.trace->argsStore.fileBacked());

        // Every kernel, copy, memset and API call keeps its row: a rowid and
        // a table; only what the reader makes of several rows (NVTX's GPU
        // projection, domains) is composed text.
        size_t rows = 0, withArgs = 0;
        for (const Slice& sl : a.trace->slices) {
            if (sl.args == kNone) continue;
            const ArgsRecord& rec = a.trace->args[sl.args];
            const bool byRow = !(rec.offset & ArgsStore::kOwnedBit);
            const std::string cat(a.trace->categoryName(sl.category));
            const bool rowTable = cat.rfind("CUDA ", 0) == 0 || cat == "OS runtime";
            // (The odd export's copies and memsets have no rowids to keep.)
            const bool noRowids =
                source == "odd_rows.sqlite" && (cat == "CUDA memcpy" || cat == "CUDA memset");
            QVERIFY2(byRow == (rowTable && !noRowids), cat.c_str());
            if (byRow) {
                QVERIFY(rec.length >= 1 && rec.length <= 6);
                ++rows;
            }
            const ArgsText text = a.trace->argsText(sl.args);
            QVERIFY2(text.ok(), text.error.c_str());
            if (!text.json.empty()) {
                QVERIFY2(json::parse(text.json, nullptr, false).is_object(), text.json.c_str());
                ++withArgs;
            }
        }
        QVERIFY(rows > 0 && withArgs >= rows);

        // The text composed when looking is the text composed at load.
        const std::string dumpA = canonicalDump(*a.trace);
        QVERIFY(dumpA.find("unreadable") == std::string::npos);
        QCOMPARE(dumpA, canonicalDump(*b.trace));
        LoadOptions one;
        one.mode = ReadingMode::OneThread;
        const LoadResult single = loadTrace(plain.toStdString(), one);
        QVERIFY(single.trace);
        QCOMPARE(canonicalDump(*single.trace), dumpA);

        // From the cache: the same args, composed again from the export.
        QCOMPARE(dumpOfCacheHit(plain.toStdString()), dumpA);

        // An export rewritten since: its args say so instead of showing others'.
        uint32_t kernel = kNone;
        for (const Slice& sl : a.trace->slices)
            if (sl.args != kNone && a.trace->args[sl.args].length == 1) kernel = sl.args;
        QVERIFY(kernel != kNone);
        QVERIFY(a.trace->argsText(kernel).ok());
        QVERIFY(writeFile(plain.toStdString(), raw + std::string(4096, '\0')));
        const ArgsText changed = a.trace->argsText(kernel);
        QVERIFY(!changed.ok() && changed.json.empty());
        QVERIFY2(changed.error.find("changed") != std::string::npos, changed.error.c_str());
    }

    // The export deleted, or replaced by another file of its name, after
    // loading and before anyone looked: the args are still the loaded
    // file's (the trace holds its descriptor, and SQLite opens that, not
    // the path).
    void argsOutliveTheExportsPath() {
        const std::string raw = readAll(fixtures_ + "/nsys_2024_schema.sqlite");
        QTemporaryDir dir;
        const std::string path = dir.filePath("gone.sqlite").toStdString();
        const std::string kept = dir.filePath("kept.sqlite").toStdString();
        QVERIFY(writeFile(path, raw) && writeFile(kept, raw));
        const LoadResult r = loadTrace(path), reference = loadTrace(kept);
        QVERIFY(r.trace && reference.trace);
        QVERIFY(std::remove(path.c_str()) == 0);
        QVERIFY(writeFile(path, readAll(fixtures_ + "/nsys_2021_schema.sqlite")));
        QCOMPARE(r.trace->slices.size(), reference.trace->slices.size());
        size_t withArgs = 0;
        for (size_t i = 0; i < r.trace->slices.size(); ++i) {
            if (r.trace->slices[i].args == kNone) continue;
            const ArgsText text = r.trace->argsText(r.trace->slices[i].args);
            QVERIFY2(text.ok(), text.error.c_str());
            QCOMPARE(text.json, reference.trace->argsText(reference.trace->slices[i].args).json);
            withArgs += !text.json.empty();
        }
        QVERIFY(withArgs > 0);
    }

    // An export of two ranks' processes opened as ranks and merged: each
    // rank's store reads its rows from the export, as its own part.
    void ranksOfOneExportComposeTheirRowsArgs() {
        const std::string file = (fixtures_ + "/nsys_2024_two_ranks.sqlite").toStdString();
        const PathMeaning m = meaningOfPaths({file});
        QCOMPARE(m.kind, PathMeaning::Kind::Ranks);
        const RankView ranks =
            loadRankView(m.sources, dir_.path().toStdString(), RankViewOptions{});
        QVERIFY(ranks.trace && ranks.failed.empty());
        std::set<int64_t> devices;
        for (const Slice& sl : ranks.trace->slices) {
            if (sl.args == kNone) continue;
            const ArgsText text = ranks.trace->argsText(sl.args);
            QVERIFY2(text.ok(), text.error.c_str());
            const json args = json::parse(text.json, nullptr, false);
            if (args.is_object() && args.contains("grid"))
                devices.insert(args["device"].get<int64_t>());
        }
        // Rank 0 ran on GPUs 0 and 1, rank 1 on 2 and 3 (make_nsys_fixtures.py).
        QCOMPARE(devices, (std::set<int64_t>{0, 1, 2, 3}));
    }

    // An export holds no synchronization records the critical path reads
    // (Kineto's): a synchronize waits for what its thread last launched.
    // The plan (make_nsys_fixtures.py): the main thread's
    // cudaStreamSynchronize from 1900 to 2390 µs returns as relu, launched
    // at 1800 onto GPU 0's stream 7, ends at 2380; the one from 6310 to
    // 6460 as the copy launched at 6300 onto stream 13 ends at 6450. So
    // the path of ProfilerStep#1 (0 to 4905 µs) runs through relu: relu's
    // launch at 1800, its 80 µs to relu's start, relu's 500, the
    // synchronize's end at 2390. (The worker's three launches in the step's
    // next gap, 30 µs of 1910, are no thread the step waited for.)
    void theCriticalPathWaitsInItsSynchronizes() {
        const LoadResult r = loadTrace((fixtures_ + "/nsys_2024_schema.sqlite").toStdString());
        QVERIFY(r.trace);
        Scope scope;
        scope.step = 1;
        AnalysisOptions options;
        options.set("slices");
        const AnalysisResult a =
            computeAnalysis(*analysisRegistry().find("critical-path"), *r.trace, scope, options);
        const ResultTable* path = a.table("path");
        const TimeNs t0 = 1'000'000'000;
        std::vector<std::string> hops;  // "name point @µs via"
        for (size_t i = 0; i < path->rows.size(); ++i)
            hops.push_back(textOr(path->at(i, "name")) + " " + textOr(path->at(i, "point")) + " @" +
                           std::to_string((integerOr(path->at(i, "at_ns")) - t0) / 1000) + " " +
                           textOr(path->at(i, "via")));
        const auto at = std::find(hops.begin(), hops.end(),
                                  "relu_kernel(float *, int) end @2380 critical_path_operator");
        QVERIFY2(at != hops.end() && at + 1 != hops.end(),
                 qPrintable(QString::number(hops.size())));
        QCOMPARE(*(at + 1), std::string("cudaStreamSynchronize end @2390 "
                                        "critical_path_sync_dependency"));
        QCOMPARE(*(at - 1), std::string("relu_kernel(float *, int) start @1880 "
                                        "critical_path_kernel_launch_delay"));
        int64_t kernelNs = 0;
        const ResultTable* kinds = a.table("kinds");
        for (size_t i = 0; i < kinds->rows.size(); ++i)
            if (textOr(kinds->at(i, "kind")) == "kernel") kernelNs = integerOr(kinds->at(i, "ns"));
        QCOMPARE(kernelNs, int64_t(500'000));
        for (size_t i = 0; i < path->rows.size(); ++i)
            QVERIFY2(textOr(path->at(i, "track")).find("pt_data_worker") == std::string::npos,
                     hops[i].c_str());
        // No wait is drawn from work that ended after the call returned
        // (each cudaMemcpyAsync returns before its own copy ends): the two
        // synchronizes', and the last copy's call (6300-6310) waiting for
        // the work before its copy on stream 13 (the all-reduce, done at
        // 4900).
        PathGraphOptions o;
        const CriticalPath whole = criticalPath(*r.trace, LaunchCalls(*r.trace), o);
        std::multiset<std::pair<TimeNs, TimeNs>> waits;  // (from, to) µs after T0
        for (const PathEdge& e : whole.graph.edges)
            if (e.kind == PathEdgeKind::Sync)
                waits.insert({(whole.graph.node(e.from).at - t0) / 1000,
                              (whole.graph.node(e.to).at - t0) / 1000});
        const std::multiset<std::pair<TimeNs, TimeNs>> want{
            {2380, 2390}, {4900, 6310}, {6450, 6460}};
        QCOMPARE(waits, want);
    }

    // A reference no reader writes (a table number out of range, a rowid
    // past the table's end) is said, not shown as someone else's args.
    void aBadReferenceIsSaid() {
        const LoadResult r = loadTrace((fixtures_ + "/nsys_2024_schema.sqlite").toStdString());
        QVERIFY(r.trace);
        // (The test's own copy of the loaded trace, its records edited.)
        auto& t = const_cast<Trace&>(*r.trace);
        uint32_t kernel = kNone;
        for (uint32_t i = 0; i < t.args.size(); ++i)
            if (t.args[i].length == 1) kernel = i;
        QVERIFY(kernel != kNone);
        t.args[kernel].length = 9;
        ArgsText text = t.argsText(kernel);
        QVERIFY(!text.ok() && text.json.empty());
        QVERIFY2(text.error.find("names no table") != std::string::npos, text.error.c_str());
        t.args[kernel].length = 1;
        t.args[kernel].offset = 999999;
        text = t.argsText(kernel);
        QVERIFY(!text.ok() && text.json.empty());
        QVERIFY2(
            text.error.find("CUPTI_ACTIVITY_KIND_KERNEL has no row 999999") != std::string::npos,
            text.error.c_str());
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestNsight)
#include "tst_nsight.moc"
