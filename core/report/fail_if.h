#pragma once
// The regression gate's conditions (`gapscope-cli diff --fail-if EXPR`):
//
//   EXPR      := METRIC CMP THRESHOLD [@LEVEL%]
//   METRIC    := a headline metric (step_time, gpu_idle, memory_peak, ...)
//              | op:NAME.self | op:NAME.gpu | op:NAME.count
//              | kernel:REGEX.total | kernel:REGEX.count | kernel:REGEX.mean
//   CMP       := > | >= | < | <=
//   THRESHOLD := [+|-]NUMBER[UNIT]
//
// A signed threshold is a change from BASE to NEW: `%` relative to BASE,
// `pp` in percentage points (percent metrics), else in the metric's unit.
// An unsigned one is NEW's value. Units: ns us ms s (times), B KB MB GB
// KiB MiB GiB (bytes), % or pp (percent metrics), none (the metric's own
// unit: ns, bytes, percent, count). A kernel REGEX (ECMAScript, whole
// name, no number longer than nine digits) sums every kernel it matches;
// an op NAME is exact (the last `.` starts the field). A name absent from
// a run counts as 0. With @LEVEL% (step_time and step_time_median only),
// the condition holds only where the step times also changed beyond their
// step-to-step noise at that confidence level, and in the direction the
// condition looks (analysis/shift_test.h).

#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "report/run_diff.h"

namespace gapscope {

// The grammar as --help shows it, each headline metric with the registered
// figure it is.
const std::string& failIfGrammar();

struct FailIf {
    enum class Source { Headline, Op, Kernel };
    enum class Compare { Greater, GreaterEqual, Less, LessEqual };
    enum class Measure { Value, Change, RelativeChange };

    std::string text;  // as given
    Source source = Source::Headline;
    std::string metric;  // headline name, op name or kernel regex text
    std::string field;   // op: self|gpu|count; kernel: total|count|mean
    std::optional<std::regex> kernelRegex;
    Compare compare = Compare::Greater;
    Measure measure = Measure::Value;
    double threshold = 0;  // in the metric's unit, or percent for RelativeChange
    MetricUnit unit = MetricUnit::Ns;
    std::optional<double> beyondNoise;  // @LEVEL%: the level, in (0, 1)
};

// Nullopt with `error` set ("what is wrong"); the caller adds the grammar.
std::optional<FailIf> parseFailIf(std::string_view text, std::string& error);

struct FailIfResult {
    std::optional<double> base, now;
    std::optional<double> measured;  // what was compared with the threshold
    std::optional<ShiftTest> noise;  // with @LEVEL%
    // Whether NEW's steps ranked the way the condition looks (longer for >,
    // shorter for <): a significant change the other way does not count.
    bool noiseAgrees = false;
    bool crossed = false;  // (and, with @LEVEL%, significant)
    std::string error;     // set when it cannot be evaluated (a run lacks the figure)
};

FailIfResult evaluateFailIf(const FailIf& condition, const RunMetrics& base, const RunMetrics& now);

}  // namespace gapscope
