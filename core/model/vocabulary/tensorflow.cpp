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

}  // namespace gapscope::vocabulary
