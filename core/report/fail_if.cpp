#include "report/fail_if.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace gapscope {

const std::string& failIfGrammar() {
    static const std::string grammar = [] {
        std::string g =
            "  EXPR      := METRIC CMP THRESHOLD, e.g. step_time>+5%  gpu_idle>+2pp\n"
            "               memory_peak>+256MiB  op:aten::addmm.self>+10%  kernel:gemm.total>+10%\n"
            "  METRIC    := a headline metric, the figure of an analysis it is:\n";
        for (const HeadlineMetric& h : headlineMetrics()) {
            std::string line = "               " + h.name;
            line += std::string(line.size() < 40 ? 40 - line.size() : 1, ' ');
            g += line + h.analysis + " " + h.figure +
                 (h.unit == MetricUnit::Percent ? " (in percent)" : "") + "\n";
        }
        g += "             (idle_launch: the former name of idle_host)\n"
             "             | op:NAME.self | op:NAME.gpu | op:NAME.count\n"
             "             | kernel:REGEX.total | kernel:REGEX.count | kernel:REGEX.mean\n"
             "  CMP       := > | >= | < | <=\n"
             "  THRESHOLD := [+|-]NUMBER[UNIT]; with a sign, a change from BASE (% relative,\n"
             "               pp percentage points); without, NEW's value. UNIT: ns us ms s,\n"
             "               B KB MB GB KiB MiB GiB, % pp, or none (the metric's own unit)\n"
             "  @LEVEL%   := step times only: the condition holds only if the steps also\n"
             "               changed beyond their noise at that confidence, e.g.\n"
             "               step_time>+5%@95% (Mann-Whitney U test)\n";
        return g;
    }();
    return grammar;
}

namespace {

struct UnitScale {
    const char* suffix;
    MetricUnit unit;
    double scale;
};

// Longest suffixes first, so that "ms" is not read as "s".
constexpr UnitScale kUnits[] = {
    {"KiB", MetricUnit::Bytes, 1024.0},
    {"MiB", MetricUnit::Bytes, 1024.0 * 1024},
    {"GiB", MetricUnit::Bytes, 1024.0 * 1024 * 1024},
    {"KB", MetricUnit::Bytes, 1e3},
    {"MB", MetricUnit::Bytes, 1e6},
    {"GB", MetricUnit::Bytes, 1e9},
    {"ns", MetricUnit::Ns, 1},
    {"us", MetricUnit::Ns, 1e3},
    {"ms", MetricUnit::Ns, 1e6},
    {"pp", MetricUnit::Percent, 1},
    {"B", MetricUnit::Bytes, 1},
    {"s", MetricUnit::Ns, 1e9},
};

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::optional<FailIf> parseFailIf(std::string_view text, std::string& error) {
    FailIf f;
    f.text = std::string(text);
    // A confidence level at the end, after the comparison: "@95%" (a
    // kernel regex before it may hold an @ of its own).
    const size_t at = text.rfind('@'), lastCmp = text.find_last_of("<>");
    if (at != std::string_view::npos && lastCmp != std::string_view::npos && at > lastCmp) {
        std::string_view level = text.substr(at + 1);
        double percent = 0;
        const bool hasPercent = endsWith(level, "%");
        if (hasPercent) level.remove_suffix(1);
        const auto r = std::from_chars(level.data(), level.data() + level.size(), percent);
        if (!hasPercent || level.empty() || r.ec != std::errc() ||
            r.ptr != level.data() + level.size() || !(percent > 0 && percent < 100)) {
            error = "'" + f.text + "': a confidence level is @N% with N between 0 and 100";
            return std::nullopt;
        }
        f.beyondNoise = percent / 100;
        text = text.substr(0, at);
    }
    // The comparison: the first < or > outside the metric's name. Op names
    // hold no < or >; a kernel regex may, so search from the right.
    const size_t cmp = text.find_last_of("<>");
    if (cmp == std::string_view::npos || cmp == 0) {
        error = "no comparison (> >= < <=) in '" + f.text + "'";
        return std::nullopt;
    }
    const bool orEqual = cmp + 1 < text.size() && text[cmp + 1] == '=';
    f.compare = text[cmp] == '>'
                    ? (orEqual ? FailIf::Compare::GreaterEqual : FailIf::Compare::Greater)
                    : (orEqual ? FailIf::Compare::LessEqual : FailIf::Compare::Less);
    const std::string_view left = text.substr(0, cmp);
    std::string_view right = text.substr(cmp + (orEqual ? 2 : 1));

    // The metric.
    std::optional<double> ignored;
    if (left.starts_with("op:") || left.starts_with("kernel:")) {
        const bool op = left.starts_with("op:");
        const std::string_view rest = left.substr(op ? 3 : 7);
        const size_t dot = rest.rfind('.');
        if (dot == std::string_view::npos || dot == 0) {
            error = std::string("'") + std::string(left) + "' needs a name and a field (" +
                    (op ? "op:NAME.self|gpu|count" : "kernel:REGEX.total|count|mean") + ")";
            return std::nullopt;
        }
        f.metric = std::string(rest.substr(0, dot));
        f.field = std::string(rest.substr(dot + 1));
        f.source = op ? FailIf::Source::Op : FailIf::Source::Kernel;
        const bool known = op ? (f.field == "self" || f.field == "gpu" || f.field == "count")
                              : (f.field == "total" || f.field == "count" || f.field == "mean");
        if (!known) {
            error = "unknown field '" + f.field + "' (" +
                    (op ? "op: self, gpu or count" : "kernel: total, count or mean") + ")";
            return std::nullopt;
        }
        f.unit = f.field == "count" ? MetricUnit::Count : MetricUnit::Ns;
        if (!op) {
            // libstdc++'s regex compiler overflows a signed integer on a
            // long number (`\6666666666666666666`, `a{99999999999}`): found
            // by fuzz_fail_if. No pattern needs more than nine digits.
            size_t digits = 0;
            for (const char c : f.metric) {
                digits = (c >= '0' && c <= '9') ? digits + 1 : 0;
                if (digits > 9) {
                    error = "kernel regex '" + f.metric + "': a number longer than nine digits";
                    return std::nullopt;
                }
            }
            try {
                f.kernelRegex.emplace(f.metric, std::regex::ECMAScript);
            } catch (const std::regex_error& e) {
                error = "kernel regex '" + f.metric + "': " + e.what();
                return std::nullopt;
            }
        }
    } else {
        f.metric = std::string(left);
        if (!headlineMetric(RunMetrics{}, f.metric, ignored, f.unit)) {
            error = "unknown metric '" + f.metric + "'";
            return std::nullopt;
        }
    }

    // The threshold.
    const bool signedChange = !right.empty() && (right[0] == '+' || right[0] == '-');
    const bool relative = endsWith(right, "%");
    double scale = 1;
    std::optional<MetricUnit> unitOfSuffix;
    if (relative) {
        right.remove_suffix(1);
        if (!signedChange) {
            if (f.unit != MetricUnit::Percent) {
                error = "'" + f.text + "': % without a sign is a value, for percent metrics " +
                        "only; write +N% for a relative change";
                return std::nullopt;
            }
            unitOfSuffix = MetricUnit::Percent;
        }
    } else {
        for (const UnitScale& u : kUnits) {
            if (endsWith(right, u.suffix)) {
                right.remove_suffix(std::string_view(u.suffix).size());
                scale = u.scale;
                unitOfSuffix = u.unit;
                break;
            }
        }
    }
    if (unitOfSuffix && *unitOfSuffix != f.unit) {
        error = "'" + f.text + "': the unit does not fit " + f.metric + " (a " +
                metricUnitName(f.unit) + " metric)";
        return std::nullopt;
    }
    std::string_view number = right;
    if (signedChange && number.front() == '+') number.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), v);
    if (number.empty() || r.ec != std::errc() || r.ptr != number.data() + number.size() ||
        !std::isfinite(v)) {
        error = "'" + f.text + "': the threshold is not a number";
        return std::nullopt;
    }
    f.threshold = v * scale;
    if (f.beyondNoise && (f.source != FailIf::Source::Headline || !isStepTimeMetric(f.metric))) {
        error = "'" + f.text + "': only step_time and step_time_median have a noise test (@N%)";
        return std::nullopt;
    }
    f.measure = !signedChange ? FailIf::Measure::Value
                : relative    ? FailIf::Measure::RelativeChange
                              : FailIf::Measure::Change;
    return f;
}

namespace {

std::optional<double> valueOf(const FailIf& f, const RunMetrics& m) {
    if (f.source == FailIf::Source::Headline) {
        std::optional<double> v;
        MetricUnit unit;
        headlineMetric(m, f.metric, v, unit);
        return v;
    }
    if (f.source == FailIf::Source::Op) {
        const auto it = m.ops.find(f.metric);
        if (it == m.ops.end()) return 0.0;
        return f.field == "self"  ? double(it->second.self)
               : f.field == "gpu" ? double(it->second.gpu)
                                  : double(it->second.count);
    }
    uint64_t count = 0;
    TimeNs total = 0;
    for (const auto& [name, k] : m.kernels) {
        if (!std::regex_match(name, *f.kernelRegex)) continue;
        count += k.count;
        total += k.total;
    }
    if (f.field == "count") return double(count);
    if (f.field == "total") return double(total);
    return count ? double(total) / double(count) : 0.0;
}

}  // namespace

FailIfResult evaluateFailIf(const FailIf& f, const RunMetrics& base, const RunMetrics& now) {
    FailIfResult r;
    r.base = valueOf(f, base);
    r.now = valueOf(f, now);
    if (!r.now || (f.measure != FailIf::Measure::Value && !r.base)) {
        r.error = f.metric + " has no value in " + (!r.now ? "NEW" : "BASE") +
                  " (no steps, or no GPU memory curve)";
        return r;
    }
    switch (f.measure) {
        case FailIf::Measure::Value:
            r.measured = *r.now;
            break;
        case FailIf::Measure::Change:
            r.measured = *r.now - *r.base;
            break;
        case FailIf::Measure::RelativeChange:
            if (*r.base != 0)
                r.measured = 100.0 * (*r.now - *r.base) / std::abs(*r.base);
            else  // from nothing: no change, or an unbounded one
                r.measured = *r.now == 0  ? 0.0
                             : *r.now > 0 ? std::numeric_limits<double>::infinity()
                                          : -std::numeric_limits<double>::infinity();
            break;
    }
    if (f.beyondNoise) {
        r.noise = shiftTest(base.stepDurations, now.stepDurations, *f.beyondNoise);
        if (!r.noise) {
            r.error = "telling a change from noise needs two steps or more in each run (BASE " +
                      std::to_string(base.stepDurations.size()) + ", NEW " +
                      std::to_string(now.stepDurations.size()) + ")";
            return r;
        }
    }
    const double x = *r.measured, t = f.threshold;
    switch (f.compare) {
        case FailIf::Compare::Greater:
            r.crossed = x > t;
            break;
        case FailIf::Compare::GreaterEqual:
            r.crossed = x >= t;
            break;
        case FailIf::Compare::Less:
            r.crossed = x < t;
            break;
        case FailIf::Compare::LessEqual:
            r.crossed = x <= t;
            break;
    }
    if (r.noise) {
        // Beyond noise in the direction the condition looks: NEW's steps
        // ranked longer for > and >=, shorter for < and <= (a rank test can
        // call a speed-up significant while one outlier raises the mean).
        const double middle = double(r.noise->baseCount) * double(r.noise->newCount) / 2;
        const bool up =
            f.compare == FailIf::Compare::Greater || f.compare == FailIf::Compare::GreaterEqual;
        r.noiseAgrees = up ? r.noise->u > middle : r.noise->u < middle;
        r.crossed = r.crossed && r.noise->significant && r.noiseAgrees;
    }
    return r;
}

}  // namespace gapscope
