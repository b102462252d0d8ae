#include "bench_xspace.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench_common.h"
#include "bench_load.h"
#include "cache/index_cache.h"
#include "support/xspace_writer.h"

namespace gapscope::bench {

namespace {

constexpr int kStreams = 4, kThreads = 8;
constexpr int64_t kKernelPs = 7'000'000, kGapPs = 1'500'000;  // 7 µs kernels, 1.5 µs apart

// One GPU plane of kStreams streams and one host plane of kThreads threads;
// each GPU event has a correlation id and kernel details, each host event a
// correlation id and an op name, like a TensorFlow GPU run's.
test::XsSpace makeSpace(uint64_t events) {
    using namespace test;
    XsSpace s;
    XsPlane gpu, host;
    gpu.id = 1;
    gpu.name = "/device:GPU:0";
    host.name = "/host:CPU";
    gpu.statMetadata = {{1, "correlation_id"},
                        {2, "kernel_details"},
                        {3, "regs:32 shm:0 grid:80,1,1 block:256,1,1"}};
    host.statMetadata = {{1, "correlation_id"}, {2, "tf_op"}};
    for (int k = 0; k < 16; ++k) {
        gpu.eventMetadata.push_back({k + 1, "kernel_" + std::to_string(k), "", {}});
        host.eventMetadata.push_back({k + 1, "op_" + std::to_string(k) + ":MatMul", "", {}});
    }
    for (int l = 0; l < kStreams; ++l)
        gpu.lines.push_back(
            {l + 7, "Stream #" + std::to_string(l + 7) + "(Compute)", "", 0, 1'000'000, {}});
    for (int l = 0; l < kThreads; ++l)
        host.lines.push_back({1000 + l, "tf_Compute/" + std::to_string(l), "", 0, 1'000'000, {}});
    for (uint64_t i = 0; i < events; ++i) {
        const bool onGpu = i % 2 == 0;
        XsLine& line = onGpu ? gpu.lines[(i / 2) % kStreams] : host.lines[(i / 2) % kThreads];
        const auto n = static_cast<int64_t>(line.events.size());
        XsEvent e;
        e.metadataId = static_cast<int64_t>(i % 16) + 1;
        e.offsetPs = n * (kKernelPs + kGapPs);
        e.durationPs = kKernelPs;
        e.stats.push_back(XsStat::integer(1, static_cast<int64_t>(i / 2)));
        e.stats.push_back(onGpu ? XsStat::ref(2, 3)
                                : XsStat::text(2, "op_" + std::to_string(i % 16)));
        line.events.push_back(std::move(e));
    }
    s.planes = {gpu, host};
    return s;
}

// The trace viewer's JSON of the same space (µs with ps decimals, as it writes).
void writeJson(const test::XsSpace& s, std::ofstream& out) {
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    char buf[512];
    for (size_t p = 0; p < s.planes.size(); ++p) {
        const test::XsPlane& plane = s.planes[p];
        sep();
        out << "{\"ph\":\"M\",\"pid\":" << p + 1
            << ",\"name\":\"process_name\",\"args\":{\"name\":\"" << plane.name << "\"}}";
        for (const test::XsLine& line : plane.lines) {
            sep();
            out << "{\"ph\":\"M\",\"pid\":" << p + 1 << ",\"tid\":" << line.id
                << ",\"name\":\"thread_name\",\"args\":{\"name\":\"" << line.name << "\"}}";
            for (const test::XsEvent& e : line.events) {
                const int64_t startPs = line.timestampNs * 1000 + e.offsetPs;
                const std::string& name =
                    plane.eventMetadata[static_cast<size_t>(e.metadataId - 1)].name;
                const std::string second =
                    p == 0 ? "\"kernel_details\":\"regs:32 shm:0 grid:80,1,1 block:256,1,1\""
                           : "\"tf_op\":\"" + e.stats[1].s + "\"";
                std::snprintf(buf, sizeof buf,
                              "{\"ph\":\"X\",\"pid\":%zu,\"tid\":%" PRId64 ",\"ts\":%" PRId64
                              ".%06" PRId64 ",\"dur\":%" PRId64 ".%06" PRId64
                              ",\"name\":\"%s\",\"args\":{\"correlation_id\":%" PRId64 ",%s}}",
                              p + 1, line.id, startPs / 1'000'000, startPs % 1'000'000,
                              e.durationPs / 1'000'000, e.durationPs % 1'000'000, name.c_str(),
                              e.stats[0].i, second.c_str());
                sep();
                out << buf;
            }
        }
    }
    out << "\n]}\n";
}

}  // namespace

void printXSpaceTable(uint64_t events) {
    char dir[] = "/tmp/gapscope-bench-xspace-XXXXXX";
    if (!mkdtemp(dir)) return;
    const std::string pb = std::string(dir) + "/bench.xplane.pb";
    const std::string js = std::string(dir) + "/bench.trace.json";
    // Written by a child process, so that the loads (forked from this one)
    // do not carry the generator's memory in their peak RSS.
    const pid_t writer = fork();
    if (writer == 0) {
        const test::XsSpace space = makeSpace(events);
        std::ofstream(pb, std::ios::binary) << test::encodeXSpace(space);
        std::ofstream json(js, std::ios::binary);
        writeJson(space, json);
        json.close();
        _exit(json ? 0 : 1);
    }
    int status = 0;
    if (writer < 0 || waitpid(writer, &status, 0) != writer || status != 0) {
        std::printf("could not write the XSpace / JSON pair\n");
        return;
    }
    const IndexCache cache(std::string(dir) + "/cache");
    std::printf("\n| XSpace vs JSON, %" PRIu64
                " events | file MB | cat s | load s | s per M events | "
                "peak RSS MB | RSS / file |\n|---|---|---|---|---|---|---|\n",
                events);
    double perEvent[2] = {0, 0};
    int row = 0;
    for (const std::string& f : {pb, js}) {
        const double fileMb = static_cast<double>(std::filesystem::file_size(f)) / 1e6;
        const double cat = timeCommand("cat " + quote(f));
        // The median of three loads.
        std::vector<LoadFigures> runs;
        for (int i = 0; i < 3; ++i)
            runs.push_back(loadInChild(f, CacheMode::None, cache));
        std::sort(runs.begin(), runs.end(),
                  [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
        const LoadFigures& l = runs[1];
        if (!l.ok || l.slices != events) {
            std::printf("| %s | failed to load all %" PRIu64 " events as slices |\n", f.c_str(),
                        events);
            continue;
        }
        const double rssMb = static_cast<double>(l.peakRssKb) * 1024.0 / 1e6;
        perEvent[row] = l.wall / (static_cast<double>(events) / 1e6);
        std::printf("| %s | %.1f | %.3f | %.2f | %.2f | %.0f | %.2f |\n",
                    row == 0 ? "XSpace (.xplane.pb)" : "trace viewer JSON", fileMb, cat, l.wall,
                    perEvent[row], rssMb, rssMb / fileMb);
        ++row;
    }
    if (perEvent[0] > 0 && perEvent[1] > 0)
        std::printf("\nXSpace load per event / JSON load per event: %.2f\n",
                    perEvent[0] / perEvent[1]);
    // A profile run of two such hosts: one after the other, then decoded on
    // the second core while this one builds.
    const std::string run = std::string(dir) + "/run";
    std::error_code linkError;
    std::filesystem::create_directory(run, linkError);
    for (const char* host : {"/host0.xplane.pb", "/host1.xplane.pb"})
        std::filesystem::create_hard_link(pb, run + host, linkError);
    if (!linkError) {
        std::printf("\n| run of 2 hosts, 2 x %" PRIu64
                    " events | load s (median of 3) | s per M events | peak RSS MB |\n"
                    "|---|---|---|---|\n",
                    events);
        for (const int threads : {1, 2}) {
            std::vector<LoadFigures> runs;
            for (int i = 0; i < 3; ++i)
                runs.push_back(loadInChild(run, CacheMode::None, cache, threads));
            std::sort(runs.begin(), runs.end(),
                      [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
            const LoadFigures& l = runs[1];
            if (!l.ok || l.slices != 2 * events) {
                std::printf("| threads %d | failed to load all events |\n", threads);
                continue;
            }
            std::printf("| %s | %.2f | %.2f | %.0f |\n",
                        threads == 1 ? "one host after the other (--threads 1)"
                                     : "hosts decoded on another core (--threads 2)",
                        l.wall, l.wall / (2.0 * static_cast<double>(events) / 1e6),
                        static_cast<double>(l.peakRssKb) * 1024.0 / 1e6);
        }
    }
    // GAPSCOPE_BENCH_KEEP=1 keeps the pair, for a profiler.
    if (const char* keep = std::getenv("GAPSCOPE_BENCH_KEEP"); keep && std::string(keep) == "1") {
        std::printf("kept in %s\n", dir);
        return;
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

}  // namespace gapscope::bench
