#include "support/trace_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <cstring>
#include <fstream>
#include <sstream>

#include "analysis/gpu_busy.h"
#include "cache/index_cache.h"
#include "format/pipelined_reader.h"
#include "format/trace_json_reader.h"
#include "io/compress.h"
#include "io/memory_source.h"
#include "loader/loader.h"
#include "model/trace_builder.h"

namespace gapscope::test {

std::string gzipBytes(const std::string& raw) {
    return gzipCompress(raw);
}

std::string zstdBytes(const std::string& raw) {
    return zstdCompress(raw);
}

bool writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(f);
}

LoadResult loadJsonText(const std::string& json, Compression compression) {
    // Files live as long as the test process: plain traces keep their args
    // in the file and read them back on demand.
    static QTemporaryDir dir;
    static int counter = 0;
    const std::string path =
        dir.filePath(QStringLiteral("trace%1.json").arg(++counter)).toStdString();
    std::string bytes = json;
    if (compression == Compression::Gzip) bytes = gzipBytes(json);
    if (compression == Compression::Zstd) bytes = zstdBytes(json);
    if (!writeFile(path, bytes)) QTest::qFail("cannot write a temporary trace", __FILE__, __LINE__);
    return loadTrace(path);
}

std::shared_ptr<const Trace> loadInChunks(const std::string& json, size_t chunk, bool pipelined) {
    auto trace = std::make_shared<Trace>();
    MemorySource source(json, chunk);
    TraceBuilder builder(*trace);
    // The reader fills its whole buffer per refill, so a buffer of `chunk`
    // bytes (growing only while one event does not fit) puts the split
    // points all over the input.
    ReaderOptions options;
    options.initialBufferBytes = chunk;
    const ReaderResult rr = pipelined
                                ? readPipelined(source, builder, trace->report, options)
                                : TraceJsonReader(source, builder, trace->report, options).run();
    trace->objectForm = rr.objectForm;
    trace->decompressedSize = rr.bytesRead;
    builder.finish(nullptr);
    computeGpuBusy(*trace);
    return trace;
}

std::string manyEvents(int count, bool distinctNames) {
    std::string text = "[";
    for (int i = 0; i < count; ++i) {
        const std::string n = std::to_string(i);
        text += "{\"ph\":\"X\",\"name\":\"n" + (distinctNames ? n : std::string()) +
                "\",\"pid\":1,\"tid\":1,\"ts\":" + n + ",\"dur\":1},";
    }
    text.back() = ']';
    return text;
}

std::string canonicalDump(const Trace& t) {
    std::ostringstream o;
    o << "events " << t.report.events << " span " << t.spanStart << " " << t.spanEnd << "\n";
    for (const auto& [ph, n] : t.report.phases)
        o << "ph " << ph << " " << n << "\n";
    for (const Process& p : t.processes) {
        o << "process " << p.displayName << " kind " << int(p.kind) << " dev " << p.gpuDevice
          << "\n";
        for (uint32_t id : p.tracks) {
            const Track& tr = t.tracks[id];
            o << " track " << tr.displayName << " kind " << trackKindName(tr.kind) << " rows "
              << tr.rows.size() << "\n";
            for (uint32_t i = tr.sliceBegin; i < tr.sliceEnd; ++i) {
                const Slice& s = t.slices[i];
                o << "  " << s.start << " " << s.dur << " " << t.str(s.name) << " "
                  << t.categoryName(s.category) << " r" << s.row << " d" << s.depth << " f"
                  << s.flags << " " << t.argsText(s.args).json << "\n";
            }
            for (uint32_t i = tr.instantBegin; i < tr.instantEnd; ++i) {
                o << "  i " << t.instants[i].ts << " " << t.str(t.instants[i].name) << "\n";
            }
        }
    }
    for (const CounterSeries& c : t.counters) {
        o << "counter " << t.str(c.name) << " n " << c.ts.size();
        for (size_t i = 0; i < c.ts.size(); ++i)
            o << " " << c.ts[i] << "=" << c.values[i];
        o << "\n";
    }
    for (const Flow& f : t.flows)
        o << "flow " << f.from << " -> " << f.to << "\n";
    for (const GpuDevice& d : t.gpuDevices)
        o << "gpu " << d.index << " busy " << d.busyNs << "\n";
    return o.str();
}

std::string dumpOfCacheHit(const std::string& path) {
    QTemporaryDir cacheDir;
    IndexCache cache(cacheDir.path().toStdString());
    LoadOptions o;
    o.cache = &cache;
    if (!loadTrace(path, o).trace) return {};
    const LoadResult hit = loadTrace(path, o);
    return hit.trace && hit.trace->fromCache ? canonicalDump(*hit.trace) : std::string();
}

}  // namespace gapscope::test
