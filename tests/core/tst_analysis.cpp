// core/analysis against brute force on generated traces (both profiles,
// several seeds, two GPUs): self time, range summaries and flow queries.
// The brute-force side scans every slice of the model and never calls the
// index, the row layout queries or the function under test.

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "analysis/slice_queries.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

// Direct children of slice `p` by scanning its whole track: same lane,
// one level deeper, overlapping; their time inside the parent.
TimeNs childrenTimeByScan(const Trace& t, uint32_t p) {
    const Slice& s = t.slices[p];
    const Track& track = t.tracks[t.trackOfSlice(p)];
    const uint16_t lane = track.rows[s.row].lane;
    TimeNs total = 0;
    for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
        const Slice& c = t.slices[i];
        if (track.rows[c.row].lane != lane || c.depth != s.depth + 1) continue;
        total += std::max<TimeNs>(0, std::min(c.end(), s.end()) - std::max(c.start, s.start));
    }
    return total;
}

// The range summary by scanning every slice of the trace.
std::map<StringId, NameTotal> summaryByScan(const Trace& t, TimeNs t0, TimeNs t1) {
    std::map<StringId, NameTotal> out;
    for (const Slice& s : t.slices) {
        if (s.start > t1 || s.end() < t0) continue;
        NameTotal& n = out[s.name];
        n.name = s.name;
        ++n.count;
        n.totalNs += std::max<TimeNs>(0, std::min(s.end(), t1) - std::max(s.start, t0));
    }
    return out;
}

}  // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString lastTrace_;  // the file generate() wrote last

    std::shared_ptr<const Trace> generate(const QString& profile, int seed) {
        const test::Generated g = test::generateTrace(
            dir_.path(), QStringLiteral("%1_%2.json").arg(profile).arg(seed),
            {"--profile", profile, "--gpus", "2", "--steps", "3", "--seed", QString::number(seed)});
        if (!g.error.isEmpty()) {
            QTest::qFail(qPrintable(g.error), __FILE__, __LINE__);
            return nullptr;
        }
        lastTrace_ = g.trace;
        const LoadResult r = loadTrace(g.trace.toStdString());
        if (!r.trace) QTest::qFail("the generated trace did not load", __FILE__, __LINE__);
        return r.trace;
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Two top-level slices that overlap without nesting (so the second goes
    // to a lane of its own), each with a child: a child counts against its
    // own lane's parent only. The total self time is layout-independent.
    void selfTimeKeepsToItsLane() {
        const LoadResult r =
            test::loadJsonText(R"([{"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":100},)"
                               R"({"ph":"X","name":"A1","pid":1,"tid":1,"ts":10,"dur":20},)"
                               R"({"ph":"X","name":"B","pid":1,"tid":1,"ts":50,"dur":100},)"
                               R"({"ph":"X","name":"B1","pid":1,"tid":1,"ts":60,"dur":30}])");
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.tracks.size(), size_t(1));
        QVERIFY(t.tracks[0].laneCount >= 2);
        TimeNs total = 0;
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            const TimeNs self = selfTime(t, i);
            QCOMPARE(self, std::max<TimeNs>(0, t.slices[i].dur - childrenTimeByScan(t, i)));
            if (t.str(t.slices[i].name).size() == 1) total += self;  // A and B
        }
        QCOMPARE(total, TimeNs((100 + 100 - 20 - 30) * 1000));
    }

    // The arrow keys' walk, on a timeline worked out by hand (µs):
    // A [0,100) holds B [10,20) and C [30,50), C holds D [35,40); E [200,300)
    // follows A; F [500,510) is on another thread.
    void neighbourSlicesWalkTheRows() {
        const LoadResult r =
            test::loadJsonText(R"([{"ph":"X","name":"A","pid":1,"tid":1,"ts":0,"dur":100},)"
                               R"({"ph":"X","name":"B","pid":1,"tid":1,"ts":10,"dur":10},)"
                               R"({"ph":"X","name":"C","pid":1,"tid":1,"ts":30,"dur":20},)"
                               R"({"ph":"X","name":"D","pid":1,"tid":1,"ts":35,"dur":5},)"
                               R"({"ph":"X","name":"E","pid":1,"tid":1,"ts":200,"dur":100},)"
                               R"({"ph":"X","name":"F","pid":1,"tid":2,"ts":500,"dur":10}])");
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        std::map<std::string, uint32_t> id;
        for (uint32_t i = 0; i < t.slices.size(); ++i)
            id[std::string(t.str(t.slices[i].name))] = i;
        const auto walk = [&](const char* from, SliceStep step) -> std::string {
            const uint32_t to = neighbourSlice(t, id.at(from), step);
            return to == kNone ? "-" : std::string(t.str(t.slices[to].name));
        };
        QCOMPARE(walk("A", SliceStep::Next), std::string("E"));
        QCOMPARE(walk("E", SliceStep::Previous), std::string("A"));
        QCOMPARE(walk("A", SliceStep::Previous), std::string("-"));
        QCOMPARE(walk("E", SliceStep::Next), std::string("-"));  // F is another thread's
        QCOMPARE(walk("A", SliceStep::FirstChild), std::string("B"));
        QCOMPARE(walk("B", SliceStep::Next), std::string("C"));
        QCOMPARE(walk("C", SliceStep::Next), std::string("-"));
        QCOMPARE(walk("D", SliceStep::Parent), std::string("C"));
        QCOMPARE(walk("C", SliceStep::Parent), std::string("A"));
        QCOMPARE(walk("A", SliceStep::Parent), std::string("-"));
        QCOMPARE(walk("B", SliceStep::FirstChild), std::string("-"));
        QCOMPARE(walk("E", SliceStep::FirstChild), std::string("-"));
        QCOMPARE(neighbourSlice(t, uint32_t(t.slices.size()), SliceStep::Next), kNone);
    }

    void cases_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<int>("seed");
        for (const char* profile : {"kineto", "tensorflow"})
            for (const int seed : {3, 19})
                QTest::addRow("%s seed %d", profile, seed) << QString(profile) << seed;
    }

    void selfTimeMatchesBruteForce_data() { cases_data(); }
    void selfTimeMatchesBruteForce() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QFETCH(QString, profile);
        QFETCH(int, seed);
        const auto trace = generate(profile, seed);
        if (!trace) return;
        const Trace& t = *trace;
        QVERIFY(t.slices.size() > 1000);
        int nested = 0;
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            const TimeNs want = std::max<TimeNs>(0, t.slices[i].dur - childrenTimeByScan(t, i));
            const TimeNs got = selfTime(t, i);
            if (got != want)
                QFAIL(qPrintable(QStringLiteral("slice %1 (%2): self %3, brute force %4")
                                     .arg(i)
                                     .arg(QString::fromUtf8(t.str(t.slices[i].name)))
                                     .arg(got)
                                     .arg(want)));
            nested += want < t.slices[i].dur;
        }
        QVERIFY2(nested > 100, "the traces must have nesting for this to mean anything");
    }

    void rangeSummaryMatchesBruteForce_data() { cases_data(); }
    void rangeSummaryMatchesBruteForce() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QFETCH(QString, profile);
        QFETCH(int, seed);
        const auto trace = generate(profile, seed);
        if (!trace) return;
        const Trace& t = *trace;
        QRandomGenerator rng{quint32(seed)};
        const TimeNs span = t.spanEnd - t.spanStart;
        for (int q = 0; q < 40; ++q) {
            // Whole trace, points, tiny and large ranges, ranges past both ends.
            TimeNs t0 = t.spanStart + TimeNs(rng.generateDouble() * double(span)) - span / 20;
            TimeNs t1 = q == 0   ? t.spanEnd
                        : q == 1 ? t0
                                 : t0 + TimeNs(rng.generateDouble() * double(span) / (q % 5 + 1));
            if (q == 0) t0 = t.spanStart;
            const std::vector<NameTotal> got = summarizeRange(t, t0, t1);
            const std::map<StringId, NameTotal> want = summaryByScan(t, t0, t1);
            QCOMPARE(got.size(), want.size());
            for (size_t i = 0; i < got.size(); ++i) {
                const auto it = want.find(got[i].name);
                QVERIFY(it != want.end());
                QCOMPARE(got[i].count, it->second.count);
                QCOMPARE(got[i].totalNs, it->second.totalNs);
                if (i) QVERIFY(got[i - 1].totalNs >= got[i].totalNs);  // sorted by time
            }
        }
        // Cancelled: nothing.
        CancelToken cancel;
        cancel.cancel();
        QVERIFY(summarizeRange(t, t.spanStart, t.spanEnd, kNone, &cancel).empty());
    }

    // Kineto's ac2g flows join a runtime call to the kernel it launched, both
    // carrying the same correlation id: every flow found from either end
    // joins a pair with equal ids, and every kernel whose flow has both its
    // start and its end in the file (read from the raw JSON here) has
    // exactly that one incoming launch flow, from its launch.
    void launchFlowsJoinCorrelatedPairs_data() {
        QTest::addColumn<int>("seed");
        QTest::newRow("seed 3") << 3;
        QTest::newRow("seed 19") << 19;
    }
    void launchFlowsJoinCorrelatedPairs() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QFETCH(int, seed);
        const auto trace = generate("kineto", seed);
        if (!trace) return;
        const Trace& t = *trace;
        auto correlation = [&](uint32_t s) -> int64_t {
            const auto x = t.extractedArgs(t.slices[s].args);
            return x ? x->correlation : -1;
        };
        // Flow ids with both an "s" and an "f" in the file.
        std::map<int64_t, int> ends;
        {
            QFile f(lastTrace_);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto doc = nlohmann::json::parse(f.readAll().toStdString());
            for (const auto& e : doc["traceEvents"]) {
                if (e.value("cat", "") != "ac2g" || !e.contains("id")) continue;
                const std::string ph = e.value("ph", "");
                if (ph == "s") ends[e["id"].get<int64_t>()] |= 1;
                if (ph == "f") ends[e["id"].get<int64_t>()] |= 2;
            }
        }
        std::map<int64_t, uint32_t> launchByCorrelation;
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            const std::string_view cat = t.categoryName(t.slices[i].category);
            if ((cat == "cuda_runtime" || cat == "cuda_driver") && correlation(i) >= 0)
                launchByCorrelation[correlation(i)] = i;
        }
        int kernels = 0;
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            if (!(t.slices[i].flags & kSliceGpuActivity)) continue;
            const auto launch = launchByCorrelation.find(correlation(i));
            std::vector<const Flow*> in;
            for (const Flow* f : flowsInto(t, i))
                if (t.categoryName(f->category) == "ac2g") in.push_back(f);
            const auto inFile = ends.find(correlation(i));
            if (launch == launchByCorrelation.end() || inFile == ends.end() ||
                inFile->second != 3) {
                QVERIFY(in.empty());
                continue;
            }
            QCOMPARE(in.size(), size_t(1));
            QCOMPARE(in[0]->from, launch->second);
            // The same flow seen from the launch's side.
            const auto out = flowsOutOf(t, launch->second);
            QVERIFY(std::find(out.begin(), out.end(), in[0]) != out.end());
            ++kernels;
        }
        QVERIFY2(kernels > 500, qPrintable(QString::number(kernels)));
        for (const Flow& f : t.flows) {
            if (f.from == kNone || f.to == kNone || t.categoryName(f.category) != "ac2g") continue;
            QCOMPARE(correlation(f.from), correlation(f.to));
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
