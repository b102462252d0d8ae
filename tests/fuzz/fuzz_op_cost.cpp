// libFuzzer target for an op's FLOPs and bytes (analysis/op_cost.h): the
// first line is the op's name, the rest its recorded signature ("Input
// Dims", "Input type" and "Concrete Inputs", one per line), as a hostile
// trace may write them. A cost, when there is one, is a finite,
// non-negative number of FLOPs and of bytes (the target aborts otherwise);
// none says why. The same signature's fourth line read as an HLO op's
// result shape with a recorded cost (recordedCost): the recorded figures,
// a type only where the shape names one.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analysis/op_cost.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const size_t newline = bytes.find('\n');
    const std::string_view name = bytes.substr(0, newline);
    const std::string_view signature =
        newline == std::string_view::npos ? std::string_view() : bytes.substr(newline + 1);
    for (const double profiler : {-1.0, 12345.0}) {
        std::string why;
        const auto cost = gapscope::opCost(name, signature, profiler, &why);
        if (!cost) {
            if (why.empty()) std::abort();
            continue;
        }
        if (!std::isfinite(cost->flops) || cost->flops < 0) std::abort();
        if (cost->bytes && (!std::isfinite(*cost->bytes) || *cost->bytes < 0)) std::abort();
        if (profiler >= 0 && cost->flops != profiler) std::abort();
    }
    const std::string_view shape = gapscope::signaturePart(signature, 3);
    for (const double recorded : {-1.0, 0.0, 1e30, 4096.0}) {
        const auto cost = gapscope::recordedCost(name, shape, recorded, recorded * 2);
        if (cost.has_value() != (recorded >= 0 && recorded <= 4611686018427387904.0)) std::abort();
        if (cost && (cost->flops != recorded || (cost->bytes && *cost->bytes != recorded * 2)))
            std::abort();
    }
    return 0;
}
