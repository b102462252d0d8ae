// libFuzzer target for the regression gate's conditions (report/fail_if.h,
// `gapscope-cli diff --fail-if EXPR`): the first line is the expression,
// the lines after it the kernel and op names of two runs (a name's line
// number and length give its figures). A condition that parses is
// evaluated on both runs; its verdict must follow from the figures it
// reports (the target aborts otherwise). A kernel name comes from a trace,
// so a hostile one meets the user's regex here: thousands of characters.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "report/fail_if.h"

namespace {

using namespace gapscope;

// Two runs from the lines after the expression: names alternate between
// them, with figures that differ so that every measure has something to see.
void fillRuns(std::string_view rest, RunMetrics& base, RunMetrics& now) {
    uint64_t line = 0;
    while (!rest.empty()) {
        const size_t end = rest.find('\n');
        const std::string name(rest.substr(0, end));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        RunMetrics& m = line % 2 ? now : base;
        const TimeNs t = static_cast<TimeNs>((line + 1) * 1000 + name.size());
        m.kernels[name].count += line + 1;
        m.kernels[name].total += t;
        m.ops[name].count += 1;
        m.ops[name].self += t / 2;
        m.ops[name].gpu += t;
        ++line;
    }
    base.stepCount = now.stepCount = 3;
    for (RunMetrics* m : {&base, &now})
        for (size_t c = 0; c < kGapCauseCount; ++c)
            m->headline["idle_" + std::string(gapCauseName(GapCause(c)))] = 0.0;
    base.headline["step_time"] = base.headline["step_time_median"] = 2e6;
    now.headline["step_time"] = now.headline["step_time_median"] = 2.5e6;
    base.headline["gpu_busy"] = 40;
    now.headline["gpu_busy"] = line % 2 ? 55.5 : 0;
    // "now" has no memory curve: that figure cannot be compared.
    base.headline["memory_peak"] = double(1 << 20);
    base.headline["idle_input"] = now.headline["idle_synchronization"] = 5000.0;
}

bool crossed(const FailIf& f, double x) {
    switch (f.compare) {
        case FailIf::Compare::Greater:
            return x > f.threshold;
        case FailIf::Compare::GreaterEqual:
            return x >= f.threshold;
        case FailIf::Compare::Less:
            return x < f.threshold;
        case FailIf::Compare::LessEqual:
            return x <= f.threshold;
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const size_t newline = bytes.find('\n');
    const std::string_view expression = bytes.substr(0, newline);
    std::string error;
    const std::optional<FailIf> condition = parseFailIf(expression, error);
    if (!condition) {
        if (error.empty()) std::abort();  // a refusal says why
        return 0;
    }
    // std::regex backtracks: a quantified group inside a quantifier, `(a+)+`,
    // or a run of optional items, `c?????`, takes exponential time over a
    // long name. The regex is the gate's author's own (docs/fuzzing.md), so
    // such patterns are not run here.
    if (condition->source == FailIf::Source::Kernel) {
        const std::string& re = condition->metric;
        const auto quantifiers = std::count_if(re.begin(), re.end(), [](char c) {
            return c == '*' || c == '+' || c == '?' || c == '{';
        });
        const bool stacked =  // `.**`, `a+*`: a quantifier of a quantifier
            std::adjacent_find(re.begin(), re.end(), [](char a, char b) {
                return std::strchr("*+?}", a) && std::strchr("*+{", b);
            }) != re.end();
        if (quantifiers > 4 || stacked || re.find(")+") != std::string::npos ||
            re.find(")*") != std::string::npos || re.find("){") != std::string::npos)
            return 0;
    }
    if (!std::isfinite(condition->threshold) ||
        condition->kernelRegex.has_value() != (condition->source == FailIf::Source::Kernel))
        std::abort();
    RunMetrics base, now;
    if (newline != std::string_view::npos) fillRuns(bytes.substr(newline + 1), base, now);
    const FailIfResult r = evaluateFailIf(*condition, base, now);
    if (!r.error.empty()) {
        if (r.measured || r.crossed) std::abort();  // no verdict without a figure
        return 0;
    }
    if (!r.measured || !r.now || r.crossed != crossed(*condition, *r.measured)) std::abort();
    if (condition->measure == FailIf::Measure::Value && *r.measured != *r.now) std::abort();
    return 0;
}
