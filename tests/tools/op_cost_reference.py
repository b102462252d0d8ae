#!/usr/bin/env python3
"""Independent reference for the per-op FLOPs and bytes of `gapscope-cli efficiency`.

Usage:
  op_cost_reference.py TRACE [--json]          every costable CPU-op signature of TRACE
  op_cost_reference.py --self-test             the oracles (TraceLens's and the spec's)
  op_cost_reference.py --write-synthetic PATH  a Kineto trace of the self-test's ops

Python 3 stdlib only (json, gzip, math, re, fractions).  Written from the text of
docs/analyses.md ("## Efficiency", "### The formulas") and, where that table
says "as TraceLens", docs/peers/tracelens-perf-model.md -- not from
core/analysis/op_cost.cpp, which was not read.  Only the op names and the
positions of their arguments were taken from the shared vocabulary
(core/model/vocabulary/pytorch_ops.cpp), which are the ATen schemas' order.

What is computed, per CPU-op event (cat "cpu_op" or "Operator"):
  * its signature: (name, Input Dims, Input type, Concrete Inputs), compared
    as parsed JSON values (Concrete Inputs is None where the trace has none);
  * FLOPs and bytes per instance:
      - a "flops" arg: FLOPs = that value (source "profiler"); bytes from the
        op's formula where its family has one and the shapes fit, else None;
      - else the family's formula applied to the recorded shapes (source
        "shapes"); None when the op has no family or its shapes do not fit.
    bytes is None where a type the formula needs has no size.
  FLOPs are exact (fractions) and rounded half up to an integer at the end.

Choices where the spec text is silent (those marked [noted] are also named in
the result's `assumptions` where they were needed):
  * a convolution without Concrete Inputs (old traces) [noted]: stride 1, padding 0,
    dilation 1, not transposed, output padding 0 (TraceLens's defaults for an
    empty value);
  * batch norm without a training value [noted]: training;
  * convolution_backward without an output mask [noted]: [True, True, False]
    (TraceLens's reading: both grads, no bias grad);
  * a reduction without Concrete Inputs [noted]: all dims reduced; also (no
    assumption: the op has no dim) where dim is "", "None", "[]" or a bool;
  * GEMM operands whose inner dims differ, and element-wise operands that do
    not broadcast, do not fit (no figures);
  * attention: "halved when causal" whatever N_q and N_kv (TraceLens
    raises where they differ);
  * a transposed convolution's output channels are W[1] (TraceLens) [noted];
  * type names are looked up case-insensitively (TraceLens);
  * `_grouped_mm` A(G,M,K)·B(G,K,N) "as a batch": G times the 2-D formula,
    (GMK + GKN)·bpe(A) + GMN·bpe(B).
"""

import gzip
import json
import math
import re
import sys
from fractions import Fraction

# --------------------------------------------------------------------------
# Types: bytes per element (docs/analyses.md, "### The formulas").

_BPE = {
    "double": 8, "long int": 8,
    "float": 4, "int": 4, "scalar": 4,
    "c10::half": 2, "c10::bfloat16": 2, "short int": 2,
    "signed char": 1, "unsigned char": 1, "bool": 1, "c10::float4_e2m1fn_x2": 1,
}


def bpe(t):
    """Bytes per element of a recorded "Input type" string, None for no size.

    Case-insensitive, as TraceLens looks types up (old traces write "Float",
    "Int", "Double", "Bool"); the spec's text names them in one case only."""
    if not isinstance(t, str):
        return None
    t = t.lower()
    if t in _BPE:
        return _BPE[t]
    if t.startswith("c10::float8_"):
        return 1
    return None


# --------------------------------------------------------------------------
# Op names and argument positions (the shared vocabulary; ATen schema order).

GEMM = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"}
ATTENTION_FWD = {  # name -> (q position, is_causal's Concrete position, tokens before heads)
    "aten::scaled_dot_product_attention": (0, 5, False),
    "aten::_scaled_dot_product_flash_attention": (0, 4, False),
    "aten::_scaled_dot_product_efficient_attention": (0, 6, False),
    "aten::_scaled_dot_product_cudnn_attention": (0, 6, False),
    "flash_attn::_flash_attn_forward": (0, 5, True),
}
ATTENTION_BWD = {  # name -> (q position, is_causal position, recomputes QK^T, tokens before heads)
    "aten::_scaled_dot_product_flash_attention_backward": (1, 11, True, False),
    "aten::_scaled_dot_product_efficient_attention_backward": (1, 11, False, False),
    "aten::_scaled_dot_product_cudnn_attention_backward": (1, 14, False, False),
    "flash_attn::_flash_attn_backward": (1, 11, True, True),
}
LAYER_NORM = {"aten::layer_norm", "aten::native_layer_norm"}
RMS_NORM = {"aten::_fused_rms_norm", "aten::rms_norm"}
BATCH_NORM = {"aten::batch_norm", "aten::native_batch_norm", "aten::cudnn_batch_norm",
              "aten::miopen_batch_norm"}
GROUP_NORM = {"aten::group_norm": (2, 3), "aten::native_group_norm": (1, 2)}  # weight, bias
UNARY = {
    "aten::copy", "aten::copy_", "aten::clamp_min", "aten::clamp_min_", "aten::clamp_max",
    "aten::clamp_max_", "aten::sigmoid", "aten::rsqrt", "aten::silu", "aten::neg",
    "aten::pow", "aten::relu", "aten::relu_", "aten::gelu", "aten::gelu_", "aten::silu_",
    "aten::sigmoid_", "aten::tanh", "aten::tanh_", "aten::exp", "aten::exp_", "aten::sqrt",
    "aten::abs", "aten::log", "aten::reciprocal", "aten::sin", "aten::cos",
}
BINARY = {
    "aten::add", "aten::add_", "aten::mul", "aten::mul_", "aten::div", "aten::div_",
    "aten::sigmoid_backward", "aten::threshold_backward", "aten::sub", "aten::sub_",
    "aten::rsub", "aten::gelu_backward", "aten::silu_backward", "aten::maximum",
    "aten::minimum",
}
REDUCE = {  # name -> (dim's Concrete position, keeps the shape)
    **{n: (1, False) for n in ("aten::sum", "aten::mean", "aten::max", "aten::min",
                               "aten::amax", "aten::amin", "aten::logsumexp",
                               "aten::std", "aten::var")},
    **{n: (2, False) for n in ("aten::norm", "aten::linalg_norm", "aten::linalg_vector_norm")},
    "aten::cumsum": (1, True), "aten::cumprod": (1, True),
}
CONVOLUTION = {"aten::convolution", "aten::_convolution"}

MODELLED = (GEMM | set(ATTENTION_FWD) | set(ATTENTION_BWD) | LAYER_NORM | RMS_NORM
            | BATCH_NORM | set(GROUP_NORM) | UNARY | BINARY | set(REDUCE) | CONVOLUTION
            | {"aten::linear", "aten::matmul", "aten::_scaled_mm", "aten::_grouped_mm",
               "aten::convolution_backward", "aten::native_layer_norm_backward",
               "aten::embedding"})


# --------------------------------------------------------------------------
# Helpers.

class NoFit(Exception):
    """The recorded shapes do not fit the family's formula."""


def shape(dims, i):
    """Input i's dims as a tuple of ints ([] where absent)."""
    if i >= len(dims):
        return ()
    d = dims[i]
    if not isinstance(d, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                          for x in d):
        raise NoFit("input %d is not a tensor's dims" % i)
    return tuple(d)


def numel(s):
    return math.prod(s)  # prod(()) == 1: a Scalar or 0-d tensor is one element


def typ(types, i):
    return types[i] if i < len(types) else ""


def conc(concrete, i):
    """Concrete Inputs entry i, or None where the trace has none."""
    if concrete is None or i >= len(concrete):
        return None
    return concrete[i]


def parse_bool(s):
    if not isinstance(s, str):
        return None
    t = s.strip().lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    return None


def parse_ints(s):
    """"[1, 2]" or "3" -> (1, 2) / (3,); None for "" or text that is not ints."""
    if not isinstance(s, str):
        return None
    t = s.strip()
    if t.startswith("[") and t.endswith("]"):
        body = t[1:-1].strip()
        if not body:
            return ()
        parts = [p.strip() for p in body.split(",")]
    else:
        parts = [t]
    if not parts or not all(re.fullmatch(r"-?\d+", p) for p in parts):
        return None
    return tuple(int(p) for p in parts)


def parse_bools(s):
    if not isinstance(s, str):
        return None
    t = s.strip()
    if not (t.startswith("[") and t.endswith("]")):
        return None
    vals = [parse_bool(p) for p in t[1:-1].split(",") if p.strip()]
    return None if any(v is None for v in vals) else tuple(vals)


def mul_bytes(n, b):
    return None if b is None else n * b


def add_bytes(*xs):
    return None if any(x is None for x in xs) else sum(xs)


def broadcast(a, b):
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            raise NoFit("shapes do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


# --------------------------------------------------------------------------
# The families.  Each returns (flops, bytes, assumptions).

def gemm(name, dims, types):
    if name == "aten::mm" or name == "aten::bmm":
        a, b, bias = shape(dims, 0), shape(dims, 1), False
        ta = typ(types, 0)
    else:  # addmm, baddbmm: (bias, A, B); the bias always counts, as a row of N
        a, b, bias = shape(dims, 1), shape(dims, 2), True
        ta = typ(types, 1)
    rank = 2 if name in ("aten::mm", "aten::addmm") else 3
    if len(a) != rank or len(b) != rank:
        raise NoFit("GEMM operands of the wrong rank")
    if a[-1] != b[-2] or (rank == 3 and a[0] != b[0]):
        raise NoFit("GEMM operands that do not chain")
    batch = a[0] if rank == 3 else 1
    m, k, n = a[-2], a[-1], b[-1]
    flops = batch * (2 * m * n * k + (m * n if bias else 0))
    byts = mul_bytes(batch * (m * k + k * n + m * n + (n if bias else 0)), bpe(ta))
    return flops, byts, []


def linear(dims, types):
    x, w, bias = shape(dims, 0), shape(dims, 1), shape(dims, 2)
    if len(x) < 1 or len(w) != 2:
        raise NoFit("linear operands of the wrong rank")
    if x[-1] != w[1]:
        raise NoFit("linear operands that do not chain")
    m, k, n = numel(x[:-1]), x[-1], w[0]
    has_bias = len(bias) > 0
    flops = 2 * m * n * k + (m * n if has_bias else 0)
    byts = mul_bytes(m * k + k * n + m * n + (n if has_bias else 0), bpe(typ(types, 0)))
    return flops, byts, []


def matmul(dims, types):
    a, b = shape(dims, 0), shape(dims, 1)
    if not a or not b:
        raise NoFit("matmul of a 0-d operand")
    a2 = (1,) + a if len(a) == 1 else a   # a 1-D A is a row
    b2 = b + (1,) if len(b) == 1 else b   # a 1-D B is a column
    if a2[-1] != b2[-2]:
        raise NoFit("matmul operands that do not chain")
    m, k, n = a2[-2], a2[-1], b2[-1]
    batches = numel(broadcast(a2[:-2], b2[:-2]))
    flops = batches * 2 * m * n * k
    byts = mul_bytes(numel(a) + numel(b) + batches * m * n, bpe(typ(types, 0)))
    return flops, byts, []


def scaled_mm(dims, types):
    a, b, bias = shape(dims, 0), shape(dims, 1), shape(dims, 4)
    if len(a) != 2 or len(b) != 2:
        raise NoFit("_scaled_mm operands of the wrong rank")
    if a[1] != b[0]:
        raise NoFit("_scaled_mm operands that do not chain")
    m, k, n = a[0], a[1], b[1]
    has_bias = len(bias) > 0
    ba = bpe(typ(types, 0))
    out = None if ba is None else (2 if ba == 1 else ba)
    flops = 2 * m * n * k + (m * n if has_bias else 0)
    byts = add_bytes(mul_bytes(m * k + k * n + (n if has_bias else 0), ba), mul_bytes(m * n, out))
    return flops, byts, []


def grouped_mm(dims, types):
    a, b = shape(dims, 0), shape(dims, 1)
    ba, bb = bpe(typ(types, 0)), bpe(typ(types, 1))
    if a and b and a[-1] != b[-2]:
        raise NoFit("_grouped_mm operands that do not chain")
    if len(a) == 2 and len(b) == 3:      # A(M,K) . B(G,K,N)
        g, (m, k), n = b[0], a, b[2]
        return (2 * m * k * n,
                add_bytes(mul_bytes(m * k + g * k * n, ba), mul_bytes(m * n, bb)), [])
    if len(a) == 3 and len(b) == 3:      # A(G,M,K) . B(G,K,N): a batch of G
        g, m, k, n = a[0], a[1], a[2], b[2]
        return (g * 2 * m * k * n,
                add_bytes(mul_bytes(g * (m * k + k * n), ba), mul_bytes(g * m * n, bb)), [])
    raise NoFit("_grouped_mm of other ranks")


def _conv_params(concrete, first, spatial):
    """stride, padding, dilation, transposed, output padding from Concrete first.. first+4."""
    assumptions = []
    if concrete is None:  # the spec: old traces' convolutions give no figures
        raise NoFit("no Concrete Inputs: stride and padding unknown")

    def tup(i, default):
        v = parse_ints(conc(concrete, first + i))
        if not v:
            return (default,) * spatial
        if len(v) == 1:
            return v * spatial
        if len(v) != spatial:
            raise NoFit("convolution parameter of the wrong length")
        return v

    stride, pad, dil = tup(0, 1), tup(1, 0), tup(2, 1)
    transposed = parse_bool(conc(concrete, first + 3)) or False
    out_pad = tup(4, 0)
    return stride, pad, dil, transposed, out_pad, assumptions


def _conv_out(x, w, stride, pad, dil, transposed, out_pad):
    sp = []
    for i in range(len(x) - 2):
        n_in, kk = x[2 + i], w[2 + i]
        if transposed:
            sp.append((n_in - 1) * stride[i] - 2 * pad[i] + dil[i] * (kk - 1) + out_pad[i] + 1)
        else:
            sp.append((n_in + 2 * pad[i] - dil[i] * (kk - 1) - 1) // stride[i] + 1)
    return (x[0], w[1] if transposed else w[0]) + tuple(sp)


def convolution(dims, types, concrete):
    x, w, bias = shape(dims, 0), shape(dims, 1), shape(dims, 2)
    if len(x) < 3 or len(w) != len(x):
        raise NoFit("convolution operands of the wrong rank")
    stride, pad, dil, transposed, out_pad, assumptions = _conv_params(concrete, 3, len(x) - 2)
    if transposed:
        assumptions.append("transposed: output channels W[1]")
    out = _conv_out(x, w, stride, pad, dil, transposed, out_pad)
    has_bias = len(bias) > 0
    flops = (numel(x) if transposed else numel(out)) * 2 * numel(w[1:])
    flops += numel(out) if has_bias else 0
    byts = mul_bytes(numel(x) + numel(w) + numel(out) + (out[1] if has_bias else 0),
                     bpe(typ(types, 0)))
    return flops, byts, assumptions


def convolution_backward(dims, types, concrete):
    # (grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
    #  output_padding, groups, output_mask)
    out, x, w = shape(dims, 0), shape(dims, 1), shape(dims, 2)
    if len(x) < 3 or len(w) != len(x) or len(out) != len(x):
        raise NoFit("convolution_backward operands of the wrong rank")
    _, _, _, transposed, _, assumptions = _conv_params(concrete, 4, len(x) - 2)
    mask = parse_bools(conc(concrete, 10))
    if mask is None or len(mask) != 3:
        mask = (True, True, False)
        assumptions.append("no output mask: [True, True, False]")
    forward = (numel(x) if transposed else numel(out)) * 2 * numel(w[1:])
    grads = int(mask[0]) + int(mask[1])
    b = bpe(typ(types, 1))
    flops = grads * forward + (numel(out) if mask[2] else 0)
    byts = mul_bytes(grads * (numel(x) + numel(w) + numel(out))
                     + ((numel(out) + out[1]) if mask[2] else 0), b)
    return flops, byts, assumptions


def _bhnd(s, tokens_before_heads):
    if len(s) != 4:
        raise NoFit("attention operand not 4-D")
    if tokens_before_heads:  # (B, N, H, d) -> (B, H, N, d)
        return s[0], s[2], s[1], s[3]
    return s


def _causal(concrete, pos):
    return parse_bool(conc(concrete, pos)) is True


def attention_fwd(name, dims, types, concrete):
    qi, cpos, tbh = ATTENTION_FWD[name]
    bq, hq, nq, dqk = _bhnd(shape(dims, qi), tbh)
    _, hkv, nkv, _ = _bhnd(shape(dims, qi + 1), tbh)
    _, _, _, dv = _bhnd(shape(dims, qi + 2), tbh)
    flops = Fraction(bq * hq * 2 * nq * nkv * (dqk + dv))
    if _causal(concrete, cpos):
        if nq != nkv:
            raise NoFit("causal with q and k/v of different lengths")
        flops /= 2
    elems = bq * hq * nq * dqk + bq * hkv * nkv * dqk + bq * hkv * nkv * dv + bq * hq * nq * dv
    return flops, mul_bytes(elems, bpe(typ(types, qi))), []


def attention_bwd(name, dims, types, concrete):
    qi, cpos, recomputes, tbh = ATTENTION_BWD[name]
    b, hq, nq, dqk = _bhnd(shape(dims, qi), tbh)
    _, hkv, nkv, _ = _bhnd(shape(dims, qi + 1), tbh)
    _, _, _, dv = _bhnd(shape(dims, qi + 2), tbh)
    if hkv == 0:
        raise NoFit("no kv heads")
    rep = hq // hkv - 1
    t = Fraction(0)
    if recomputes:
        t += b * hq * 2 * nq * nkv * dqk                       # QK^T again
    t += b * hq * 2 * nkv * nq * dv + b * nkv * dv * rep        # dV (+ GQA reduction)
    t += b * hq * 2 * nq * nkv * dv                             # dP
    t += b * hq * 2 * nq * nkv * dqk                            # dQ
    t += b * hq * 2 * nkv * nq * dqk + b * nkv * dqk * rep      # dK (+ GQA reduction)
    if _causal(concrete, cpos):
        if nq != nkv:
            raise NoFit("causal with q and k/v of different lengths")
        t /= 2
    q = b * hq * nq * dqk
    k = b * hkv * nkv * dqk
    v = b * hkv * nkv * dv
    do = b * hq * nq * dv
    elems = q + k + v + do + q + k + v   # q, k, v, dO read; dQ, dK, dV written
    return t, mul_bytes(elems, bpe(typ(types, qi))), []


def layer_norm(dims, types, concrete):
    x = shape(dims, 0)
    ns = parse_ints(conc(concrete, 1))
    if ns is None:
        raise NoFit("no normalized shape")
    c, n = numel(ns), numel(x)
    weight = 1 if shape(dims, 2) else 0
    bias = 1 if shape(dims, 3) else 0
    b = bpe(typ(types, 0))
    flops = 3 * c + 3 * n + 3 * c + 2 * n
    byts = add_bytes(mul_bytes(2 * n, b), mul_bytes((2 + weight + bias + 2) * c, b))
    return flops, byts, []


def layer_norm_backward(dims, types, concrete):
    # (grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
    x = shape(dims, 1)
    ns = parse_ints(conc(concrete, 2))
    mask = parse_bools(conc(concrete, 7))
    if ns is None or mask is None or len(mask) != 3:
        raise NoFit("no normalized shape or output mask")
    c, n = numel(ns), numel(x)
    if c == 0:
        raise NoFit("empty normalized shape")
    grad_in, weight, bias = mask
    flops = c * (Fraction(4 * n, c) + (Fraction(5 * n, c) if grad_in else Fraction(2 * n, c)))
    elems = (n + (2 * n if grad_in else n) + c + (c if weight else 0)
             + (c * (2 if bias else 1) if weight else 0))
    return flops, mul_bytes(elems, bpe(typ(types, 1))), []


def rms_norm(dims, types, concrete):
    x = shape(dims, 0)
    ns = parse_ints(conc(concrete, 1))
    if ns is None:
        raise NoFit("no normalized shape")
    c, n = numel(ns), numel(x)
    if c == 0:
        raise NoFit("empty normalized shape")
    weight = len(shape(dims, 2)) > 0
    flops = Fraction(n, c) * (2 * c + 2) + n * (2 if weight else 1)
    return flops, mul_bytes(2 * n + (c if weight else 0), bpe(typ(types, 0))), []


def batch_group_norm(dims, types, concrete, weight_i, bias_i, training_pos):
    x = shape(dims, 0)
    if len(x) < 2:
        raise NoFit("norm input below 2-D")
    c, n = x[1], numel(x)
    assumptions = []
    if training_pos is None:
        training = True   # group norm
    else:
        training = parse_bool(conc(concrete, training_pos))
        if training is None:  # the spec: not recorded, no figures
            raise NoFit("batch norm's training not recorded")
    weight = 1 if shape(dims, weight_i) else 0
    bias = 1 if shape(dims, bias_i) else 0
    b = bpe(typ(types, 0))
    flops = 3 * c + (3 * n if training else 0) + 3 * c + 2 * n
    byts = add_bytes(mul_bytes(2 * n, b),
                     mul_bytes((2 + weight + bias + (2 if training else 0)) * c, b))
    return flops, byts, assumptions


def unary(dims, types):
    x = shape(dims, 0)
    n = numel(x)
    b_in = bpe(typ(types, 0))
    second_is_tensor = len(dims) > 1 and len(shape(dims, 1)) > 0
    b_out = bpe(typ(types, 1)) if second_is_tensor else b_in
    return n, add_bytes(mul_bytes(n, b_in), mul_bytes(n, b_out)), []


def binary(dims, types):
    if len(dims) < 2:
        raise NoFit("binary op with one input")
    s1, s2 = shape(dims, 0), shape(dims, 1)
    n1, n2 = numel(s1), numel(s2)
    n_out = numel(broadcast(s1, s2))
    b1, b2 = bpe(typ(types, 0)), bpe(typ(types, 1))
    if len(dims) > 2 and len(shape(dims, 2)) > 0:
        b_out = bpe(typ(types, 2))
    elif s1 and s2:
        b_out = None if b1 is None or b2 is None else max(b1, b2)
    else:
        b_out = b1
    return n_out, add_bytes(mul_bytes(n1, b1), mul_bytes(n2, b2), mul_bytes(n_out, b_out)), []


def reduce(name, dims, types, concrete):
    dim_pos, keeps_shape = REDUCE[name]
    x = shape(dims, 0)
    n_in = numel(x)
    assumptions = []
    if keeps_shape:
        n_out = n_in
    else:
        if concrete is None:  # the spec: old traces' reductions give no figures
            raise NoFit("no Concrete Inputs: dims unknown")
        raw = conc(concrete, dim_pos)
        # "", "None", "[]" or a bool (std(self, unbiased)) in dim's place: no dim
        dim = parse_ints(raw)
        if not dim:
            n_out = 1
            if concrete is None:
                assumptions.append("no Concrete Inputs: all dims reduced")
        else:
            reduced = set()
            for d in dim:
                if not -len(x) <= d < max(len(x), 1):
                    raise NoFit("dim out of range")
                reduced.add(d % len(x) if x else 0)
            n_out = numel(tuple(s for i, s in enumerate(x) if i not in reduced))
    return n_in, mul_bytes(n_in + n_out, bpe(typ(types, 0))), assumptions


def embedding(dims, types):
    w, idx = shape(dims, 0), shape(dims, 1)
    if len(w) != 2:
        raise NoFit("embedding weight not 2-D")
    n_idx, d = numel(idx), w[1]
    return 0, add_bytes(mul_bytes(n_idx, bpe(typ(types, 1))),
                        mul_bytes(2 * n_idx * d, bpe(typ(types, 0)))), []


def formula(name, dims, types, concrete):
    """(flops, bytes, assumptions) by the family's formula; raises NoFit; None: no family."""
    if name in GEMM:
        return gemm(name, dims, types)
    if name == "aten::linear":
        return linear(dims, types)
    if name == "aten::matmul":
        return matmul(dims, types)
    if name == "aten::_scaled_mm":
        return scaled_mm(dims, types)
    if name == "aten::_grouped_mm":
        return grouped_mm(dims, types)
    if name in CONVOLUTION:
        return convolution(dims, types, concrete)
    if name == "aten::convolution_backward":
        return convolution_backward(dims, types, concrete)
    if name in ATTENTION_FWD:
        return attention_fwd(name, dims, types, concrete)
    if name in ATTENTION_BWD:
        return attention_bwd(name, dims, types, concrete)
    if name in LAYER_NORM:
        return layer_norm(dims, types, concrete)
    if name == "aten::native_layer_norm_backward":
        return layer_norm_backward(dims, types, concrete)
    if name in RMS_NORM:
        return rms_norm(dims, types, concrete)
    if name in BATCH_NORM:
        return batch_group_norm(dims, types, concrete, 1, 2, 5)
    if name in GROUP_NORM:
        w, b = GROUP_NORM[name]
        return batch_group_norm(dims, types, concrete, w, b, None)
    if name in UNARY:
        return unary(dims, types)
    if name in BINARY:
        return binary(dims, types)
    if name in REDUCE:
        return reduce(name, dims, types, concrete)
    if name == "aten::embedding":
        return embedding(dims, types)
    return None


def round_half_up(v):
    return None if v is None else int(math.floor(Fraction(v) + Fraction(1, 2)))


def op_cost(name, dims, types, concrete=None, flops_arg=None):
    """The reference cost of one op instance.

    Returns None (no figures) or a dict: flops (int), bytes (int or None),
    source ("profiler" or "shapes"), assumptions (list of str).
    """
    dims = dims if isinstance(dims, list) else []
    types = types if isinstance(types, list) else []
    try:
        got = formula(name, dims, types, concrete)
    except NoFit:
        got = None
    if flops_arg is not None:
        return {"flops": round_half_up(flops_arg),
                "bytes": got[1] if got else None,
                "source": "profiler",
                "assumptions": got[2] if got else []}
    if got is None:
        return None
    return {"flops": round_half_up(got[0]), "bytes": got[1], "source": "shapes",
            "assumptions": got[2]}


# --------------------------------------------------------------------------
# Traces.

def load_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    events = data.get("traceEvents", []) if isinstance(data, dict) else data
    return [e for e in events if isinstance(e, dict)]


def is_cpu_op(e):
    return e.get("cat") in ("cpu_op", "Operator") and e.get("ph", "X") == "X"


def signature_key(name, dims, types, concrete):
    """A hashable key of a signature compared as parsed values."""
    return (name, json.dumps(dims), json.dumps(types), json.dumps(concrete))


def event_signature(e):
    args = e.get("args") or {}
    dims = args.get("Input Dims", args.get("Input dims"))
    types = args.get("Input type", args.get("Input types"))
    concrete = args.get("Concrete Inputs")
    return e.get("name", ""), dims, types, concrete


def trace_signatures(path):
    """{key: {"name", "dims", "types", "concrete", "instances", "costs": set, "cost"}}.

    Every CPU op with Input Dims or a flops arg; cost None where it has no
    figures.  "costs" holds every distinct (flops, bytes, source) seen over
    the signature's instances (a flops arg may differ between them).
    """
    out = {}
    for e in load_events(path):
        if not is_cpu_op(e):
            continue
        args = e.get("args") or {}
        name, dims, types, concrete = event_signature(e)
        flops_arg = args.get("flops")
        if dims is None and flops_arg is None:
            continue
        key = signature_key(name, dims, types, concrete)
        rec = out.get(key)
        if rec is None:
            rec = out[key] = {"name": name, "dims": dims, "types": types, "concrete": concrete,
                              "instances": 0, "costs": {}}
        rec["instances"] += 1
        cost = op_cost(name, dims, types, concrete, flops_arg)
        if cost is not None:
            rec["costs"][(cost["flops"], cost["bytes"], cost["source"])] = cost["assumptions"]
    return out


# --------------------------------------------------------------------------
# Self-test: TraceLens's published and derived oracles
# (docs/peers/tracelens-perf-model.md section 10), for the families the spec
# says follow TraceLens, plus the spec's own values where it differs.

BF, HALF, F32, F64, FP8 = "c10::BFloat16", "c10::Half", "float", "double", "c10::Float8_e4m3fn"


def _cases():
    n = 8 * 1024 * 4096
    x = [8, 1024, 4096]
    conv_c = ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"]
    conv_d = [[8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], []]
    conv_t = [BF, BF, "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList",
              "Scalar"]
    convb_d = [[8, 128, 56, 56], [8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], [],
               []]
    convb_t = [BF, BF, BF, "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar",
               "ScalarList", "Scalar", "ScalarList"]
    convb_c = ["", "", "", "[128]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"]
    q16 = [2, 16, 2048, 128]
    fa_t = [BF, BF, BF, "Scalar", "Scalar", "Scalar", ""]
    # (label, origin, name, dims, types, concrete, flops, bytes)
    return [
        ("addmm, perf-report-columns.md", "published", "aten::addmm",
         [[6144], [40960, 1536], [1536, 6144], [], []], [BF, BF, BF, "Scalar", "Scalar"],
         ["", "", "", "1", "1"], 773345771520, 648032256),
        ("mm bf16 4096^3", "derived", "aten::mm", [[4096, 4096], [4096, 4096]], [BF, BF],
         ["", ""], 137438953472, 100663296),
        ("mm float 4096^3", "derived", "aten::mm", [[4096, 4096], [4096, 4096]], [F32, F32],
         ["", ""], 137438953472, 201326592),
        ("bmm half", "derived", "aten::bmm", [[32, 512, 64], [32, 64, 512]], [HALF, HALF],
         ["", ""], 1073741824, 20971520),
        ("baddbmm bf16", "derived", "aten::baddbmm",
         [[32, 512, 512], [32, 512, 64], [32, 64, 512], [], []],
         [BF, BF, BF, "Scalar", "Scalar"], ["", "", "", "1", "1"], 1082130432, 21004288),
        ("baddbmm, TraceLens test (flops only)", "published", "aten::baddbmm",
         [[2, 4, 16], [2, 4, 8], [2, 8, 16]], [F32, F32, F32], None, 2176, None),
        ("_scaled_mm fp8, no bias", "derived", "aten::_scaled_mm",
         [[8192, 4096], [4096, 8192], [], [], [], [], [], []],
         [FP8, FP8, F32, F32, "", "", "Scalar", "Scalar"], None, 549755813888, 201326592),
        ("_grouped_mm, TraceLens test", "published", "aten::_grouped_mm",
         [[24576, 2048], [8, 2048, 2816], [8], [], []], [BF, BF, "int", "", "Scalar"], None,
         283467841536, 331350016),
        ("flash attention causal", "derived", "aten::_scaled_dot_product_flash_attention",
         [q16, q16, q16, [], [], [], []], fa_t, ["", "", "", "0.", "True", "False", ""],
         34359738368, 67108864),
        ("flash attention non-causal", "derived", "aten::_scaled_dot_product_flash_attention",
         [q16, q16, q16, [], [], [], []], fa_t, ["", "", "", "0.", "False", "False", ""],
         68719476736, 67108864),
        ("flash attention GQA causal", "derived", "aten::_scaled_dot_product_flash_attention",
         [[1, 32, 4096, 128], [1, 8, 4096, 128], [1, 8, 4096, 128], [], [], [], []], fa_t,
         ["", "", "", "0.", "True", "False", ""], 137438953472, 83886080),
        ("SDPA.flops_func(1,4096,64,4096,8,128,128,True), perf-model-without-trace.md",
         "published", "aten::_scaled_dot_product_flash_attention",
         [[1, 64, 4096, 128], [1, 8, 4096, 128], [1, 8, 4096, 128], [], [], [], []], fa_t,
         ["", "", "", "0.", "True", "False", ""], 274877906944, 150994944),
        ("flash attention backward causal (TraceLens's bwd from the same shapes)", "derived",
         "aten::_scaled_dot_product_flash_attention_backward",
         [q16] * 5 + [[2, 16, 2048]] + [[]] * 9,
         [BF] * 5 + [F32] + [""] * 4 + ["Scalar", "Scalar"] + [""] * 3,
         [""] * 10 + ["0.", "True"] + [""] * 3, 85899345920, 117440512),
        ("flash attention backward GQA causal", "derived",
         "aten::_scaled_dot_product_flash_attention_backward",
         [[1, 32, 4096, 128], [1, 32, 4096, 128], [1, 8, 4096, 128], [1, 8, 4096, 128],
          [1, 32, 4096, 128], [1, 32, 4096]] + [[]] * 9,
         [BF] * 5 + [F32] + [""] * 4 + ["Scalar", "Scalar"] + [""] * 3,
         [""] * 10 + ["0.", "True"] + [""] * 3, 343598956544, 134217728),
        ("flash attention fp32 (spec: the type's size; TraceLens 2 B/elem)", "spec",
         "aten::_scaled_dot_product_flash_attention", [q16, q16, q16, [], [], [], []],
         [F32, F32, F32, "Scalar", "Scalar", "Scalar", ""],
         ["", "", "", "0.", "False", "False", ""], 68719476736, 134217728),
        ("convolution bf16, no bias", "derived", "aten::convolution", conv_d, conv_t, conv_c,
         3699376128, 9781248),
        ("convolution bf16 with a bias (spec: counted; TraceLens never)", "spec",
         "aten::convolution", [conv_d[0], conv_d[1], [128]] + conv_d[3:], conv_t, conv_c,
         3699376128 + 8 * 128 * 56 * 56, 9781248 + 128 * 2),
        ("convolution_backward mask [T, T, F] (= TraceLens's 2x forward)", "derived",
         "aten::convolution_backward", convb_d, convb_t, convb_c + ["[True, True, False]"],
         7398752256, 19562496),
        ("convolution_backward mask [F, T, T] (spec)", "spec", "aten::convolution_backward",
         convb_d, convb_t, convb_c + ["[False, True, True]"],
         3699376128 + 8 * 128 * 56 * 56,
         (8 * 64 * 56 * 56 + 128 * 64 * 9 + 8 * 128 * 56 * 56) * 2 + (8 * 128 * 56 * 56 + 128) * 2),
        ("add bf16 broadcast bias row", "derived", "aten::add", [x, [4096], []],
         [BF, BF, "Scalar"], ["", "", "1"], n, 134225920),
        ("add bf16 + Scalar", "derived", "aten::add", [x, [], []], [BF, "Scalar", "Scalar"],
         ["", "1", "1"], n, 134217732),
        ("mul float x bf16", "derived", "aten::mul", [x, x], [F32, BF], ["", ""], n, 335544320),
        ("copy_ bf16 <- float", "derived", "aten::copy_", [x, x, []], [BF, F32, "Scalar"],
         ["", "", "False"], n, 201326592),
        ("silu bf16", "derived", "aten::silu", [x], [BF], [""], n, 134217728),
        ("layer_norm bf16", "derived", "aten::layer_norm",
         [x, [], [4096], [4096], [], []], [BF, "ScalarList", BF, BF, "Scalar", "Scalar"],
         ["", "[4096]", "", "", "1e-05", "True"], 167796736, 134266880),
        ("layer_norm bf16 without weight and bias (spec: not counted)", "spec",
         "aten::layer_norm", [x, [], [], [], [], []],
         [BF, "ScalarList", "", "", "Scalar", "Scalar"],
         ["", "[4096]", "", "", "1e-05", "True"], 167796736, 134266880 - 2 * 4096 * 2),
        ("native_layer_norm_backward mask [T, T, T]", "derived",
         "aten::native_layer_norm_backward",
         [x, x, [], [8, 1024, 1], [8, 1024, 1], [4096], [4096], []],
         [BF, BF, "ScalarList", F32, F32, BF, BF, "ScalarList"],
         ["", "", "[4096]", "", "", "", "", "[True, True, True]"], 301989888, 201359360),
        ("_fused_rms_norm bf16", "derived", "aten::_fused_rms_norm", [x, [], [4096], []],
         [BF, "ScalarList", BF, "Scalar"], ["", "[4096]", "", "1e-05"], 134234112, 134225920),
        ("batch_norm training bf16", "derived", "aten::batch_norm",
         [[32, 256, 56, 56], [256], [256], [256], [256], [], [], [], []],
         [BF] * 5 + ["Scalar"] * 4, [""] * 5 + ["True", "0.1", "1e-05", "True"],
         3 * 256 + 3 * 32 * 256 * 56 * 56 + 3 * 256 + 2 * 32 * 256 * 56 * 56,
         32 * 256 * 56 * 56 * 2 * 2 + 6 * 256 * 2),
        ("batch_norm 'False' (spec: not training)", "spec", "aten::batch_norm",
         [[32, 256, 56, 56], [256], [256], [256], [256], [], [], [], []],
         [BF] * 5 + ["Scalar"] * 4, [""] * 5 + ["False", "0.1", "1e-05", "True"],
         6 * 256 + 2 * 32 * 256 * 56 * 56, 32 * 256 * 56 * 56 * 2 * 2 + 4 * 256 * 2),
        ("sum bf16 over the last dim (spec: the dims not reduced; TraceLens 1)", "spec",
         "aten::sum", [x, [], [], []], [BF, "ScalarList", "Scalar", ""],
         ["", "[-1]", "False", ""], n, (n + 8 * 1024) * 2),
        ("sum bf16 full reduction (= TraceLens)", "derived", "aten::sum", [x, []], [BF, ""],
         ["", ""], n, 67108866),
        ("linear bf16 with bias (spec; = its addmm)", "spec", "aten::linear",
         [[40, 1024, 1536], [6144, 1536], [6144]], [BF, BF, BF], ["", "", ""],
         773345771520, 648032256),
        ("matmul broadcast batch (spec)", "spec", "aten::matmul", [[4, 1, 8, 16], [3, 16, 32]],
         [F32, F32], ["", ""], 12 * 2 * 8 * 32 * 16, (4 * 8 * 16 + 3 * 16 * 32 + 12 * 8 * 32) * 4),
        ("embedding (spec)", "spec", "aten::embedding", [[50000, 1024], [8, 512], [], [], []],
         [BF, "long int", "Scalar", "Scalar", "Scalar"], ["", "", "-1", "False", "False"],
         0, 4096 * 8 + 2 * 4096 * 1024 * 2),
        ("profiler flops stand; bytes from the shapes", "spec", "aten::mm",
         [[2048, 4096], [4096, 4096]], [BF, BF], ["", ""], 123, 67108864),
    ]


def self_test():
    failures = 0
    for label, origin, name, dims, types, concrete, flops, byts in _cases():
        flops_arg = 123 if label.startswith("profiler") else None
        got = op_cost(name, dims, types, concrete, flops_arg)
        got_f = got["flops"] if got else None
        got_b = got["bytes"] if got else None
        ok = got_f == flops and (byts is None or got_b == byts)
        if not ok:
            failures += 1
            print("FAIL [%s] %s: flops %r (want %r), bytes %r (want %r)"
                  % (origin, label, got_f, flops, got_b, byts))
    total = len(_cases())
    print("self-test: %d of %d oracle cases pass" % (total - failures, total))
    return 1 if failures else 0


def _probes():
    """Edge cases of each family (no oracle: the reference's own values), for
    the synthetic trace: other layouts, ranks, flags, types and overloads."""
    S = "Scalar"
    t5 = [BF] * 3 + [S, S, S]
    return [
        # attention: (B, N, H, d) layout, causal with N_q != N_kv, the efficient kernels
        ("flash_attn::_flash_attn_forward", [[2, 1024, 16, 64], [2, 1024, 4, 64],
                                             [2, 1024, 4, 64], [], [], []],
         t5, ["", "", "", "0.0", "0.125", "True"]),
        ("flash_attn::_flash_attn_backward",
         [[2, 1024, 16, 64], [2, 1024, 16, 64], [2, 1024, 4, 64], [2, 1024, 4, 64],
          [2, 1024, 16, 64], [2, 16, 1024], [], [], [], [], [], [], []],
         [BF] * 5 + [F32] + [""] * 3 + [S, S, S, S],
         [""] * 9 + ["0.0", "0.125", "True", "-1"]),
        ("aten::_scaled_dot_product_efficient_attention",
         [[4, 8, 256, 64], [4, 8, 512, 64], [4, 8, 512, 32], [], [], [], [], []],
         [HALF] * 3 + ["", S, S, S, S], ["", "", "", "", "True", "0.", "True", ""]),
        ("aten::_scaled_dot_product_efficient_attention_backward",
         [[4, 8, 256, 32], [4, 8, 256, 64], [4, 8, 256, 64], [4, 8, 256, 32], [],
          [4, 8, 256, 32], [4, 8, 256], [], [], [], [], [], []],
         [HALF] * 4 + [""] + [HALF, F32, "long int", "long int", S, "", S, S],
         [""] * 9 + ["0.", "[True, True, True, False]", "False", ""]),
        ("aten::scaled_dot_product_attention",
         [[1, 8, 128, 64], [1, 8, 128, 64], [1, 8, 128, 64], [], [], [], [], []],
         [F32] * 3 + ["", S, S, S, S], ["", "", "", "", "0.", "False", "", "False"]),
        # convolutions: stride 2 with padding, groups, transposed, 1-D and 3-D, backward
        ("aten::convolution", [[4, 32, 33, 33], [64, 8, 3, 3], [64], [], [], [], [], [], []],
         [HALF, HALF, HALF, "ScalarList", "ScalarList", "ScalarList", S, "ScalarList", S],
         ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "4"]),
        ("aten::_convolution", [[4, 64, 16, 16], [64, 32, 4, 4], [], [], [], [], [], [], [],
                                [], [], [], []],
         [F32, F32, "", "ScalarList", "ScalarList", "ScalarList", S, "ScalarList", S, S, S, S, S],
         ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "True", "[1, 1]", "1", "False", "False",
          "True", "True"]),
        ("aten::convolution", [[8, 16, 100], [32, 16, 5], [], [], [], [], [], [], []],
         [BF, BF, "", "ScalarList", "ScalarList", "ScalarList", S, "ScalarList", S],
         ["", "", "", "[1]", "[2]", "[2]", "False", "[0]", "1"]),
        ("aten::convolution", [[2, 4, 8, 16, 16], [8, 4, 3, 3, 3], [8], [], [], [], [], [], []],
         [F32, F32, F32, "ScalarList", "ScalarList", "ScalarList", S, "ScalarList", S],
         ["", "", "", "[1]", "[0]", "[1]", "False", "[0]", "1"]),
        ("aten::convolution_backward",
         [[4, 32, 32, 32], [4, 64, 16, 16], [64, 32, 4, 4], [], [], [], [], [], [], [], []],
         [F32, F32, F32, "ScalarList", "ScalarList", "ScalarList", "ScalarList", S,
          "ScalarList", S, "ScalarList"],
         ["", "", "", "[32]", "[2, 2]", "[1, 1]", "[1, 1]", "True", "[0, 0]", "1",
          "[True, False, True]"]),
        # norms
        ("aten::group_norm", [[8, 64, 32, 32], [], [64], [64], [], []],
         [BF, S, BF, BF, S, S], ["", "32", "", "", "1e-05", "True"]),
        ("aten::native_group_norm", [[8, 64, 32, 32], [], [], [], [], [], [], []],
         [F32, "", "", S, S, S, S, S], ["", "", "", "8", "64", "1024", "32", "1e-05"]),
        ("aten::rms_norm", [[4, 128, 1024], [], [], []], [BF, "ScalarList", "", S],
         ["", "[1024]", "", "1e-06"]),
        ("aten::native_layer_norm_backward",
         [[16, 768], [16, 768], [], [16, 1], [16, 1], [768], [], []],
         [HALF, HALF, "ScalarList", F32, F32, HALF, "", "ScalarList"],
         ["", "", "[768]", "", "", "", "", "[True, False, False]"]),
        ("aten::native_batch_norm", [[16, 32, 8, 8], [], [], [], [], [], [], []],
         [F32, "", "", "", "", S, S, S], ["", "", "", "", "", "False", "0.1", "1e-05"]),
        # GEMMs: linear without a bias and 1-D; matmul's 1-D cases; _scaled_mm with a bias
        ("aten::linear", [[5, 7, 256], [512, 256], []], [HALF, HALF, ""], ["", "", ""]),
        ("aten::linear", [[256], [512, 256], [512]], [F32, F32, F32], ["", "", ""]),
        ("aten::matmul", [[64], [64]], [F32, F32], ["", ""]),
        ("aten::matmul", [[64], [64, 32]], [F32, F32], ["", ""]),
        ("aten::matmul", [[6, 10, 64], [64]], [BF, BF], ["", ""]),
        ("aten::_scaled_mm", [[256, 512], [512, 128], [], [], [128], [], [], []],
         ["c10::Float8_e5m2", "c10::Float8_e4m3fn", F32, F32, BF, "", S, S],
         ["", "", "", "", "", "", "15", "False"]),
        ("aten::_scaled_mm", [[256, 512], [512, 128], [], [], [], [], [], []],
         [BF, BF, F32, F32, "", "", S, S], None),
        ("aten::_grouped_mm", [[4, 64, 128], [4, 128, 32], [], [], []],
         [BF, BF, "", "", S], None),
        # reductions: an int dim, negative dims, keepdim, dim's other positions, cumsum
        ("aten::max", [[32, 100], [], []], [F32, S, S], ["", "1", "False"]),
        ("aten::max", [[32, 100]], [BF], [""]),
        ("aten::amax", [[4, 6, 8, 10], [], []], [BF, "ScalarList", S], ["", "[-1, -2]", "True"]),
        ("aten::norm", [[20, 30, 40], [], [], [], []], [F32, S, "ScalarList", S, ""],
         ["", "2", "[1]", "False", ""]),
        ("aten::linalg_vector_norm", [[20, 30], [], [], [], []], [F32, S, "", S, ""],
         ["", "2", "", "False", ""]),
        ("aten::std", [[20, 30], [], [], []], [F32, "ScalarList", S, S],
         ["", "[0]", "1", "True"]),
        ("aten::var", [[20, 30], []], [F32, S], ["", "True"]),
        ("aten::logsumexp", [[20, 30, 5], [], []], [F32, "ScalarList", S], ["", "[2]", "False"]),
        ("aten::cumsum", [[20, 30], [], []], [HALF, S, ""], ["", "1", ""]),
        ("aten::mean", [[20, 30], []], [F32, ""], ["", ""]),
        # element-wise: Scalars, 0-d tensors, strings, broadcasting both ways, out=
        ("aten::gelu", [[64, 1024], []], [BF, "c10::string_view"], ["", "tanh"]),
        ("aten::pow", [[64, 1024], []], [F32, S], ["", "2"]),
        ("aten::clamp_min", [[64, 1024], []], [HALF, S], ["", "0"]),
        ("aten::copy_", [[64, 1024], [], []], [F32, F32, S], ["", "", "False"]),
        ("aten::sigmoid", [[7, 9]], ["double"], [""]),
        ("aten::rsub", [[64, 1024], [], []], [BF, S, S], ["", "1", "1"]),
        ("aten::sub", [[8, 1, 4], [1, 5, 4], []], [F32, F32, S], ["", "", "1"]),
        ("aten::div", [[64, 1024], [64, 1024], []], [F32, F32, "c10::string_view"],
         ["", "", "floor"]),
        ("aten::maximum", [[64, 1024], [1024]], [BF, F32], ["", ""]),
        ("aten::mul", [[], [64, 1024]], [F32, BF], ["", ""]),
        ("aten::mul", [[64, 1024], []], [BF, F32], ["", ""]),
        ("aten::add", [[64, 1024], [64, 1024], [], [64, 1024]], [F32, F32, S, BF],
         ["", "", "1", ""]),
        ("aten::silu_backward", [[64, 1024], [64, 1024]], ["short int", "short int"], ["", ""]),
        ("aten::threshold_backward", [[64, 1024], [64, 1024], []], ["bool", "bool", S],
         ["", "", "0"]),
        ("aten::neg", [[64, 1024]], ["c10::complex<float>"], [""]),
        ("aten::exp", [[64, 1024]], ["c10::Float8_e5m2"], [""]),
        ("aten::abs", [[64, 1024]], ["c10::Float4_e2m1fn_x2"], [""]),
        ("aten::relu", [[64, 1024]], ["Float"], [""]),      # an old trace's spelling
        # embedding with int indices
        ("aten::embedding", [[1000, 64], [4, 16], [], [], []], [F32, "int", S, S, S],
         ["", "", "-1", "False", "False"]),
    ]


def _nested():
    """Ops nested as PyTorch nests them, the kernel launched in the innermost:
    (carrier's index, [(name, dims, types, concrete, flops arg), outer first]).
    "Which op carries the cost": the innermost costed op, unless an outer op
    has the profiler's count."""
    S = "Scalar"
    conv_t = [F32, F32, "", "ScalarList", "ScalarList", "ScalarList", S, "ScalarList", S]
    conv_c = ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1"]
    q = [2, 4, 128, 32]
    return [
        (1, [("aten::linear", [[512, 256], [128, 256], [128]], [BF, BF, BF], ["", "", ""],
              None),
             ("aten::addmm", [[128], [512, 256], [256, 128], [], []], [BF, BF, BF, S, S],
              ["", "", "", "1", "1"], None)]),
        (0, [("aten::conv2d", [[4, 3, 32, 32], [8, 3, 3, 3], [], [], [], [], []],
              [F32, F32, "", "ScalarList", "ScalarList", "ScalarList", S],
              ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "1"], 1234567),
             ("aten::convolution", [[4, 3, 32, 32], [8, 3, 3, 3]] + [[]] * 7, conv_t, conv_c,
              None),
             ("aten::_convolution", [[4, 3, 32, 32], [8, 3, 3, 3]] + [[]] * 11,
              conv_t + [S] * 4, conv_c + ["False", "False", "True", "True"], None),
             ("aten::cudnn_convolution", [[4, 3, 32, 32], [8, 3, 3, 3]] + [[]] * 7,
              [F32, F32] + ["ScalarList"] * 3 + [S] * 4, ["", "", "[0, 0]", "[1, 1]", "[1, 1]",
                                                          "1", "False", "True", "True"],
              None)]),
        (1, [("aten::scaled_dot_product_attention", [q, q, q, [], [], [], [], []],
              [BF] * 3 + ["", S, S, "", S], ["", "", "", "", "0.", "True", "", "False"], None),
             ("aten::_scaled_dot_product_flash_attention", [q, q, q, [], [], [], []],
              [BF] * 3 + [S, S, S, ""], ["", "", "", "0.", "True", "False", ""], None)]),
    ]


def synthetic_wrappers():
    """Signature keys of the synthetic trace's nested ops that must carry no cost."""
    return {signature_key(name, dims, types, conc)
            for carrier, levels in _nested()
            for i, (name, dims, types, conc, _) in enumerate(levels) if i != carrier}


def write_synthetic_trace(path):
    """A Kineto trace holding each self-test case and probe once, as a top-level
    CPU op that launches one kernel (so every one is the innermost costed op
    and ran GPU work: a checker may expect all of them in the CLI's output),
    then the nested ops of _nested()."""
    groups = [[(name, dims, types, concrete, 123 if label.startswith("profiler") else None)]
              for label, _, name, dims, types, concrete, _, _ in _cases()]
    groups += [[(name, dims, types, concrete, None)] for name, dims, types, concrete in _probes()]
    groups += [levels for _, levels in _nested()]
    events = []
    ts, ident = 1000.0, 0
    for i, levels in enumerate(groups):
        depth = len(levels)
        for d, (name, dims, types, concrete, flops) in enumerate(levels):
            ident += 1
            args = {"External id": ident, "Record function id": ident,
                    "Input Dims": dims, "Input type": types}
            if concrete is not None:
                args["Concrete Inputs"] = concrete
            if flops is not None:
                args["flops"] = flops
            events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1,
                           "ts": ts + d, "dur": 40 - 2 * d, "args": args})
        launch = ts + depth + 2
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                       "tid": 1, "ts": launch, "dur": 5,
                       "args": {"correlation": 100000 + i, "External id": ident}})
        events.append({"ph": "X", "cat": "kernel", "name": "synthetic_kernel_%d" % i,
                       "pid": 0, "tid": 7, "ts": launch + 8, "dur": 8,
                       "args": {"correlation": 100000 + i, "External id": ident,
                                "device": 0, "stream": 7}})
        ts += 100
    trace = {"schemaVersion": 1,
             "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
                                   "totalGlobalMem": 85029158912, "numSms": 132,
                                   "computeMajor": 9, "computeMinor": 0}],
             "traceEvents": events}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(trace, f)


# --------------------------------------------------------------------------

def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) == 3 and argv[1] == "--write-synthetic":
        write_synthetic_trace(argv[2])
        return 0
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    sigs = trace_signatures(args[0])
    rows = []
    for rec in sigs.values():
        for (flops, byts, source), assumptions in rec["costs"].items():
            rows.append({"name": rec["name"], "input_dims": rec["dims"],
                         "input_types": rec["types"], "concrete_inputs": rec["concrete"],
                         "instances": rec["instances"], "flops": flops, "bytes": byts,
                         "flops_source": source, "assumptions": assumptions})
    rows.sort(key=lambda r: (r["name"], json.dumps(r["input_dims"])))
    if "--json" in argv:
        json.dump(rows, sys.stdout, indent=1)
        print()
    else:
        for r in rows:
            print("%s %s %s flops=%s bytes=%s n=%d" % (
                r["name"], json.dumps(r["input_dims"]), json.dumps(r["input_types"]),
                r["flops"], r["bytes"], r["instances"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
