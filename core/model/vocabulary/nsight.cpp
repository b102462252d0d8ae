// Nsight Systems: the categories its SQLite reader gives each table's rows
// (format/nsight/nsight_reader.h).
#include "format/nsight/nsight_reader.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {

std::optional<SliceKind> nsightCategory(std::string_view c) {
    if (c == nsight::kKernel) return SliceKind::Kernel;
    if (c == nsight::kMemcpy) return SliceKind::Memcpy;
    if (c == nsight::kMemset) return SliceKind::Memset;
    if (c == nsight::kRuntime || c == nsight::kDriver) return SliceKind::RuntimeOther;
    if (c == nsight::kNvtx) return SliceKind::UserAnnotation;
    if (c == nsight::kNvtxGpu) return SliceKind::GpuAnnotation;
    return std::nullopt;  // OS runtime calls are other host work
}

bool nsightLaunchFlow(std::string_view category) {
    return category == nsight::kLaunchFlow;
}

}  // namespace gapscope::vocabulary
