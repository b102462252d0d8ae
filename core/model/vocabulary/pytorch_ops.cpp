// PyTorch's op names and the positions of their arguments among the inputs
// Kineto records (the ATen schemas' order), for the efficiency figures'
// formulas (analysis/op_cost.h). Where TraceLens models an op, it is mapped
// as TraceLens maps it (docs/peers/tracelens-perf-model.md), so that the two
// agree; docs/analyses.md lists every family and its source.

#include <string>
#include <unordered_map>

#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {
namespace {

using F = OpFamily;

OpArguments gemm(F f, int8_t a, int8_t b, int8_t bias = -1) {
    OpArguments o;
    o.family = f;
    o.a = a;
    o.b = b;
    o.c = bias;
    return o;
}

OpArguments attention(F f, int8_t q, int8_t causal, bool recomputes, bool tokensBeforeHeads) {
    OpArguments o;
    o.family = f;
    o.a = q;
    o.b = static_cast<int8_t>(q + 1);
    o.c = static_cast<int8_t>(q + 2);
    o.concrete = causal;
    o.recomputes = recomputes;
    o.tokensBeforeHeads = tokensBeforeHeads;
    return o;
}

OpArguments withConcrete(F f, int8_t input, int8_t concrete, int8_t concrete2 = -1) {
    OpArguments o;
    o.family = f;
    o.a = input;
    o.concrete = concrete;
    o.concrete2 = concrete2;
    o.b = o.c = -1;
    return o;
}

// A norm: its input, weight and bias, and a Concrete Inputs position.
OpArguments norm(F f, int8_t input, int8_t weight, int8_t bias, int8_t concrete,
                 int8_t concrete2 = -1) {
    OpArguments o = withConcrete(f, input, concrete, concrete2);
    o.b = weight;
    o.c = bias;
    return o;
}

OpArguments plain(F f) {
    OpArguments o;
    o.family = f;
    return o;
}

using Table = std::unordered_map<std::string, OpArguments>;

Table makeTable() {
    Table t;
    // GEMMs: (bias, a, b) as ATen orders them.
    t["aten::mm"] = gemm(F::Mm, 0, 1);
    t["aten::addmm"] = gemm(F::Addmm, 1, 2, 0);
    t["aten::bmm"] = gemm(F::Bmm, 0, 1);
    t["aten::baddbmm"] = gemm(F::Baddbmm, 1, 2, 0);
    t["aten::matmul"] = gemm(F::Matmul, 0, 1);
    t["aten::linear"] = gemm(F::Linear, 0, 1, 2);
    // (self, mat2, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum)
    t["aten::_scaled_mm"] = gemm(F::ScaledMm, 0, 1, 4);
    // (mat_a, mat_b, offs, bias, out_dtype): c is the groups' offsets.
    t["aten::_grouped_mm"] = gemm(F::GroupedMm, 0, 1, 2);

    // (input, weight, bias, stride, padding, dilation, transposed,
    // output_padding, groups): the Concrete Inputs from stride on.
    OpArguments conv = gemm(F::Convolution, 0, 1, 2);
    conv.concrete = 3;
    t["aten::convolution"] = conv;
    t["aten::_convolution"] = conv;
    // (grad_output, input, weight, bias_sizes, stride, ... groups, output_mask): c is
    // output_mask's position among the Concrete Inputs.
    OpArguments convBackward = gemm(F::ConvolutionBackward, 1, 2, 10);
    convBackward.concrete = 4;
    t["aten::convolution_backward"] = convBackward;

    // Attention: q, k, v from the position given, and is_causal's position.
    t["aten::scaled_dot_product_attention"] = attention(F::Attention, 0, 5, false, false);
    t["aten::_scaled_dot_product_flash_attention"] = attention(F::Attention, 0, 4, true, false);
    t["aten::_scaled_dot_product_efficient_attention"] =
        attention(F::Attention, 0, 6, false, false);
    t["aten::_scaled_dot_product_cudnn_attention"] = attention(F::Attention, 0, 6, false, false);
    t["flash_attn::_flash_attn_forward"] = attention(F::Attention, 0, 5, true, true);
    // Backward: (grad_out, query, key, value, ...).
    t["aten::_scaled_dot_product_flash_attention_backward"] =
        attention(F::AttentionBackward, 1, 11, true, false);
    t["aten::_scaled_dot_product_efficient_attention_backward"] =
        attention(F::AttentionBackward, 1, 11, false, false);
    t["aten::_scaled_dot_product_cudnn_attention_backward"] =
        attention(F::AttentionBackward, 1, 14, false, false);
    // (dout, q, k, v, out, softmax_lse, dq, dk, dv, dropout_p, softmax_scale, causal, ...)
    t["flash_attn::_flash_attn_backward"] = attention(F::AttentionBackward, 1, 11, true, true);

    // Norms: the input, and the normalized shape's or training's position.
    // (input, normalized_shape, weight, bias, eps, ...)
    t["aten::layer_norm"] = norm(F::LayerNorm, 0, 2, 3, 1);
    t["aten::native_layer_norm"] = norm(F::LayerNorm, 0, 2, 3, 1);
    // (grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
    t["aten::native_layer_norm_backward"] = norm(F::LayerNormBackward, 1, 5, 6, 2, 7);
    t["aten::_fused_rms_norm"] = norm(F::RmsNorm, 0, 2, -1, 1);  // (input, shape, weight, eps)
    t["aten::rms_norm"] = norm(F::RmsNorm, 0, 2, -1, 1);
    // (input, weight, bias, running_mean, running_var, training, ...)
    for (const char* name : {"aten::batch_norm", "aten::native_batch_norm",
                             "aten::cudnn_batch_norm", "aten::miopen_batch_norm"})
        t[name] = norm(F::BatchNorm, 0, 1, 2, 5);
    t["aten::group_norm"] = norm(F::GroupNorm, 0, 2, 3, -1);  // (input, groups, weight, bias, ...)
    t["aten::native_group_norm"] = norm(F::GroupNorm, 0, 1, 2, -1);  // (input, weight, bias, ...)

    // Element-wise: TraceLens's, then others of the same shape of formula.
    for (const char* name :
         {"aten::copy",       "aten::copy_",      "aten::clamp_min", "aten::clamp_min_",
          "aten::clamp_max",  "aten::clamp_max_", "aten::sigmoid",   "aten::rsqrt",
          "aten::silu",       "aten::neg",        "aten::pow",       "aten::relu",
          "aten::relu_",      "aten::gelu",       "aten::gelu_",     "aten::silu_",
          "aten::sigmoid_",   "aten::tanh",       "aten::tanh_",     "aten::exp",
          "aten::exp_",       "aten::sqrt",       "aten::abs",       "aten::log",
          "aten::reciprocal", "aten::sin",        "aten::cos"})
        t[name] = plain(F::Unary);
    for (const char* name : {"aten::add", "aten::add_", "aten::mul", "aten::mul_", "aten::div",
                             "aten::div_", "aten::sigmoid_backward", "aten::threshold_backward",
                             "aten::sub", "aten::sub_", "aten::rsub", "aten::gelu_backward",
                             "aten::silu_backward", "aten::maximum", "aten::minimum"})
        t[name] = plain(F::Binary);

    // Reductions: (self, dim, keepdim, ...) unless said.
    for (const char* name : {"aten::sum", "aten::mean", "aten::max", "aten::min", "aten::amax",
                             "aten::amin", "aten::logsumexp"})
        t[name] = withConcrete(F::Reduce, 0, 1, 2);
    t["aten::norm"] = withConcrete(F::Reduce, 0, 2, 3);         // (self, p, dim, keepdim)
    t["aten::linalg_norm"] = withConcrete(F::Reduce, 0, 2, 3);  // (self, ord, dim, keepdim)
    t["aten::linalg_vector_norm"] = withConcrete(F::Reduce, 0, 2, 3);
    t["aten::std"] = withConcrete(F::Reduce, 0, 1, 3);  // (self, dim, correction, keepdim)
    t["aten::var"] = withConcrete(F::Reduce, 0, 1, 3);
    for (const char* name : {"aten::cumsum", "aten::cumprod"}) {
        OpArguments o = withConcrete(F::Reduce, 0, 1);
        o.keepsShape = true;
        t[name] = o;
    }

    // (weight, indices, padding_idx, scale_grad_by_freq, sparse)
    t["aten::embedding"] = gemm(F::Embedding, 0, 1);
    return t;
}

}  // namespace

OpArguments pytorchOpArguments(std::string_view opName) {
    static const Table table = makeTable();
    const auto it = table.find(std::string(opName));
    return it == table.end() ? OpArguments{} : it->second;
}

}  // namespace gapscope::vocabulary
