// gapscope-bench: how fast and how small is opening, indexing and drawing a
// trace, next to references measured in the same run (reading the file,
// `zstd -dc` / `gzip -dc`), so the figures survive a noisy machine.
//
//   gapscope-bench [--frames] [--quick] TRACE...
//
// Each load runs in a forked child so its peak RSS is its own. Every file is
// opened three times: parsed (no cache), parsed and written to a private
// index cache (the write timed apart), and reopened from that cache.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/gpu_busy.h"
#include "analysis/idle_gaps.h"
#include "cache/index_cache.h"
#include "loader/loader.h"
#include "timeline/timeline_painter.h"

using namespace gapscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// Wall time of a shell command with its output discarded.
double timeCommand(const std::string& cmd) {
    const auto t0 = Clock::now();
    const int rc = std::system((cmd + " > /dev/null 2>&1").c_str());
    const auto t1 = Clock::now();
    return rc == 0 ? seconds(t0, t1) : -1;
}

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

struct LoadFigures {
    double wall = 0;
    double storeWall = 0;  // writing the index cache entry, after the load
    long peakRssKb = 0;
    uint64_t events = 0, slices = 0, jsonBytes = 0, modelBytes = 0;
    bool ok = false, fromCache = false;
};

enum class CacheMode { None, Write, Read };

// Loads in a child process: wall time and the child's own peak RSS. With
// CacheMode::Write the parsed model is then stored in `cache` (timed apart);
// with Read it must come from there.
LoadFigures loadInChild(const std::string& path, CacheMode mode, const IndexCache& cache) {
    int pipeFd[2];
    if (pipe(pipeFd) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipeFd[0]);
        LoadFigures f;
        LoadOptions options;
        if (mode == CacheMode::Read) options.cache = &cache;
        const auto t0 = Clock::now();
        const LoadResult r = loadTrace(path, options);
        f.wall = seconds(t0, Clock::now());
        if (r.trace) {
            f.ok = true;
            f.fromCache = r.trace->fromCache;
            f.events = r.trace->report.events;
            f.slices = r.trace->slices.size();
            f.jsonBytes = r.trace->decompressedSize;
            f.modelBytes = r.trace->memoryBytes();
            if (mode == CacheMode::Write) {
                const auto t1 = Clock::now();
                f.ok = cache.store(*r.trace).empty();
                f.storeWall = seconds(t1, Clock::now());
            }
        }
        if (write(pipeFd[1], &f, sizeof f) != sizeof f) _exit(1);
        _exit(0);
    }
    close(pipeFd[1]);
    LoadFigures f;
    const bool got = read(pipeFd[0], &f, sizeof f) == sizeof f;
    close(pipeFd[0]);
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    if (!got) return {};
    f.peakRssKb = usage.ru_maxrss;
    return f;
}

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

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    bool frames = false, quick = false;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--frames")
            frames = true;
        else if (a == "--quick")
            quick = true;
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: gapscope-bench [--frames] [--quick] TRACE...\n");
        return 1;
    }
    // A private index cache folder, removed at the end.
    char cacheDir[] = "/tmp/gapscope-bench-XXXXXX";
    if (!mkdtemp(cacheDir)) return 1;
    const IndexCache cache(cacheDir);
    std::printf(
        "| file | file MB | JSON MB | events | cat s | decompress s | load s | JSON MB/s | load / "
        "cat | load / decompress | peak RSS MB | RSS / JSON | model B/slice | cache write s | "
        "cache MB | reopen s (median of 3) | reopen RSS MB |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary | std::ios::ate);
        const double fileMb = static_cast<double>(in.tellg()) / 1e6;
        const double cat = timeCommand("cat " + quote(f));
        double decompress = -1;
        if (f.size() > 4 && f.substr(f.size() - 4) == ".zst")
            decompress = timeCommand("zstd -dc " + quote(f));
        if (f.size() > 3 && f.substr(f.size() - 3) == ".gz")
            decompress = timeCommand("gzip -dc " + quote(f));
        const LoadFigures l = loadInChild(f, CacheMode::None, cache);
        const LoadFigures stored = loadInChild(f, CacheMode::Write, cache);
        // The entry has just been written: let writeback settle, then take
        // the median of three reopens.
        timeCommand("sync");
        std::vector<LoadFigures> reopens;
        for (int i = 0; i < 3; ++i)
            reopens.push_back(loadInChild(f, CacheMode::Read, cache));
        std::sort(reopens.begin(), reopens.end(),
                  [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
        const LoadFigures reopened = reopens[1];
        if (!l.ok || !stored.ok || !reopened.ok || !reopened.fromCache) {
            std::printf("| %s | failed to load (or to cache) |\n", f.c_str());
            continue;
        }
        std::ifstream entry(cache.entryPath(f), std::ios::binary | std::ios::ate);
        const double cacheMb = static_cast<double>(entry.tellg()) / 1e6;
        const double jsonMb = static_cast<double>(l.jsonBytes) / 1e6;
        // MB (10^6 bytes) throughout, so RSS / JSON is a ratio of bytes.
        const double rssMb = static_cast<double>(l.peakRssKb) * 1024.0 / 1e6;
        char dec[32] = "-", decRatio[32] = "-";
        if (decompress > 0) {
            std::snprintf(dec, sizeof dec, "%.2f", decompress);
            std::snprintf(decRatio, sizeof decRatio, "%.1f", l.wall / decompress);
        }
        std::printf(
            "| %s | %.1f | %.1f | %llu | %.3f | %s | %.2f | %.0f | %.1f | %s | %.0f | %.2f | %.1f "
            "| %.2f | %.0f | %.3f | %.0f |\n",
            f.c_str(), fileMb, jsonMb, static_cast<unsigned long long>(l.events), cat, dec, l.wall,
            jsonMb / l.wall, l.wall / std::max(cat, 1e-6), decRatio, rssMb,
            rssMb / std::max(jsonMb, 1e-9),
            l.slices ? static_cast<double>(l.modelBytes) / static_cast<double>(l.slices) : 0.0,
            stored.storeWall, cacheMb, reopened.wall,
            static_cast<double>(reopened.peakRssKb) * 1024.0 / 1e6);
        std::fflush(stdout);
    }
    std::error_code ec;
    std::filesystem::remove_all(cacheDir, ec);
    if (!frames) return 0;

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
    return 0;
}
