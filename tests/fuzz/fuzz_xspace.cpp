// libFuzzer target for the XSpace reader (*.xplane.pb): the wire decoder,
// plane buffering, metadata tables, stats to args, then the builder and the
// queries. Straight to the reader, not through the sniffer, so that inputs
// whose first bytes no longer look like a plane still reach it. Seeds: the
// real XSpace files and the writer's fixtures (make_seeds.py --xspace).
// The first byte picks the source's chunk size (1..255 bytes, 0: whole).

#include <cstdint>
#include <memory>
#include <string>

#include "analysis/gpu_busy.h"
#include "exercise.h"
#include "format/xspace_reader.h"
#include "io/byte_source.h"
#include "model/trace_builder.h"
#include "util/load_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gapscope;
    if (size == 0) return 0;
    const size_t chunk = data[0] == 0 ? SIZE_MAX : data[0];
    auto trace = std::make_shared<Trace>();
    TraceBuilder builder(*trace);
    builder.setMemoryLimit(512u << 20);  // inside libFuzzer's -rss_limit_mb
    try {
        // Compressed inputs are inflated; archives (ZIP, tar) are refused
        // here with a LoadError, as loadTrace refuses them.
        OpenedSource opened =
            openMemorySource(std::string(reinterpret_cast<const char*>(data + 1), size - 1), chunk);
        XSpaceReader(*opened.source, builder, trace->report, ReaderOptions{}).run();
        builder.finish(nullptr);
        computeGpuBusy(*trace);
        fuzz::exercise(*trace);
    } catch (const LoadError&) {
    }
    return 0;
}
