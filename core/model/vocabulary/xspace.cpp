// XSpace GPU planes: a stream line's events are GPU work; the line says
// whether it copies ("Stream #12(MemcpyH2D)"), the event whether it sets.
#include "model/vocabulary/vocabulary.h"
#include "util/ascii_text.h"

namespace gapscope::vocabulary {

SliceKind xspaceStreamEvent(std::string_view lineName, std::string_view eventName) {
    if (containsNoCase(lineName, "memcpy")) return SliceKind::Memcpy;
    if (containsNoCase(eventName, "memset")) return SliceKind::Memset;
    return SliceKind::Kernel;
}

size_t planeNameAt(std::string_view name) {
    auto isPlane = [](std::string_view s) {
        return s.substr(0, 6) == "/host:" || s.substr(0, 8) == "/device:";
    };
    if (isPlane(name)) return 0;
    const size_t space = name.find(' ');
    if (space == std::string_view::npos || space == 0 || !isPlane(name.substr(space + 1)))
        return std::string_view::npos;
    return space + 1;
}

bool isStepsLine(std::string_view lineName) {
    return lineName == "Steps";
}

bool isTensorflowOpsLine(std::string_view lineName) {
    return lineName == "TensorFlow Ops";
}

bool isAllocatorEventName(std::string_view name) {
    return name == "MemoryAllocation" || name == "MemoryDeallocation";
}

MemoryCurve tensorflowMemoryCurve(std::string_view counterName) {
    if (counterName == "Memory Usage bytes_in_use") return MemoryCurve::Allocated;
    if (counterName == "Memory Usage bytes_reserved") return MemoryCurve::Reserved;
    return MemoryCurve::None;
}

}  // namespace gapscope::vocabulary
