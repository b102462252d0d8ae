// Launch overhead: delays from the launch call to the kernel, tiny kernels
// (analysis/launch_overhead.h).

#include "analysis/launch_overhead.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// The delays by decade.
ResultTable delayHistogram(const LaunchOverhead& launch) {
    ResultTable table;
    table.id = "delay_histogram";
    table.title = "Launch delays by decade";
    table.columns = {{"from_ns", "From", Unit::Duration},
                     {"to_ns", "To", Unit::Duration},
                     {"count", "Kernels", Unit::Count}};
    for (size_t b = 0; b < kDelayBuckets; ++b) {
        ResultRow r;
        r.cells = {kDelayBucketStart[b],
                   b + 1 < kDelayBuckets ? ResultCell(kDelayBucketStart[b + 1]) : ResultCell(),
                   static_cast<int64_t>(launch.histogram[b])};
        table.rows.push_back(std::move(r));
    }
    return table;
}

void addDistribution(AnalysisResult& r, const std::string& group, const std::string& what,
                     const Distribution& d) {
    auto cell = [&](auto v) { return d.count ? ResultCell(v) : ResultCell(); };
    r.addFigure({group + ".mean_ns", what + ": mean", Unit::Duration, 1}, cell(d.mean));
    r.addFigure({group + ".median_ns", what + ": median", Unit::Duration}, cell(d.median));
    r.addFigure({group + ".p95_ns", what + ": p95", Unit::Duration}, cell(d.p95));
    r.addFigure({group + ".max_ns", what + ": max", Unit::Duration}, cell(d.max));
}

}  // namespace

Analysis launchAnalysis() {
    Analysis a;
    a.id = "launch";
    a.title = "Launch overhead";
    a.what = "launch delays, tiny kernels";
    a.help =
        "Launch overhead: per kernel whose launch call is known (correlation id, else\n"
        "the ac2g flow), the launch delay (GPU start - end of the call, >= 0) and the\n"
        "call's duration; kernels shorter than 10 us; a histogram of the delays by\n"
        "decade; per kernel name the mean and largest delay.";
    a.options = {
        {"top", OptionSpec::Kind::Count, "the N kernel names with the largest mean delay"}};
    a.takesStepRegex = false;
    a.primaryTable = "launch";
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        LaunchOverhead l = launchOverhead(t, scope.window, scope.index, scope.cancel);
        if (const auto top = o.value("top"); top && l.byName.size() > static_cast<size_t>(*top))
            l.byName.resize(static_cast<size_t>(*top));
        AnalysisResult r;
        r.addFigure({"kernels", "Kernels", Unit::Count}, static_cast<int64_t>(l.kernels));
        r.addFigure({"kernels_with_launch", "With a known launch call", Unit::Count},
                    static_cast<int64_t>(l.kernelsWithLaunch));
        addDistribution(r, "delay", "Launch delay", l.delay);
        addDistribution(r, "launch_call", "Launch call", l.launch);
        r.addFigure({"short_kernels.count", "Kernels shorter than 10 µs", Unit::Count},
                    static_cast<int64_t>(l.shortKernels));
        ResultColumn share{"short_kernels.share", "Short kernels", Unit::Share};
        share.of = "kernels";
        r.addFigure(share, cellOf(l.shortShare));
        ResultColumn timeShare{"short_kernels.time_share", "Short kernels' time", Unit::Share};
        timeShare.of = "kernel time";
        r.addFigure(timeShare, cellOf(l.shortTimeShare));
        r.tables.push_back(delayHistogram(l));
        r.tables.push_back(launchTable(t, l));
        if (l.kernels == 0) r.empty = scope.nothing("GPU kernels");
        return r;
    };
    return a;
}

}  // namespace gapscope
