// PyTorch Kineto's categories (libkineto ActivityType names, CUDA and ROCm
// alike: ROCm traces say "cuda_runtime" for HIP calls too).
#include <algorithm>
#include <cctype>
#include <charconv>

#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {

std::optional<SliceKind> kinetoCategory(std::string_view c) {
    // PyTorch 1.8 and 1.9 (2021) named them capitalised, as TensorFlow does.
    if (c == "Kernel") return SliceKind::Kernel;
    if (c == "Memcpy") return SliceKind::Memcpy;
    if (c == "Memset") return SliceKind::Memset;
    if (c == "Operator") return SliceKind::CpuOp;
    if (c == "Runtime") return SliceKind::RuntimeOther;
    if (c == "kernel") return SliceKind::Kernel;
    if (c == "gpu_memcpy") return SliceKind::Memcpy;
    if (c == "gpu_memset") return SliceKind::Memset;
    if (c == "cpu_op") return SliceKind::CpuOp;
    if (c == "cuda_runtime" || c == "cuda_driver") return SliceKind::RuntimeOther;
    if (c == "user_annotation") return SliceKind::UserAnnotation;
    if (c == "gpu_user_annotation") return SliceKind::GpuAnnotation;
    return std::nullopt;
}

namespace {

constexpr std::string_view kModuleFrame = "nn.Module: ";

// Ranges that torch.compile and AOTAutograd add around compiled code (some
// as user annotations): their names hold a hash or a frame number, so they
// differ between runs and between an eager and a compiled run.
constexpr std::string_view kCompilerRanges[] = {"## Call CompiledFxGraph", "Torch-Compiled Region",
                                                "CompiledFunction",        "TorchDynamo",
                                                "AOTDispatcher",           "## Compiled Autograd"};

// emit_nvtx names each op's range "aten::mm, seq = 12, op_id = 57, ..."
// (without the seq under no_grad): an op, not a part of the model.
constexpr std::string_view kOpRangeMarks[] = {", seq = ", ", op_id = ", ", sizes = ["};

}  // namespace

bool namesScope(SliceKind kind, std::string_view name) {
    if (kind == SliceKind::Other) return name.starts_with(kModuleFrame);
    if (kind != SliceKind::UserAnnotation) return false;
    for (const std::string_view mark : kOpRangeMarks)
        if (name.find(mark) != std::string_view::npos) return false;
    for (const std::string_view compiler : kCompilerRanges)
        if (name.starts_with(compiler)) return false;
    return true;
}

bool kinetoHostCategory(std::string_view c) {
    return c == "cpu_op" || c == "cuda_runtime" || c == "cuda_driver" || c == "user_annotation" ||
           c == "python_function";
}

int kinetoGpuNumber(std::string_view s) {
    constexpr std::string_view kPrefix = "GPU ";
    if (s.substr(0, kPrefix.size()) != kPrefix) return -1;
    s.remove_prefix(kPrefix.size());
    int n = -1;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), n);
    return r.ec == std::errc() ? n : -1;
}

bool kinetoLaunchFlow(std::string_view category) {
    return category == "ac2g";
}

std::optional<bool> kinetoLogIsError(std::string_view topLevelKey) {
    if (topLevelKey == "ERROR") return true;
    if (topLevelKey == "WARNING") return false;
    return std::nullopt;
}

// The DataLoader's iterator as PyTorch's profiler records it:
// "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__".
bool isDataLoaderNext(std::string_view n) {
    return n.find("DataLoader") != std::string_view::npos &&
           n.find("__next__") != std::string_view::npos;
}

DataLoaderIterator dataLoaderIterator(std::string_view n) {
    if (n.find("_SingleProcessDataLoaderIter") != std::string_view::npos)
        return DataLoaderIterator::SingleProcess;
    if (n.find("_MultiProcessingDataLoaderIter") != std::string_view::npos)
        return DataLoaderIterator::WorkerProcesses;
    return DataLoaderIterator::Unsaid;
}

// The thread pin_memory=True starts ("pin_memory", "Pin_Memory_Thread").
bool isPinMemoryThread(std::string_view thread) {
    constexpr std::string_view kName = "pin_memory";
    for (size_t i = 0; i + kName.size() <= thread.size(); ++i)
        if (std::equal(
                kName.begin(), kName.end(), thread.begin() + static_cast<ptrdiff_t>(i),
                [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }))
            return true;
    return false;
}

}  // namespace gapscope::vocabulary
