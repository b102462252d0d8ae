// Names that mean the same whichever profiler wrote them.
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

bool isStepName(std::string_view name) {
    return name.substr(0, 13) == "ProfilerStep#";
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

}  // namespace gapscope::vocabulary
