// Names that mean the same whichever profiler wrote them.
#include "format/nsight/nsight_reader.h"
#include "model/vocabulary/vocabulary.h"
#include "util/ascii_text.h"

namespace gapscope::vocabulary {

bool isCommunicationKernelName(std::string_view name) {
    // One pass: the three words start with different letters.
    for (size_t i = 0; i < name.size(); ++i) {
        switch (lowerAscii(name[i])) {
            case 'n':
                if (startsWithNoCase(name, i, "nccl")) return true;
                break;
            case 'r':
                if (startsWithNoCase(name, i, "rccl")) return true;
                break;
            case 'c':
                if (startsWithNoCase(name, i, "cross_device_reduce")) return true;
                break;
            default:
                break;
        }
    }
    return name.substr(0, 4) == "hccl";  // Huawei's collectives: a case-sensitive prefix
}

bool isPointToPointKernelName(std::string_view name) {
    // NCCL's and RCCL's: "ncclDevKernel_SendRecv", "ncclKernel_SendRecv_…"
    // (a send and a receive pair two ranks, not the group).
    return containsNoCase(name, "sendrecv") || containsNoCase(name, "_send") ||
           containsNoCase(name, "_recv");
}

bool isStepName(std::string_view name) {
    return name.substr(0, 13) == "ProfilerStep#";
}

std::string_view stepNumberText(std::string_view name) {
    return isStepName(name) ? name.substr(13) : std::string_view();
}

std::string_view moduleFrameName(std::string_view name) {
    constexpr std::string_view kPrefix = "nn.Module: ";
    return name.starts_with(kPrefix) ? name.substr(kPrefix.size()) : std::string_view();
}

TrainingPhaseMark trainingPhaseMark(std::string_view name) {
    if (name.starts_with("Optimizer.")) return TrainingPhaseMark::Optimizer;
    if (name.starts_with("autograd::engine::evaluate_function") ||
        name.find("Backward") != std::string_view::npos || name.ends_with("_backward"))
        return TrainingPhaseMark::Backward;
    return TrainingPhaseMark::None;
}

bool isTrainTestStepName(std::string_view name) {
    return name == "train" || name == "test";
}

bool isHostFunctionLaunch(std::string_view name) {
    return name.find("HostFunc") != std::string_view::npos;
}

CaptureEdge streamCaptureEdge(std::string_view name) {
    if (name.find("StreamBeginCapture") != std::string_view::npos) return CaptureEdge::Begin;
    if (name.find("StreamEndCapture") != std::string_view::npos) return CaptureEdge::End;
    return CaptureEdge::None;
}

std::optional<bool> copyHostMemoryIsPinned(std::string_view name) {
    if (name.find("Pageable") != std::string_view::npos) return false;
    if (name.find("Pinned") != std::string_view::npos) return true;
    return std::nullopt;
}

SliceKind runtimeCallKind(std::string_view n) {
    const bool cuda = n.starts_with("cuda") || n.starts_with("cu") || n.starts_with("hip");
    if (!cuda) return SliceKind::RuntimeOther;
    if (n.ends_with("Synchronize")) return SliceKind::RuntimeSync;
    if (n.find("Launch") != std::string_view::npos) return SliceKind::RuntimeLaunch;
    if (n.find("Memcpy") != std::string_view::npos || n.find("Memset") != std::string_view::npos)
        return SliceKind::RuntimeCopy;
    return SliceKind::RuntimeOther;
}

InputRole inputRoleOfName(std::string_view n) {
    if (isTfDataStage(n)) return InputRole::Stage;
    if (isTfDataGetNext(n)) return InputRole::GetNext;
    if (isDataLoaderNext(n)) return InputRole::DataLoaderNext;
    return InputRole::None;
}

HostRole hostRoleOfName(std::string_view n) {
    auto has = [&](std::string_view p) { return n.find(p) != std::string_view::npos; };
    // PyTorch's DataLoader, tf.data's iterator.
    if (inputRoleOfName(n) != InputRole::None) return HostRole::InputWait;
    // The calls that block the host until the device has finished: stream,
    // device, event and context synchronizes of the runtime and the driver
    // (CUDA and HIP), the blocking copies, and .item()'s scalar read.
    if (((n.starts_with("cuda") || n.starts_with("cu") || n.starts_with("hip")) &&
         n.ends_with("Synchronize")) ||
        n == "cudaMemcpy" || n == "hipMemcpy" || n == "aten::_local_scalar_dense")
        return HostRole::Sync;
    // PyTorch's collectives on the host.
    if (n.starts_with("nccl:") || n.starts_with("c10d::") || has("ProcessGroupNCCL") ||
        n == "record_param_comms")
        return HostRole::Communication;
    return HostRole::None;
}

}  // namespace gapscope::vocabulary

namespace gapscope::vocabulary {

Producer producerOf(const Trace& t) {
    if (t.metadata.contains(std::string(nsight::kMetadataKey))) return Producer::NsightSystems;
    for (const char* key : {"schemaVersion", "deviceProperties", "distributedInfo", "traceName"})
        if (t.metadata.contains(key)) return Producer::Kineto;
    for (const Process& p : t.processes)
        if (planeNameAt(t.str(p.name)) != std::string_view::npos) return Producer::TensorFlow;
    // A file without either: Kineto's categories say it (TensorFlow's are
    // among them, as Kineto of 2021 wrote them; its files name planes).
    for (size_t c = 0; c < t.categories.size(); ++c) {
        const std::string_view category = t.categoryName(static_cast<uint16_t>(c));
        if (kinetoCategory(category) || kinetoLaunchFlow(category)) return Producer::Kineto;
    }
    return Producer::Unknown;
}

std::optional<SliceKind> categoryKind(Producer producer, std::string_view category) {
    switch (producer) {
        case Producer::Kineto:
            return kinetoCategory(category);
        case Producer::TensorFlow:
            return tensorflowCategory(category);
        case Producer::NsightSystems:
            return nsightCategory(category);
        case Producer::Unknown:
            break;
    }
    std::optional<SliceKind> k = kinetoCategory(category);
    if (!k) k = tensorflowCategory(category);
    if (!k) k = nsightCategory(category);
    return k;
}

bool isLaunchFlowCategory(Producer producer, std::string_view category) {
    switch (producer) {
        case Producer::Kineto:
            return kinetoLaunchFlow(category);
        case Producer::NsightSystems:
            return nsightLaunchFlow(category);
        case Producer::TensorFlow:
            return false;
        case Producer::Unknown:
            break;
    }
    return kinetoLaunchFlow(category) || nsightLaunchFlow(category);
}

}  // namespace gapscope::vocabulary
