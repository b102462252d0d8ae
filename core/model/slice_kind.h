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

inline constexpr int kSliceKindShift = 8;
inline constexpr uint16_t kSliceKindMask = 0x3f << kSliceKindShift;

inline SliceKind sliceKind(const Slice& s) {
    return static_cast<SliceKind>((s.flags & kSliceKindMask) >> kSliceKindShift);
}
inline void setSliceKind(Slice& s, SliceKind k) {
    s.flags = static_cast<uint16_t>((s.flags & ~kSliceKindMask) |
                                    (static_cast<uint16_t>(k) << kSliceKindShift));
}
inline bool isGpuKind(SliceKind k) {
    return k == SliceKind::Kernel || k == SliceKind::CommKernel || k == SliceKind::Memcpy ||
           k == SliceKind::Memset;
}
inline bool isRuntimeKind(SliceKind k) {
    return k == SliceKind::RuntimeLaunch || k == SliceKind::RuntimeSync ||
           k == SliceKind::RuntimeCopy || k == SliceKind::RuntimeOther;
}

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
