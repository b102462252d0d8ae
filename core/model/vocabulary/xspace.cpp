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

}  // namespace gapscope::vocabulary
