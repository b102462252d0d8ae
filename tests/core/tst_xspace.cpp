// XSpace profiles (*.xplane.pb) as a user opens them. The real ones (a
// TensorFlow multi-worker GPU run in ../shared, the JAX recording in
// tests/data/recorded) against an independent decoder of the wire format
// (tests/tools/xplane_reference.py): events, tracks, spans and durations
// per line. The JAX recording against the trace-viewer JSON of the same run:
// the same tracks and GPU busy time. Fixtures of the project's own writer for
// what profilers rarely write (every stat kind, ref_value, missing metadata,
// huge ids, events out of order, zero and negative durations), and broken
// input: the corrupted upstream file, cuts at every kind of place, hostile
// lengths and wire types, each an error naming the byte or a warning.

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/memory_allocations.h"
#include "cache/index_cache.h"
#include "io/compress.h"
#include "loader/loader.h"
#include "loader/profile_folder.h"
#include "loader/rank_view.h"
#include "model/trace.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"
#include "support/xspace_writer.h"

using namespace gapscope;
using namespace gapscope::test;
using nlohmann::json;

namespace {

QString multiWorker() {
    return sharedTraces() +
           "/xprof/demo/plugins/profile/GPU-multi-worker/34.83.195.179_6003.xplane.pb";
}
QString jaxRecording() {
    return sourceDir() + "/tests/data/recorded/jax_mlp.xplane.pb";
}

json reference(const QString& path) {
    QProcess p;
    p.start(python(), {sourceDir() + "/tests/tools/xplane_reference.py", path});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    return json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

int64_t roundPs(int64_t ps) {  // to ns, half away from zero (as the reader)
    return ps >= 0 ? (ps + 500) / 1000 : -((-ps + 500) / 1000);
}

std::string nameOf(const Trace& t, StringId id) {
    return std::string(t.str(id));
}

// Per (process, thread): slices, first start, last end, total duration.
struct TrackFigures {
    uint64_t slices = 0;
    TimeNs first = INT64_MAX, last = INT64_MIN, total = 0;
};
std::map<std::pair<std::string, std::string>, TrackFigures> figures(const Trace& t) {
    std::map<std::pair<std::string, std::string>, TrackFigures> out;
    for (const Track& tr : t.tracks) {
        if (tr.sliceCount() == 0) continue;
        TrackFigures& f = out[{nameOf(t, t.processes[tr.process].name), nameOf(t, tr.threadName)}];
        for (uint32_t s = tr.sliceBegin; s < tr.sliceEnd; ++s) {
            const Slice& sl = t.slices[s];
            ++f.slices;
            f.first = std::min(f.first, sl.start);
            f.last = std::max(f.last, sl.end());
            f.total += sl.dur;
        }
    }
    return out;
}

void writeFile(const QString& path, const std::string& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path));
    QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
}

LoadResult loadBytes(const QTemporaryDir& dir, const std::string& bytes, const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(bytes.data(), qint64(bytes.size()));
    f.close();
    return loadTrace(path.toStdString());
}

// A small space with one GPU plane and one host plane.
XsSpace smallSpace() {
    XsSpace s;
    XsPlane gpu;
    gpu.id = 1;
    gpu.name = "/device:GPU:0";
    XsLine stream;
    stream.id = 7;
    stream.name = "Stream #7(Compute)";
    stream.timestampNs = 1'000'000;
    XsEvent k1;
    k1.metadataId = 1;
    k1.offsetPs = 2'000'000;
    k1.durationPs = 3'000'000;  // [1.002 ms, 1.005 ms)
    k1.stats = {XsStat::integer(10, 42), XsStat::ref(11, 12)};
    XsEvent k2 = k1;
    k2.offsetPs = 5'000'000;  // touches k1 exactly
    k2.durationPs = 1'000'500;
    k2.stats = {XsStat::integer(10, 43), XsStat::ref(11, 12)};  // the same kernel again
    stream.events = {k2, k1};                                   // out of order
    gpu.lines = {stream};
    gpu.eventMetadata = {{1, "void gemm<float>(float*)", "", {}}};
    gpu.statMetadata = {{10, "correlation_id"},
                        {11, "kernel_details"},
                        {12, "regs:38 shm:1024 grid:160,1,1 block:256,2,1"}};
    XsPlane host;
    host.id = 0;
    host.name = "/host:CPU";
    XsLine thread;
    thread.id = 1234;
    thread.name = "python3";
    thread.displayName = "main thread";
    thread.timestampNs = 1'000'000;
    XsEvent launch;
    launch.metadataId = 5;
    launch.offsetPs = 1'000'000;
    launch.durationPs = 500'000;
    launch.stats = {XsStat::integer(20, 42)};
    thread.events = {launch};
    host.lines = {thread};
    host.eventMetadata = {{5, "cudaLaunchKernel", "", {}}};
    host.statMetadata = {{20, "correlation_id"}};
    s.planes = {gpu, host};
    s.hostnames = {"worker-0"};
    return s;
}

}  // namespace

class TestXSpace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    void matchesTheReference(const QString& path) {
        const json ref = reference(path);
        QVERIFY2(ref.is_object(), "xplane_reference.py failed");
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "no trace");
        matchesTheReferences(*r.trace, {{"", ref}});
    }

    // `hosts`: each host's process-name prefix ("" for a single file, else
    // "HOST ") and its reference, in the order the trace numbers them.
    void matchesTheReferences(const Trace& t,
                              const std::vector<std::pair<std::string, json>>& hosts) {
        uint64_t events = 0;
        for (const auto& [prefix, ref] : hosts)
            events += ref["num_events"].get<uint64_t>();
        QCOMPARE(t.report.events, events);
        // Every line with events is a track of its plane's process, with
        // the line's events, first start, last end and total duration.
        std::map<std::pair<std::string, std::string>, TrackFigures> want;
        uint64_t aggregated = 0;
        for (const auto& [prefix, ref] : hosts) {
            for (const json& p : ref["planes"]) {
                for (const json& l : p["lines"]) {
                    aggregated += l["num_aggregated_events"].get<uint64_t>();
                    const uint64_t n = l["num_events"].get<uint64_t>() -
                                       l["num_aggregated_events"].get<uint64_t>();
                    if (n == 0) continue;
                    const std::string thread = l["display_name"].get<std::string>().empty()
                                                   ? l["name"].get<std::string>()
                                                   : l["display_name"].get<std::string>();
                    TrackFigures& f = want[{prefix + p["name"].get<std::string>(), thread}];
                    f.slices += n;
                    f.first = std::min(f.first, roundPs(l["min_start_ps"].get<int64_t>()));
                    f.last = std::max(f.last, roundPs(l["max_end_ps"].get<int64_t>()));
                    f.total += roundPs(l["sum_duration_ps"].get<int64_t>());
                }
            }
        }
        QCOMPARE(aggregated, uint64_t(0));
        // Allocators: a GPU's (GPU_N_bfc) is that GPU's memory curve, any
        // other a counter "memory NAME": a point per event, the same peak
        // and the same last value. Several hosts number their GPUs one
        // host after the other: host h's GPU N is the largest N of the
        // hosts before it (planes "/device:GPU:N" with lines), plus one, plus N.
        const MemoryAllocations paired = pairAllocations(t);
        int base = 0;
        for (const auto& [prefix, ref] : hosts) {
            int largest = -1;
            for (const json& p : ref["planes"]) {
                int n = -1;
                if (p["num_lines"].get<int>() > 0 &&
                    std::sscanf(p["name"].get<std::string>().c_str(), "/device:GPU:%d", &n) == 1)
                    largest = std::max(largest, n);
            }
            for (const json& p : ref["planes"]) {
                for (const auto& [allocator, a] : p["allocators"].items()) {
                    const CounterSeries* curve = nullptr;
                    int gpu = -1;
                    if (std::sscanf(allocator.c_str(), "GPU_%d_", &gpu) != 1) gpu = -1;
                    for (const CounterSeries& c : t.counters) {
                        const bool ofHost =
                            c.process < t.processes.size() &&
                            nameOf(t, t.processes[c.process].name).rfind(prefix, 0) == 0;
                        if (gpu >= 0 && c.memory == MemoryCurve::Allocated &&
                            c.memoryDevice == base + gpu && ofHost)
                            curve = &c;
                        if (gpu < 0 && t.str(c.name) == "memory " + allocator + " bytes in use" &&
                            ofHost)
                            curve = &c;
                    }
                    QVERIFY2(curve, (prefix + allocator).c_str());
                    QCOMPARE(uint64_t(curve->values.size()), a["points"].get<uint64_t>());
                    double peak = 0;
                    for (const double v : curve->values)
                        peak = std::max(peak, v);
                    QCOMPARE(peak, a["peak_bytes"].get<double>());
                    QCOMPARE(curve->ts.back(), roundPs(a["last_ps"].get<int64_t>()));
                    QCOMPARE(curve->values.back(), a["last_bytes"].get<double>());
                    // The blocks (address and size: TensorFlow's memory
                    // profiler) paired as the reference pairs them.
                    if (!a.contains("allocations") || gpu < 0) continue;
                    const auto mine = std::find_if(
                        paired.allocators.begin(), paired.allocators.end(),
                        [&](const MemoryAllocator& m) {
                            return m.deviceType == 1 && m.deviceId == base + gpu &&
                                   nameOf(t, t.processes[m.process].name).rfind(prefix, 0) == 0;
                        });
                    QVERIFY2(mine != paired.allocators.end(), (prefix + allocator).c_str());
                    const auto index = uint32_t(mine - paired.allocators.begin());
                    size_t allocations = 0, neverFreed = 0;
                    int64_t neverFreedBytes = 0;
                    for (const Allocation& x : paired.allocations) {
                        if (x.allocator != index) continue;
                        ++allocations;
                        if (x.freeEvent == kNone) {
                            ++neverFreed;
                            neverFreedBytes += x.bytes;
                        }
                    }
                    QCOMPARE(allocations, a["allocations"].get<size_t>());
                    QCOMPARE(mine->unknownFrees, a["unknown_frees"].get<size_t>());
                    QCOMPARE(neverFreed, a["never_freed"].get<size_t>());
                    QCOMPARE(neverFreedBytes, a["never_freed_bytes"].get<int64_t>());
                    QCOMPARE(mine->withoutAddress, size_t(0));
                }
            }
            base += largest + 1;
        }
        const auto got = figures(t);
        QCOMPARE(got.size(), want.size());
        for (const auto& [key, w] : want) {
            const auto it = got.find(key);
            QVERIFY2(it != got.end(), (key.first + " / " + key.second).c_str());
            const TrackFigures& g = it->second;
            QCOMPARE(g.slices, w.slices);
            QCOMPARE(g.first, w.first);
            QCOMPARE(g.last, w.last);
            // Each duration is rounded at both ends: within a ns per event.
            QVERIFY2(std::abs(g.total - w.total) <= TimeNs(w.slices),
                     (key.second + ": " + std::to_string(g.total - w.total)).c_str());
        }
    }

  private slots:
    void theMultiWorkerRunMatchesTheReference() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference decoder");
        matchesTheReference(multiWorker());
        if (QTest::currentTestFailed()) return;
        const LoadResult r = loadTrace(multiWorker().toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        // GPUs 4 and 6 ran kernels; their "Stream #" lines are their activity.
        std::set<int> devices;
        for (const GpuDevice& d : t.gpuDevices)
            if (d.busyNs > 0) devices.insert(d.index);
        QVERIFY2(devices.count(4) && devices.count(6), "GPU 4 and 6 are busy");
        QCOMPARE(t.metadata.count("hostnames"), size_t(1));
        QVERIFY(t.metadata.at("hostnames").find("34.83.195.179:6003") != std::string::npos);
    }

    // The TensorBoard log folder of the multi-worker run: both hosts in one
    // timeline, each host's planes named after it, every host's events,
    // tracks and memory curves as the reference decoder reads its file,
    // and no two hosts sharing a GPU.
    void aLogdirOpensEveryHostOfItsRun() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference decoder");
        const QString logdir = sharedTraces() + "/xprof/demo";
        const QString runDir = logdir + "/plugins/profile/GPU-multi-worker";
        const QStringList files = {"34.83.195.179_6003", "34.83.195.180_6003"};
        std::vector<std::pair<std::string, json>> refs;
        for (const QString& host : files) {
            refs.push_back(
                {host.toStdString() + " ", reference(runDir + "/" + host + ".xplane.pb")});
            QVERIFY2(refs.back().second.is_object(), "xplane_reference.py failed");
        }
        const LoadResult r = loadTrace(logdir.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "no trace");
        QCOMPARE(r.run, std::string("GPU-multi-worker"));
        QCOMPARE(r.runs, std::vector<std::string>{"GPU-multi-worker"});
        QCOMPARE(QString::fromStdString(r.trace->path), runDir);
        matchesTheReferences(*r.trace, refs);
        if (QTest::currentTestFailed()) return;
        // Each host's GPUs are its own devices, each as busy as when its
        // file is opened alone.
        const Trace& t = *r.trace;
        std::multiset<TimeNs> together, alone;
        for (const GpuDevice& d : t.gpuDevices)
            together.insert(d.busyNs);
        for (const QString& host : files) {
            const LoadResult one = loadTrace((runDir + "/" + host + ".xplane.pb").toStdString());
            QVERIFY(one.trace);
            for (const GpuDevice& d : one.trace->gpuDevices)
                alone.insert(d.busyNs);
        }
        QCOMPARE(together, alone);
        std::set<int> indices;
        for (const GpuDevice& d : t.gpuDevices)
            indices.insert(d.index);
        QCOMPARE(indices.size(), t.gpuDevices.size());
        for (const Process& p : t.processes) {
            const std::string name = nameOf(t, p.name);
            QVERIFY2(name.rfind("34.83.195.179_6003 /", 0) == 0 ||
                         name.rfind("34.83.195.180_6003 /", 0) == 0,
                     name.c_str());
        }
        // A host's GPU reads as the host numbers it ("34.83.195.180_6003 ·
        // GPU 0", whatever its index in the run), in the header and labels.
        int named = 0;
        for (const Process& p : t.processes) {
            const std::string name = nameOf(t, p.name);
            const size_t at = name.find(" /device:GPU:");
            if (p.kind != ProcessKind::Gpu || at == std::string::npos) continue;
            const std::string expected = name.substr(0, at) + " \u00b7 GPU " + name.substr(at + 13);
            QCOMPARE(p.displayName, expected);
            QCOMPARE(t.gpuLabel(p.gpuDevice), expected);
            ++named;
        }
        QVERIFY(named >= 2);
        QCOMPARE(t.metadata.at("profile run"), std::string("\"GPU-multi-worker\""));
        QCOMPARE(t.metadata.at("profile hosts"),
                 std::string("[\"34.83.195.179_6003\",\"34.83.195.180_6003\"]"));
    }

    // A logdir with two runs: the newest opens unless one is named; a name
    // that is not there lists the runs; an empty folder says where
    // TensorBoard puts profiles.
    // A run's hosts in natural order, as people number them: 10.0.0.2
    // before 10.0.0.10, worker2 before worker10.
    void hostsInNaturalOrder() {
        const QString run = dir_.filePath("natural/plugins/profile/2024_01_01_10_00_00");
        QVERIFY(QDir().mkpath(run));
        const std::string bytes = encodeXSpace(smallSpace());
        for (const char* host : {"10.0.0.10_6003", "10.0.0.2_6003", "worker10", "worker2"})
            writeFile(run + "/" + host + ".xplane.pb", bytes);
        const ProfileRuns runs = findProfileRuns(dir_.filePath("natural").toStdString());
        QCOMPARE(runs.runs.size(), size_t(1));
        std::vector<std::string> names;
        for (const std::string& f : runs.runs[0].files)
            names.push_back(QFileInfo(QString::fromStdString(f)).fileName().toStdString());
        QCOMPARE(names,
                 (std::vector<std::string>{"10.0.0.2_6003.xplane.pb", "10.0.0.10_6003.xplane.pb",
                                           "worker2.xplane.pb", "worker10.xplane.pb"}));
    }

    void theRunIsChosenByNameOrNewest() {
        const QString logdir = dir_.filePath("logs");
        const QString older = logdir + "/train/plugins/profile/2024_01_01_10_00_00";
        const QString newer = logdir + "/train/plugins/profile/2024_03_01_10_00_00";
        QVERIFY(QDir().mkpath(older) && QDir().mkpath(newer));
        XsSpace one = smallSpace(), two = smallSpace();
        two.planes[0].lines[0].events.pop_back();
        writeFile(older + "/worker0.xplane.pb", encodeXSpace(one));
        writeFile(older + "/worker1.xplane.pb", encodeXSpace(one));
        writeFile(newer + "/worker0.xplane.pb", encodeXSpace(two));
        QFile(older + "/worker0.xplane.pb")
            .setFileTime(QDateTime::currentDateTime().addDays(-30),
                         QFileDevice::FileModificationTime);
        QFile(older + "/worker1.xplane.pb")
            .setFileTime(QDateTime::currentDateTime().addDays(-30),
                         QFileDevice::FileModificationTime);
        const uint64_t oneEvents = 3, twoEvents = 2;  // smallSpace: two kernels and a launch
        LoadResult r = loadTrace(logdir.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "no trace");
        QCOMPARE(r.run, std::string("train/2024_03_01_10_00_00"));
        QCOMPARE(r.runs, (std::vector<std::string>{"train/2024_03_01_10_00_00",
                                                   "train/2024_01_01_10_00_00"}));
        QCOMPARE(r.trace->report.events, twoEvents);
        LoadOptions o;
        o.run = "2024_01_01_10_00_00";  // the last part of its name is enough
        r = loadTrace(logdir.toStdString(), o);
        QVERIFY(r.trace);
        QCOMPARE(r.trace->report.events, 2 * oneEvents);
        QCOMPARE(r.trace->gpuDevices.size(), size_t(2));  // worker0's GPU 0 and worker1's
        o.run = "nope";
        r = loadTrace(logdir.toStdString(), o);
        QVERIFY(!r.trace && r.failure);
        QCOMPARE(r.failure->where, std::string("run"));
        QVERIFY2(r.failure->what.find("train/2024_01_01_10_00_00") != std::string::npos,
                 r.failure->what.c_str());
        const QString empty = dir_.filePath("empty/plugins/profile");
        QVERIFY(QDir().mkpath(empty));
        r = loadTrace(dir_.filePath("empty").toStdString());
        QVERIFY(!r.trace && r.failure);
        QCOMPARE(r.failure->where, std::string("folder"));
        QVERIFY2(r.failure->what.find("plugins/profile/RUN/HOST.xplane.pb") != std::string::npos,
                 r.failure->what.c_str());
    }

    // A host file that cannot be read is left out with a warning naming it
    // while the others load; when none can be read, the error names the
    // first file and the byte.
    void aBrokenHostIsLeftOutOrNamed() {
        const QString run = dir_.filePath("broken-run");
        QVERIFY(QDir().mkpath(run));
        writeFile(run + "/a.xplane.pb", std::string("\x0a\x05"
                                                    "abc",
                                                    5));  // a cut plane
        writeFile(run + "/b.xplane.pb", encodeXSpace(smallSpace()));
        LoadResult r = loadTrace(run.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "no trace");
        QCOMPARE(r.trace->report.events, uint64_t(3));
        bool named = false;
        for (const ImportWarning& w : r.trace->report.warnings)
            named |= w.message.rfind("a.xplane.pb: ", 0) == 0 &&
                     w.message.find("that host is left out") != std::string::npos;
        QVERIFY(named);
        QVERIFY(QFile::remove(run + "/b.xplane.pb"));
        r = loadTrace(run.toStdString());
        QVERIFY(!r.trace && r.failure);
        QCOMPARE(QString::fromStdString(r.failure->path), run);
        QVERIFY2(r.failure->where.rfind("a.xplane.pb, byte ", 0) == 0, r.failure->where.c_str());
    }

    // The index cache keeps a run like a file: a second open is a hit; a
    // host file added, changed or removed makes the entry stale.
    void theCacheCoversARun() {
        QTemporaryDir cacheDir;
        IndexCache cache(cacheDir.path().toStdString());
        const QString run = dir_.filePath("cached-run");
        QVERIFY(QDir().mkpath(run));
        writeFile(run + "/h0.xplane.pb", encodeXSpace(smallSpace()));
        LoadOptions o;
        o.cache = &cache;
        LoadResult r = loadTrace(run.toStdString(), o);
        QVERIFY(r.trace);
        QVERIFY2(r.cacheNote.find("written") != std::string::npos, r.cacheNote.c_str());
        r = loadTrace(run.toStdString(), o);
        QCOMPARE(r.cacheNote, std::string("hit"));
        QCOMPARE(r.trace->report.events, uint64_t(3));
        writeFile(run + "/h1.xplane.pb", encodeXSpace(smallSpace()));
        r = loadTrace(run.toStdString(), o);
        QVERIFY2(r.cacheNote.rfind("stale", 0) == 0, r.cacheNote.c_str());
        QCOMPARE(r.trace->report.events, uint64_t(6));
        QVERIFY(QFile::remove(run + "/h0.xplane.pb"));
        r = loadTrace(run.toStdString(), o);
        QVERIFY2(r.cacheNote.rfind("stale", 0) == 0, r.cacheNote.c_str());
        QCOMPARE(r.trace->report.events, uint64_t(3));
    }

    // A plain file is read where it lies (its planes located, their lines
    // read one at a time) and its args stay there, decoded when a person
    // looks; a compressed one is a stream whose args are composed at load.
    // Both make the same trace with the same args text, for real
    // recordings and the fixtures of what profilers rarely write; the
    // decoder is reattached when the trace comes back from the cache, and
    // says so when the file changed.
    void aPlainFileKeepsItsArgsWhereTheyLie_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("jax recording") << jaxRecording() << QByteArray();
        if (!sharedDir().isEmpty())
            QTest::newRow("tf multi-worker") << multiWorker() << QByteArray();
        XsSpace fixture = smallSpace();
        // A display name (long_name), a stat the plane cannot name, an
        // event naming metadata it lacks, a metadata entry whose stats
        // every event shares, and args cut at 64 KiB.
        fixture.planes[1].eventMetadata[0].displayName = "launch";
        fixture.planes[1].eventMetadata[0].stats = {XsStat::integer(20, 7)};
        fixture.planes[1].lines[0].events[0].stats.push_back(XsStat::integer(99, 1));
        XsEvent orphan = fixture.planes[1].lines[0].events[0];
        orphan.metadataId = 77;
        orphan.offsetPs += 5'000'000;
        fixture.planes[1].lines[0].events.push_back(orphan);
        XsEvent big = fixture.planes[0].lines[0].events[0];
        big.offsetPs += 50'000'000;
        for (int i = 0; i < 20'000; ++i)
            big.stats.push_back(XsStat::integer(10, i));
        fixture.planes[0].lines[0].events.push_back(big);
        // An event of no bytes at all (metadata 0, at the line's start):
        // its metadata's stats are its args all the same.
        fixture.planes[1].eventMetadata.push_back({0, "empty", "shown", {XsStat::integer(20, 9)}});
        fixture.planes[1].lines[0].events.push_back(XsEvent{});
        QTest::newRow("fixture") << QString() << QByteArray::fromStdString(encodeXSpace(fixture));
    }

    void aPlainFileKeepsItsArgsWhereTheyLie() {
        QFETCH(QString, source);
        QFETCH(QByteArray, bytes);
        std::string raw = bytes.toStdString();
        if (!source.isEmpty()) {
            QFile f(source);
            QVERIFY(f.open(QIODevice::ReadOnly));
            raw = f.readAll().toStdString();
        }
        QTemporaryDir dir;
        const QString plain = dir.filePath("t.xplane.pb"), packed = dir.filePath("t.xplane.pb.gz");
        writeFile(plain, raw);
        writeFile(packed, gzipCompress(raw, 1));
        const LoadResult a = loadTrace(plain.toStdString()), b = loadTrace(packed.toStdString());
        QVERIFY(a.trace && b.trace);
        QCOMPARE(a.trace->argsStore.rawBytes(), uint64_t(0));  // no text composed or held
        QVERIFY(b.trace->argsStore.rawBytes() > 0);
        const std::string dumpA = canonicalDump(*a.trace);
        QVERIFY(dumpA.find("unreadable") == std::string::npos);
        QCOMPARE(dumpA, canonicalDump(*b.trace));
        // Decoded on a second thread (auto) or on this one: the same trace.
        LoadOptions one;
        one.mode = ReadingMode::OneThread;
        const LoadResult single = loadTrace(plain.toStdString(), one);
        QVERIFY(single.trace);
        QCOMPARE(canonicalDump(*single.trace), dumpA);
        QCOMPARE(a.trace->report.warnings.size(), b.trace->report.warnings.size());
        bool cut = false;
        for (size_t i = 0; i < a.trace->report.warnings.size(); ++i) {
            QCOMPARE(a.trace->report.warnings[i].message, b.trace->report.warnings[i].message);
            cut |= a.trace->report.warnings[i].message.find("cut at 64 KiB") != std::string::npos;
        }
        QCOMPARE(cut, source.isEmpty());  // the fixture's big event

        // Two files as the ranks of a job, merged into one trace: each
        // rank's args are still decoded from its file.
        const QString second = dir.filePath("u.xplane.pb");
        writeFile(second, raw);
        const RankView ranks = loadRankView(wholeFiles({plain.toStdString(), second.toStdString()}),
                                            dir.path().toStdString(), RankViewOptions{});
        QVERIFY(ranks.trace && ranks.failed.empty());
        size_t decoded = 0;
        for (const Slice& sl : ranks.trace->slices) {
            if (sl.args == kNone) continue;
            const ArgsText text = ranks.trace->argsText(sl.args);
            QVERIFY2(text.ok(), text.error.c_str());
            if (text.json.empty()) continue;
            QVERIFY2(json::parse(text.json, nullptr, false).is_object(), text.json.c_str());
            ++decoded;
        }
        QVERIFY(decoded > 0);

        // From the cache: the same args, decoded again from the file.
        QCOMPARE(dumpOfCacheHit(plain.toStdString()), dumpA);

        // A file rewritten since: the args say so instead of showing others.
        uint32_t withArgs = kNone;
        for (const Slice& sl : a.trace->slices)
            if (sl.args != kNone && a.trace->args[sl.args].length > 0) withArgs = sl.args;
        QVERIFY(withArgs != kNone);
        QVERIFY(a.trace->argsText(withArgs).ok());
        writeFile(plain, raw + std::string(8, '\0'));
        const ArgsText changed = a.trace->argsText(withArgs);
        QVERIFY(!changed.ok() && changed.json.empty());
        QVERIFY2(changed.error.find("changed") != std::string::npos, changed.error.c_str());
    }

    // A file cut inside a plane, or whose last field claims a length that
    // would wrap a 64-bit offset: the planes before it load, and their
    // events' args are still decoded from the file (the decoder's walk of
    // the file ends at the bad field instead of failing or looping).
    void argsOfAFileCutAfterGoodPlanes_data() {
        QTest::addColumn<QByteArray>("tail");
        QTest::newRow("plane past the end")
            << QByteArray::fromStdString(protoVarint(0x0A) + protoVarint(1000) + "abc");
        QTest::newRow("length that wraps")
            << QByteArray::fromStdString(protoVarint(0x0A) + protoVarint(UINT64_MAX - 5) + "abc");
        QTest::newRow("hostnames past the end")
            << QByteArray::fromStdString(protoVarint(0x22) + protoVarint(99) + "h");
    }

    void argsOfAFileCutAfterGoodPlanes() {
        QFETCH(QByteArray, tail);
        const LoadResult r =
            loadBytes(dir_, encodeXSpace(smallSpace()) + tail.toStdString(), "cut-args.xplane.pb");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        QVERIFY(r.trace->report.truncated);
        QCOMPARE(r.trace->slices.size(), size_t(3));
        for (const Slice& sl : r.trace->slices) {
            QVERIFY(sl.args != kNone);
            const ArgsText text = r.trace->argsText(sl.args);
            QVERIFY2(text.ok(), text.error.c_str());
            const json args = json::parse(text.json, nullptr, false);
            QVERIFY2(args.contains("correlation_id"), text.json.c_str());
        }
    }

    // The hosts of a run decoded on other threads and built here in host
    // order make the very trace they make one after another: several
    // batches per host, a broken host in the middle left out alike, the
    // real logdir too; a cancel mid-run ends it.
    void aRunReadInParallelIsTheSameTrace() {
        const QString run = dir_.filePath("parallel-run");
        QVERIFY(QDir().mkpath(run));
        for (int h = 0; h < 4; ++h) {
            XsSpace space = smallSpace();
            XsLine& stream = space.planes[0].lines[0];
            const XsEvent k = stream.events[0];
            for (int i = 0; i < 9000 + 1000 * h; ++i) {  // three batches or more
                XsEvent e = k;
                e.offsetPs = int64_t{4'000'000} * i + h;
                stream.events.push_back(e);
            }
            writeFile(run + QStringLiteral("/host%1.xplane.pb").arg(h), h == 2
                                                                            ? std::string("\x0a\x05"
                                                                                          "abc",
                                                                                          5)
                                                                            : encodeXSpace(space));
        }
        auto load = [](const QString& path, int threads) {
            LoadOptions o;
            o.mode = threads == 0   ? ReadingMode::Auto
                     : threads == 1 ? ReadingMode::OneThread
                                    : ReadingMode::Pipelined;
            return loadTrace(path.toStdString(), o);
        };
        const LoadResult one = load(run, 1), many = load(run, 2);
        QVERIFY2(one.trace && many.trace, "both load");
        QVERIFY(one.trace->slices.size() > 3 * 9000);
        QCOMPARE(canonicalDump(*many.trace), canonicalDump(*one.trace));
        QCOMPARE(many.trace->report.warnings.size(), one.trace->report.warnings.size());
        for (size_t i = 0; i < one.trace->report.warnings.size(); ++i)
            QCOMPARE(many.trace->report.warnings[i].message, one.trace->report.warnings[i].message);
        if (!sharedDir().isEmpty()) {
            const QString logdir = sharedTraces() + "/xprof/demo";
            const LoadResult a = load(logdir, 1), b = load(logdir, 2);
            QVERIFY(a.trace && b.trace);
            QCOMPARE(canonicalDump(*b.trace), canonicalDump(*a.trace));
        }
        // Cancelled once the first host is in: no trace, no hang.
        CancelToken cancel;
        LoadOptions o;
        o.mode = ReadingMode::Pipelined;
        o.cancel = &cancel;
        o.progress = [&](LoadPhase, uint64_t done, uint64_t) {
            if (done > 0) cancel.cancel();
        };
        const LoadResult cancelled = loadTrace(run.toStdString(), o);
        QVERIFY(cancelled.cancelled && !cancelled.trace);
    }

    // What can go wrong with a run, one host after the other and in
    // parallel alike: the memory limit mid-host ends the load naming that
    // host's file; a host file name that is not UTF-8 is shown with U+FFFD;
    // a run given with a trailing slash or as "." is named after its folder.
    void runsFailCleanlyAndNameWhatFailed() {
        const QString run = dir_.filePath("limited-run");
        QVERIFY(QDir().mkpath(run));
        XsSpace space = smallSpace();
        XsLine& stream = space.planes[0].lines[0];
        const XsEvent k = stream.events[0];
        for (int i = 0; i < 40000; ++i) {
            XsEvent e = k;
            e.offsetPs = int64_t{4'000'000} * i;
            stream.events.push_back(e);
        }
        writeFile(run + "/h0.xplane.pb", encodeXSpace(smallSpace()));
        writeFile(run + "/h1.xplane.pb", encodeXSpace(space));
        std::vector<std::string> messages;
        for (const int threads : {1, 2}) {
            LoadOptions o;
            o.mode = threads == 0   ? ReadingMode::Auto
                     : threads == 1 ? ReadingMode::OneThread
                                    : ReadingMode::Pipelined;
            o.memoryLimitBytes = 1 << 20;
            const LoadResult r = loadTrace(run.toStdString(), o);
            QVERIFY(!r.trace && r.failure);
            const std::string& where = r.failure->where;
            QVERIFY2((where.rfind("h0.xplane.pb, event ", 0) == 0 ||
                      where.rfind("h1.xplane.pb, event ", 0) == 0),
                     r.failure->message().c_str());
            QVERIFY2(r.failure->what.find("memory") != std::string::npos, r.failure->what.c_str());
            messages.push_back(r.failure->message());
        }
        QCOMPARE(messages[1], messages[0]);
        const QString odd = dir_.filePath("odd-names");
        QVERIFY(QDir().mkpath(odd));
        const QByteArray badName = QFile::encodeName(odd) + "/h\xff\xfe.xplane.pb";
        {
            const std::string bytes = encodeXSpace(smallSpace());
            FILE* out = std::fopen(badName.constData(), "wb");
            QVERIFY(out);
            QCOMPARE(std::fwrite(bytes.data(), 1, bytes.size(), out), bytes.size());
            std::fclose(out);
        }
        const LoadResult r = loadTrace(odd.toStdString() + "/");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        QCOMPARE(r.run, std::string("odd-names"));
        QCOMPARE(r.trace->path, odd.toStdString());
        const json hosts = json::parse(r.trace->metadata.at("profile hosts"));
        QCOMPARE(hosts[0].get<std::string>(), std::string("h\uFFFD\uFFFD"));
        QVERIFY(QDir::setCurrent(odd));
        const LoadResult dot = loadTrace(".");
        QVERIFY(QDir::setCurrent(QDir::rootPath()));
        QVERIFY(dot.trace);
        QCOMPARE(dot.run, std::string("odd-names"));
    }

    // Only XSpace process names carry hosts: a JSON trace's TensorFlow 1
    // device names ("/job:w/replica:0/task:1/device:GPU:0 Compute") are
    // left as they were, GPUs by their activity.
    void jsonDeviceNamesAreNotHosts() {
        const std::string text =
            R"({"traceEvents":[)"
            R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"/job:w/replica:0/task:0/device:GPU:0 Compute"}},)"
            R"({"ph":"M","name":"process_name","pid":2,"args":{"name":"/job:w/replica:0/task:1/device:GPU:0 Compute"}},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":2},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":2,"tid":7,"ts":1,"dur":2}]})";
        const LoadResult r = loadBytes(dir_, text, "tf1.json");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        std::set<int> devices;
        for (const Process& p : r.trace->processes) {
            QVERIFY2(p.displayName.find('(') == std::string::npos, p.displayName.c_str());
            if (p.kind == ProcessKind::Gpu) devices.insert(p.gpuDevice);
        }
        QCOMPARE(devices, (std::set<int>{1, 2}));  // by pid, as before
    }

    void theJaxRecordingMatchesTheReference() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference decoder");
        matchesTheReference(jaxRecording());
        // Its allocator's blocks were among what was compared.
        size_t blocks = 0;
        const json ref = reference(jaxRecording());
        for (const json& p : ref["planes"])
            for (const auto& [allocator, a] : p["allocators"].items())
                blocks += a.value("allocations", size_t(0));
        QVERIFY(blocks > 0);
    }

    // The trace viewer's JSON of the same run: the same tracks with events
    // and the same GPU busy time (its times are printed in µs from doubles:
    // within a ns per kernel).
    void theJaxRecordingAgreesWithItsTraceViewerJson() {
        const LoadResult x = loadTrace(jaxRecording().toStdString());
        const LoadResult j =
            loadTrace((sourceDir() + "/tests/data/recorded/jax_mlp.trace.json.gz").toStdString());
        QVERIFY(x.trace && j.trace);
        std::set<std::pair<std::string, std::string>> xt, jt;
        for (const auto& [key, f] : figures(*x.trace))
            xt.insert(key);
        for (const auto& [key, f] : figures(*j.trace))
            jt.insert(key);
        QCOMPARE(xt, jt);
        QCOMPARE(x.trace->gpuDevices.size(), j.trace->gpuDevices.size());
        for (size_t d = 0; d < x.trace->gpuDevices.size(); ++d) {
            const GpuDevice& a = x.trace->gpuDevices[d];
            const GpuDevice& b = j.trace->gpuDevices[d];
            QCOMPARE(a.index, b.index);
            QVERIFY(a.busyNs > 0);
            QVERIFY2(std::abs(a.busyNs - b.busyNs) <= TimeNs(a.busy.size() + 1),
                     qPrintable(QString::number(a.busyNs - b.busyNs)));
        }
        // The stats analyses read (correlation_id, kernel_details) mean the
        // same in either file: per kernel name, the same launch parameters.
        const auto launchesByName = [](const Trace& t) {
            std::map<std::string, std::set<std::vector<int64_t>>> out;
            for (const Slice& sl : t.slices) {
                const auto e = t.extractedArgs(sl.args);
                if (!e || e->grid[0] == 0) continue;
                out[std::string(t.str(sl.name))].insert(
                    {e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2],
                     e->registersPerThread, e->sharedMemory,
                     static_cast<int64_t>(e->occupancyPercent * 100)});
            }
            return out;
        };
        const auto xl = launchesByName(*x.trace);
        QVERIFY(!xl.empty());
        QCOMPARE(launchesByName(*j.trace), xl);
        const auto correlated = [](const Trace& t) {
            size_t n = 0;
            for (const Slice& sl : t.slices) {
                const auto e = t.extractedArgs(sl.args);
                n += e && e->correlation >= 0;
            }
            return n;
        };
        QVERIFY(correlated(*x.trace) > 0);
        QCOMPARE(correlated(*j.trace), correlated(*x.trace));
    }

    // The upstream file whose bytes were re-encoded as text: an error that
    // names the file and the byte, not a crash and not a half-read trace.
    void theCorruptedUpstreamFileIsAnError() {
        GAPSCOPE_REQUIRE_SHARED();
        const QString path =
            sharedTraces() + "/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb";
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY(!r.trace);
        QVERIFY(r.failure);
        QCOMPARE(r.failure->path, path.toStdString());
        QVERIFY2(r.failure->where.rfind("byte ", 0) == 0, r.failure->where.c_str());
        QVERIFY2(r.failure->what.find("malformed XSpace") != std::string::npos,
                 r.failure->message().c_str());
    }

    // Names, args of every kind, launch parameters, ordering and rounding.
    void fixturesBecomeTheTrace() {
        const LoadResult r = loadBytes(dir_, encodeXSpace(smallSpace()), "small.xplane.pb");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        const Trace& t = *r.trace;
        QCOMPARE(t.report.events, uint64_t(3));
        QCOMPARE(t.gpuDevices.size(), size_t(1));
        QCOMPARE(t.gpuDevices[0].index, 0);
        // Two kernels that touch in ps touch in ns: one busy interval.
        QCOMPARE(t.gpuDevices[0].busy.size(), size_t(1));
        QCOMPARE(t.gpuDevices[0].busy[0].start, TimeNs(1'002'000));
        QCOMPARE(t.gpuDevices[0].busy[0].end, TimeNs(1'006'001));  // 1.0060005 ms rounds up
        const auto f = figures(t);
        QVERIFY(f.count({"/device:GPU:0", "Stream #7(Compute)"}));
        QVERIFY(f.count({"/host:CPU", "main thread"}));  // display_name wins
        QCOMPARE(t.metadata.at("hostnames"), std::string("[\"worker-0\"]"));
        // The kernel's args: every stat by name; launch parameters extracted.
        const Track* stream = nullptr;
        for (const Track& tr : t.tracks)
            if (t.str(tr.threadName) == "Stream #7(Compute)") stream = &tr;
        QVERIFY(stream && stream->sliceCount() == 2);
        const Slice& first = t.slices[stream->sliceBegin];
        QCOMPARE(first.start, TimeNs(1'002'000));
        QCOMPARE(t.str(first.name), std::string_view("void gemm<float>(float*)"));
        const json args = json::parse(t.argsText(first.args).json, nullptr, false);
        QCOMPARE(args["correlation_id"].get<int64_t>(), int64_t(42));
        QCOMPARE(args["kernel_details"].get<std::string>(),
                 std::string("regs:38 shm:1024 grid:160,1,1 block:256,2,1"));
        // Both launches carry the parsed launch parameters and their own id.
        for (uint32_t s = stream->sliceBegin; s < stream->sliceEnd; ++s) {
            const auto x = t.extractedArgs(t.slices[s].args);
            QVERIFY(x);
            QCOMPARE(x->registersPerThread, 38);
            QCOMPARE(x->sharedMemory, int64_t(1024));
            QCOMPARE(x->grid[0], 160);
            QCOMPARE(x->block[0], 256);
            QCOMPARE(x->block[1], 2);
            QCOMPARE(x->correlation, int64_t(s == stream->sliceBegin ? 42 : 43));
        }
    }

    // One metadata entry with 100,000 stats named by every event: its args
    // are composed once and cut at 64 KiB, with a warning; not 2 GB of text.
    void hugeMetadataIsCutNotRepeated() {
        XsSpace s = smallSpace();
        XsEventMetadata& m = s.planes[1].eventMetadata[0];
        for (int i = 0; i < 100'000; ++i)
            m.stats.push_back(XsStat::integer(20, i));
        XsLine& line = s.planes[1].lines[0];
        for (int i = 1; i < 2000; ++i) {
            XsEvent e = line.events[0];
            e.offsetPs += i * 1'000'000;
            line.events.push_back(e);
        }
        const LoadResult r = loadBytes(dir_, encodeXSpace(s), "huge-meta.xplane.pb");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        const Trace& t = *r.trace;
        QCOMPARE(t.report.events, uint64_t(2 + 2000));
        const Slice* launch = nullptr;
        for (const Slice& sl : t.slices)
            if (t.str(sl.name) == "cudaLaunchKernel") launch = &sl;
        QVERIFY(launch);
        const std::string text = t.argsText(launch->args).json;
        QVERIFY(text.size() < 70'000);
        QVERIFY(json::parse(text, nullptr, false).is_object());
        bool warned = false;
        for (const ImportWarning& w : t.report.warnings)
            warned |= w.message.find("cut at 64 KiB") != std::string::npos;
        QVERIFY(warned);
    }

    // Times that do not fit in int64 ns: the event is reported, not wrapped.
    void timesThatOverflowAreDropped() {
        XsSpace s = smallSpace();
        XsEvent e = s.planes[1].lines[0].events[0];
        e.offsetPs = INT64_MAX - 10;
        e.durationPs = 1000;
        s.planes[1].lines[0].events.push_back(e);
        const LoadResult r = loadBytes(dir_, encodeXSpace(s), "overflow.xplane.pb");
        QVERIFY(r.trace);
        QCOMPARE(r.trace->report.events, uint64_t(4));
        QCOMPARE(r.trace->report.invalidEvents, uint64_t(1));
        QCOMPARE(r.trace->slices.size(), size_t(3));
    }

    void everyStatKindIsAnArg() {
        XsSpace s = smallSpace();
        XsEvent& e = s.planes[1].lines[0].events[0];
        XsStat d;
        d.metadataId = 30;
        d.kind = XsStat::Kind::Double;
        d.d = 2.5;
        XsStat u;
        u.metadataId = 31;
        u.kind = XsStat::Kind::Uint64;
        u.u = UINT64_MAX;
        XsStat neg = XsStat::integer(32, -7);
        XsStat bytes;
        bytes.metadataId = 33;
        bytes.kind = XsStat::Kind::Bytes;
        bytes.s = std::string("\x00\x01\xff", 3);
        XsStat str = XsStat::text(34, "quote \" and \xff bad UTF-8");
        XsStat unnamed = XsStat::integer(99, 1);  // no stat metadata 99
        e.stats = {d, u, neg, bytes, str, unnamed};
        s.planes[1].statMetadata = {
            {30, "fragmentation"}, {31, "big"}, {32, "neg"}, {33, "Hlo Proto"}, {34, "label"}};
        const LoadResult r = loadBytes(dir_, encodeXSpace(s), "kinds.xplane.pb");
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        const Slice* launch = nullptr;
        for (const Slice& sl : t.slices)
            if (t.str(sl.name) == "cudaLaunchKernel") launch = &sl;
        QVERIFY(launch);
        const json args = json::parse(t.argsText(launch->args).json, nullptr, false);
        QVERIFY2(args.is_object(), t.argsText(launch->args).json.c_str());
        QCOMPARE(args["fragmentation"].get<double>(), 2.5);
        QCOMPARE(args["big"].get<uint64_t>(), UINT64_MAX);
        QCOMPARE(args["neg"].get<int64_t>(), int64_t(-7));
        QCOMPARE(args["Hlo Proto"].get<std::string>(), std::string("<3 bytes>"));
        QCOMPARE(args["label"].get<std::string>(),
                 std::string("quote \" and \xEF\xBF\xBD bad UTF-8"));
        bool unnamedKept = false;
        for (const auto& [k, v] : args.items())
            unnamedKept |= k.rfind("stat@", 0) == 0 && v == 1;
        QVERIFY(unnamedKept);
        bool warned = false;
        for (const ImportWarning& w : t.report.warnings)
            warned |=
                w.message.find("stats name metadata the plane does not have") != std::string::npos;
        QVERIFY(warned);
    }

    void oddButValidInput() {
        XsSpace s = smallSpace();
        // An empty plane, an empty line, huge and negative ids, an event
        // whose metadata is missing, zero and negative durations, an
        // aggregated event, a step_name stat, a display_name on metadata.
        XsPlane empty;
        empty.name = "/host:metadata";
        empty.stats = {XsStat::text(1, "facts")};
        empty.statMetadata = {{1, "profile_options"}};
        s.planes.insert(s.planes.begin(), empty);
        XsPlane& host = s.planes[2];
        XsLine blank;
        blank.id = INT64_MAX;
        blank.name = "idle thread";
        host.lines.push_back(blank);
        XsLine odd;
        odd.id = -559038737;  // the trace viewer's derived "Steps" line id
        odd.name = "Steps";
        odd.timestampNs = 1'000'000;
        XsEvent missing;
        missing.metadataId = 777;
        missing.offsetPs = 10;
        XsEvent zero;
        zero.metadataId = 6;
        zero.offsetPs = 3'000'000;
        zero.stats = {XsStat::text(21, "step 12")};
        XsEvent negative;
        negative.metadataId = 6;
        negative.offsetPs = 4'000'000;
        negative.durationPs = -2000;
        XsEvent counted;
        counted.metadataId = 6;
        counted.numOccurrences = 9;
        odd.events = {missing, zero, negative, counted};
        host.lines.push_back(odd);
        host.eventMetadata.push_back({6, "train_step_long_name", "train", {}});
        host.statMetadata.push_back({21, "step_name"});
        const LoadResult r = loadBytes(dir_, encodeXSpace(s), "odd.xplane.pb");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        const Trace& t = *r.trace;
        QCOMPARE(t.report.events, uint64_t(3 + 4));  // the aggregated one is counted
        const auto f = figures(t);
        QVERIFY(f.count({"/host:CPU", "Steps"}));
        QCOMPARE(f.at({"/host:CPU", "Steps"}).slices, uint64_t(3));
        QVERIFY(t.metadata.count("xspace plane /host:metadata"));
        std::set<std::string> names;
        for (const Slice& sl : t.slices)
            names.insert(std::string(t.str(sl.name)));
        QVERIFY(names.count("event#777"));
        QVERIFY(names.count("step 12"));  // step_name names a step
        QVERIFY(names.count("train"));    // display_name, with long_name in args
        QCOMPARE(t.report.negativeDurations, uint64_t(1));
        std::string warnings;
        for (const ImportWarning& w : t.report.warnings)
            warnings += w.message + "\n";
        QVERIFY2(
            warnings.find("1 events name metadata the plane does not have") != std::string::npos,
            warnings.c_str());
        QVERIFY2(warnings.find("1 aggregated events") != std::string::npos, warnings.c_str());
    }

    // A plane without a name, a line before the epoch, metadata ids given
    // twice (the later entry counts, as in protobuf), two lines of one
    // display_id (one row, named by the first), and a stat whose name and
    // ref_value are both missing (one stat, counted once).
    void namesAndTimesAtTheEdges() {
        XsSpace s = smallSpace();
        XsPlane unnamed;
        unnamed.id = 9;
        XsLine early;
        early.id = 3;
        early.name = "early";
        early.timestampNs = -5'000'000;
        XsEvent e;
        e.metadataId = 1;
        e.offsetPs = 1'000'000;
        e.durationPs = 2'000'000;
        e.stats = {XsStat::ref(404, 405)};
        early.events = {e};
        unnamed.lines = {early};
        unnamed.eventMetadata = {{1, "first", "", {}}, {1, "second", "", {}}};
        s.planes.push_back(unnamed);  // plane 2
        XsPlane& host = s.planes[1];
        XsLine a, b;
        a.id = 50;
        a.displayId = 60;
        a.displayName = "row A";
        a.timestampNs = 1'000'000;
        a.events = {host.lines[0].events[0]};
        b = a;
        b.id = 51;
        b.displayName = "row B";
        host.lines.push_back(a);
        host.lines.push_back(b);
        const LoadResult r = loadBytes(dir_, encodeXSpace(s), "edges.xplane.pb");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "");
        const Trace& t = *r.trace;
        const auto f = figures(t);
        QVERIFY(f.count({"plane 2", "early"}));
        const TrackFigures& early2 = f.at({"plane 2", "early"});
        QCOMPARE(early2.first, TimeNs(-5'000'000 + 1'000));
        QCOMPARE(early2.last, TimeNs(-5'000'000 + 3'000));
        QVERIFY(f.count({"/host:CPU", "row A"}));
        QVERIFY(!f.count({"/host:CPU", "row B"}));
        QCOMPARE(f.at({"/host:CPU", "row A"}).slices, uint64_t(2));
        bool second = false, first = false;
        for (const Slice& sl : t.slices) {
            second |= t.str(sl.name) == "second";
            first |= t.str(sl.name) == "first";
        }
        QVERIFY(second && !first);
        std::string warnings;
        for (const ImportWarning& w : t.report.warnings)
            warnings += w.message + "\n";
        QVERIFY2(warnings.find("plane \"plane 2\": 1 stats name metadata") != std::string::npos,
                 warnings.c_str());
    }

    // Cut anywhere: the planes before the cut are kept with a warning, or
    // (no complete plane) an error naming the byte; never a crash.
    void cutsKeepWhatCameBefore() {
        XsSpace space = smallSpace();
        const std::string whole = encodeXSpace(space);
        // A cut between two planes is a valid, shorter XSpace: protobuf
        // cannot tell. Those are where the first planes end.
        std::set<size_t> between;
        XsSpace part;
        for (const XsPlane& p : space.planes) {
            part.planes.push_back(p);
            between.insert(encodeXSpace(part).size());
        }
        for (size_t cut = 1; cut < whole.size(); ++cut) {
            const LoadResult r = loadBytes(dir_, whole.substr(0, cut), "cut.xplane.pb");
            if (between.count(cut)) {
                QVERIFY(r.trace);
                QVERIFY(!r.trace->report.truncated);
                continue;
            }
            if (r.trace) {
                QVERIFY(r.trace->report.truncated);
                QVERIFY(!r.trace->report.warnings.empty());
                // Cut inside a plane: that plane is left out; inside the
                // host names after the planes: every event is there.
                QCOMPARE(r.trace->report.events, uint64_t(cut > *between.rbegin()  ? 3
                                                          : cut > *between.begin() ? 2
                                                                                   : 0));
            } else {
                QVERIFY(r.failure);
                QVERIFY2(r.failure->where.rfind("byte ", 0) == 0 ||
                             r.failure->where.rfind("traceEvents", 0) == 0,
                         r.failure->where.c_str());
            }
        }
    }

    void hostileInputIsAnError_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        // A plane that claims 2^40 bytes: no allocation of that, an error.
        QTest::newRow("huge length")
            << QByteArray::fromStdString(protoVarint(0x0A) + protoVarint(uint64_t{1} << 40) +
                                         protoField(1, 5))
            << "the file ends inside plane 0";
        // A line inside a plane whose length runs past the plane.
        QTest::newRow("line past its plane")
            << QByteArray::fromStdString(
                   protoBytes(1, protoBytes(2, "/host:CPU") + protoVarint(0x1A) + protoVarint(99)))
            << "says 99 bytes";
        QTest::newRow("wire type 7")
            << QByteArray::fromStdString(protoBytes(1, protoBytes(2, "p") + protoVarint(0x0F)))
            << "wire type 7 does not exist";
        QTest::newRow("eleven-byte number")
            << QByteArray::fromStdString(
                   protoBytes(1, protoVarint(0x08) + std::string(10, '\xff') + '\x01'))
            << "longer than";
        QTest::newRow("end of a group never started")
            << QByteArray::fromStdString(
                   protoBytes(1, protoBytes(2, "p") + protoVarint((7 << 3) | 4)))
            << "never started";
    }

    void hostileInputIsAnError() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const LoadResult r = loadBytes(dir_, bytes.toStdString(), "hostile.xplane.pb");
        QVERIFY(!r.trace);
        QVERIFY(r.failure);
        QVERIFY2(r.failure->where.rfind("byte ", 0) == 0, r.failure->where.c_str());
        QVERIFY2(QString::fromStdString(r.failure->what).contains(says),
                 r.failure->message().c_str());
    }

    // Unknown fields, groups and newer wire data are skipped, not errors.
    void unknownFieldsAreSkipped() {
        XsSpace s = smallSpace();
        std::string bytes = encodeXSpace(s);
        // A top-level field 9 (varint), a group inside a plane, an unknown
        // line field: the trace is the same.
        const std::string group =
            protoVarint((15 << 3) | 3) + protoField(1, 5) + protoVarint((15 << 3) | 4);
        // The extra plane's line has one event (metadata 1, 5 µs at 1 ms).
        const std::string event = protoField(1, 1) + protoField(2, 5'000'000) + protoField(3, 1000);
        std::string extra =
            protoField(9, 1) +
            protoBytes(1,
                       protoBytes(2, "/device:GPU:9") + group +
                           protoBytes(3, protoField(1, 3) + protoBytes(2, "Stream #3") +
                                             protoField(3, 1'000'000) + protoField(20, 1) +
                                             protoBytes(4, event)) +
                           protoBytes(4, protoField(1, 1) +
                                             protoBytes(2, protoField(1, 1) + protoBytes(2, "k"))));
        const LoadResult a = loadBytes(dir_, bytes, "a.xplane.pb");
        const LoadResult b = loadBytes(dir_, bytes + extra, "b.xplane.pb");
        QVERIFY(a.trace && b.trace);
        QVERIFY(!b.trace->report.truncated);
        QVERIFY(b.trace->report.warnings.empty());
        QCOMPARE(b.trace->report.events, a.trace->report.events + 1);
        QCOMPARE(b.trace->slices.size(), a.trace->slices.size() + 1);
        QVERIFY(figures(*b.trace).count({"/device:GPU:9", "Stream #3"}));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestXSpace)
#include "tst_xspace.moc"
