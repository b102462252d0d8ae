#pragma once
// What a slice is, decided once at import from its producer's vocabulary
// (model/vocabulary/): analyses ask for kinds, never for category strings.
// Stored in the upper bits of Slice::flags, so a slice stays 32 bytes.

#include <array>
#include <cstdint>
#include <string_view>

#include "model/trace.h"

namespace gapscope {

enum class SliceKind : uint8_t {
    Other = 0,       // nothing the vocabulary names (a Python frame, a TF host event)
    Kernel,          // GPU compute kernel
    CommKernel,      // GPU collective kernel (NCCL, RCCL, HCCL)
    Memcpy,          // GPU copy
    Memset,          // GPU memset
    CpuOp,           // a framework's operator (aten::*, a TensorFlow op)
    RuntimeLaunch,   // a runtime or driver call that launches GPU work
    RuntimeSync,     // one that waits for the GPU (…Synchronize, blocking event waits)
    RuntimeCopy,     // one that copies (cudaMemcpy*, hipMemcpy*)
    RuntimeOther,    // any other runtime or driver call
    UserAnnotation,  // a range a person named (record_function, NVTX)
    GpuAnnotation,   // such a range projected onto a GPU stream
    Step,            // a training step's range (ProfilerStep#N)
};
inline constexpr int kSliceKindCount = 13;

// A field of Slice::flags: bits [Shift, Shift + width) as an enum.
template <typename E, int Shift, uint16_t Width>
struct SliceFlagField {
    static constexpr uint16_t kMask = static_cast<uint16_t>(((1u << Width) - 1) << Shift);
    static E get(const Slice& s) { return static_cast<E>((s.flags & kMask) >> Shift); }
    static void set(Slice& s, E v) {
        s.flags = static_cast<uint16_t>((s.flags & ~kMask) | (static_cast<uint16_t>(v) << Shift));
    }
};
using SliceKindField = SliceFlagField<SliceKind, 8, 6>;  // bits 8-13
inline constexpr uint16_t kSliceKindMask = SliceKindField::kMask;

inline SliceKind sliceKind(const Slice& s) {
    return SliceKindField::get(s);
}
inline void setSliceKind(Slice& s, SliceKind k) {
    SliceKindField::set(s, k);
}
inline bool isGpuKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::CommKernel || k == SliceKind::Memcpy ||
           k == SliceKind::Memset;
}
inline bool isRuntimeKind(SliceKind k) {
    return k == SliceKind::RuntimeLaunch || k == SliceKind::RuntimeSync ||
           k == SliceKind::RuntimeCopy || k == SliceKind::RuntimeOther;
}

// What a host slice means for a GPU that waits, whatever its kind (an
// aten::_local_scalar_dense is an op and a sync): the host waited for
// input, was blocked until the GPU finished, or was in a collective.
// Bits 14-15 of Slice::flags; decided with the kind.
enum class HostRole : uint8_t { None = 0, InputWait, Sync, Communication };
using HostRoleField = SliceFlagField<HostRole, 14, 2>;  // bits 14-15
inline constexpr uint16_t kHostRoleMask = HostRoleField::kMask;
inline HostRole hostRole(const Slice& s) {
    return HostRoleField::get(s);
}
inline void setHostRole(Slice& s, HostRole r) {
    HostRoleField::set(s, r);
}
std::string_view hostRoleName(HostRole r);  // "input_wait", "sync", …

// "kernel", "comm_kernel", … (info --json, the canonical dump).
std::string_view sliceKindName(SliceKind k);

enum class FlowKind : uint8_t {  // declared in trace.h
    Other = 0,
    Launch,  // from a runtime call to the GPU work it launched (Kineto ac2g)
};

// How many slices of each kind (by SliceKind value).
std::array<uint64_t, kSliceKindCount> sliceKindCounts(const Trace& trace);

// Decides every slice's and flow's kind (the builder's last stage, after
// names are demangled; merged ranks keep their own).
void assignKinds(Trace& trace);

}  // namespace gapscope
