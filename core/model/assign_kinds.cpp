#include <optional>
#include <vector>

#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

std::string_view sliceKindName(SliceKind k) {
    switch (k) {
        case SliceKind::Other:
            return "other";
        case SliceKind::Kernel:
            return "kernel";
        case SliceKind::CommKernel:
            return "comm_kernel";
        case SliceKind::Memcpy:
            return "memcpy";
        case SliceKind::Memset:
            return "memset";
        case SliceKind::CpuOp:
            return "cpu_op";
        case SliceKind::RuntimeLaunch:
            return "runtime_launch";
        case SliceKind::RuntimeSync:
            return "runtime_sync";
        case SliceKind::RuntimeCopy:
            return "runtime_copy";
        case SliceKind::RuntimeOther:
            return "runtime_other";
        case SliceKind::UserAnnotation:
            return "user_annotation";
        case SliceKind::GpuAnnotation:
            return "gpu_annotation";
        case SliceKind::Step:
            return "step";
    }
    return "other";
}

std::string_view hostRoleName(HostRole r) {
    switch (r) {
        case HostRole::InputWait:
            return "input_wait";
        case HostRole::Sync:
            return "sync";
        case HostRole::Communication:
            return "communication";
        case HostRole::None:
            break;
    }
    return "none";
}

std::array<uint64_t, kSliceKindCount> sliceKindCounts(const Trace& trace) {
    std::array<uint64_t, kSliceKindCount> n{};
    for (const Slice& s : trace.slices)
        ++n[static_cast<size_t>(sliceKind(s)) % kSliceKindCount];
    return n;
}

namespace {

// What a name makes of the kind its category gave (memoised per name and
// kind: a trace has millions of slices and few names).
SliceKind refinedByName(SliceKind k, std::string_view name) {
    using namespace vocabulary;
    switch (k) {
        case SliceKind::Kernel:
            return isCommunicationKernelName(name) ? SliceKind::CommKernel : k;
        case SliceKind::RuntimeOther:
            return runtimeCallKind(name);
        case SliceKind::CpuOp:
        case SliceKind::UserAnnotation:
        case SliceKind::Other:
            return isStepName(name) ? SliceKind::Step : k;
        default:
            return k;
    }
}

}  // namespace

void assignKinds(Trace& t) {
    using namespace vocabulary;
    t.producer = producerOf(t);
    // Per category: what its producer's vocabulary says it is.
    std::vector<SliceKind> byCategory(t.categories.size(), SliceKind::Other);
    for (size_t c = 0; c < byCategory.size(); ++c) {
        byCategory[c] = categoryKind(t.producer, t.categoryName(static_cast<uint16_t>(c)))
                            .value_or(SliceKind::Other);
    }
    // Per name, two bytes: the kind it was last refined from (+1; 0 = not
    // yet) with what that gave, and its host role (+1). A name nearly always
    // comes with one kind, so one memo entry per name serves.
    struct Memo {
        uint8_t from = 0, to = 0, role = 0;
        uint8_t scope = 0;  // for `to`: 0 not yet, 1 no, 2 names a scope
    };
    std::vector<Memo> memo(t.strings.size());
    for (const Track& track : t.tracks) {
        const std::string_view line = t.str(track.threadName);
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            Slice& s = t.slices[i];
            SliceKind k =
                s.category < byCategory.size() ? byCategory[s.category] : SliceKind::Other;
            // GPU work whose category does not say which (XSpace stream lines).
            if ((s.flags & kSliceGpuActivity) && !isGpuKind(k))
                k = xspaceStreamEvent(line, t.str(s.name));
            Memo none;
            Memo& m = s.name < memo.size() ? memo[s.name] : none;
            const auto from = static_cast<uint8_t>(static_cast<uint8_t>(k) + 1);
            if (m.from != from) {
                m.from = from;
                m.to = static_cast<uint8_t>(refinedByName(k, t.str(s.name)));
                m.scope = 0;
            }
            setSliceKind(s, static_cast<SliceKind>(m.to));
            if (m.scope == 0) m.scope = namesScope(SliceKind(m.to), t.str(s.name)) ? 2 : 1;
            s.flags = static_cast<uint16_t>(m.scope == 2 ? s.flags | kSliceNamedScope
                                                         : s.flags & ~kSliceNamedScope);
            if (m.role == 0) m.role = static_cast<uint8_t>(hostRoleOfName(t.str(s.name))) + 1;
            setHostRole(s, static_cast<HostRole>(m.role - 1));
        }
    }
    for (Flow& f : t.flows)
        f.kind = isLaunchFlowCategory(t.producer, t.categoryName(f.category)) ? FlowKind::Launch
                                                                              : FlowKind::Other;
}

}  // namespace gapscope
