#include "report/run_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

#include "analysis/input_pipeline.h"
#include "util/readable_units.h"
#include "util/symbol_names.h"

namespace gapscope {

const char* nameStatusName(NameStatus s) {
    switch (s) {
        case NameStatus::Same:
            return "same";
        case NameStatus::Changed:
            return "changed";
        case NameStatus::New:
            return "new";
        case NameStatus::Vanished:
            return "vanished";
        case NameStatus::Renamed:
            return "renamed";
        case NameStatus::WithinNoise:
            return "within_noise";
    }
    return "?";
}

std::optional<double> MetricDelta::delta() const {
    if (!base || !now) return std::nullopt;
    return *now - *base;
}

std::optional<double> relativeChange(double base, double now) {
    if (base == 0) return std::nullopt;
    return (now - base) / std::abs(base);
}

std::optional<double> MetricDelta::relative() const {
    if (!base || !now) return std::nullopt;
    const std::optional<double> r = relativeChange(*base, *now);
    return r ? std::optional(100.0 * *r) : std::nullopt;
}

double KernelDelta::impact() const {
    return std::abs(double(now.total) - double(base.total));
}

double ScopeDelta::impact() const {
    return std::abs(double(now.total) - double(base.total));
}

double OpDelta::impact() const {
    return std::max(std::abs(double(now.self) - double(base.self)),
                    std::abs(double(now.gpu) - double(base.gpu)));
}

namespace {

std::string idleName(size_t cause) {
    return std::string("idle_") + gapCauseName(GapCause(cause));
}

bool sameFigures(const RunMetrics::Kernel& x, const RunMetrics::Kernel& y) {
    return x.count == y.count && x.total == y.total;
}

bool sameFigures(const RunMetrics::Op& x, const RunMetrics::Op& y) {
    return x.count == y.count && x.self == y.self && x.gpu == y.gpu;
}

// The same kernels (in any order: time moving between them is no change
// of the scope's figures) in the same count and time.
bool sameFigures(const RunMetrics::Scope& x, const RunMetrics::Scope& y) {
    if (x.count != y.count || x.total != y.total || x.kernels.size() != y.kernels.size())
        return false;
    std::set<std::string> a, b;
    for (const auto& [name, time] : x.kernels)
        a.insert(name);
    for (const auto& [name, time] : y.kernels)
        b.insert(name);
    return a == b;
}

// Every name of either run, in name order, with both runs' figures (zero
// where absent) and whether it changed, is new or vanished.
template <class Delta, class Figures>
std::vector<Delta> namedDeltas(const std::map<std::string, Figures>& base,
                               const std::map<std::string, Figures>& now) {
    std::set<std::string> names;
    for (const auto& [n, f] : base)
        names.insert(n);
    for (const auto& [n, f] : now)
        names.insert(n);
    std::vector<Delta> out;
    for (const std::string& n : names) {
        Delta d;
        d.name = n;
        const auto b = base.find(n), a = now.find(n);
        if (b != base.end()) d.base = b->second;
        if (a != now.end()) d.now = a->second;
        d.status = b == base.end()              ? NameStatus::New
                   : a == now.end()             ? NameStatus::Vanished
                   : sameFigures(d.base, d.now) ? NameStatus::Same
                                                : NameStatus::Changed;
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

const std::vector<std::string>& headlineMetricNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const HeadlineMetric& h : headlineMetrics())
            n.push_back(h.name);
        return n;
    }();
    return names;
}

bool headlineMetric(const RunMetrics& m, const std::string& name, std::optional<double>& value,
                    MetricUnit& unit) {
    unit = MetricUnit::Ns;
    value.reset();
    // The former name of idle_host.
    const std::string asked = name == std::string("idle_") + kFormerHostCauseName
                                  ? idleName(size_t(GapCause::Host))
                                  : name;
    for (const HeadlineMetric& h : headlineMetrics()) {
        if (h.name != asked) continue;
        unit = h.unit;
        value = m.metric(h.name);
        return true;
    }
    return false;
}

const char* findingStatusName(FindingStatus s) {
    switch (s) {
        case FindingStatus::Resolved:
            return "resolved";
        case FindingStatus::New:
            return "new";
        case FindingStatus::Still:
            return "still";
    }
    return "?";
}

namespace {

// Whether the runs used a GPU in common (else they are compared in order).
bool shareGpus(const RunMetrics& base, const RunMetrics& now) {
    for (const GpuTimeAccount& b : base.gpus)
        for (const GpuTimeAccount& n : now.gpus)
            if (b.device == n.device) return true;
    return false;
}

// "+1.5", "-0.3", "+0.0" (never "-0.0"): a signed number rounded to `decimals`.
std::string signedFixed(double v, int decimals) {
    const double scale = std::pow(10.0, decimals);
    double rounded = std::round(v * scale) / scale;
    if (rounded == 0) rounded = 0;  // no negative zero
    char text[48];
    std::snprintf(text, sizeof text, "%+.*f", decimals, rounded);
    return text;
}

std::vector<FindingChange> findingChanges(const RunMetrics& base, const RunMetrics& now) {
    // By rule and GPU; by rule alone when the runs used no GPU in common
    // (two ranks of a job, each on its own GPU).
    const bool sameGpus = shareGpus(base, now);
    auto sameKey = [&](const RunMetrics::Finding& a, const RunMetrics::Finding& b) {
        return a.rule == b.rule && (!sameGpus || a.device == b.device);
    };
    auto in = [&](const std::vector<RunMetrics::Finding>& list, const RunMetrics::Finding& f) {
        return std::any_of(list.begin(), list.end(),
                           [&](const RunMetrics::Finding& g) { return sameKey(f, g); });
    };
    std::vector<FindingChange> out;
    for (const RunMetrics::Finding& f : now.findings)
        if (!in(base.findings, f)) out.push_back({FindingStatus::New, f});
    for (const RunMetrics::Finding& f : base.findings)
        if (!in(now.findings, f)) out.push_back({FindingStatus::Resolved, f});
    for (const RunMetrics::Finding& f : now.findings)
        if (in(base.findings, f)) out.push_back({FindingStatus::Still, f});
    return out;
}

std::vector<GpuDelta::Figure> figuresOf(const GpuTimeAccount* b, const GpuTimeAccount* n) {
    auto pick = [](const GpuTimeAccount* a, auto field) { return a ? field(*a) : TimeNs(0); };
    std::vector<GpuDelta::Figure> out;
    auto add = [&](std::string name, auto field) {
        out.push_back({std::move(name), pick(b, field), pick(n, field)});
    };
    add("time", [](const GpuTimeAccount& a) { return a.time; });
    add("computation", [](const GpuTimeAccount& a) { return a.computation; });
    add("exposed_comm", [](const GpuTimeAccount& a) { return a.exposedComm; });
    add("exposed_memcpy", [](const GpuTimeAccount& a) { return a.exposedMemcpy; });
    for (size_t c = 0; c < kGapCauseCount; ++c)
        add(idleName(c), [c](const GpuTimeAccount& a) { return a.idleByCause[c]; });
    add("idle_short", [](const GpuTimeAccount& a) { return a.idleShort; });
    return out;
}

std::vector<GpuDelta> gpuDeltas(const RunMetrics& base, const RunMetrics& now) {
    const bool common = shareGpus(base, now);
    std::vector<GpuDelta> out;
    if (!common) {
        for (size_t i = 0; i < std::max(base.gpus.size(), now.gpus.size()); ++i) {
            const GpuTimeAccount* b = i < base.gpus.size() ? &base.gpus[i] : nullptr;
            const GpuTimeAccount* n = i < now.gpus.size() ? &now.gpus[i] : nullptr;
            GpuDelta d;
            if (b) d.baseDevice = b->device;
            if (n) d.newDevice = n->device;
            d.figures = figuresOf(b, n);
            out.push_back(std::move(d));
        }
        return out;
    }
    std::set<int> devices;
    for (const GpuTimeAccount& g : base.gpus)
        devices.insert(g.device);
    for (const GpuTimeAccount& g : now.gpus)
        devices.insert(g.device);
    auto find = [](const RunMetrics& m, int device) -> const GpuTimeAccount* {
        for (const GpuTimeAccount& g : m.gpus)
            if (g.device == device) return &g;
        return nullptr;
    };
    for (const int device : devices) {
        const GpuTimeAccount *b = find(base, device), *n = find(now, device);
        GpuDelta d;
        if (b) d.baseDevice = device;
        if (n) d.newDevice = device;
        d.figures = figuresOf(b, n);
        out.push_back(std::move(d));
    }
    return out;
}

std::string findingNames(const std::vector<FindingChange>& changes, FindingStatus status) {
    std::string names;
    for (const FindingChange& c : changes) {
        if (c.status != status) continue;
        if (!names.empty()) names += ", ";
        names += c.finding.rule;
        if (c.finding.device >= 0) names += " (GPU " + std::to_string(c.finding.device) + ")";
    }
    return names;
}

// "a, b and c"; past three names "a, b, c and 2 more".
std::string listed(const std::vector<std::string>& names) {
    std::string out;
    const size_t shown = names.size() > 3 ? 3 : names.size();
    for (size_t i = 0; i < shown; ++i)
        out += (i == 0 ? "" : i + 1 == shown && shown == names.size() ? " and " : ", ") + names[i];
    if (shown < names.size()) out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

// A duration (ns, rounded) as every view writes it; "+" before a rise.
std::string duration(double ns) {
    return readableDuration(static_cast<TimeNs>(std::llround(ns)));
}
std::string signedDuration(double ns) {
    const auto rounded = static_cast<TimeNs>(std::llround(ns));
    return (rounded > 0 ? "+" : "") + readableDuration(rounded);
}

}  // namespace

std::string noiseSentence(const ShiftTest& t) {
    char p[32];
    std::snprintf(p, sizeof p, "%.3g", t.pValue);
    std::string s = std::string(t.significant ? "beyond noise" : "within noise") + " (p = " + p +
                    ", Mann-Whitney U" + (t.exact ? ", exact" : "") + ", " +
                    std::to_string(t.baseCount) + " and " + std::to_string(t.newCount) + " steps";
    if (!t.canBeSignificant()) {
        char smallest[32];
        std::snprintf(smallest, sizeof smallest, "%.3g", t.smallestP);
        s += std::string("; too few steps to be significant at ") + readablePercent(t.level) +
             ": the smallest p they can give is " + smallest;
    }
    if (t.shift)
        s += "; shift " + signedDuration(double(*t.shift)) + ", " +
             readablePercent(t.statedIntervalLevel()) + " interval " +
             signedDuration(double(*t.shiftLow)) + " to " + signedDuration(double(*t.shiftHigh));
    return s + ")";
}

namespace {

std::string verdictOf(const RunDiff& d, const RunMetrics& base, const RunMetrics& now) {
    std::string out;
    const std::optional<double> baseStep = base.metric("step_time"),
                                newStep = now.metric("step_time");
    if (baseStep && newStep && *baseStep > 0) {
        out = "step time " + signedFixed(100.0 * *relativeChange(*baseStep, *newStep), 1) + " % (" +
              duration(*baseStep) + " to " + duration(*newStep) + "), ";
        out += d.stepChange ? noiseSentence(*d.stepChange) : "too few steps to weigh against noise";
    } else if (!baseStep || !newStep) {
        out = "no step time in " + std::string(baseStep ? "NEW" : "BASE");
    } else {
        out = "BASE's steps take no time";
    }
    // Per step where both runs have steps (else over the whole run), what
    // moved by at least 1 % of BASE's step time (else of its GPU time): the
    // two idle causes and the two kernels that moved most.
    const bool perStep = base.stepCount > 0 && now.stepCount > 0;
    auto per = [&](double v, const RunMetrics& m) { return perStep ? v / double(m.stepCount) : v; };
    const double scale = perStep && baseStep ? *baseStep : double(base.gpuTime);
    const double noticeable = 0.01 * scale;
    auto moved = [&](double from, double to) {
        return to != from && std::abs(to - from) >= noticeable;
    };
    struct Moved {
        double by;
        std::string what;
    };
    std::vector<Moved> idle, kernels;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        const double from = per(base.metric(idleName(c)).value_or(0), base);
        const double to = per(now.metric(idleName(c)).value_or(0), now);
        if (!moved(from, to)) continue;
        idle.push_back({std::abs(to - from), std::string("GPU idle for ") +
                                                 gapCauseName(GapCause(c)) +
                                                 (to < from ? " fell from " : " rose from ") +
                                                 duration(from) + " to " + duration(to)});
    }
    // Kernels of a named range that gave way to others there (vanished
    // and new kernels in one scope, as after torch.compile) are one change:
    // the time of those that went against the time of those that came.
    // Each such kernel's time told in a scope's sentence: the rest of it
    // (in other scopes, or outside any) is told of the kernel itself.
    std::map<std::string, TimeNs> told;
    std::map<std::string, NameStatus> statusOf;
    for (const KernelDelta& k : d.kernels)
        statusOf[k.name] = k.status;
    auto hasStatus = [&](const std::string& name, NameStatus status) {
        const auto k = statusOf.find(name);
        return k != statusOf.end() && k->second == status;
    };
    for (const ScopeDelta& s : d.scopes) {
        if (s.name.empty()) continue;
        // Only the kernels that vanished, or are new, in the whole run.
        std::vector<std::string> went, came;
        for (const std::string& n : s.gone)
            if (hasStatus(n, NameStatus::Vanished)) went.push_back(n);
        for (const std::string& n : s.added)
            if (hasStatus(n, NameStatus::New)) came.push_back(n);
        if (went.empty() || came.empty()) continue;
        auto shortNames = [](std::vector<std::string> names) {
            for (std::string& n : names)
                n = shortSymbolName(n);
            return names;
        };
        // Their time in this scope (a kernel may run in others too).
        std::map<std::string, TimeNs> here;
        auto timeOf = [&here](const RunMetrics::Scope& scope,
                              const std::vector<std::string>& names) {
            TimeNs t = 0;
            for (const auto& [name, time] : scope.kernels) {
                if (std::find(names.begin(), names.end(), name) == names.end()) continue;
                t += time;
                here[name] += time;
            }
            return t;
        };
        const double from = per(double(timeOf(s.base, went)), base);
        const double to = per(double(timeOf(s.now, came)), now);
        if (!moved(from, to)) continue;
        for (const auto& [name, time] : here)
            told[name] += time;
        kernels.push_back({std::abs(to - from), "in " + s.name + ", " + listed(shortNames(went)) +
                                                    " gave way to " + listed(shortNames(came)) +
                                                    ": " + duration(from) + " became " +
                                                    duration(to)});
    }
    for (const KernelDelta& k : d.kernels) {
        if (k.status == NameStatus::WithinNoise) continue;  // not beyond its own noise
        const auto t = told.find(k.name);
        const TimeNs before = k.base.total - (t == told.end() ? 0 : t->second);
        const TimeNs after = k.now.total - (t == told.end() ? 0 : t->second);
        const double from = per(double(k.status == NameStatus::New ? 0 : before), base);
        const double to = per(double(k.status == NameStatus::Vanished ? 0 : after), now);
        if (!moved(from, to)) continue;
        // Named as a person reads it: without template arguments and parameters.
        const std::string name = shortSymbolName(k.name);
        const std::string was = k.status == NameStatus::Renamed
                                    ? " (was " + shortSymbolName(k.baseName) + ")"
                                    : std::string();
        std::string what = k.status == NameStatus::New ? "new kernel " + name + ": " + duration(to)
                           : k.status == NameStatus::Vanished
                               ? "kernel " + name + " gone (it took " + duration(from) + ")"
                               : name + was + (to < from ? " fell from " : " rose from ") +
                                     duration(from) + " to " + duration(to);
        kernels.push_back({std::abs(to - from), std::move(what)});
    }
    auto byMost = [](const Moved& a, const Moved& b) { return a.by > b.by; };
    std::stable_sort(idle.begin(), idle.end(), byMost);
    std::stable_sort(kernels.begin(), kernels.end(), byMost);
    std::vector<std::string> parts;
    const std::string unit = perStep ? " per step" : "";
    for (size_t i = 0; i < idle.size() && i < 2; ++i)
        parts.push_back(idle[i].what + unit);
    for (size_t i = 0; i < kernels.size() && i < 2; ++i)
        parts.push_back(kernels[i].what + unit);
    // The input pipeline's verdict, where it changed (both runs with an
    // input share: the verdict rests on it).
    if (base.metric("input_share") && now.metric("input_share") &&
        base.inputVerdict != now.inputVerdict)
        parts.push_back(std::string("the input pipeline went from ") +
                        inputVerdictName(base.inputVerdict) + " to " +
                        inputVerdictName(now.inputVerdict));
    // GPU memory: growth that started or stopped, a peak that moved 10 %.
    const auto baseGrowth = base.metric("memory_growth_per_step"),
               newGrowth = now.metric("memory_growth_per_step");
    if (newGrowth && !baseGrowth)
        parts.push_back("GPU memory now grows " + readableBytes(*newGrowth) + " per step");
    if (baseGrowth && !newGrowth)
        parts.push_back("GPU memory no longer grows (it grew " + readableBytes(*baseGrowth) +
                        " per step)");
    const auto basePeak = base.metric("memory_peak"), newPeak = now.metric("memory_peak");
    if (basePeak && newPeak && *basePeak > 0 && std::abs(*newPeak - *basePeak) >= 0.1 * *basePeak)
        parts.push_back(std::string("GPU memory peak ") + (*newPeak < *basePeak ? "fell" : "rose") +
                        " from " + readableBytes(*basePeak) + " to " + readableBytes(*newPeak));
    // Launch overhead: the median launch delay, when it moved by a quarter
    // and by 2 µs (less is the launch path's own jitter).
    const auto baseDelay = base.metric("launch_delay_median"),
               newDelay = now.metric("launch_delay_median");
    if (baseDelay && newDelay) {
        const double from = *baseDelay, to = *newDelay;
        if (std::abs(to - from) >= std::max(0.25 * from, 2000.0))
            parts.push_back(std::string("median launch delay ") + (to < from ? "fell" : "rose") +
                            " from " + duration(from) + " to " + duration(to));
    }
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? ": " : "; ") + parts[i];
    if (parts.empty()) out += ": no idle cause or kernel moved by 1 % of the step time";
    const std::string resolved = findingNames(d.findings, FindingStatus::Resolved);
    const std::string added = findingNames(d.findings, FindingStatus::New);
    out += resolved.empty() ? "; no finding resolved" : "; resolved: " + resolved;
    out += added.empty() ? "; no new finding." : "; new: " + added + ".";
    return out;
}

// A vanished and a new kernel launched from the same op path (or scope:
// `key`), the only vanished and the only new one of that path, are one
// kernel renamed (kernels of the path found in both runs by name do not
// count).
std::vector<KernelDelta> matchRenamed(std::vector<KernelDelta> kernels,
                                      std::string RunMetrics::Kernel::*key, const char* by) {
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> byPath;
    for (size_t i = 0; i < kernels.size(); ++i) {
        const KernelDelta& k = kernels[i];
        if (k.status == NameStatus::Vanished && !(k.base.*key).empty())
            byPath[k.base.*key].first.push_back(i);
        if (k.status == NameStatus::New && !(k.now.*key).empty())
            byPath[k.now.*key].second.push_back(i);
    }
    std::vector<bool> gone(kernels.size(), false);
    for (const auto& [path, ends] : byPath) {
        if (ends.first.size() != 1 || ends.second.size() != 1) continue;
        const KernelDelta& vanished = kernels[ends.first.front()];
        KernelDelta& renamed = kernels[ends.second.front()];
        // A scope is coarser than an op path: a kernel that took another's
        // place there is launched as often.
        if (key == &RunMetrics::Kernel::scope && vanished.base.count != renamed.now.count) continue;
        renamed.baseName = vanished.name;
        renamed.matchedBy = by;
        renamed.base = vanished.base;
        renamed.status = NameStatus::Renamed;
        gone[ends.first.front()] = true;
    }
    std::vector<KernelDelta> out;
    for (size_t i = 0; i < kernels.size(); ++i)
        if (!gone[i]) out.push_back(std::move(kernels[i]));
    return out;
}

// The kernels of one run's scope that the other's lacks, and their time.
TimeNs namesMissingFrom(const RunMetrics::Scope& scope, const RunMetrics::Scope& other,
                        std::vector<std::string>& out) {
    std::set<std::string_view> theirs;
    for (const auto& [name, t] : other.kernels)
        theirs.insert(name);
    TimeNs time = 0;
    for (const auto& [name, t] : scope.kernels) {
        if (theirs.count(name)) continue;
        out.push_back(name);
        time += t;
    }
    return time;
}

bool hasNamedScope(const RunMetrics& m) {
    return !m.scopes.empty() && (m.scopes.size() > 1 || !m.scopes.begin()->first.empty());
}

std::vector<ScopeDelta> scopeDeltas(const RunMetrics& base, const RunMetrics& now) {
    if (!hasNamedScope(base) && !hasNamedScope(now)) return {};
    std::vector<ScopeDelta> out = namedDeltas<ScopeDelta>(base.scopes, now.scopes);
    for (ScopeDelta& s : out) {
        s.goneTime = namesMissingFrom(s.base, s.now, s.gone);
        s.addedTime = namesMissingFrom(s.now, s.base, s.added);
    }
    std::stable_sort(out.begin(), out.end(), [](const ScopeDelta& x, const ScopeDelta& y) {
        return x.impact() > y.impact();
    });
    return out;
}

}  // namespace

bool isStepTimeMetric(const std::string& name) {
    return name == "step_time" || name == "step_time_median";
}

namespace {

// Changed, but not beyond the noise of its time per step (run_diff.h).
bool withinNoise(const std::optional<ShiftTest>& t) {
    return t && t->canBeSignificant() && !t->significant;
}

// Whether a name's time per step holds most of its total in a run: where
// much of it falls outside the steps (warm-up, a step without GPU work)
// the steps cannot speak for its change.
bool inSteps(const std::vector<TimeNs>& perStep, TimeNs total) {
    TimeNs sum = 0;
    for (const TimeNs t : perStep)
        sum += t;
    return !perStep.empty() && 10 * sum >= 9 * total;
}

// The test of the time per step, where the steps hold the name's time in both runs.
std::optional<ShiftTest> perStepTest(const std::vector<TimeNs>& base, TimeNs baseTotal,
                                     const std::vector<TimeNs>& now, TimeNs newTotal,
                                     double level) {
    if (!inSteps(base, baseTotal) || !inSteps(now, newTotal)) return std::nullopt;
    return shiftTest(base, now, level, false);  // p alone: names are many
}

void weighAgainstNoise(std::vector<KernelDelta>& kernels, std::vector<OpDelta>& ops, double level) {
    for (KernelDelta& k : kernels) {
        if (k.status != NameStatus::Changed) continue;
        k.stepChange = perStepTest(k.base.perStep, k.base.total, k.now.perStep, k.now.total, level);
        if (withinNoise(k.stepChange)) k.status = NameStatus::WithinNoise;
    }
    for (OpDelta& o : ops) {
        if (o.status != NameStatus::Changed) continue;
        o.selfStepChange =
            perStepTest(o.base.selfPerStep, o.base.self, o.now.selfPerStep, o.now.self, level);
        o.gpuStepChange =
            perStepTest(o.base.gpuPerStep, o.base.gpu, o.now.gpuPerStep, o.now.gpu, level);
        if (withinNoise(o.selfStepChange) && withinNoise(o.gpuStepChange))
            o.status = NameStatus::WithinNoise;
    }
}

}  // namespace

RunDiff diffRuns(const RunMetrics& base, const RunMetrics& now, double level) {
    RunDiff d;
    d.stepChange = shiftTest(base.stepDurations, now.stepDurations, level);
    for (const std::string& name : headlineMetricNames()) {
        MetricDelta md;
        md.metric = name;
        headlineMetric(base, name, md.base, md.unit);
        headlineMetric(now, name, md.now, md.unit);
        d.metrics.push_back(std::move(md));
    }
    d.kernels = matchRenamed(matchRenamed(namedDeltas<KernelDelta>(base.kernels, now.kernels),
                                          &RunMetrics::Kernel::opPath, "op_path"),
                             &RunMetrics::Kernel::scope, "scope");
    d.scopes = scopeDeltas(base, now);
    d.ops = namedDeltas<OpDelta>(base.ops, now.ops);
    weighAgainstNoise(d.kernels, d.ops, level);
    // Names were visited in name order, so ties keep it.
    std::stable_sort(
        d.kernels.begin(), d.kernels.end(),
        [](const KernelDelta& x, const KernelDelta& y) { return x.impact() > y.impact(); });
    std::stable_sort(d.ops.begin(), d.ops.end(),
                     [](const OpDelta& x, const OpDelta& y) { return x.impact() > y.impact(); });
    d.gpus = gpuDeltas(base, now);
    d.findings = findingChanges(base, now);
    d.verdict = verdictOf(d, base, now);
    return d;
}

}  // namespace gapscope
