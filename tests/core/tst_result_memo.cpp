// The result memo (report/result_memo.h): a result asked for again with the
// same scope and options is the one computed first, not a second
// computation; another scope, option or gap threshold is another result; a
// step regex or a cancelled computation is not remembered; the least
// recently used results go first. A counting analysis registered here tells
// computations apart from memo hits. Likewise the analysis index's
// remembered kernels and launch delays.

#include <QTest>
#include <atomic>
#include <regex>
#include <thread>
#include <vector>

#include "analysis/analysis_index.h"
#include "analysis/kernel_stats.h"
#include "analysis/launch_overhead.h"
#include "loader/loader.h"
#include "report/result_memo.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "util/cancel_token.h"

using namespace gapscope;

namespace {

std::atomic<int> computations{0};

// How often it ran, as its one figure; a step window's start as another.
const Analysis& countingAnalysis() {
    static const Analysis* registered = [] {
        Analysis a;
        a.id = "memo-count";
        a.title = "Counting";
        a.what = "counts its computations";
        a.help = "Counts how often it is computed (a test's).";
        a.usesGapThreshold = true;
        a.options = {{"top", OptionSpec::Kind::Count, "a value that is part of the key"}};
        a.compute = [](const Trace&, const Scope& scope, const AnalysisOptions&) {
            AnalysisResult r;
            r.addFigure({"run", "Run", Unit::Count}, int64_t{++computations});
            r.addFigure({"from", "From", Unit::Time}, scope.window.start);
            return r;
        };
        analysisRegistry().add(std::move(a));
        return analysisRegistry().find("memo-count");
    }();
    return *registered;
}

int64_t runOf(const AnalysisResult& r) {
    return integerOr(r.figure("run"), -1);
}

}  // namespace

class TestResultMemo : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> trace_;

  private slots:
    void initTestCase() {
        LoadResult loaded = loadTrace(test::samplePath().toStdString());
        QVERIFY(loaded.trace);
        trace_ = std::move(loaded.trace);
    }

    void aSecondAskIsTheFirstResult() {
        const Analysis& a = countingAnalysis();
        ResultMemo memo;
        Scope scope;
        scope.memo = &memo;
        const int64_t first = runOf(computeAnalysis(a, *trace_, scope));
        QCOMPARE(runOf(computeAnalysis(a, *trace_, scope)), first);
        // Without the memo: computed again.
        Scope plain;
        QCOMPARE(runOf(computeAnalysis(a, *trace_, plain)), first + 1);
        // Another window, threshold, option: another result each, each then kept.
        Scope other = scope;
        other.window = {trace_->spanStart, trace_->spanStart + 1000};
        other.range = other.window;
        const int64_t windowed = runOf(computeAnalysis(a, *trace_, other));
        QCOMPARE(windowed, first + 2);
        QCOMPARE(runOf(computeAnalysis(a, *trace_, other)), windowed);
        Scope threshold = scope;
        threshold.minGapNs = scope.minGapNs + 1;
        QCOMPARE(runOf(computeAnalysis(a, *trace_, threshold)), first + 3);
        AnalysisOptions top;
        top.set("top", 5);
        QCOMPARE(runOf(computeAnalysis(a, *trace_, scope, top)), first + 4);
        QCOMPARE(runOf(computeAnalysis(a, *trace_, scope, top)), first + 4);
        QCOMPARE(runOf(computeAnalysis(a, *trace_, scope)), first);
        QCOMPARE(memo.size(), size_t(4));
    }

    void aRegexOrACancelIsNotKept() {
        const Analysis& a = countingAnalysis();
        ResultMemo memo;
        Scope scope;
        scope.memo = &memo;
        const std::regex steps("ProfilerStep.*");
        scope.stepRegex = &steps;
        const int64_t first = runOf(computeAnalysis(a, *trace_, scope));
        QCOMPARE(runOf(computeAnalysis(a, *trace_, scope)), first + 1);
        CancelToken cancel;
        cancel.cancel();
        Scope cancelled;
        cancelled.memo = &memo;
        cancelled.cancel = &cancel;
        computeAnalysis(a, *trace_, cancelled);
        QCOMPARE(memo.size(), size_t(0));
    }

    void theLeastRecentlyUsedGoFirst() {
        const Analysis& a = countingAnalysis();
        ResultMemo memo(2);
        Scope s1, s2, s3;
        for (Scope* s : {&s1, &s2, &s3})
            s->memo = &memo;
        s2.minGapNs = s1.minGapNs + 1;
        s3.minGapNs = s1.minGapNs + 2;
        const int64_t one = runOf(computeAnalysis(a, *trace_, s1));
        const int64_t two = runOf(computeAnalysis(a, *trace_, s2));
        QCOMPARE(runOf(computeAnalysis(a, *trace_, s1)), one);  // s1 used last
        computeAnalysis(a, *trace_, s3);                        // s2 goes
        QCOMPARE(memo.size(), size_t(2));
        QCOMPARE(runOf(computeAnalysis(a, *trace_, s1)), one);
        QVERIFY(runOf(computeAnalysis(a, *trace_, s2)) > two);
    }

    // Panels ask from their workers at once: every answer is one of the
    // computations, and the memo holds one result per key.
    void threadsShareOneMemo() {
        const Analysis& a = countingAnalysis();
        ResultMemo memo;
        std::vector<std::thread> threads;
        std::atomic<int> wrong{0};
        for (int k = 0; k < 4; ++k)
            threads.emplace_back([&, k] {
                for (int i = 0; i < 50; ++i) {
                    Scope s;
                    s.memo = &memo;
                    s.minGapNs = (k + i) % 3;
                    const AnalysisResult r = computeAnalysis(a, *trace_, s);
                    if (runOf(r) <= 0) ++wrong;
                }
            });
        for (std::thread& t : threads)
            t.join();
        QCOMPARE(wrong.load(), 0);
        QCOMPARE(memo.size(), size_t(3));
    }

    // A registered analysis through the memo gives what it gives without.
    void aRealAnalysisIsTheSame() {
        const AnalysisIndex index(*trace_);
        ResultMemo memo;
        Scope plain;
        plain.index = &index;
        Scope memoized = plain;
        memoized.memo = &memo;
        for (const char* id : {"account", "kernels", "steps"}) {
            const Analysis& a = *analysisRegistry().find(id);
            const AnalysisResult want = computeAnalysis(a, *trace_, plain);
            computeAnalysis(a, *trace_, memoized);
            const AnalysisResult got = computeAnalysis(a, *trace_, memoized);
            QCOMPARE(got.tables.size(), want.tables.size());
            for (size_t t = 0; t < want.tables.size(); ++t)
                QVERIFY(got.tables[t].rows.size() == want.tables[t].rows.size() &&
                        renderResult(got.tables[t], OutputFormat::Csv) ==
                            renderResult(want.tables[t], OutputFormat::Csv));
            QVERIFY(renderResult(got.figures, OutputFormat::Csv) ==
                    renderResult(want.figures, OutputFormat::Csv));
        }
        QCOMPARE(memo.size(), size_t(3));
    }

    // The index remembers the kernels and the launch delays of a window (the
    // advice's inputs and the kernels and launch analyses read one pass):
    // the same values as without an index, per window, options and
    // launchers; a cancelled pass is not what a later ask gets.
    void theIndexRemembersKernelsAndLaunches() {
        const AnalysisIndex index(*trace_);
        auto names = [&](const std::vector<KernelStats>& ks) {
            std::vector<std::tuple<std::string, int, uint64_t, TimeNs, bool>> out;
            for (const KernelStats& k : ks)
                out.emplace_back(std::string(trace_->str(k.name)), k.device, k.count, k.total,
                                 k.launchedBy.has_value());
            return out;
        };
        const Interval half{trace_->spanStart, trace_->spanStart + trace_->spanLength() / 2};
        for (const Interval window : {kWholeTrace, half})
            for (const bool launchers : {true, false})
                for (const bool byDevice : {false, true}) {
                    KernelStatsOptions plain;
                    plain.window = window;
                    plain.launchers = launchers;
                    plain.byDevice = byDevice;
                    KernelStatsOptions indexed = plain;
                    indexed.index = &index;
                    const auto want = names(kernelStats(*trace_, plain));
                    QVERIFY(!want.empty());
                    QCOMPARE(names(kernelStats(*trace_, indexed)), want);
                    QCOMPARE(names(kernelStats(*trace_, indexed)), want);  // remembered
                }
        index.forgetRemembered();
        CancelToken cancelled;
        cancelled.cancel();
        KernelStatsOptions stopped;
        stopped.index = &index;
        stopped.cancel = &cancelled;
        QVERIFY(kernelStats(*trace_, stopped).empty());
        KernelStatsOptions again;
        again.index = &index;
        QVERIFY(!kernelStats(*trace_, again).empty());

        for (const Interval window : {kWholeTrace, half}) {
            const LaunchOverhead want = launchOverhead(*trace_, window);
            for (int i = 0; i < 2; ++i) {
                const LaunchOverhead got = launchOverhead(*trace_, window, &index);
                QCOMPARE(got.kernels, want.kernels);
                QCOMPARE(got.kernelsWithLaunch, want.kernelsWithLaunch);
                QCOMPARE(got.histogram, want.histogram);
                QCOMPARE(got.byName.size(), want.byName.size());
            }
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestResultMemo)
#include "tst_result_memo.moc"
