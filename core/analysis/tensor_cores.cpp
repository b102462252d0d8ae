#include "analysis/tensor_cores.h"

#include <algorithm>

#include "util/ascii_text.h"

namespace gapscope {

const char* tensorCoreUseName(TensorCoreUse use) {
    switch (use) {
        case TensorCoreUse::Yes:
            return "yes";
        case TensorCoreUse::No:
            return "no";
        case TensorCoreUse::Unknown:
            break;
    }
    return "unknown";
}

namespace {

bool containsAny(std::string_view name, std::initializer_list<std::string_view> marks) {
    return std::any_of(marks.begin(), marks.end(),
                       [&](std::string_view m) { return name.find(m) != std::string_view::npos; });
}

bool containsAnyNoCase(std::string_view name, std::initializer_list<std::string_view> marks) {
    return std::any_of(marks.begin(), marks.end(),
                       [&](std::string_view m) { return containsNoCase(name, m); });
}

// Whether `word` occurs (any case) other than inside the longer words
// that hold it by chance: not after a character of `notBefore` ("gamma"
// holds "mma") nor followed by `notAfter` ("convert" holds "conv").
bool hasWord(std::string_view n, std::string_view word, std::string_view notBefore,
             std::string_view notAfter) {
    for (size_t at = 0; at + word.size() <= n.size(); ++at) {
        if (!startsWithNoCase(n, at, word)) continue;
        const bool before =
            at > 0 && notBefore.find(lowerAscii(n[at - 1])) != std::string_view::npos;
        const bool after = !notAfter.empty() && startsWithNoCase(n, at + word.size(), notAfter);
        if (!before && !after) return true;
    }
    return false;
}

// AMD's matrix cores: Tensile and hipBLASLt name a GEMM's matrix
// instruction ("Cijk_…_MT128x128x32_MI16x16x16x1_…"; MI0… or none: the SIMD
// units), Composable Kernel its XDLops ("gemm_xdl"), and RDNA kernels WMMA.
bool amdMatrixInstruction(std::string_view n) {
    for (size_t at = n.find("_MI"); at != std::string_view::npos; at = n.find("_MI", at + 1)) {
        size_t i = at + 3;
        int64_t first = 0;
        bool digits = false;
        while (i < n.size() && n[i] >= '0' && n[i] <= '9' && first < 100000) {
            first = first * 10 + (n[i++] - '0');
            digits = true;
        }
        if (digits && i < n.size() && n[i] == 'x' && first > 0) return true;
    }
    return containsAnyNoCase(n, {"mfma", "_xdl", "xdlops", "wmma"});
}

}  // namespace

bool looksLikeMatrixKernel(std::string_view n) {
    return containsAnyNoCase(
               n, {"gemm", "matmul", "cutlass", "cublas", "bmm", "attention", "attn", "fmha",
                   "wgrad", "dgrad", "nvjet", "triton_tem", "_mm_", "addmm"}) ||
           n.starts_with("Cijk_") ||  // Tensile's and hipBLASLt's GEMMs
           hasWord(n, "mma", "a", "") || hasWord(n, "conv", "", "ert");
}

TensorCoreUse tensorCoreUse(std::string_view n) {
    // TensorBoard's profiler (kernel_stats_utils.cc, IsKernelUsingTensorCore)
    // matches these case-sensitively; the rest name what that list predates:
    // Hopper's wgmma/gmma and cuBLASLt's nvjet kernels, CUTLASS's TensorOp
    // (also as OpClassTensorOp in a demangled name), sm90/sm100 CUTLASS 3
    // kernels, any xmma, and the flash-attention and FMHA kernels (built on
    // mma instructions; FP32 FMHA may not be).
    // cuDNN names the instruction its xmma kernels multiply with: "ffma"
    // is the FP32 fused multiply-add of the CUDA cores, whatever the family.
    if (containsAny(n, {"_ffma_", "_ffma"})) return TensorCoreUse::No;
    if (amdMatrixInstruction(n)) return TensorCoreUse::Yes;
    if (containsAny(n, {"fmha"}) && containsAny(n, {"f32", "F32"}) && !containsNoCase(n, "tf32"))
        return TensorCoreUse::Unknown;
    if (containsAny(n, {"16816",
                        "c1688",
                        "conv1x1",
                        "conv2d_c1_k1",
                        "dgrad_1x1_stride_2x2",
                        "direct_group",
                        "first_layer_wgrad_kernel",
                        "h1688",
                        "h884",
                        "hmma",
                        "i16832",
                        "i8816",
                        "s884",
                        "s1688",
                        "xmma",
                        "gmma",
                        "tensorop",
                        "TensorOp",
                        "nvjet",
                        "cutlass3x_sm90",
                        "cutlass3x_sm100",
                        "sm90_gemm",
                        "sm100_gemm",
                        "flash_fwd",
                        "flash_bwd",
                        "fmha",
                        "mma_sync",
                        "_mma_"}))
        return TensorCoreUse::Yes;
    // Work around a matrix product that is none itself: FBGEMM's embedding
    // and quantisation ops, cuBLAS's split-K reductions and epilogues,
    // elementwise kernels, and Inductor's pointwise and reduction kernels.
    if (containsAny(n, {"fbgemm_gpu::", "splitKreduce", "epilogue::", "elementwise_kernel"}) ||
        n.starts_with("triton_poi") || n.starts_with("triton_red") || n.starts_with("triton_per"))
        return TensorCoreUse::No;
    // Inductor's other kernels (templates, or the older anonymous
    // "triton__0d1d2d") may be matrix products: the name cannot tell.
    if (n.starts_with("triton_")) return TensorCoreUse::Unknown;
    if (!looksLikeMatrixKernel(n)) return TensorCoreUse::No;  // not a matrix product
    // The SIMT kernels of cuBLAS and cuDNN: FP32 GEMMs and convolutions
    // without TF32, FP64, and the level-1/2 routines.
    if (containsAny(
            n, {"sgemm", "dgemm", "scudnn", "gemv", "dot_kernel", "scal_kernel", "axpy", "simt"}) &&
        !containsNoCase(n, "tf32"))
        return TensorCoreUse::No;
    return TensorCoreUse::Unknown;
}

}  // namespace gapscope
