#include "bench_frames.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <cstdio>

#include "analysis/gpu_busy.h"
#include "analysis/idle_gaps.h"
#include "bench_common.h"
#include "loader/loader.h"
#include "model/trace_builder.h"
#include "timeline/timeline_painter.h"

namespace gapscope::bench {

namespace {

// Median of several frames of the whole timeline at one zoom level.
double frameMs(const Trace& trace, const ui::TimelineLayout& layout, ui::TimeWindow window,
               int repeats, ui::PaintStats* stats) {
    QImage image(1920 + 260, 1080, QImage::Format_ARGB32_Premultiplied);
    ui::NameColors names;
    names.reset(&trace, false);
    const std::vector<std::vector<Interval>> gaps =
        idleGapsPerDevice(trace, kDefaultGapThresholdNs);
    ui::PaintInputs in;
    in.trace = &trace;
    in.layout = &layout;
    in.window = window;
    in.gutterWidth = 260;
    in.size = image.size();
    in.gaps = &gaps;
    in.colors = ui::TimelineColors::fromPalette(QGuiApplication::palette());
    in.names = &names;
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        QPainter p(&image);
        const auto t0 = Clock::now();
        *stats = ui::paintTimeline(p, in);
        times.push_back(seconds(t0, Clock::now()) * 1000);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace

void printFrameTable(const std::vector<std::string>& files, bool quick) {
    std::printf(
        "\n| file | zoom | visible | frame ms (median) | slices drawn | merged blocks | labels "
        "|\n|---|---|---|---|---|---|---|\n");
    for (const std::string& f : files) {
        const LoadResult r = loadTrace(f);
        if (!r.trace) continue;
        const Trace& t = *r.trace;
        ui::TimelineLayout layout;
        layout.setTrace(r.trace);
        const auto t0 = Clock::now();
        const auto devices = gpuBusyFromSlices(t);
        size_t gapCount = 0;
        for (const GpuDevice& d : devices)
            gapCount += idleGaps(d, kDefaultGapThresholdNs).size();
        const double busyMs = seconds(t0, Clock::now()) * 1000;
        const TimeNs span = t.spanEnd - t.spanStart;
        // Centre on the middle of the busiest device's activity.
        const TimeNs mid = t.spanStart + span / 2;
        for (const TimeNs divisor : {1LL, 10LL, 100LL, 1000LL, 100000LL}) {
            const TimeNs w = std::max<TimeNs>(span / divisor, 1000);
            ui::PaintStats stats;
            const double ms =
                frameMs(t, layout, {mid - w / 2, mid - w / 2 + w}, quick ? 3 : 9, &stats);
            std::printf("| %s | 1/%lld | %s | %.2f | %d | %d | %d |\n", f.c_str(),
                        static_cast<long long>(divisor), ui::formatDuration(w).toUtf8().constData(),
                        ms, stats.slicesDrawn, stats.mergedBlocks, stats.labels);
        }
        std::printf(
            "\nGPU busy union + idle gaps (>= 100 us) of %zu devices from %zu slices: %.1f ms, %zu "
            "gaps\n\n",
            devices.size(), t.slices.size(), busyMs, gapCount);
    }
}

}  // namespace gapscope::bench

namespace gapscope::bench {

void printCounterFrames(size_t samples, bool quick) {
    // Built through the real builder (as a reader would feed it), so the
    // series and its min/max index are what a loaded trace has.
    auto trace = std::make_shared<Trace>();
    const auto t0 = Clock::now();
    {
        TraceBuilder builder(*trace);
        RawEvent ev;
        uint64_t state = 88172645463325252ull;  // xorshift: deterministic noise
        double value = 1e9;
        for (size_t i = 0; i < samples; ++i) {
            ev.reset();
            ev.index = i;
            ev.phase = Phase::Counter;
            ev.name = "GPU 0 memory";
            ev.pid = {RawId::Kind::Number, 1, {}};
            ev.ts = {true, true, static_cast<int64_t>(i) * 1000};
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            value += static_cast<double>(state % 2001) - 1000.0;
            const bool spike = state % 100'000 == 0;
            ev.counterValues.push_back({"bytes", spike ? value * 4 : value});
            builder.onEvent(ev);
        }
        builder.finish(nullptr);
    }
    computeGpuBusy(*trace);
    const double buildS = seconds(t0, Clock::now());
    ui::TimelineLayout layout;
    layout.setTrace(trace);
    std::printf("\nCounter series of %zu samples (built in %.2f s; min/max index %.1f MB):\n\n",
                samples, buildS,
                static_cast<double>(trace->counters[0].extremes.memoryBytes()) / 1e6);
    std::printf("| zoom | visible | frame ms (median) |\n|---|---|---|\n");
    const TimeNs span = trace->spanEnd - trace->spanStart;
    const TimeNs mid = trace->spanStart + span / 2;
    for (const TimeNs divisor : {1LL, 10LL, 100LL, 1000LL, 100000LL}) {
        const TimeNs w = std::max<TimeNs>(span / divisor, 1000);
        ui::PaintStats stats;
        const double ms =
            frameMs(*trace, layout, {mid - w / 2, mid - w / 2 + w}, quick ? 3 : 9, &stats);
        std::printf("| 1/%lld | %s | %.2f |\n", static_cast<long long>(divisor),
                    ui::formatDuration(w).toUtf8().constData(), ms);
    }
}

}  // namespace gapscope::bench
