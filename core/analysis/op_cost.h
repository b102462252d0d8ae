#pragma once
// What an op asks of the GPU: its floating-point operations and the bytes
// it reads and writes, from what the profiler recorded of it. The
// profiler's own count where it kept one (Kineto's with_flops), else one
// formula per family of ops (model/vocabulary: OpFamily) applied to the
// recorded shapes, types and concrete inputs (record_shapes); or, for an
// HLO op, XLA's cost analysis as the profiler recorded it (recordedCost). Where
// TraceLens models a family, the formula is its formula, so the figures
// are equal; docs/analyses.md lists each formula, its source and where it
// differs. A pure function of the op's name and signature: callers compute
// it once per distinct signature.

#include <optional>
#include <string>
#include <string_view>

#include "analysis/device_peaks.h"

namespace gapscope {

enum class CostSource : uint8_t { Profiler, Shapes };
const char* costSourceName(CostSource s);  // "profiler", "shapes"

struct OpCost {
    double flops = 0;
    std::optional<double> bytes;  // none where an operand's element size is unknown
    CostSource flopsSource = CostSource::Shapes;
    // Matrix work (GEMMs, convolutions, attention) runs at the peak of its
    // operands' type; the rest is bound by the vector units' fp32 peak.
    bool matrix = false;
    std::optional<PeakType> precision;  // none: a type without a peak
};

// The cost of an op named `name` whose recorded inputs are `signature`
// (Trace::opShapes: "Input Dims", "Input type", "Concrete Inputs", one per
// line) and whose profiler counted `profilerFlops` (negative: not). None,
// with why, where neither says.
std::optional<OpCost> opCost(std::string_view name, std::string_view signature,
                             double profilerFlops, std::string* why = nullptr);

// The cost of an HLO op as XLA's cost analysis recorded it (the TensorFlow
// and JAX profilers' `flops` and `bytes_accessed`, negative where absent),
// its result's shape (`shape_with_layout`) saying the type of a matrix op's
// work. None where the FLOPs are not a count.
std::optional<OpCost> recordedCost(std::string_view name, std::string_view resultShape,
                                   double flops, double bytes);

// One part of a signature (Trace::opShapes): 0 "Input Dims", 1 "Input
// type", 2 "Concrete Inputs", 3 an HLO op's result shape; "" where absent.
std::string_view signaturePart(std::string_view signature, int part);

// Bytes per element of a recorded type ("c10::BFloat16" 2, "float" 4,
// "Scalar" 4, as TraceLens counts them); none for one it does not size.
std::optional<int> bytesPerElement(std::string_view typeName);
// The peak that bounds matrix work on operands of this type.
std::optional<PeakType> matrixPrecision(std::string_view typeName);

}  // namespace gapscope
