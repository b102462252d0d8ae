#pragma once
// Whether a kernel runs on Tensor Cores, from its name: the only evidence a
// trace holds (without hardware counters). Yes where the name shows a
// Tensor Core instruction family or a library's Tensor Core path; no where
// it shows the opposite (an FP32/FP64 SIMT GEMM, or work that is no matrix
// product at all); unknown for matrix kernels whose name cannot tell.

#include <cstdint>
#include <string_view>

namespace gapscope {

enum class TensorCoreUse : uint8_t { No, Yes, Unknown };
const char* tensorCoreUseName(TensorCoreUse use);  // "no", "yes", "unknown"

TensorCoreUse tensorCoreUse(std::string_view kernelName);
// A kernel named like a matrix product or a convolution (GEMM, conv, MMA,
// attention, a CUTLASS/cuBLAS/Triton matmul): those Tensor Cores could run.
bool looksLikeMatrixKernel(std::string_view kernelName);

}  // namespace gapscope
