#include "analysis/steps.h"

#include <algorithm>
#include <map>

#include "analysis/analysis_index.h"
#include "analysis/distribution.h"
#include "format/json_lexer.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

const char* stepSourceName(StepSource s) {
    switch (s) {
        case StepSource::Regex:
            return "regex";
        case StepSource::ProfilerStep:
            return "ProfilerStep";
        case StepSource::TrainTest:
            return "train/test";
        case StepSource::StepsLine:
            return "Steps line";
        case StepSource::None:
            break;
    }
    return "none";
}

const char* stepPartName(StepPart p) {
    static constexpr const char* kNames[] = {
        "compute",    "exposed_comm",         "exposed_memcpy",
        "idle_input", "idle_synchronization", "idle_communication",
        "idle_host",  "idle_other",           "idle_short",
        "cpu"};
    return kNames[static_cast<size_t>(p)];
}

TimeNs StepBreakdown::part(StepPart p) const {
    switch (p) {
        case StepPart::Compute:
            return compute;
        case StepPart::ExposedComm:
            return exposedComm;
        case StepPart::ExposedMemcpy:
            return exposedMemcpy;
        case StepPart::IdleShort:
            return idleShort;
        case StepPart::Cpu:
            return 0;
        default:
            break;
    }
    return idleByCause[static_cast<size_t>(p) - static_cast<size_t>(StepPart::IdleInput)];
}

namespace {

// "123" -> 123; anything else -> nullopt.
std::optional<int64_t> digits(std::string_view text) {
    if (text.empty() || text.size() > 18) return std::nullopt;
    int64_t v = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

// The first run of decimal digits in a name.
std::optional<int64_t> firstNumber(std::string_view name) {
    const size_t a = name.find_first_of("0123456789");
    if (a == std::string_view::npos) return std::nullopt;
    const size_t b = name.find_first_not_of("0123456789", a);
    return digits(name.substr(a, b == std::string_view::npos ? b : b - a));
}

// A JSON number that is a non-negative integer written as digits or with a
// zero fraction ("5.0", as some TensorFlow versions write step_num).
std::optional<int64_t> integral(std::string_view text) {
    const size_t dot = text.find('.');
    if (dot != std::string_view::npos) {
        const std::string_view fraction = text.substr(dot + 1);
        if (fraction.find_first_not_of('0') != std::string_view::npos) return std::nullopt;
        text = text.substr(0, dot);
    }
    return digits(text);
}

// args.step_num of a TensorFlow train/test marker: an integral number or a
// string of digits.
std::optional<int64_t> stepNumArg(const Trace& t, const Slice& s) {
    const ArgsText args = t.argsText(s.args);
    if (!args.ok() || args.json.empty()) return std::nullopt;
    std::optional<int64_t> out;
    json::forEachMember(args.json, [&](std::string_view key, const json::Value& v) {
        if (key != "step_num") return;
        if (v.kind == json::ValueKind::String) out = digits(v.text);
        if (v.kind == json::ValueKind::Number) out = integral(v.text);
    });
    return out;
}

template <class Accept>
std::vector<Step> collect(const Trace& t, bool cpu, Accept&& accept) {
    std::vector<Step> out;
    for (const Track& track : t.tracks) {
        if ((track.kind == TrackKind::CpuThread) != cpu) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (s.dur <= 0) continue;
            if (const auto number = accept(track, s))
                out.push_back({i, *number, {s.start, s.end()}});
        }
    }
    return out;
}

void order(std::vector<Step>& steps, bool numberByPosition) {
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
        if (a.span.start != b.span.start) return a.span.start < b.span.start;
        if (a.span.end != b.span.end) return a.span.end < b.span.end;
        return a.number < b.number;
    });
    if (!numberByPosition) return;
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].number < 0) steps[i].number = static_cast<int64_t>(i);
}

}  // namespace

StepList findSteps(const Trace& t, const std::regex* regex) {
    StepList list;
    auto done = [&](StepSource source, std::vector<Step> steps, bool byPosition) {
        if (steps.empty()) return false;
        order(steps, byPosition);
        list.source = source;
        list.steps = std::move(steps);
        return true;
    };
    // Names repeat: each is matched once.
    std::map<StringId, std::optional<int64_t>> memo;
    if (regex) {
        auto steps = collect(t, true, [&](const Track&, const Slice& s) {
            auto [it, fresh] = memo.try_emplace(s.name);
            if (fresh) {
                const std::string name(t.str(s.name));
                if (std::regex_search(name, *regex)) it->second = firstNumber(name).value_or(-1);
            }
            return it->second;
        });
        if (done(StepSource::Regex, std::move(steps), true)) return list;
    }
    memo.clear();
    auto profilerSteps = collect(t, true, [&](const Track&, const Slice& s) {
        auto [it, fresh] = memo.try_emplace(s.name);
        if (fresh) {
            const std::string_view name = t.str(s.name);
            if (vocabulary::isStepName(name)) it->second = digits(vocabulary::stepNumberText(name));
        }
        return it->second;
    });
    if (done(StepSource::ProfilerStep, std::move(profilerSteps), false)) return list;
    auto trainTest = collect(t, true, [&](const Track&, const Slice& s) -> std::optional<int64_t> {
        if (!vocabulary::isTrainTestStepName(t.str(s.name))) return std::nullopt;
        return stepNumArg(t, s);
    });
    if (done(StepSource::TrainTest, std::move(trainTest), false)) return list;
    // TensorFlow's derived Steps line of the lowest GPU.
    int lowest = INT32_MAX;
    for (const Track& track : t.tracks) {
        if (track.kind == TrackKind::GpuOther && vocabulary::isStepsLine(t.str(track.threadName)) &&
            t.processes[track.process].gpuDevice >= 0)
            lowest = std::min(lowest, t.processes[track.process].gpuDevice);
    }
    auto stepsLine = collect(t, false, [&](const Track& track, const Slice& s) {
        std::optional<int64_t> n;
        if (track.kind == TrackKind::GpuOther && vocabulary::isStepsLine(t.str(track.threadName)) &&
            t.processes[track.process].gpuDevice == lowest)
            n = digits(t.str(s.name)).value_or(-1);
        return n;
    });
    done(StepSource::StepsLine, std::move(stepsLine), true);
    return list;
}

StepBreakdown stepBreakdown(const Trace& trace, const GpuDevice& device, Interval span,
                            const GapExplainer& explainer, TimeNs minGapNs) {
    StepBreakdown b;
    b.device = device.index;
    const DeviceActivity a = deviceActivity(trace, device, span);
    const std::vector<Interval> computeOrComm = unionOf(a.compute, a.communication);
    b.compute = totalLength(a.compute);
    b.exposedComm = totalLength(differenceOf(a.communication, a.compute));
    std::vector<Interval> covered = computeOrComm;
    for (size_t d = 0; d < kCopyDirectionCount; ++d) {
        b.memcpyByDirection[d] = totalLength(differenceOf(a.memcpyByDirection[d], covered));
        covered = unionOf(covered, a.memcpyByDirection[d]);
        b.exposedMemcpy += b.memcpyByDirection[d];
    }
    const std::vector<Interval> whole{span};
    // Zero-duration activity ran: it splits the idle pieces.
    for (const Interval& idle : splitAt(differenceOf(whole, clippedTo(device.busy, span)),
                                        pointsWithin(device.instants, span))) {
        b.idle += idle.length();
        if (idle.length() < minGapNs) {
            b.idleShort += idle.length();
            continue;
        }
        CausedGap g = explainer.explain(device, idle);
        b.idleByCause[static_cast<size_t>(g.cause)] += idle.length();
        b.idlePieces.push_back(std::move(g));
    }
    return b;
}

namespace {

// The rank (Process::group) a slice's process belongs to: ranks merged
// into one trace each keep their own steps.
uint32_t groupOf(const Trace& t, uint32_t slice) {
    return t.processes[t.tracks[t.trackOfSlice(slice)].process].group;
}

// The GPU-side copies of ProfilerStep ranges: (rank, name) -> device -> window.
std::map<std::pair<uint32_t, StringId>, std::map<int, Interval>> gpuWindows(const Trace& t) {
    std::map<std::pair<uint32_t, StringId>, std::map<int, Interval>> out;
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::GpuAnnotation) continue;
        const uint32_t group = t.processes[track.process].group;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (t.str(s.name).substr(0, 13) != "ProfilerStep#") continue;
            const int device = deviceOfSlice(t, track, s);
            auto [it, fresh] = out[{group, s.name}].try_emplace(device, Interval{s.start, s.end()});
            if (!fresh) {
                it->second.start = std::min(it->second.start, s.start);
                it->second.end = std::max(it->second.end, s.end());
            }
        }
    }
    return out;
}

// The GPU work of each step on each device of its rank, as [first start,
// last end]: its ProfilerStep's gpu_user_annotation copy where the trace
// has one, else the activity launched (by correlation or flow) from inside
// the step's CPU span.
std::vector<std::map<int, Interval>> stepGpuWork(const Trace& t, const std::vector<Step>& steps,
                                                 const LaunchCalls& launches) {
    std::vector<std::map<int, Interval>> work(steps.size());
    const auto annotated = gpuWindows(t);
    std::map<uint32_t, std::vector<size_t>> byGroup;  // each rank's steps, by start
    for (size_t i = 0; i < steps.size(); ++i) {
        const uint32_t group = groupOf(t, steps[i].slice);
        byGroup[group].push_back(i);
        const auto it = annotated.find({group, t.slices[steps[i].slice].name});
        if (it != annotated.end()) work[i] = it->second;
    }
    auto widen = [](std::map<int, Interval>& m, int device, Interval x) {
        auto [it, fresh] = m.try_emplace(device, x);
        if (!fresh)
            it->second = {std::min(it->second.start, x.start), std::max(it->second.end, x.end)};
    };
    std::vector<std::map<int, Interval>> launched(steps.size());
    for (const GpuDevice& device : t.gpuDevices) {
        forEachActivity(t, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
            const uint32_t launch = launches.first(k);
            if (launch == kNone) return;
            const TimeNs at = t.slices[launch].start;
            // The last step of its rank that starts at or before the launch,
            // if it holds it.
            const auto group = byGroup.find(groupOf(t, launch));
            if (group == byGroup.end()) return;
            const std::vector<size_t>& mine = group->second;
            const auto after =
                std::upper_bound(mine.begin(), mine.end(), at,
                                 [&](TimeNs v, size_t s) { return v < steps[s].span.start; });
            if (after == mine.begin()) return;
            const size_t i = *(after - 1);
            if (at >= steps[i].span.end) return;
            widen(launched[i], device.index, {t.slices[k].start, t.slices[k].end()});
        });
    }
    for (size_t i = 0; i < steps.size(); ++i)
        for (const auto& [device, x] : launched[i])
            work[i].try_emplace(device, x);  // the annotation, where there is one, wins
    return work;
}

// Each step's window on each device: from the end of the previous step's
// GPU work to the end of its own, so the windows tile the GPU's time and
// the wait before a step's first kernel (an input stall) is that step's;
// the first step's from its CPU start (or its GPU work's start, if
// earlier). A step without GPU work on a device ends at its CPU end. A
// device with no step's GPU work known keeps the CPU spans. Only the steps
// of the device's own rank have a window on it.
std::vector<std::map<int, Interval>> windowsOf(const Trace& t, const std::vector<Step>& steps,
                                               const LaunchCalls& launches) {
    const auto work = stepGpuWork(t, steps, launches);
    std::vector<std::map<int, Interval>> windows(steps.size());
    for (const GpuDevice& device : t.gpuDevices) {
        const int d = device.index;
        const bool known =
            std::any_of(work.begin(), work.end(), [&](const auto& m) { return m.count(d) > 0; });
        std::optional<TimeNs> previousEnd;
        for (size_t i = 0; i < steps.size(); ++i) {
            if (groupOf(t, steps[i].slice) != device.group) continue;  // another rank's step
            Interval w = steps[i].span;
            if (known) {
                const auto x = work[i].find(d);
                if (x != work[i].end()) w.end = x->second.end;
                w.start = previousEnd
                              ? *previousEnd
                              : (x != work[i].end() ? std::min(w.start, x->second.start) : w.start);
                w.end = std::max(w.end, w.start);
                previousEnd = w.end;
            }
            windows[i][d] = w;
        }
    }
    return windows;
}

// Why a slow step was slower: the part of the first device's breakdown that
// grew most over its median across all steps.
// When those explain less than half of how much longer the step took, the
// time went on the host (the GPU windows follow the GPU's work): "cpu".
void explainSlowStep(StepReport& r, const std::vector<TimeNs>& medians, TimeNs median) {
    for (size_t p = 0; p < kStepPartCount; ++p) {
        const TimeNs growth = r.devices.front().part(StepPart(p)) - medians[p];
        if (!r.slowerBecause || growth > r.grewBy) {
            r.slowerBecause = StepPart(p);
            r.grewBy = growth;
        }
    }
    const TimeNs excess = r.duration - median;
    if (2 * r.grewBy < excess) {
        r.slowerBecause = StepPart::Cpu;
        r.grewBy = excess;
    }
}

}  // namespace

std::vector<std::map<int, Interval>> stepWindows(const Trace& trace, const StepList& list,
                                                 const LaunchCalls& launches) {
    if (list.source != StepSource::StepsLine) return windowsOf(trace, list.steps, launches);
    std::vector<std::map<int, Interval>> spans(list.steps.size());
    for (size_t i = 0; i < list.steps.size(); ++i)
        for (const GpuDevice& d : trace.gpuDevices)
            spans[i][d.index] = list.steps[i].span;
    return spans;
}

StepsResult stepAnalysis(const Trace& trace, const StepOptions& options) {
    StepsResult out;
    const StepList found =
        options.index && !options.regex ? StepList{} : findSteps(trace, options.regex);
    const StepList& list = options.index && !options.regex ? options.index->steps() : found;
    out.source = list.source;
    if (list.steps.empty()) return out;
    std::optional<GapExplainer> own;
    if (!options.index) own.emplace(trace);
    const GapExplainer& explainer = options.index ? options.index->explainer() : *own;
    // The index keeps the default steps' windows; other steps find theirs.
    const bool indexed = options.index && !options.regex;
    std::optional<LaunchCalls> ownLaunches;
    std::vector<std::map<int, Interval>> ownWindows;
    if (!indexed) {
        const LaunchCalls& launches =
            options.index ? options.index->launches() : ownLaunches.emplace(trace);
        ownWindows = stepWindows(trace, list, launches);
    }
    const auto& windows = indexed ? options.index->stepWindows() : ownWindows;
    auto breakdowns = [&](size_t step, bool firstOnly = false) {
        std::vector<StepBreakdown> devices;
        for (const GpuDevice& device : trace.gpuDevices) {
            if (device.busy.empty() && device.instants.empty()) continue;
            if (firstOnly && !devices.empty()) break;
            // Another rank's step (ranks merged into one trace): its span.
            const auto mine = windows[step].find(device.index);
            const Interval window =
                mine != windows[step].end() ? mine->second : list.steps[step].span;
            StepBreakdown b = stepBreakdown(trace, device, window, explainer, options.minGapNs);
            b.gpuWindow = window;
            devices.push_back(std::move(b));
        }
        return devices;
    };
    // Slowness is judged against all steps; breakdowns only for those asked for
    // (and for all of them when a slow one has to say why).
    std::vector<TimeNs> durations;
    for (const Step& step : list.steps)
        durations.push_back(step.span.length());
    out.medianDuration = medianOf(durations);
    const TimeNs median = *out.medianDuration;
    std::vector<size_t> chosen;
    for (size_t i = 0; i < list.steps.size(); ++i) {
        const Step& s = list.steps[i];
        if (options.onlyNumber) {
            if (s.number != *options.onlyNumber) continue;  // its window may start earlier
        } else if (s.span.start < options.window.start || s.span.start >= options.window.end) {
            continue;
        }
        chosen.push_back(i);
    }
    std::vector<std::optional<StepBreakdown>> first(list.steps.size());  // of every step, if needed
    for (const size_t i : chosen) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        StepReport r;
        r.step = list.steps[i];
        r.duration = r.step.span.length();
        r.devices = breakdowns(i);
        if (!r.devices.empty()) first[i] = r.devices.front();
        r.slow = 2 * r.duration > 3 * median;
        out.steps.push_back(std::move(r));
    }
    std::vector<TimeNs> medians;  // of each part over all steps, when a slow step needs them
    for (StepReport& r : out.steps) {
        if (!r.slow) continue;
        if (r.devices.empty()) {
            r.slowerBecause = StepPart::Cpu;
            r.grewBy = r.duration - median;
            continue;
        }
        if (medians.empty()) {
            auto compute = [&] {
                std::vector<TimeNs> parts(kStepPartCount);
                for (size_t i = 0; i < list.steps.size(); ++i)
                    if (!first[i]) first[i] = breakdowns(i, true).front();
                for (size_t p = 0; p < kStepPartCount; ++p) {
                    std::vector<TimeNs> values;
                    values.reserve(first.size());
                    for (const auto& b : first)
                        values.push_back(b->part(StepPart(p)));
                    parts[p] = medianOf(std::move(values));
                }
                return parts;
            };
            const bool reusable = options.index && !options.regex;
            medians =
                reusable ? options.index->stepPartMedians(options.minGapNs, compute) : compute();
        }
        explainSlowStep(r, medians, median);
    }
    return out;
}

}  // namespace gapscope
