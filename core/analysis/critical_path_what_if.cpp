#include "analysis/critical_path_what_if.h"

#include <charconv>
#include <cmath>

#include "model/slice_kind.h"

namespace gapscope {

bool matchesWildcard(std::string_view pattern, std::string_view name) {
    // Greedy with one backtrack point: linear for the `*a*b*` patterns
    // people type.
    size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = n;
        } else if (p < pattern.size() && pattern[p] == name[n]) {
            ++p;
            ++n;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::string whatIfGrammar() {
    return "  kernel:PATTERN=F  GPU work whose name matches PATTERN (* any text) takes F of\n"
           "                    its time (0.5: twice as fast)\n"
           "  op:PATTERN=F      CPU ops and runtime calls of that name: their own time\n"
           "  input=F           CPU work while the training loop waited for input\n"
           "  launch=F          every launch overhead (0: as if CUDA graphs)\n"
           "  comm=F            every collective kernel\n"
           "The path is found again on the scaled graph; everything else is assumed\n"
           "unchanged.\n";
}

std::optional<WhatIf> parseWhatIf(std::string_view text, std::string& error) {
    const size_t eq = text.rfind('=');
    if (eq == std::string_view::npos) {
        error = "\"" + std::string(text) + "\" is not PART=FACTOR (e.g. kernel:*gemm*=0.5)";
        return std::nullopt;
    }
    WhatIf w;
    const std::string_view factor = text.substr(eq + 1);
    const auto [end, ec] = std::from_chars(factor.data(), factor.data() + factor.size(), w.factor);
    if (ec != std::errc() || end != factor.data() + factor.size() || !std::isfinite(w.factor) ||
        w.factor < 0 || w.factor > kMostWhatIfFactor) {
        error = "\"" + std::string(factor) + "\" is no factor (a number from 0 to 1000)";
        return std::nullopt;
    }
    const std::string_view part = text.substr(0, eq);
    const size_t colon = part.find(':');
    const std::string_view kind = part.substr(0, colon);
    const bool named = kind == "kernel" || kind == "op";
    if (named != (colon != std::string_view::npos)) {
        error = named ? "\"" + std::string(kind) + "\" needs a name: " + std::string(kind) +
                            ":PATTERN=FACTOR"
                      : "\"" + std::string(part) + "\" takes no name";
        return std::nullopt;
    }
    if (named) {
        w.pattern = std::string(part.substr(colon + 1));
        if (w.pattern.empty()) {
            error = "an empty name in \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        w.part = kind == "kernel" ? WhatIf::Part::Kernel : WhatIf::Part::Op;
    } else if (kind == "input") {
        w.part = WhatIf::Part::Input;
    } else if (kind == "launch") {
        w.part = WhatIf::Part::Launch;
    } else if (kind == "comm") {
        w.part = WhatIf::Part::Communication;
    } else {
        error = "\"" + std::string(kind) + "\" is not kernel, op, input, launch or comm";
        return std::nullopt;
    }
    return w;
}

Projection projectPath(const Trace& t, const CriticalPath& path,
                       const std::vector<WhatIf>& whatIfs) {
    const PathGraph& g = path.graph;
    std::vector<TimeNs> weights(g.edges.size());
    std::unordered_map<uint32_t, bool> inputWait;  // by slice, decided once
    for (size_t i = 0; i < g.edges.size(); ++i) {
        const PathEdge& e = g.edges[i];
        double factor = 1;
        for (const WhatIf& w : whatIfs) {
            bool applies = false;
            const bool own = e.kind == PathEdgeKind::Operator && e.attributed != kNone;
            const Slice* s = own ? &t.slices[e.attributed] : nullptr;
            const bool gpu = s && (s->flags & kSliceGpuActivity);
            switch (w.part) {
                case WhatIf::Part::Kernel:
                    applies = gpu && matchesWildcard(w.pattern, t.str(s->name));
                    break;
                case WhatIf::Part::Op:
                    applies = s && !gpu && matchesWildcard(w.pattern, t.str(s->name));
                    break;
                case WhatIf::Part::Input:
                    if (s && !gpu) {
                        auto [it, added] = inputWait.try_emplace(e.attributed, false);
                        if (added) it->second = insideInputWait(t, e.attributed);
                        applies = it->second;
                    }
                    break;
                case WhatIf::Part::Launch:
                    applies = e.kind == PathEdgeKind::KernelLaunch;
                    break;
                case WhatIf::Part::Communication:
                    applies = gpu && sliceKind(*s) == SliceKind::CommKernel;
                    break;
            }
            if (applies) factor *= w.factor;
        }
        const double scaled = static_cast<double>(e.weight) * factor;
        weights[i] = factor == 1      ? e.weight
                     : scaled >= 9e18 ? TimeNs{INT64_MAX / 2}
                                      : static_cast<TimeNs>(std::llround(scaled));
    }
    const LongestPath p = longestPath(g, weights);
    Projection out;
    out.lengthNs = p.lengthNs;
    for (const uint32_t e : p.edges)
        out.byBound[static_cast<size_t>(boundByOf(t, g.edges[e]))] += weights[e];
    return out;
}

}  // namespace gapscope
