// The names each producer gives a tensor's element type, and what they
// mean for the efficiency figures: how many bytes an element takes and
// which kind of number it is (whose matrix peak bounds work on it).

#include <algorithm>
#include <cctype>
#include <string>

#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {
namespace {

std::string lowerCased(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

std::optional<ElementType> pytorchOpElementType(std::string_view recordedType) {
    // As Kineto's "Input type" writes them (c10's C++ type names); "Scalar"
    // is a Python number, sized as TraceLens sizes it.
    using K = ElementKind;
    const std::string t = lowerCased(recordedType);
    if (t == "double") return ElementType{K::Float64, 8};
    if (t == "long int") return ElementType{K::Integer, 8};
    if (t == "float") return ElementType{K::Float32, 4};
    if (t == "scalar" || t == "int") return ElementType{K::Other, 4};
    if (t == "c10::half") return ElementType{K::Float16, 2};
    if (t == "c10::bfloat16") return ElementType{K::BFloat16, 2};
    if (t == "short int") return ElementType{K::Integer, 2};
    if (t.starts_with("c10::float8_")) return ElementType{K::Float8, 1};
    if (t == "unsigned char" || t == "signed char") return ElementType{K::Int8, 1};
    if (t == "bool" || t == "c10::float4_e2m1fn_x2") return ElementType{K::Other, 1};
    return std::nullopt;
}

std::optional<ElementType> pytorchScalarType(std::string_view name) {
    // c10's ScalarType names, as distributed profiling records a collective's.
    using K = ElementKind;
    if (name == "Double") return ElementType{K::Float64, 8};
    if (name == "Long") return ElementType{K::Integer, 8};
    if (name == "ComplexFloat") return ElementType{K::Other, 8};
    if (name == "Float") return ElementType{K::Float32, 4};
    if (name == "Int") return ElementType{K::Integer, 4};
    if (name == "Half") return ElementType{K::Float16, 2};
    if (name == "BFloat16") return ElementType{K::BFloat16, 2};
    if (name == "Short") return ElementType{K::Integer, 2};
    if (name == "Byte" || name == "Char") return ElementType{K::Int8, 1};
    if (name == "Bool") return ElementType{K::Other, 1};
    if (name.starts_with("Float8")) return ElementType{K::Float8, 1};
    return std::nullopt;
}

std::optional<ElementType> xlaElementType(std::string_view name) {
    // XLA's PrimitiveType names as HLO text writes them (xla_data.proto).
    using K = ElementKind;
    if (name == "f64") return ElementType{K::Float64, 8};
    if (name == "s64" || name == "u64") return ElementType{K::Integer, 8};
    if (name == "c64") return ElementType{K::Other, 8};
    if (name == "c128") return ElementType{K::Other, 16};
    if (name == "f32") return ElementType{K::Float32, 4};
    if (name == "s32" || name == "u32") return ElementType{K::Integer, 4};
    if (name == "f16") return ElementType{K::Float16, 2};
    if (name == "bf16") return ElementType{K::BFloat16, 2};
    if (name == "s16" || name == "u16") return ElementType{K::Integer, 2};
    if (name.starts_with("f8e")) return ElementType{K::Float8, 1};
    if (name == "s8" || name == "u8") return ElementType{K::Int8, 1};
    if (name == "pred") return ElementType{K::Other, 1};
    return std::nullopt;
}

std::string_view xlaShapeElementType(std::string_view shape) {
    // "bf16[8,128]{1,0}", a tuple "(f32[], bf16[4]{0})": the first array's type.
    size_t at = shape.find_first_not_of("( ");
    if (at == std::string_view::npos) return {};
    const size_t end = shape.find('[', at);
    if (end == std::string_view::npos || end == at) return {};
    const std::string_view type = shape.substr(at, end - at);
    const bool word = std::all_of(type.begin(), type.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0;
    });
    return word ? type : std::string_view();
}

bool xlaMatrixOp(std::string_view hloName) {
    // Matrix products and convolutions as XLA names their ops, fusions
    // (gemm_fusion_dot.2, "convolution.3") and the library calls they
    // become (cublas-gemm, cudnn-conv, __cudnn$convForward, fmha); not
    // cuDNN's other kernels (its batch norms, layout transposes) nor
    // "convert".
    const std::string n = lowerCased(hloName);
    for (const char* word : {"dot", "convolution", "gemm", "cublas", "cudnn-conv", "$conv", "fmha",
                             "matmul", "einsum"})
        if (n.find(word) != std::string::npos) return true;
    return false;
}

}  // namespace gapscope::vocabulary
