// Many ranks: which files are ranks and which rank each is, loading them side
// by side, each rank's figures per step and each step's straggler, against
// an independent reference (tests/tools/ranks_reference.py: Python's json
// module, exact decimals, its own interval unions) on the real 8-rank DLRM
// set and on generated jobs; and against planted truth: one rank of
// otherwise identical traces shifted later by a known time is the
// straggler of every step, and each other rank waits exactly that long.

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/gap_causes.h"
#include "analysis/rank_comparison.h"
#include "analysis/rank_outliers.h"
#include "analysis/rank_totals.h"
#include "analysis/time_breakdown.h"
#include "analysis/trace_health.h"
#include "cache/index_cache.h"
#include "io/compress.h"
#include "io/rank_files.h"
#include "io/rank_hint.h"
#include "loader/path_meaning.h"
#include "loader/rank_set.h"
#include "loader/rank_view.h"
#include "model/merge_traces.h"
#include "report/canonical_dump.h"
#include "report/ranks_report.h"
#include "support/cli_run.h"
#include "support/generator.h"
#include "support/reference_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

QString dlrmFolder() {
    return test::sharedTraces() +
           "/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto";
}

// Writes a job with tests/tools/make_rank_set.py; the files, in rank order.
QStringList makeRankSet(const QString& dir, const QStringList& options) {
    QString error;
    const QStringList files = test::makeRankSet(dir, options, &error);
    if (files.isEmpty()) QTest::qFail(qPrintable(error), __FILE__, __LINE__);
    return files;
}

// The files of the sources a path meant, each whole.
std::vector<std::string> filesOf(const PathMeaning& m) {
    std::vector<std::string> files;
    for (const RankSource& s : m.sources) {
        if (!s.part.whole()) return {"(a part of " + s.file + ")"};
        files.push_back(s.file);
    }
    return files;
}

std::vector<std::string> toStd(const QStringList& files) {
    std::vector<std::string> out;
    for (const QString& f : files)
        out.push_back(f.toStdString());
    return out;
}

// The ranks of `view` each loaded alone and merged once all are at hand,
// with the view's numbers, hosts and offsets (what a merge as they load
// must equal).
std::shared_ptr<const Trace> mergedAtTheEnd(const RankView& view, const std::string& path) {
    std::vector<RankPart> parts;
    for (const RankEntry& e : view.ranks) {
        LoadResult alone = loadTrace(e.file);
        if (!alone.trace) return nullptr;
        parts.push_back({e.rank, e.host, e.file, e.offset,
                         std::const_pointer_cast<Trace>(std::move(alone.trace)), e.part});
    }
    std::shared_ptr<Trace> m = mergeRankTraces(std::move(parts), path);
    noteComparison(*m, view.comparison);
    return m;
}

struct Compared {
    RankSetLoad loaded;
    std::vector<RankEntry> entries;
    RankComparison comparison;
};

// Loads the files as the CLI does and compares the ranks.
Compared compare(const std::vector<std::string>& files,
                 std::optional<int64_t> align = std::nullopt) {
    Compared c;
    std::map<std::string, RankFigures> figures;
    std::mutex mutex;
    RankLoadOptions options;
    options.workers = 2;
    options.afterLoad = [&](RankLoad& load) {
        RankFigures f = rankFigures(*load.result.trace);
        const std::lock_guard lock(mutex);
        figures[load.file] = std::move(f);
    };
    c.loaded = loadRanks(files, options);
    for (const RankLoad& r : c.loaded.ranks)
        if (!r.result.failure)
            c.entries.push_back({r.rank, r.file, r.host, figures[r.file], 0, std::nullopt, r.part});
    c.comparison = compareRanks(c.entries, align);
    return c;
}

json reference(const std::vector<std::string>& files, std::optional<int64_t> align = {}) {
    QStringList args;
    if (align) args << "--align-step" << QString::number(*align);
    for (const std::string& f : files)
        args << QString::fromStdString(f);
    return test::runReference("ranks_reference.py", args);
}

template <class T>
json orNull(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

// QCOMPARE for JSON values (QTest cannot print them).
#define COMPARE_JSON(actual, expected)                                                     \
    do {                                                                                   \
        const json a_ = (actual), e_ = (expected);                                         \
        QVERIFY2(a_ == e_, qPrintable(QString::fromStdString(#actual " = " + a_.dump() +   \
                                                             ", expected " + e_.dump()))); \
    } while (0)

// A rank's work as the reference writes it.
json workOf(const std::optional<RankWork>& w) {
    if (!w) return nullptr;
    return {{"name", w->name},
            {"where", w->gpu ? "gpu" : "cpu"},
            {"start_ns", w->span.start},
            {"end_ns", w->span.end},
            {"ns", w->ns()}};
}

// Every figure the reference computes, rank by rank and step by step.
void compareWithReference(const Compared& ours, const json& ref) {
    QCOMPARE(ours.entries.size(), ref["ranks"].size());
    COMPARE_JSON(orNull(ours.comparison.alignedOn), ref["aligned_on_step"]);
    for (size_t i = 0; i < ours.entries.size(); ++i) {
        const RankEntry& e = ours.entries[i];
        const json& r = ref["ranks"][i];
        QCOMPARE(e.rank, r["rank"].get<int64_t>());
        QCOMPARE(e.file, r["file"].get<std::string>());
        QCOMPARE(e.figures.device, r["device"].get<int>());
        QCOMPARE(e.offset, r["offset_ns"].get<int64_t>());
        QCOMPARE(e.figures.steps.size(), r["steps"].size());
        for (size_t s = 0; s < e.figures.steps.size(); ++s) {
            const RankStep& st = e.figures.steps[s];
            const json& rs = r["steps"][s];
            QCOMPARE(st.name, rs["name"].get<std::string>());
            QCOMPARE(st.number, rs["number"].get<int64_t>());
            QCOMPARE(st.span.start, rs["start_ns"].get<int64_t>());
            QCOMPARE(st.span.end, rs["end_ns"].get<int64_t>());
            QCOMPARE(st.busy, rs["busy_ns"].get<int64_t>());
            QCOMPARE(st.idle, rs["idle_ns"].get<int64_t>());
            QCOMPARE(st.comm, rs["comm_ns"].get<int64_t>());
            QCOMPARE(st.exposedComm, rs["exposed_comm_ns"].get<int64_t>());
            COMPARE_JSON(orNull(st.collectiveEnter), rs["collective_enter_ns"]);
            COMPARE_JSON(orNull(st.collectiveEnd), rs["collective_end_ns"]);
            COMPARE_JSON(orNull(st.wait), rs["wait_ns"]);
            COMPARE_JSON(orNull(st.transfer), rs["transfer_ns"]);
            COMPARE_JSON(st.collectiveEnter ? json(st.collectiveName) : json(nullptr),
                         rs["collective"]);
            COMPARE_JSON(workOf(st.longestWorkBefore), rs["longest_work_before"]);
            QCOMPARE(st.collectives.size(), rs["collectives"].size());
            for (size_t c = 0; c < st.collectives.size(); ++c) {
                const RankCollective& col = st.collectives[c];
                const json& rc = rs["collectives"][c];
                QCOMPARE(col.name, rc["name"].get<std::string>());
                QCOMPARE(col.enter, rc["enter_ns"].get<int64_t>());
                QCOMPARE(col.end, rc["end_ns"].get<int64_t>());
                COMPARE_JSON(workOf(col.workBefore), rc["work_before"]);
            }
        }
    }
    QCOMPARE(ours.comparison.stragglers.size(), ref["stragglers"].size());
    for (size_t i = 0; i < ours.comparison.stragglers.size(); ++i) {
        const StepStraggler& s = ours.comparison.stragglers[i];
        const json& r = ref["stragglers"][i];
        QCOMPARE(s.step, r["step"].get<int64_t>());
        QCOMPARE(s.rank, r["rank"].get<int64_t>());
        QCOMPARE(s.enteredAt, r["entered_ns"].get<int64_t>());
        QCOMPARE(s.othersWait, r["others_wait_ns"].get<int64_t>());
        QCOMPARE(s.waitingRanks, r["waiting_ranks"].get<int>());
        QCOMPARE(s.longestWait, r["longest_wait_ns"].get<int64_t>());
        QCOMPARE(s.longestWaitRank, r["longest_wait_rank"].get<int64_t>());
        COMPARE_JSON(workOf(s.instead), r["instead"]);
    }
}

}  // namespace

class TestRanks : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    // Who stands apart, on figures made by hand (the expected ranks are the
    // planted ones): a tiny difference among near-equal steps is none; a
    // rank 2x slower is one; a rank without any wait is judged on the others
    // only; a failed rank (null) and a rank without steps have no score.
    void outliersNeedARealDifference() {
        auto ranks = [](size_t n, auto stepOf) {
            std::vector<RankFigures> out(n);
            for (size_t r = 0; r < n; ++r)
                for (int64_t k = 1; k <= 3; ++k) {
                    RankStep s;
                    s.number = k;
                    stepOf(r, s);
                    out[r].steps.push_back(s);
                }
            return out;
        };
        auto judged = [](const std::vector<RankFigures>& figures,
                         std::vector<size_t> missing = {}) {
            std::vector<const RankFigures*> p;
            for (size_t i = 0; i < figures.size(); ++i)
                p.push_back(std::find(missing.begin(), missing.end(), i) == missing.end()
                                ? &figures[i]
                                : nullptr);
            std::vector<size_t> apart;
            const std::vector<RankOutlier> o = rankOutliers(p);
            for (size_t i = 0; i < o.size(); ++i)
                if (o[i].outlier) apart.push_back(i);
            return std::pair(apart, o);
        };
        // 1020 ranks of exactly 1 ms steps, 4 of 1.001 ms: MAD 0, the mean
        // deviation tiny, the scores huge, the difference 0.1 %: none.
        auto nearlyEqual = ranks(1024, [](size_t r, RankStep& s) {
            s.span = {0, r >= 1020 ? 1'001'000 : 1'000'000};
            s.busy = 500'000;
            s.idle = s.span.length() - s.busy;
            s.wait = 100'000;
        });
        auto [apart, scores] = judged(nearlyEqual);
        QVERIFY(apart.empty());
        QVERIFY(std::fabs(*scores[1023].score) > kOutlierScore);  // (the score alone would say yes)
        // One rank twice as slow: it, in step time.
        nearlyEqual[7].steps[1].span = {0, 4'000'000};
        std::tie(apart, scores) = judged(nearlyEqual);
        QCOMPARE(apart, std::vector<size_t>{7});
        QCOMPARE(scores[7].figure, RankFigure::StepTime);
        // A rank that never waited (none: not 0) is not the straggler's
        // signature; one that waited 0 in every step is.
        auto waits = ranks(16, [](size_t r, RankStep& s) {
            s.span = {0, 1'000'000};
            s.busy = 500'000;
            s.idle = 500'000;
            s.wait = 400'000 + TimeNs(r % 5) * 1000;
            if (r == 3) s.wait.reset();
            if (r == 9) s.wait = 0;
        });
        std::tie(apart, scores) = judged(waits, {12});
        QCOMPARE(apart, std::vector<size_t>{9});
        QCOMPARE(scores[9].figure, RankFigure::Wait);
        QVERIFY(scores[3].score && !scores[3].outlier);  // judged on its steps and busy share
        QVERIFY(!scores[12].score);                      // a file that failed
    }

    // One profiler's cycles (one WORKER, several times) are no ranks; the
    // ranks of a job, or names of another form, are no cycles.
    void profilerCyclesAreNotRanks() {
        using V = std::vector<std::vector<std::string>>;
        QCOMPARE(profilerCyclesOf({"/t/host_42.1700000005000.pt.trace.json.gz",
                                   "/t/host_42.1700000000001.pt.trace.json.gz",
                                   "/t/host_42.1700000009999.pt.trace.json"}),
                 (V{{"/t/host_42.1700000000001.pt.trace.json.gz"},
                    {"/t/host_42.1700000005000.pt.trace.json.gz"},
                    {"/t/host_42.1700000009999.pt.trace.json"}}));
        QCOMPARE(profilerCyclesOf({"worker0_step_12.1694128201545.pt.trace.json",
                                   "worker1_step_12.1694128201556.pt.trace.json"}),
                 V{});  // two workers, one file each: ranks
        QCOMPARE(profilerCyclesOf({"a.pt.trace.json", "b.pt.trace.json"}), V{});
        QCOMPARE(profilerCyclesOf({"host_42.17x.pt.trace.json", "host_42.18.pt.trace.json"}), V{});
        QCOMPARE(profilerCyclesOf({"host_42.1.pt.trace.json"}), V{});  // one file
    }

    // What the paths a person opens mean, for the viewer and the CLI alike.
    void whatPathsMean() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string base = dir.path().toStdString();
        auto folder = [&](const QString& name, const QStringList& files) {
            QVERIFY(QDir(dir.path()).mkpath(name));
            for (const QString& f : files)
                QVERIFY(QFile::copy(test::samplePath(), dir.filePath(name + "/" + f)));
        };
        using K = PathMeaning::Kind;
        // A file, a fleet table, a folder with one trace.
        folder("one", {"only.pt.trace.json.gz"});
        PathMeaning m = meaningOfPaths({base + "/one/only.pt.trace.json.gz"});
        QCOMPARE(m.kind, K::Trace);
        QCOMPARE(meaningOfPaths({base + "/job.fleet.json"}).kind, K::FleetTable);
        m = meaningOfPaths({base + "/one"});
        QCOMPARE(m.kind, K::Trace);
        QCOMPARE(m.path, base + "/one/only.pt.trace.json.gz");
        // A folder of ranks, in natural order, named by the folder.
        folder("job", {"worker10.json.gz", "worker2.json.gz", "worker1.json.gz"});
        m = meaningOfPaths({base + "/job"});
        QCOMPARE(m.kind, K::Ranks);
        QCOMPARE(m.path, base + "/job");
        QCOMPARE(filesOf(m), (std::vector<std::string>{base + "/job/worker1.json.gz",
                                                       base + "/job/worker2.json.gz",
                                                       base + "/job/worker10.json.gz"}));
        // Several files given: the ranks, named by their folder.
        m = meaningOfPaths({base + "/job/worker2.json.gz", base + "/job/worker1.json.gz"});
        QCOMPARE(m.kind, K::Ranks);
        QCOMPARE(filesOf(m).size(), size_t(2));
        QCOMPARE(m.path, base + "/job");
        // One process's cycles: the newest, or the one chosen.
        folder("cycles", {"host_1.100.pt.trace.json.gz", "host_1.200.pt.trace.json.gz"});
        m = meaningOfPaths({base + "/cycles"});
        QCOMPARE(m.kind, K::Trace);
        QCOMPARE(m.cycles.size(), size_t(2));
        QCOMPARE(m.path, base + "/cycles/host_1.200.pt.trace.json.gz");
        PathChoices first;
        first.cycle = 0;
        QCOMPARE(meaningOfPaths({base + "/cycles"}, first).path,
                 base + "/cycles/host_1.100.pt.trace.json.gz");
        // Ranks' cycles: the newest cycle's ranks.
        folder("rankcycles", {"r0.1.pt.trace.json.gz", "r0.2.pt.trace.json.gz",
                              "r1.1.pt.trace.json.gz", "r1.2.pt.trace.json.gz"});
        m = meaningOfPaths({base + "/rankcycles"});
        QCOMPARE(m.kind, K::Ranks);
        QCOMPARE(filesOf(m),
                 (std::vector<std::string>{base + "/rankcycles/r0.2.pt.trace.json.gz",
                                           base + "/rankcycles/r1.2.pt.trace.json.gz"}));
        // A logdir of two runs: the newest, or the one named; a run of two
        // hosts is two ranks, of one host one trace.
        const QString xplane = test::sourceDir() + "/tests/data/recorded/jax_mlp.xplane.pb";
        const QString runs = dir.filePath("logs/plugins/profile");
        QVERIFY(QDir().mkpath(runs + "/2024_01_01_00_00_00"));
        QVERIFY(QDir().mkpath(runs + "/2024_02_01_00_00_00"));
        QVERIFY(QFile::copy(xplane, runs + "/2024_01_01_00_00_00/a.xplane.pb"));
        QVERIFY(QFile::copy(xplane, runs + "/2024_02_01_00_00_00/a.xplane.pb"));
        QVERIFY(QFile::copy(xplane, runs + "/2024_02_01_00_00_00/b.xplane.pb"));
        // The older run's file is older.
        QFile old(runs + "/2024_01_01_00_00_00/a.xplane.pb");
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(old.setFileTime(QDateTime::currentDateTime().addDays(-30),
                                QFileDevice::FileModificationTime));
        old.close();
        m = meaningOfPaths({base + "/logs"});
        QCOMPARE(m.runs.size(), size_t(2));
        QCOMPARE(m.run, std::string("2024_02_01_00_00_00"));
        QCOMPARE(m.kind, K::Ranks);
        QCOMPARE(filesOf(m).size(), size_t(2));
        PathChoices older;
        older.run = "2024_01_01_00_00_00";
        m = meaningOfPaths({base + "/logs"}, older);
        QCOMPARE(m.kind, K::Trace);
        QCOMPARE(m.path, (runs + "/2024_01_01_00_00_00").toStdString());
        // A run's folder with JSON beside its XSpace (JAX's perfetto trace,
        // TensorFlow's HOST.trace.json.gz): the run, not ranks of JSON.
        const QString run = runs + "/2024_01_01_00_00_00";
        QVERIFY(QFile::copy(test::samplePath(), run + "/perfetto_trace.json.gz"));
        QVERIFY(QFile::copy(test::samplePath(), run + "/a.memory_profile.json.gz"));
        m = meaningOfPaths({run.toStdString()});
        QCOMPARE(m.kind, K::Trace);
        QCOMPARE(m.path, run.toStdString());
        // Nothing there: an error naming the folder.
        QVERIFY(QDir(dir.path()).mkpath("empty"));
        m = meaningOfPaths({base + "/empty"});
        QCOMPARE(m.kind, K::Error);
        QVERIFY2(m.error.find(base + "/empty") == 0, m.error.c_str());
    }

    // The rank the head of a Kineto trace states, the hint the loading
    // order takes where a file's name states none.
    void theHeadOfATraceHintsItsRank() {
        using O = std::optional<int64_t>;
        const std::string info = R"({"schemaVersion": 1, "distributedInfo": )";
        QCOMPARE(rankInTraceHead(info + R"({"backend": "nccl", "rank": 12, "world_size": 16},)"),
                 O{12});
        QCOMPARE(rankInTraceHead(R"({"distributedInfo":{"rank":-3}})"), O{-3});
        // Members before it, nested, and a string "rank" as a value: skipped.
        QCOMPARE(rankInTraceHead(info + R"({"pg": {"rank": 9}, "backend": "rank", "list": )" +
                                 R"([{"rank": 8}], "rank": 2})"),
                 O{2});
        QCOMPARE(rankInTraceHead(info + "{\"note\": \"a \\\"rank\\\": 5\", \"rank\": 6}"), O{6});
        // None, not an integer, cut short, or only in another member.
        QCOMPARE(rankInTraceHead(info + R"({"backend": "nccl"}, "rank": 4)"), O{});
        QCOMPARE(rankInTraceHead(info + R"({"rank": 1.5})"), O{});
        QCOMPARE(rankInTraceHead(info + R"({"rank": "3"})"), O{});
        QCOMPARE(rankInTraceHead(info + R"({"rank": 4)"), O{});
        QCOMPARE(rankInTraceHead(info + "{\"backend\": \"ncc"), O{});
        QCOMPARE(rankInTraceHead(R"({"deviceProperties": [{"rank": 7}]})"), O{});
        QCOMPARE(rankInTraceHead(""), O{});
        // A compressed file is read through its decompressor.
        const QString path = dir_.filePath("hinted.json.gz");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const std::string text = info + R"({"rank": 5}, "traceEvents": []})";
            f.write(QByteArray::fromStdString(gzipCompress(text)));
        }
        QCOMPARE(rankInFileHead(path.toStdString()), O{5});
        QCOMPARE(rankInFileHead(dir_.filePath("missing.json").toStdString()), O{});
    }

    // Ranks that each wrote several cycles: the cycles of the job, each with
    // one file per rank (ranks in natural order, cycles by time).
    void cyclesOfRanks() {
        using V = std::vector<std::vector<std::string>>;
        QCOMPARE(profilerCyclesOf({"rank10.300.pt.trace.json", "rank2.100.pt.trace.json",
                                   "rank10.110.pt.trace.json", "rank2.290.pt.trace.json"}),
                 (V{{"rank2.100.pt.trace.json", "rank10.110.pt.trace.json"},
                    {"rank2.290.pt.trace.json", "rank10.300.pt.trace.json"}}));
        // A rank that missed a cycle: no telling which files belong together.
        QCOMPARE(profilerCyclesOf(
                     {"rank0.1.pt.trace.json", "rank0.2.pt.trace.json", "rank1.1.pt.trace.json"}),
                 V{});
    }

    void fileNamesStateRanks() {
        QCOMPARE(rankOfFileName("worker3_step_12.1694128201557.pt.trace.json"), 3);
        QCOMPARE(rankOfFileName("rank-12.1700000000.pt.trace.json.gz"), 12);
        QCOMPARE(rankOfFileName("RANK_7.json"), 7);
        QCOMPARE(rankOfFileName("job.rank5.json"), 5);
        QCOMPARE(rankOfFileName("trace_worker04.json"), 4);
        // Inside a word, without digits, or too long: no rank.
        QCOMPARE(rankOfFileName("coworker3.json"), std::nullopt);
        QCOMPARE(rankOfFileName("ranking.json"), std::nullopt);
        QCOMPARE(rankOfFileName("worker.json"), std::nullopt);
        QCOMPARE(rankOfFileName("rank1234567890.json"), std::nullopt);
        QCOMPARE(hostOfFileName("10.0.0.1_6009.xplane.pb"), std::string("10.0.0.1_6009"));
        QCOMPARE(hostOfFileName("host_123.1700.pt.trace.json"), std::string());
    }

    void traceFilesOfAFolder() {
        QVERIFY(isTraceFileName("a.pt.trace.json.gz"));
        QVERIFY(isTraceFileName("a.JSON.ZST"));
        QVERIFY(isTraceFileName("h.xplane.pb"));
        QVERIFY(!isTraceFileName("a.pt.trace.json.gapscope.json"));  // a sidecar
        QVERIFY(!isTraceFileName("job.fleet.json"));
        QVERIFY(!isTraceFileName("notes.txt"));
        QVERIFY(!isTraceFileName(".json"));
        QVERIFY(naturalLess("worker2.json", "worker10.json"));
        QVERIFY(!naturalLess("worker10.json", "worker2.json"));
        QVERIFY(naturalLess("rank02.json", "rank3.json"));

        const QString dir = dir_.filePath("listing");
        QVERIFY(QDir().mkpath(dir + "/sub.json"));  // a folder, not a trace
        for (const char* name : {"worker10.json", "worker2.json", "worker2.json.gapscope.json",
                                 "readme.md", "worker1.json.zst"}) {
            QFile f(dir + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        std::string error;
        const std::vector<std::string> files = traceFilesIn(dir.toStdString(), error);
        QVERIFY(error.empty());
        std::vector<std::string> names;
        for (const std::string& f : files)
            names.push_back(QFileInfo(QString::fromStdString(f)).fileName().toStdString());
        QCOMPARE(names,
                 (std::vector<std::string>{"worker1.json.zst", "worker2.json", "worker10.json"}));
        // A file named twice (the folder and the file in it) is one rank.
        const RankFileList twice =
            rankFilesOf({dir.toStdString(), (dir + "/worker2.json").toStdString()});
        QCOMPARE(twice.files.size(), size_t(3));
        QVERIFY(QDir().mkpath(dir_.filePath("empty")));
        const RankFileList empty = rankFilesOf({dir_.filePath("empty").toStdString()});
        QVERIFY(empty.files.empty());
        QVERIFY(empty.error.find("holds no trace files") != std::string::npos);
    }

    // The real 8-rank DLRM step: ranks from distributedInfo, every figure and
    // the straggler as the reference computes them.
    void dlrmRanksMatchTheReference() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        const RankFileList list = rankFilesOf({dlrmFolder().toStdString()});
        QCOMPARE(list.files.size(), size_t(8));
        const Compared c = compare(list.files);
        QCOMPARE(c.loaded.failedCount(), size_t(0));
        QVERIFY(c.loaded.warnings.empty());
        for (size_t i = 0; i < c.loaded.ranks.size(); ++i) {
            const RankLoad& r = c.loaded.ranks[i];
            QCOMPARE(r.rank, int64_t(i));
            QCOMPARE(r.origin, RankOrigin::Trace);
            // The file name says the same rank.
            QCOMPARE(
                rankOfFileName(QFileInfo(QString::fromStdString(r.file)).fileName().toStdString()),
                int64_t(i));
        }
        compareWithReference(c, reference(list.files));
        QCOMPARE(c.comparison.stragglers.size(), size_t(1));
        QVERIFY(c.comparison.stragglers.front().instead);
    }

    // Identical ranks but one shifted later by 1.5 ms: it is the straggler
    // of every step, and each other rank waits exactly 1.5 ms.
    void aPlantedStragglerIsFoundExactly() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QStringList files =
            makeRankSet(dir_.filePath("planted"), {"--ranks", "4", "--steps", "5", "--same-seed",
                                                   "--straggler", "2", "--shift-us", "1500"});
        QCOMPARE(files.size(), 4);
        const Compared c = compare(toStd(files));
        QCOMPARE(c.entries.size(), size_t(4));
        QVERIFY(!c.comparison.stragglers.empty());
        QCOMPARE(c.comparison.stragglers.size(), c.entries.front().figures.steps.size());
        for (const StepStraggler& s : c.comparison.stragglers) {
            QCOMPARE(s.rank, int64_t(2));
            QCOMPARE(s.waitingRanks, 3);
            QCOMPARE(s.othersWait, TimeNs(3 * 1'500'000));
            QCOMPARE(s.longestWait, TimeNs(1'500'000));
        }
        for (const RankEntry& e : c.entries)
            for (const RankStep& s : e.figures.steps)
                QCOMPARE(*s.wait, e.rank == 2 ? TimeNs(0) : TimeNs(1'500'000));
        // Aligned on a step, the shift is gone: nobody waits.
        const int64_t second = c.entries.front().figures.steps.at(1).number;
        Compared aligned = compare(toStd(files), second);
        QVERIFY(aligned.comparison.unaligned.empty());
        QCOMPARE(aligned.entries[2].offset, TimeNs(-1'500'000));
        for (const StepStraggler& s : aligned.comparison.stragglers)
            QCOMPARE(s.othersWait, TimeNs(0));
    }

    // Different seeds (ranks that really differ) and a shifted rank: the
    // reference decides, as written and aligned.
    // DDP's step: a buffer broadcast every rank enters together, then the
    // gradients' all-reduce, which rank 1 enters 300 ns late. The straggler
    // is decided at the all-reduce, where the others waited (worked by hand).
    void theCollectiveTheRanksWaitedInDecides() {
        auto rank = [](int64_t r, TimeNs allReduceAt) {
            RankEntry e;
            e.rank = r;
            RankStep s;
            s.number = 7;
            s.span = {0, 1000};
            s.collectives = {{"ncclKernel_Broadcast", 100, 150, std::nullopt},
                             {"ncclKernel_AllReduce", allReduceAt, 900,
                              RankWork{"backward", false, {150, allReduceAt}}}};
            s.pickCollective(0);
            e.figures.steps.push_back(s);
            return e;
        };
        std::vector<RankEntry> ranks = {rank(0, 200), rank(1, 500), rank(2, 260)};
        const RankComparison c = compareRanks(ranks);
        QCOMPARE(c.stragglers.size(), size_t(1));
        const StepStraggler& st = c.stragglers.front();
        QCOMPARE(st.rank, int64_t(1));
        QCOMPARE(st.collective, std::string("ncclKernel_AllReduce"));
        QCOMPARE(st.enteredAt, TimeNs(500));
        QCOMPARE(st.othersWait, TimeNs(300 + 240));
        QCOMPARE(st.longestWaitRank, int64_t(0));
        QVERIFY(st.instead && st.instead->span.length() == 350);
        QCOMPARE(*ranks[0].figures.steps[0].wait, TimeNs(300));
        QCOMPARE(*ranks[0].figures.steps[0].transfer, TimeNs(400));
        QCOMPARE(*ranks[2].figures.steps[0].collectiveEnter, TimeNs(260));
        // Two broadcasts of one name are matched by occurrence: rank 1's
        // second broadcast is late, and that match decides.
        for (RankEntry& e : ranks) {
            RankStep& s = e.figures.steps[0];
            s.collectives = {{"b", 100, 110, std::nullopt},
                             {"b", e.rank == 1 ? 400 : 120, 450, std::nullopt}};
            s.wait.reset();
        }
        const RankComparison again = compareRanks(ranks);
        QCOMPARE(again.stragglers.front().enteredAt, TimeNs(400));
        QCOMPARE(again.stragglers.front().othersWait, TimeNs(2 * 280));
    }

    // A rank's figures from a crafted cache entry (each checked for range,
    // not their sums): its GPU time and the job's totals stop at the ends
    // of int64 instead of wrapping.
    void figuresAtTheEndsOfTheRangeSaturate() {
        RankEntry e;
        RankStep s;
        s.span = {0, INT64_MAX};
        s.busy = INT64_MAX;
        s.idle = 1;
        QCOMPARE(s.gpuTime(), TimeNs(INT64_MAX));
        e.figures.steps = {s, s};
        const RankTotals t = rankTotals(e.figures);
        QCOMPARE(t.gpuTime, TimeNs(INT64_MAX));
        QCOMPARE(t.busy, TimeNs(INT64_MAX));
        QCOMPARE(t.duration, TimeNs(INT64_MAX));
        s.span = {INT64_MIN, INT64_MAX};
        QCOMPARE(s.duration(), TimeNs(INT64_MAX));
    }

    void generatedRanksMatchTheReference() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QStringList files =
            makeRankSet(dir_.filePath("seeds"),
                        {"--ranks", "3", "--steps", "6", "--straggler", "1", "--shift-us", "250"});
        QCOMPARE(files.size(), 3);
        // Steps are numbered from 4: aligned on 5, and on 2 (no rank has it).
        for (const std::optional<int64_t> align :
             {std::optional<int64_t>{}, std::optional<int64_t>{5}, std::optional<int64_t>{2}}) {
            const Compared c = compare(toStd(files), align);
            compareWithReference(c, reference(toStd(files), align));
            if (QTest::currentTestFailed()) return;
        }
    }

    // Ranks are merged as they load, in their loading order while that is
    // their rank order; the merged trace is, field for field, the one
    // merged once all are at hand. Given in order, with a broken file among
    // them (ranked last, never merged), with a file stating a rank another
    // has (numbered after the largest: held and merged at the end; given
    // before others, it renumbers them, held and merged at the end too),
    // reversed (loaded in the order their names state), reversed under
    // names that state no rank (in the order their heads state), and so
    // with the rank past the head (the loading order is not theirs: loaded
    // again); each with one file at a time, two, and two with one rank at
    // most waiting; unaligned and aligned.
    void ranksMergedAsTheyLoadAreMergedAtTheEnd() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QString dir = dir_.filePath("streamed");
        const std::vector<std::string> files =
            toStd(makeRankSet(dir, {"--ranks", "5", "--steps", "3"}));
        QCOMPARE(files.size(), size_t(5));
        const std::string broken = (dir + "/broken.json").toStdString();
        const std::string again = (dir + "/again.json").toStdString();
        {
            QFile b(QString::fromStdString(broken));
            QVERIFY(b.open(QIODevice::WriteOnly));
            b.write("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1,");
            QVERIFY(QFile::copy(QString::fromStdString(files[1]), QString::fromStdString(again)));
        }
        // Names that state no rank: "a.json" is rank 4, "e.json" rank 0, as
        // their heads say; "late_a.json"... the same with 70 KB before
        // distributedInfo, past the head read for the hint.
        std::vector<std::string> unnamed, late;
        for (size_t r = 0; r < files.size(); ++r) {
            const QString from = QString::fromStdString(files[files.size() - 1 - r]);
            unnamed.push_back((dir + "/" + QChar('a' + int(r)) + ".json").toStdString());
            QVERIFY(QFile::copy(from, QString::fromStdString(unnamed.back())));
            QFile in(from);
            QVERIFY(in.open(QIODevice::ReadOnly));
            const auto original = nlohmann::ordered_json::parse(in.readAll().toStdString());
            nlohmann::ordered_json padded;
            padded["padding"] = std::string(70000, 'x');
            for (const auto& [key, value] : original.items())
                padded[key] = value;
            late.push_back((dir + "/late_" + QChar('a' + int(r)) + ".json").toStdString());
            QFile out(QString::fromStdString(late.back()));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QByteArray::fromStdString(padded.dump()));
        }
        struct Case {
            const char* what;
            std::vector<std::string> given;
            bool asLoaded;
            size_t ranks;
        };
        const std::vector<Case> cases = {
            {"in order", files, true, 5},
            {"a broken file", {files[0], files[1], broken, files[2], files[3], files[4]}, true, 5},
            {"a rank twice", {files[0], files[1], files[2], files[3], again}, true, 5},
            // The second rank 1 is numbered 2 here, and the files after it
            // one more than they state.
            {"a rank twice, before others",
             {files[0], files[1], again, files[2], files[3]},
             true,
             5},
            {"reversed", {files.rbegin(), files.rend()}, true, 5},
            {"reversed, unnamed", unnamed, true, 5},
            {"reversed, unnamed, stated late", late, false, 5},
        };
        // Two at once, also with one rank at most waiting for the merge: the
        // workers then wait for it all the time.
        const std::vector<std::pair<unsigned, size_t>> ways = {{1, 0}, {2, 0}, {2, 1}};
        for (const Case& c : cases) {
            for (const auto& [workers, ahead] : ways) {
                for (const std::optional<int64_t> align :
                     {std::optional<int64_t>{}, std::optional<int64_t>{5}}) {
                    const QByteArray what = QByteArray(c.what) + ", " +
                                            QByteArray::number(workers) + " at once" +
                                            (ahead ? ", 1 ahead" : "") + (align ? ", aligned" : "");
                    RankViewOptions options;
                    options.load.workers = workers;
                    options.ranksAhead = ahead;
                    options.alignOnStep = align;
                    const RankView view =
                        loadRankView(wholeFiles(c.given), dir.toStdString(), options);
                    QVERIFY2(view.trace, what.constData());
                    QVERIFY2(view.mergedAsLoaded == c.asLoaded, what.constData());
                    QCOMPARE(view.trace->ranks.size(), c.ranks);
                    const std::shared_ptr<const Trace> whole =
                        mergedAtTheEnd(view, dir.toStdString());
                    QVERIFY2(whole, what.constData());
                    QVERIFY2(canonicalDump(*view.trace) == canonicalDump(*whole), what.constData());
                    if (align) QVERIFY2(view.trace->ranks.back().offset != 0, what.constData());
                    // Each track's index, moved with its rank's slices, is
                    // the one built over them in place.
                    for (const Track& tr : view.trace->tracks) {
                        HugeVector<uint32_t> ids(tr.sliceCount());
                        for (uint32_t i = 0; i < ids.size(); ++i)
                            ids[i] = tr.sliceBegin + i;
                        IntervalIndex built;
                        built.build(view.trace->slices, std::move(ids));
                        QVERIFY2(tr.index.order() == built.order() &&
                                     tr.index.maxEnds() == built.maxEnds() &&
                                     tr.index.base() == built.base() &&
                                     tr.index.shift() == built.shift(),
                                 what.constData());
                    }
                }
            }
        }
    }

    // Ranks from file names when the traces all say rank 0; a file that
    // fails is reported and the others open; two files of one rank.
    void namesCollisionsAndFailures() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QString dir = dir_.filePath("named");
        QStringList files = makeRankSet(dir, {"--ranks", "3", "--steps", "2", "--no-rank-info",
                                              "--name", "worker{r}.pt.trace.json"});
        QCOMPARE(files.size(), 3);
        {
            QFile broken(dir + "/worker7.pt.trace.json");
            QVERIFY(broken.open(QIODevice::WriteOnly));
            broken.write("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1,");
        }
        // Reversed on purpose: the ranks come from the traces and names, not the order.
        std::vector<std::string> given = {(dir + "/worker7.pt.trace.json").toStdString()};
        for (auto it = files.rbegin(); it != files.rend(); ++it)
            given.push_back(it->toStdString());
        const Compared c = compare(given);
        QCOMPARE(c.loaded.ranks.size(), size_t(4));
        QCOMPARE(c.loaded.failedCount(), size_t(1));
        // Every trace says rank 0: the first (in the order given) keeps it.
        const RankLoad& failed = *std::find_if(c.loaded.ranks.begin(), c.loaded.ranks.end(),
                                               [](const RankLoad& r) { return r.result.failure; });
        QVERIFY(failed.file.find("worker7") != std::string::npos);
        QVERIFY(failed.result.failure->message().find("worker7.pt.trace.json") !=
                std::string::npos);
        QCOMPARE(failed.rank, int64_t(7));  // from its name
        QCOMPARE(failed.origin, RankOrigin::FileName);
        QCOMPARE(c.entries.size(), size_t(3));
        QCOMPARE(c.loaded.warnings.size(), size_t(2));  // two more files say rank 0
        const std::vector<int64_t> ranks = {c.entries[0].rank, c.entries[1].rank,
                                            c.entries[2].rank};
        QCOMPARE(ranks, (std::vector<int64_t>{0, 1, 2}));
        QVERIFY(c.entries[0].file.find("worker2") != std::string::npos);  // first given
    }

    // TensorFlow's two-host run: each host file a rank, named by its host,
    // in one view; each rank's GPUs and figures as its file's alone.
    void aTwoHostXSpaceRunIsTwoRanks() {
        GAPSCOPE_REQUIRE_SHARED();
        const std::string run =
            (test::sharedTraces() + "/xprof/demo/plugins/profile/GPU-multi-worker").toStdString();
        const RankFileList list =
            rankFilesOf({(test::sharedTraces() + "/xprof/demo").toStdString()});
        QVERIFY2(list.error.empty(), list.error.c_str());
        QCOMPARE(list.run, std::string("GPU-multi-worker"));
        QCOMPARE(list.files.size(), size_t(2));
        RankViewOptions options;
        const RankView view = loadRankView(wholeFiles(list.files), run, options);
        QVERIFY(view.trace);
        QCOMPARE(view.trace->ranks.size(), size_t(2));
        const std::vector<std::string> hosts = {"34.83.195.179_6003", "34.83.195.180_6003"};
        for (size_t r = 0; r < 2; ++r) {
            QCOMPARE(view.ranks[r].rank, int64_t(r));  // by order: the names state none
            QCOMPARE(view.origins.at(view.ranks[r].file), RankOrigin::Order);
            QCOMPARE(view.ranks[r].host, hosts[r]);
            QCOMPARE(view.trace->ranks[r].host, hosts[r]);
            const LoadResult alone = loadTrace(list.files[r]);
            QVERIFY(alone.trace);
            QCOMPARE(view.trace->ranks[r].gpuDevices.size(), alone.trace->gpuDevices.size());
            const RankFigures f = rankFigures(*alone.trace);
            QCOMPARE(view.ranks[r].figures.device, f.device);
            QCOMPARE(view.ranks[r].figures.steps.size(), f.steps.size());
            for (size_t s = 0; s < f.steps.size(); ++s)
                QCOMPARE(view.ranks[r].figures.steps[s].busy, f.steps[s].busy);
        }
        // Headers name the rank, not the host again (the rank's header has it).
        const std::string& gpu =
            view.trace->processes[view.trace->ranks[1].firstProcess].displayName;
        QVERIFY2(gpu.find("rank 1 \u00b7 ") == 0 && gpu.find("34.83") == std::string::npos,
                 gpu.c_str());
    }

    // Aligning a rank whose stray event sits far from its steps would carry
    // it out of the int64 range (+8e18 ns onto 4.5e18): that rank stays as
    // written, the view opens.
    void anAlignmentThatWouldOverflowLeavesTheRankAsWritten() {
        const QString dir = dir_.filePath("overflow");
        QVERIFY(QDir().mkpath(dir));
        auto write = [&](const QString& name, const std::string& events) {
            QFile f(dir + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(("[" + events + "]").c_str());
        };
        const std::string step =
            R"({"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,)";
        write("rank0.json", step + R"("ts":4000000000000000,"dur":10})");
        write("rank1.json",
              step + R"("ts":-4000000000000000,"dur":10},)" +
                  R"({"ph":"X","name":"stray","pid":1,"tid":1,"ts":4500000000000000,"dur":1})");
        const std::vector<std::string> files = rankFilesOf({dir.toStdString()}).files;
        QCOMPARE(files.size(), size_t(2));
        RankViewOptions options;
        options.alignOnStep = 1;
        const RankView view = loadRankView(wholeFiles(files), dir.toStdString(), options);
        QVERIFY2(view.trace, view.failure ? view.failure->message().c_str() : "");
        QCOMPARE(view.comparison.unaligned, (std::vector<int64_t>{1}));
        QCOMPARE(view.ranks[1].offset, TimeNs(0));
        QCOMPARE(view.trace->ranks[1].offset, TimeNs(0));
    }

    // Two ranks whose clocks are 1 ms apart (rank 1 wrote every time 1 ms
    // later): their all-reduce ended on rank 0 (at 400 us) 900 us before
    // rank 1 entered it (at 1300 us), which no collective can. The
    // comparison names it, the merged trace's health counts it; aligned on
    // the step, the clocks agree and neither does.
    void ranksWhoseClocksDisagreeAreNamed() {
        const QString dir = dir_.filePath("clocks");
        QVERIFY(QDir().mkpath(dir));
        for (int rank = 0; rank < 2; ++rank) {
            const int64_t off = rank * 1000;
            auto at = [&](int64_t us) { return std::to_string(off + us); };
            const std::string gpu =
                R"("cat":"kernel","pid":0,"tid":7,"args":{"device":0,"stream":7})";
            QFile f(dir + "/rank" + QString::number(rank) + ".json");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                ("{\"distributedInfo\":{\"rank\":" + std::to_string(rank) + "},\"traceEvents\":[" +
                 R"({"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":)" +
                 at(0) + R"(,"dur":1000},{"ph":"X","name":"gemm",)" + gpu + ",\"ts\":" + at(100) +
                 R"(,"dur":100},{"ph":"X","name":"ncclKernel_AllReduce",)" + gpu +
                 ",\"ts\":" + at(300) + ",\"dur\":100}]}")
                    .c_str());
        }
        const std::vector<std::string> files = rankFilesOf({dir.toStdString()}).files;
        for (const bool aligned : {false, true}) {
            RankViewOptions options;
            if (aligned) options.alignOnStep = 1;
            const RankView view = loadRankView(wholeFiles(files), dir.toStdString(), options);
            QVERIFY2(view.trace, view.failure ? view.failure->message().c_str() : "");
            const TraceHealth health = traceHealth(*view.trace);
            const HealthCheck* clocks = health.find("rank_clocks");
            QVERIFY(clocks);
            if (aligned) {
                QVERIFY(view.comparison.clockDisagreements.empty());
                QCOMPARE(clocks->count, uint64_t(0));
                continue;
            }
            QCOMPARE(view.comparison.clockDisagreements.size(), size_t(1));
            const ClockDisagreement& d = view.comparison.clockDisagreements.front();
            QCOMPARE(d.step, int64_t(1));
            QCOMPARE(d.collective, std::string("ncclKernel_AllReduce"));
            QCOMPARE(d.endedRank, int64_t(0));
            QCOMPARE(d.endedAt, TimeNs(400'000));
            QCOMPARE(d.enteredRank, int64_t(1));
            QCOMPARE(d.enteredAt, TimeNs(1'300'000));
            QCOMPARE(d.by(), TimeNs(900'000));
            QCOMPARE(clocks->count, uint64_t(1));
            QCOMPARE(clocks->severity, HealthSeverity::Warning);
            QCOMPARE(clocks->detail, d.sentence());
            // Not counted again among the other warnings.
            QCOMPARE(health.find("import_warnings")->count, uint64_t(0));
        }
        // A single trace has no such check.
        const LoadResult one = loadTrace(files.front());
        QVERIFY(one.trace);
        QVERIFY(!traceHealth(*one.trace).find("rank_clocks"));
    }

    // A report of two ranks' processes (make_nsys_fixtures.py's
    // two-rank export) means two ranks, one process each; each part is read
    // alone, with an index cache entry of its own, and the merged view has
    // both with their own GPUs.
    void processesOfOneExportAreRanks() {
        const QString out = dir_.filePath("nsys");
        QProcess gen;
        gen.start("python3", {test::sourceDir() + "/tests/tools/make_nsys_fixtures.py", out});
        QVERIFY(gen.waitForFinished(60000));
        QCOMPARE(gen.exitCode(), 0);
        const std::string file = (out + "/nsys_2024_two_ranks.sqlite").toStdString();
        const PathMeaning m = meaningOfPaths({file});
        QCOMPARE(m.kind, PathMeaning::Kind::Ranks);
        QVERIFY(m.processesOfOneFile());
        QCOMPARE(m.path, file);
        QCOMPARE(m.sources.size(), size_t(2));
        QCOMPARE(m.sources[0].part.label, std::string("process 4242 (python3)"));
        QCOMPARE(m.sources[1].part.pid, int64_t(4343));
        // The first rank also keeps the launcher (no rank's process).
        QVERIFY(m.sources[0].part.processes.keeps(4200));
        QVERIFY(!m.sources[0].part.processes.keeps(4343));
        QVERIFY(!m.sources[1].part.processes.keeps(4200));
        // One process's export is one trace.
        QCOMPARE(meaningOfPaths({(out + "/nsys_2024_schema.sqlite").toStdString()}).kind,
                 PathMeaning::Kind::Trace);

        const IndexCache cache(dir_.filePath("parts-cache").toStdString());
        RankLoadOptions options;
        options.load.cache = &cache;
        for (const char* expected : {"written", "hit"}) {
            const RankSetLoad loaded = loadRanks(m.sources, options);
            QCOMPARE(loaded.ranks.size(), size_t(2));
            for (size_t r = 0; r < 2; ++r) {
                const RankLoad& load = loaded.ranks[r];
                QVERIFY2(load.result.trace, load.result.cacheNote.c_str());
                QVERIFY2(load.result.cacheNote.find(expected) != std::string::npos,
                         load.result.cacheNote.c_str());
                QCOMPARE(load.rank, int64_t(r));
                QCOMPARE(load.origin, RankOrigin::Process);
                QCOMPARE(load.part, m.sources[r].part.label);
                // Each part its own GPUs (the plan's 0 and 1, then 2 and 3).
                const Trace& t = *load.result.trace;
                QCOMPARE(t.gpuDevices.size(), size_t(2));
                QCOMPARE(t.gpuDevices[0].index, int(2 * r));
            }
        }
        const RankView view = loadRankView(m.sources, m.path, {});
        QVERIFY2(view.trace, view.failure ? view.failure->message().c_str() : "");
        QCOMPARE(view.ranks.size(), size_t(2));
        QCOMPARE(view.trace->ranks[1].part, std::string("process 4343 (python3)"));
        QCOMPARE(view.trace->gpuDevices.size(), size_t(4));
        // A part of anything but an Nsight export is refused.
        LoadOptions wrong;
        wrong.part = m.sources[1].part;
        const LoadResult refused = loadTrace(test::samplePath().toStdString(), wrong);
        QVERIFY(refused.failure);
        QVERIFY2(refused.failure->what.find("only an Nsight Systems export") != std::string::npos,
                 refused.failure->what.c_str());
    }

    // Each file of a job has its own index cache entry: the second opening
    // of the ranks is a cache hit per file, with the same figures.
    void eachRankFileIsCached() {
        GAPSCOPE_REQUIRE_SHARED();
        const std::vector<std::string> files = rankFilesOf({dlrmFolder().toStdString()}).files;
        const IndexCache cache(dir_.filePath("rank-cache").toStdString());
        RankLoadOptions options;
        options.load.cache = &cache;
        options.workers = 2;
        const RankSetLoad first = loadRanks(files, options);
        const RankSetLoad second = loadRanks(files, options);
        QCOMPARE(second.ranks.size(), files.size());
        for (size_t i = 0; i < files.size(); ++i) {
            QVERIFY2(first.ranks[i].result.cacheNote.find("written") != std::string::npos,
                     first.ranks[i].result.cacheNote.c_str());
            QCOMPARE(second.ranks[i].result.cacheNote, std::string("hit"));
            QVERIFY(second.ranks[i].result.trace->fromCache);
            QCOMPARE(second.ranks[i].rank, first.ranks[i].rank);
            const RankFigures a = rankFigures(*first.ranks[i].result.trace);
            const RankFigures b = rankFigures(*second.ranks[i].result.trace);
            QCOMPARE(a.steps.size(), b.steps.size());
            QCOMPARE(a.steps[0].busy, b.steps[0].busy);
            QCOMPARE(a.steps[0].collectiveEnter, b.steps[0].collectiveEnter);
        }
        // Their merged view is not a file's entry (the job has its own: tst_job_cache).
        RankViewOptions vo;
        vo.load = options;
        const RankView view = loadRankView(wholeFiles(files), dlrmFolder().toStdString(), vo);
        QVERIFY(view.trace);
        QVERIFY(!cache.store(*view.trace).empty());
    }

    // All ranks in one trace for one timeline: each rank's slices, GPU busy
    // time, breakdown, gaps with their causes and args are those of its
    // file opened alone; aligned, its times move by its offset.
    void theMergedViewKeepsEveryRank() {
        GAPSCOPE_REQUIRE_SHARED();
        const std::vector<std::string> files = rankFilesOf({dlrmFolder().toStdString()}).files;
        for (const std::optional<int64_t> align :
             {std::optional<int64_t>{}, std::optional<int64_t>{10}}) {
            RankViewOptions options;
            options.load.workers = 2;
            options.alignOnStep = align;
            const RankView view =
                loadRankView(wholeFiles(files), dlrmFolder().toStdString(), options);
            QVERIFY(view.trace);
            const Trace& m = *view.trace;
            QCOMPARE(m.ranks.size(), size_t(8));
            QCOMPARE(view.ranks.size(), size_t(8));
            size_t slices = 0;
            for (size_t r = 0; r < m.ranks.size(); ++r) {
                const TraceRank& tr = m.ranks[r];
                QCOMPARE(tr.rank, int64_t(r));
                QCOMPARE(tr.offset, view.ranks[r].offset);
                const LoadResult alone = loadTrace(tr.file);
                QVERIFY(alone.trace);
                const Trace& a = *alone.trace;
                slices += a.slices.size();
                QCOMPARE(size_t(tr.sliceCount), a.slices.size());
                for (uint32_t i = 0; i < tr.sliceCount; i += 97) {
                    const Slice& x = m.slices[tr.firstSlice + i];
                    const Slice& y = a.slices[i];
                    QCOMPARE(x.start, y.start + tr.offset);
                    QCOMPARE(x.dur, y.dur);
                    QCOMPARE(m.str(x.name), a.str(y.name));
                    QCOMPARE(m.argsText(x.args).json, a.argsText(y.args).json);
                }
                QCOMPARE(tr.gpuDevices.size(), a.gpuDevices.size());
                for (size_t d = 0; d < a.gpuDevices.size(); ++d) {
                    const GpuDevice& one = a.gpuDevices[d];
                    const GpuDevice* many = nullptr;
                    for (const GpuDevice& g : m.gpuDevices)
                        if (g.index == tr.gpuDevices[d]) many = &g;
                    QVERIFY(many);
                    QCOMPARE(many->busyNs, one.busyNs);
                    QCOMPARE(many->group, uint32_t(r));
                    // Named by the rank and the GPU's index in its own file.
                    QCOMPARE(m.gpuLabel(many->index), "rank " + std::to_string(tr.rank) +
                                                          " \u00b7 GPU " +
                                                          std::to_string(one.index));
                    QCOMPARE(a.gpuLabel(one.index), "GPU " + std::to_string(one.index));
                    const Interval shiftedSpan{kWholeTrace.start, kWholeTrace.end};
                    const GpuTimeBreakdown b1 = timeBreakdown(a, one, shiftedSpan);
                    const GpuTimeBreakdown b2 = timeBreakdown(m, *many, shiftedSpan);
                    QCOMPARE(b2.computation, b1.computation);
                    QCOMPARE(b2.exposedComm, b1.exposedComm);
                    QCOMPARE(b2.exposedMemcpy, b1.exposedMemcpy);
                    QCOMPARE(b2.idle, b1.idle);
                    // The gaps and their causes: the host is the rank's own.
                    const std::vector<DeviceGaps> g1 = gapsWithCauses(a);
                    const std::vector<DeviceGaps> g2 = gapsWithCauses(m);
                    const DeviceGaps* mine = nullptr;
                    for (const DeviceGaps& g : g2)
                        if (g.device == many->index) mine = &g;
                    QVERIFY(mine);
                    const DeviceGaps& theirs = g1.at(d);
                    QCOMPARE(mine->gaps.size(), theirs.gaps.size());
                    for (size_t k = 0; k < mine->gaps.size(); ++k) {
                        QCOMPARE(mine->gaps[k].gap.start, theirs.gaps[k].gap.start + tr.offset);
                        QCOMPARE(mine->gaps[k].cause, theirs.gaps[k].cause);
                        QCOMPARE(mine->gaps[k].evidence.size(), theirs.gaps[k].evidence.size());
                        for (size_t e = 0; e < mine->gaps[k].evidence.size(); ++e)
                            QCOMPARE(m.str(m.slices[mine->gaps[k].evidence[e]].name),
                                     a.str(a.slices[theirs.gaps[k].evidence[e]].name));
                    }
                }
                QVERIFY(m.processes[tr.firstProcess].displayName.rfind(
                            "rank " + std::to_string(r) + " \u00b7 ", 0) == 0);
            }
            QCOMPARE(m.slices.size(), slices);
            if (align) {
                // Aligned on step 10: every rank's step starts together.
                const TimeNs start = view.ranks.front().figures.steps.front().span.start;
                for (const RankEntry& e : view.ranks)
                    QCOMPARE(e.figures.steps.front().span.start, start);
            }
        }
    }

    // The fleet table read back (the viewer opens it) is the table written;
    // a malformed one says where it is wrong.
    void ranksJsonReadsBack() {
        GAPSCOPE_REQUIRE_SHARED();
        const Compared c = compare(rankFilesOf({dlrmFolder().toStdString()}).files);
        std::vector<RankRow> rows;
        for (const RankEntry& e : c.entries)
            rows.push_back({e, "file name", ""});
        const std::string written = ranksJson(rows, c.comparison);
        std::string error;
        const auto doc = parseRanksJson(written, error);
        QVERIFY2(doc, error.c_str());
        QCOMPARE(doc->ranks.size(), size_t(8));
        QCOMPARE(doc->comparison.stragglers.size(), size_t(1));
        QVERIFY(!doc->fleet);
        const json again = json::parse(ranksJson(doc->ranks, doc->comparison));
        COMPARE_JSON(again, json::parse(written));
        json broken = json::parse(written);
        broken["ranks"][3]["steps"][0]["busy_ns"] = "lots";
        QVERIFY(!parseRanksJson(broken.dump(), error));
        QCOMPARE(error, std::string("ranks[3].steps[0].busy_ns: not an integer"));
        broken = json::parse(written);
        broken["stragglers"][0]["rank"] = 99;
        QVERIFY(!parseRanksJson(broken.dump(), error));
        QCOMPARE(error, std::string("stragglers[0].rank: names no rank of the document"));
        QVERIFY(!parseRanksJson("[1, 2", error));
        QCOMPARE(error, std::string("not JSON"));
        QVERIFY(!parseRanksJson("[]", error));
        QCOMPARE(error, std::string("the document: not an object"));
    }

    // The CLI against the reference: each rank's step, the straggler, the
    // sentence that names it, each step's collectives, and each file alone.
    void theCliComparesRanks() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        const test::CliRun r = test::runCli({"ranks", dlrmFolder(), "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const json j = json::parse(r.out.toStdString());
        QCOMPARE(j["ranks"].size(), size_t(8));
        QCOMPARE(j["rank_steps"].size(), size_t(8));  // one step each
        QCOMPARE(j["ranks_compared"].get<int>(), 8);
        const json ref = reference(rankFilesOf({dlrmFolder().toStdString()}).files);
        QCOMPARE(j["stragglers"].size(), ref["stragglers"].size());
        COMPARE_JSON(j["stragglers"][0]["rank"], ref["stragglers"][0]["rank"]);
        COMPARE_JSON(j["stragglers"][0]["others_wait_ns"], ref["stragglers"][0]["others_wait_ns"]);
        QCOMPARE(j["findings"].size(), size_t(1));
        QCOMPARE(j["findings"][0]["rule"].get<std::string>(), std::string("straggler"));
        for (size_t i = 0; i < 8; ++i) {
            const json& step = j["rank_steps"][i];
            const json& want = ref["ranks"][i]["steps"][0];
            COMPARE_JSON(step["rank"], ref["ranks"][i]["rank"]);
            for (const char* key : {"start_ns", "busy_ns", "comm_ns", "exposed_comm_ns"})
                COMPARE_JSON(step[key], want[key]);
            COMPARE_JSON(step["duration_ns"],
                         want["end_ns"].get<int64_t>() - want["start_ns"].get<int64_t>());
            // Each step's collectives (what the fleet tool gathers) are the
            // reference's, with the longest work before each.
            std::vector<json> collectives;
            for (const json& c : j["collectives"])
                if (c["rank"] == step["rank"]) collectives.push_back(c);
            QCOMPARE(step["collectives"].get<size_t>(), want["collectives"].size());
            QCOMPARE(collectives.size(), want["collectives"].size());
            for (size_t c = 0; c < collectives.size(); ++c) {
                const json& w = want["collectives"][c];
                COMPARE_JSON(collectives[c]["collective"], w["name"]);
                COMPARE_JSON(collectives[c]["enter_ns"], w["enter_ns"]);
                COMPARE_JSON(collectives[c]["end_ns"], w["end_ns"]);
                COMPARE_JSON(collectives[c]["work_before"].is_null(), w["work_before"].is_null());
                if (!w["work_before"].is_null())
                    for (const char* key : {"name", "where", "start_ns", "end_ns"})
                        COMPARE_JSON(collectives[c]["work_before"][key], w["work_before"][key]);
            }
            // The file alone holds the same rank and step (without the wait
            // and the transfer, which need the other ranks).
            const QString file = QString::fromStdString(j["ranks"][i]["file"].get<std::string>());
            const test::CliRun s = test::runCli({"ranks", file, "--format", "json"});
            QCOMPARE(s.exitCode, 0);
            const json alone = json::parse(s.out.toStdString());
            COMPARE_JSON(alone["ranks"][0]["rank"], j["ranks"][i]["rank"]);
            const json& own = alone["rank_steps"][0];
            for (const char* key : {"start_ns", "busy_ns", "idle_ns", "comm_ns", "exposed_comm_ns"})
                COMPARE_JSON(own[key], step[key]);
            QVERIFY(own["wait_ns"].is_null());
            COMPARE_JSON(alone["collectives"].size(), collectives.size());
        }
        const test::CliRun table = test::runCli({"ranks", dlrmFolder()});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(
            table.out.contains("entered ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, "
                               "unsigned long, ncclWork*) last; the other 7 waited"));
        const test::CliRun none = test::runCli({"ranks", dir_.filePath("no-such-folder")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY(none.err.contains("no-such-folder"));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestRanks)
#include "tst_ranks.moc"
