#include "analysis/op_cost.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "model/vocabulary/vocabulary.h"

namespace gapscope {
namespace {

// Counts beyond 2^62 (below int64's end, where the tables write them whole)
// are no figures: no tensor has such shapes, a hostile file's may.
constexpr double kMostCounted = 4611686018427387904.0;

using vocabulary::OpArguments;
using vocabulary::OpFamily;
using Shape = std::vector<double>;  // element counts stay exact below 2^53

// The recorded inputs, parsed: a shape, a type and a concrete value per input.
struct Inputs {
    std::vector<Shape> dims;
    std::vector<bool> isShape;  // dims[i] was a list of integers (not a list of tensors)
    std::vector<std::string> types, concrete;

    const Shape* shape(int i) const {
        return i >= 0 && size_t(i) < dims.size() && isShape[size_t(i)] ? &dims[size_t(i)] : nullptr;
    }
    bool present(int i) const {  // a tensor given (an absent optional one is [])
        const Shape* s = shape(i);
        return s && !s->empty();
    }
    std::string_view type(int i) const {
        return i >= 0 && size_t(i) < types.size() ? std::string_view(types[size_t(i)]) : "";
    }
    std::string_view value(int i) const {
        return i >= 0 && size_t(i) < concrete.size() ? std::string_view(concrete[size_t(i)]) : "";
    }
};

bool parseInputs(std::string_view signature, Inputs& in) {
    const size_t a = signature.find('\n');
    if (a == std::string_view::npos) return false;
    const size_t b = signature.find('\n', a + 1);
    const std::string_view dimsText = signature.substr(0, a);
    const std::string_view typesText =
        signature.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1);
    const std::string_view concreteText =
        b == std::string_view::npos ? std::string_view() : signature.substr(b + 1);
    const auto dims = nlohmann::json::parse(dimsText, nullptr, false);
    if (!dims.is_array()) return false;
    for (const auto& d : dims) {
        Shape s;
        bool ok = d.is_array();
        if (ok)
            for (const auto& x : d) {
                if (!x.is_number_integer() || x.get<int64_t>() < 0) {
                    ok = false;
                    break;
                }
                s.push_back(static_cast<double>(x.get<int64_t>()));
            }
        in.dims.push_back(ok ? s : Shape{});
        in.isShape.push_back(ok);
    }
    auto strings = [](std::string_view text, std::vector<std::string>& out) {
        if (text.empty()) return;
        const auto j = nlohmann::json::parse(text, nullptr, false);
        if (!j.is_array()) return;
        for (const auto& x : j)
            out.push_back(x.is_string() ? x.get<std::string>() : std::string());
    };
    strings(typesText, in.types);
    strings(concreteText, in.concrete);
    return true;
}

double product(const Shape& s, size_t from = 0, size_t to = SIZE_MAX) {
    double p = 1;
    for (size_t i = from; i < std::min(to, s.size()); ++i)
        p *= s[i];
    return p;
}

std::string lowerCased(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A concrete value: "True" / "False", an integer, a list of integers
// ("[1, 1]"); none where it is empty or says something else.
std::optional<bool> truth(std::string_view v) {
    const std::string l = lowerCased(v);
    if (l == "true" || l == "1") return true;
    if (l == "false" || l == "0") return false;
    return std::nullopt;
}

// "[True, False, True]": `count` values, each true unless it says otherwise.
std::vector<bool> truths(std::string_view v, size_t count) {
    std::vector<bool> out(count, true);
    size_t i = 0;
    std::string item;
    for (const char ch : v) {
        if (ch == '[' || ch == ' ') continue;
        if (ch == ',' || ch == ']') {
            if (i < count && !item.empty()) out[i] = truth(item).value_or(true);
            ++i;
            item.clear();
        } else {
            item.push_back(ch);
        }
    }
    return out;
}

std::optional<std::vector<int64_t>> integers(std::string_view v) {
    if (v.empty()) return std::nullopt;
    const auto j = nlohmann::json::parse(v, nullptr, false);
    std::vector<int64_t> out;
    if (j.is_number_integer()) {
        out.push_back(j.get<int64_t>());
    } else if (j.is_array()) {
        for (const auto& x : j) {
            if (!x.is_number_integer()) return std::nullopt;
            out.push_back(x.get<int64_t>());
        }
    } else {
        return std::nullopt;
    }
    return out;
}

struct Result {
    double flops = 0;
    std::optional<double> bytes;
    bool matrix = false;
    std::string_view precisionType;  // the operand type whose peak applies (matrix work)
};

using Bpe = std::optional<int>;

std::optional<double> times(double elements, Bpe bpe) {
    if (!bpe) return std::nullopt;
    return elements * *bpe;
}

// A GEMM of B batches: (M, K) @ (K, N), with a bias row of N; TraceLens's
// byte count: each matrix once, at A's element size (C's for an fp8 GEMM: 2).
Result gemm(double B, double M, double N, double K, bool bias, Bpe bpe, Bpe bpeOut,
            std::string_view type) {
    Result r;
    r.matrix = true;
    r.precisionType = type;
    r.flops = B * (2 * M * N * K + (bias ? M * N : 0));
    if (bpe && bpeOut) r.bytes = B * ((M * K + K * N + (bias ? N : 0)) * *bpe + M * N * *bpeOut);
    return r;
}

using Why = std::string*;

std::optional<Result> fail(Why why, const char* text) {
    if (why) *why = text;
    return std::nullopt;
}

std::optional<Result> gemmFamily(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* a = in.shape(o.a);
    const Shape* b = in.shape(o.b);
    if (!a || !b) return fail(why, "its operands' shapes were not recorded");
    const std::string_view type = in.type(o.a);
    const Bpe bpe = bytesPerElement(type);
    switch (o.family) {
        case OpFamily::Mm:
        case OpFamily::Addmm:
            if (a->size() != 2 || b->size() != 2 || (*a)[1] != (*b)[0])
                return fail(why, "operands are not matrices that multiply");
            // addmm's bias counts always (TraceLens): beta is not recorded as a tensor.
            return gemm(1, (*a)[0], (*b)[1], (*a)[1], o.family == OpFamily::Addmm, bpe, bpe, type);
        case OpFamily::Bmm:
        case OpFamily::Baddbmm:
            if (a->size() != 3 || b->size() != 3 || (*a)[0] != (*b)[0] || (*a)[2] != (*b)[1])
                return fail(why, "operands are not batches of matrices that multiply");
            return gemm((*a)[0], (*a)[1], (*b)[2], (*a)[2], o.family == OpFamily::Baddbmm, bpe, bpe,
                        type);
        case OpFamily::Linear: {
            if (a->empty() || b->size() != 2 || a->back() != (*b)[1])
                return fail(why, "operands are not (…, K) and (N, K)");
            const double K = a->back();
            const double M = product(*a, 0, a->size() - 1);
            return gemm(1, M, (*b)[0], K, in.present(o.c), bpe, bpe, type);
        }
        case OpFamily::ScaledMm: {
            if (a->size() != 2 || b->size() != 2 || (*a)[1] != (*b)[0])
                return fail(why, "operands are not matrices that multiply");
            const Bpe out = bpe && *bpe == 1 ? Bpe(2) : bpe;  // fp8 in, 16-bit out
            return gemm(1, (*a)[0], (*b)[1], (*a)[1], in.present(o.c), bpe, out, type);
        }
        case OpFamily::Matmul: {
            // torch.matmul: 1-D operands are a row or a column; the
            // leading dimensions broadcast.
            const bool aVector = a->size() == 1, bVector = b->size() == 1;
            if (a->empty() || b->empty()) return fail(why, "an operand is a scalar");
            const double M = aVector ? 1 : (*a)[a->size() - 2];
            const double K = a->back();
            const double Kb = bVector ? (*b)[0] : (*b)[b->size() - 2];
            const double N = bVector ? 1 : b->back();
            if (K != Kb) return fail(why, "operands' inner dimensions differ");
            const size_t la = aVector ? 0 : a->size() - 2, lb = bVector ? 0 : b->size() - 2;
            double batches = 1;
            for (size_t i = 0; i < std::max(la, lb); ++i) {
                const double x = i < la ? (*a)[la - 1 - i] : 1;
                const double y = i < lb ? (*b)[lb - 1 - i] : 1;
                if (x != y && x != 1 && y != 1)
                    return fail(why, "operands' batches do not broadcast");
                batches *= std::max(x, y);
            }
            Result r;
            r.matrix = true;
            r.precisionType = type;
            r.flops = batches * 2 * M * N * K;
            if (bpe)
                r.bytes = (product(*a) + product(*b) + batches * M * N) * static_cast<double>(*bpe);
            return r;
        }
        case OpFamily::GroupedMm: {
            // (M, K) @ (G, K, N): the tokens of each group by its weights;
            // (G, M, K) @ (G, K, N): a batch.
            const Bpe out = bytesPerElement(in.type(o.b));
            if (a->size() == 2 && b->size() == 3) {
                const double M = (*a)[0], K = (*a)[1], G = (*b)[0];
                if ((*b)[1] != K && (*b)[2] != K)
                    return fail(why, "operands are not tokens and groups' weights that multiply");
                const double N = (*b)[1] == K ? (*b)[2] : (*b)[1];
                Result r;
                r.matrix = true;
                r.precisionType = type;
                r.flops = 2 * M * K * N;
                if (bpe && out) r.bytes = (M * K + G * K * N) * *bpe + M * N * *out;
                return r;
            }
            if (a->size() == 3 && b->size() == 3) {
                if ((*a)[0] != (*b)[0] || (*a)[2] != (*b)[1])
                    return fail(why, "operands are not batches of matrices that multiply");
                return gemm((*a)[0], (*a)[1], (*b)[2], (*a)[2], false, bpe, bpe, type);
            }
            return fail(why, "grouped operands of these ranks are not modelled");
        }
        default:
            return fail(why, "not a GEMM");
    }
}

// A convolution's output shape (N, C_out, spatial...), as PyTorch sizes it.
struct ConvParams {
    std::vector<int64_t> stride, padding, dilation, outputPadding;
    bool transposed = false;
};

std::optional<Shape> convOutput(const Shape& x, const Shape& w, const ConvParams& p) {
    const size_t spatial = x.size() - 2;
    auto at = [&](const std::vector<int64_t>& v, size_t i, int64_t dflt) -> double {
        if (v.empty()) return static_cast<double>(dflt);
        return static_cast<double>(v.size() == 1 ? v[0] : (i < v.size() ? v[i] : dflt));
    };
    Shape out{x[0], p.transposed ? w[1] : w[0]};
    for (size_t i = 0; i < spatial; ++i) {
        const double in = x[2 + i], k = w[2 + i];
        const double s = at(p.stride, i, 1), pad = at(p.padding, i, 0), d = at(p.dilation, i, 1);
        double o;
        if (p.transposed)
            o = (in - 1) * s - 2 * pad + d * (k - 1) + at(p.outputPadding, i, 0) + 1;
        else
            o = std::trunc((in + 2 * pad - d * (k - 1) - 1) / s) + 1;
        if (!(o > 0)) return std::nullopt;
        out.push_back(o);
    }
    return out;
}

std::optional<Result> convolution(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* x = in.shape(o.a);
    const Shape* w = in.shape(o.b);
    if (!x || !w || x->size() < 3 || w->size() != x->size())
        return fail(why, "its input's and weight's shapes were not recorded");
    ConvParams p;
    const int s = o.concrete;
    // Old traces recorded no concrete inputs: without the stride and
    // padding the output's size is unknown.
    if (in.concrete.size() < size_t(s + 5))
        return fail(why, "its stride and padding were not recorded");
    p.stride = integers(in.value(s)).value_or(std::vector<int64_t>{});
    p.padding = integers(in.value(s + 1)).value_or(std::vector<int64_t>{});
    p.dilation = integers(in.value(s + 2)).value_or(std::vector<int64_t>{});
    p.transposed = truth(in.value(s + 3)).value_or(false);
    p.outputPadding = integers(in.value(s + 4)).value_or(std::vector<int64_t>{});
    const auto out = convOutput(*x, *w, p);
    if (!out) return fail(why, "its output would be empty");
    const double perElement = 2 * product(*w, 1);
    const double forward = (p.transposed ? product(*x) : product(*out)) * perElement;
    const std::string_view type = in.type(o.a);
    const Bpe bpe = bytesPerElement(type);
    Result r;
    r.matrix = true;
    r.precisionType = type;
    const double io = product(*x) + product(*w) + product(*out);
    if (o.family == OpFamily::Convolution) {
        const bool bias = in.present(o.c);
        r.flops = forward + (bias ? product(*out) : 0);
        r.bytes = times(io + (bias ? (*out)[1] : 0), bpe);
    } else {
        // output_mask: the input's, the weight's and the bias's gradients,
        // each a pass as costly as the forward's (the bias's a sum).
        const std::vector<bool> m = truths(in.value(o.c), 3);
        const double passes = double(m[0]) + double(m[1]);
        r.flops = passes * forward + (m[2] ? product(*out) : 0);
        r.bytes = times(passes * io + (m[2] ? product(*out) + (*out)[1] : 0), bpe);
    }
    return r;
}

// Attention's sizes: batch, heads and tokens of q and of k/v, head dims.
struct AttentionShape {
    double B, Hq, Nq, Hkv, Nkv, Dqk, Dv;
};

std::optional<AttentionShape> attentionShape(const OpArguments& o, const Inputs& in) {
    const Shape* q = in.shape(o.a);
    const Shape* k = in.shape(o.b);
    const Shape* v = in.shape(o.c);
    if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4) return std::nullopt;
    const size_t h = o.tokensBeforeHeads ? 2 : 1, n = o.tokensBeforeHeads ? 1 : 2;
    AttentionShape s{(*q)[0], (*q)[h], (*q)[n], (*k)[h], (*k)[n], (*q)[3], (*v)[3]};
    // As TraceLens requires: one batch, k and v alike, q's and k's head dims equal.
    if ((*k)[0] != s.B || (*v)[0] != s.B || (*v)[h] != s.Hkv || (*v)[n] != s.Nkv ||
        (*k)[3] != s.Dqk)
        return std::nullopt;
    return s;
}

std::optional<Result> attention(const OpArguments& o, const Inputs& in, Why why) {
    const auto s = attentionShape(o, in);
    if (!s) return fail(why, "q, k and v were not recorded as 4-D tensors of one batch");
    const bool causal = truth(in.value(o.concrete)).value_or(false);
    if (causal && s->Nq != s->Nkv) return fail(why, "causal with q and k/v of different lengths");
    const auto [B, Hq, Nq, Hkv, Nkv, Dqk, Dv] = *s;
    // GQA: each K/V head serves Hq / Hkv query heads, a whole number of them.
    if (!(Hkv > 0) || std::fmod(Hq, Hkv) != 0)
        return fail(why, "q's heads are not a multiple of k's and v's");
    const double groups = Hq / Hkv - 1;
    double flops;
    if (o.family == OpFamily::Attention) {
        flops = B * Hq * (2 * Nq * Nkv * Dqk) + B * Hq * (2 * Nq * Dv * Nkv);
    } else {
        flops = (o.recomputes ? B * Hq * (2 * Nq * Nkv * Dqk) : 0) + B * Hq * (2 * Nkv * Nq * Dv) +
                B * Nkv * Dv * groups +                                  // dV
                B * Hq * (2 * Nq * Nkv * Dv) +                           // dP
                B * Hq * (2 * Nq * Nkv * Dqk) +                          // dQ
                B * Hq * (2 * Nkv * Nq * Dqk) + B * Nkv * Dqk * groups;  // dK
    }
    if (causal) flops /= 2;
    const double qo = B * Nq * Hq * Dqk + B * Nq * Hq * Dv;  // q and the output
    const double kv = B * Nkv * Hkv * Dqk + B * Nkv * Hkv * Dv;
    // Backward: q, k, v and dO read; dQ, dK and dV written.
    const double elements =
        o.family == OpFamily::Attention ? qo + kv : qo + kv + B * Nq * Hq * Dqk + kv;
    const std::string_view type = in.type(o.a);
    Result r;
    r.matrix = true;
    r.precisionType = type;
    r.flops = flops;
    r.bytes = times(elements, bytesPerElement(type));
    return r;
}

// A norm: n elements over C channels (TraceLens's Normalization).
Result norm(double n, double C, bool training, double weights, Bpe bpe) {
    Result r;
    r.flops = 3 * C + (training ? 3 * n : 0) + 3 * C + 2 * n;
    r.bytes = times(2 * n + weights * C, bpe);
    return r;
}

std::optional<Result> normFamily(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* x = in.shape(o.a);
    if (!x || x->empty()) return fail(why, "its input's shape was not recorded");
    const double n = product(*x);
    const Bpe bpe = bytesPerElement(in.type(o.a));
    auto normalized = [&]() -> std::optional<double> {
        const auto shape = integers(in.value(o.concrete));
        if (!shape || shape->empty()) return std::nullopt;
        double c = 1;
        for (const int64_t d : *shape)
            c *= static_cast<double>(d);
        return c > 0 ? std::optional<double>(c) : std::nullopt;
    };
    switch (o.family) {
        case OpFamily::LayerNorm: {
            const auto C = normalized();
            if (!C) return fail(why, "its normalized shape was not recorded");
            // Mean and variance, the weight and bias where given, and two
            // more for training (always, as TraceLens counts a layer norm).
            const double weights = 2 + in.present(o.b) + (in.present(o.b) && in.present(o.c)) + 2;
            return norm(n, *C, true, weights, bpe);
        }
        case OpFamily::RmsNorm: {
            const auto C = normalized();
            if (!C) return fail(why, "its normalized shape was not recorded");
            const bool affine = in.present(o.b);
            Result r;
            r.flops = (n / *C) * (2 * *C + 2) + n * (affine ? 2 : 1);
            r.bytes = times(2 * n + (affine ? *C : 0), bpe);
            return r;
        }
        case OpFamily::BatchNorm:
        case OpFamily::GroupNorm: {
            if (x->size() < 2) return fail(why, "its input has no channels");
            const double C = (*x)[1];
            const std::optional<bool> said = truth(in.value(o.concrete));
            if (o.family == OpFamily::BatchNorm && !said)
                return fail(why, "whether it trains was not recorded");
            const bool training = o.family == OpFamily::GroupNorm || *said;
            const double weights =
                2 + in.present(o.b) + (in.present(o.b) && in.present(o.c)) + (training ? 2 : 0);
            return norm(n, C, training, weights, bpe);
        }
        case OpFamily::LayerNormBackward: {
            const auto C = normalized();
            if (!C) return fail(why, "its normalized shape was not recorded");
            // output_mask: which gradients (input, weight, bias) it computes.
            const std::vector<bool> m = truths(in.value(o.concrete2), 3);
            const bool affine = m[1], hasBias = m[2];
            const double epc = n / *C;
            Result r;
            r.flops = *C * (4 * epc + (m[0] ? 5 * epc : 2 * epc));
            if (bpe)
                r.bytes = (n + n * (m[0] ? 2 : 1) + *C + (affine ? *C : 0) +
                           (affine ? *C * (hasBias ? 2 : 1) : 0)) *
                          *bpe;
            return r;
        }
        default:
            return fail(why, "not a norm");
    }
}

// The element count of two shapes broadcast (numpy's rules); none where
// they do not broadcast.
std::optional<double> broadcastCount(const Shape& a, const Shape& b) {
    double n = 1;
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const double x = i < a.size() ? a[a.size() - 1 - i] : 1;
        const double y = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) return std::nullopt;
        n *= std::max(x, y);
    }
    return n;
}

std::optional<Result> elementwise(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* x = in.shape(0);
    if (!x) return fail(why, "its input's shape was not recorded");
    const Bpe bpe1 = bytesPerElement(in.type(0));
    Result r;
    if (o.family == OpFamily::Unary) {
        const double n = product(*x);
        const Bpe out = in.present(1) ? bytesPerElement(in.type(1)) : bpe1;
        r.flops = n;
        if (bpe1 && out) r.bytes = n * *bpe1 + n * *out;
        return r;
    }
    const Shape* y = in.shape(1);
    if (!y) return fail(why, "its second operand's shape was not recorded");
    const Bpe bpe2 = bytesPerElement(in.type(1));
    const auto broadcast = broadcastCount(*x, *y);
    if (!broadcast) return fail(why, "its operands' shapes do not broadcast");
    const double n = *broadcast;
    Bpe out = bpe1;
    if (in.present(2))
        out = bytesPerElement(in.type(2));
    else if (!x->empty() && !y->empty() && bpe1 && bpe2)
        out = std::max(*bpe1, *bpe2);
    r.flops = n;
    if (bpe1 && bpe2 && out) r.bytes = product(*x) * *bpe1 + product(*y) * *bpe2 + n * *out;
    return r;
}

std::optional<Result> reduction(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* x = in.shape(o.a);
    if (!x) return fail(why, "its input's shape was not recorded");
    const double n = product(*x);
    // Old traces recorded no concrete inputs: which dims it reduces is unknown.
    if (!o.keepsShape && in.concrete.empty() && in.dims.size() > size_t(o.concrete))
        return fail(why, "its dims were not recorded");
    double outCount = 1;  // a full reduction
    if (o.keepsShape) {
        outCount = n;
    } else if (const auto dims = integers(in.value(o.concrete)); dims && !dims->empty()) {
        std::vector<bool> reduced(x->size(), false);
        for (int64_t d : *dims) {
            const auto rank = static_cast<int64_t>(x->size());
            if (d < 0) d += rank;
            if (d >= 0 && d < rank) reduced[size_t(d)] = true;
        }
        for (size_t i = 0; i < x->size(); ++i)
            if (!reduced[i]) outCount *= (*x)[i];
    }
    const Bpe bpe = bytesPerElement(in.type(o.a));
    Result r;
    r.flops = n;
    r.bytes = times(n + outCount, bpe);
    return r;
}

std::optional<Result> embedding(const OpArguments& o, const Inputs& in, Why why) {
    const Shape* w = in.shape(o.a);
    const Shape* idx = in.shape(o.b);
    if (!w || !idx || w->size() != 2)
        return fail(why, "its table's and indices' shapes were not recorded");
    const double n = product(*idx), D = (*w)[1];
    const Bpe bw = bytesPerElement(in.type(o.a)), bi = bytesPerElement(in.type(o.b));
    Result r;  // a gather: no arithmetic; the indices, the rows read and written
    if (bw && bi) r.bytes = n * *bi + 2 * n * D * *bw;
    return r;
}

std::optional<Result> fromShapes(const OpArguments& o, const Inputs& in, Why why) {
    switch (o.family) {
        case OpFamily::Mm:
        case OpFamily::Addmm:
        case OpFamily::Bmm:
        case OpFamily::Baddbmm:
        case OpFamily::Matmul:
        case OpFamily::Linear:
        case OpFamily::ScaledMm:
        case OpFamily::GroupedMm:
            return gemmFamily(o, in, why);
        case OpFamily::Convolution:
        case OpFamily::ConvolutionBackward:
            return convolution(o, in, why);
        case OpFamily::Attention:
        case OpFamily::AttentionBackward:
            return attention(o, in, why);
        case OpFamily::LayerNorm:
        case OpFamily::LayerNormBackward:
        case OpFamily::RmsNorm:
        case OpFamily::BatchNorm:
        case OpFamily::GroupNorm:
            return normFamily(o, in, why);
        case OpFamily::Unary:
        case OpFamily::Binary:
            return elementwise(o, in, why);
        case OpFamily::Reduce:
            return reduction(o, in, why);
        case OpFamily::Embedding:
            return embedding(o, in, why);
        case OpFamily::None:
            break;
    }
    return fail(why, "no formula covers this op");
}

}  // namespace

std::string_view signaturePart(std::string_view signature, int part) {
    size_t from = 0;
    for (int i = 0; i < part; ++i) {
        from = signature.find('\n', from);
        if (from == std::string_view::npos) return {};
        ++from;
    }
    const size_t to = signature.find('\n', from);
    return signature.substr(from, to == std::string_view::npos ? to : to - from);
}

const char* costSourceName(CostSource s) {
    return s == CostSource::Profiler ? "profiler" : "shapes";
}

std::optional<int> bytesPerElement(std::string_view typeName) {
    const auto type = vocabulary::pytorchOpElementType(typeName);
    return type ? std::optional<int>(type->bytes) : std::nullopt;
}

namespace {

std::optional<PeakType> matrixPeakOf(vocabulary::ElementKind kind) {
    using K = vocabulary::ElementKind;
    switch (kind) {
        case K::BFloat16:
            return PeakType::Bf16;
        case K::Float16:
            return PeakType::Fp16;
        case K::Float32:
            return PeakType::Fp32;
        case K::Float64:
            return PeakType::Fp64Tensor;
        case K::Float8:
            return PeakType::Fp8;
        case K::Int8:
            return PeakType::Int8;
        case K::Integer:
        case K::Other:
            break;
    }
    return std::nullopt;
}

}  // namespace

std::optional<PeakType> matrixPrecision(std::string_view typeName) {
    const auto type = vocabulary::pytorchOpElementType(typeName);
    return type ? matrixPeakOf(type->kind) : std::nullopt;
}

std::optional<OpCost> recordedCost(std::string_view name, std::string_view resultShape,
                                   double flops, double bytes) {
    if (!(flops >= 0 && flops <= kMostCounted)) return std::nullopt;
    OpCost c;
    c.flops = flops;
    c.flopsSource = CostSource::Profiler;
    if (bytes >= 0 && bytes <= kMostCounted) c.bytes = bytes;
    c.matrix = vocabulary::xlaMatrixOp(name);
    if (c.matrix) {
        const auto type = vocabulary::xlaElementType(vocabulary::xlaShapeElementType(resultShape));
        c.precision = type ? matrixPeakOf(type->kind) : std::nullopt;
    } else {
        c.precision = PeakType::Fp32;
    }
    return c;
}

std::optional<OpCost> opCost(std::string_view name, std::string_view signature,
                             double profilerFlops, std::string* why) {
    const OpArguments args = vocabulary::pytorchOpArguments(name);
    std::optional<Result> fromFormula;
    std::string formulaWhy;
    Inputs in;
    const bool parsed = !signature.empty() && parseInputs(signature, in);
    if (args.family == OpFamily::None)
        formulaWhy = "no formula covers this op";
    else if (!parsed)
        formulaWhy = "its shapes were not recorded";
    else
        fromFormula = fromShapes(args, in, &formulaWhy);
    // Shapes no tensor has (a hostile file's): counts beyond what a figure
    // holds exactly are no figures.
    auto inRange = [&](double v) { return v >= 0 && v <= kMostCounted; };
    if (fromFormula &&
        (!inRange(fromFormula->flops) || (fromFormula->bytes && !inRange(*fromFormula->bytes)))) {
        fromFormula.reset();
        formulaWhy = "its shapes are not a tensor's";
    }
    if (profilerFlops >= 0 && !inRange(profilerFlops)) profilerFlops = -1;
    if (!fromFormula && profilerFlops < 0) {
        if (why) *why = formulaWhy;
        return std::nullopt;
    }
    OpCost c;
    if (fromFormula) {
        c.flops = fromFormula->flops;
        c.bytes = fromFormula->bytes;
        c.matrix = fromFormula->matrix;
        c.precision = c.matrix ? matrixPrecision(fromFormula->precisionType) : PeakType::Fp32;
    } else {
        // Counted by the profiler (Kineto counts GEMMs, convolutions and
        // element-wise products): matrix work where its type has a matrix peak.
        if (!in.types.empty()) c.precision = matrixPrecision(in.types[0]);
        c.matrix = c.precision.has_value();
        if (!c.precision) c.precision = PeakType::Fp32;
    }
    if (profilerFlops >= 0) {
        c.flops = profilerFlops;
        c.flopsSource = CostSource::Profiler;
    }
    return c;
}

}  // namespace gapscope
