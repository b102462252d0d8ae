// TensorFlow's trace-viewer JSON (the profiler plugin's export) names its
// categories capitalised.
#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {

std::optional<SliceKind> tensorflowCategory(std::string_view c) {
    if (c == "Kernel") return SliceKind::Kernel;
    if (c == "Memcpy") return SliceKind::Memcpy;
    if (c == "Memset") return SliceKind::Memset;
    if (c == "Operator") return SliceKind::CpuOp;
    if (c == "Runtime") return SliceKind::RuntimeOther;
    return std::nullopt;
}

// tf.data writes its iterator's work as TraceMe ranges on the host.
bool isTfDataStage(std::string_view n) {
    return n.substr(0, 10) == "Iterator::";
}

bool isTfDataGetNext(std::string_view n) {
    return n.substr(0, 15) == "IteratorGetNext";
}

std::vector<std::string_view> tfDataStageParts(std::string_view path) {
    std::vector<std::string_view> out;
    for (size_t at = 0;;) {
        const size_t next = path.find("::", at);
        out.push_back(path.substr(at, next == std::string_view::npos ? next : next - at));
        if (next == std::string_view::npos) return out;
        at = next + 2;
    }
}

bool isTfDataPrefetch(std::string_view part) {
    return part == "Prefetch";
}

bool isTfDataCache(std::string_view part) {
    return part.find("Cache") != std::string_view::npos;  // Cache, CacheDatasetV2, MemoryCache
}

bool isTfDataSequentialMap(std::string_view part) {
    return part == "Map";
}

}  // namespace gapscope::vocabulary
