// PyTorch Kineto's categories (libkineto ActivityType names, CUDA and ROCm
// alike: ROCm traces say "cuda_runtime" for HIP calls too).
#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {

std::optional<SliceKind> kinetoCategory(std::string_view c) {
    if (c == "kernel") return SliceKind::Kernel;
    if (c == "gpu_memcpy") return SliceKind::Memcpy;
    if (c == "gpu_memset") return SliceKind::Memset;
    if (c == "cpu_op") return SliceKind::CpuOp;
    if (c == "cuda_runtime" || c == "cuda_driver") return SliceKind::RuntimeOther;
    if (c == "user_annotation") return SliceKind::UserAnnotation;
    if (c == "gpu_user_annotation") return SliceKind::GpuAnnotation;
    return std::nullopt;
}

bool kinetoLaunchFlow(std::string_view category) {
    return category == "ac2g";
}

std::optional<bool> kinetoLogIsError(std::string_view topLevelKey) {
    if (topLevelKey == "ERROR") return true;
    if (topLevelKey == "WARNING") return false;
    return std::nullopt;
}

}  // namespace gapscope::vocabulary
