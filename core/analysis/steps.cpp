#include "analysis/steps.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analysis_index.h"
#include "analysis/distribution.h"
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

const char* windowSourceName(WindowSource s) {
    switch (s) {
        case WindowSource::Annotation:
            return "annotation";
        case WindowSource::Launched:
            return "launched";
        case WindowSource::NoWork:
            return "no work";
        case WindowSource::HostSpan:
            return "host step";
        case WindowSource::StepsLine:
            return "Steps line";
    }
    return "launched";
}

TimeNs GpuParts::part(StepPart p) const {
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

void GpuParts::add(const GpuParts& o) {
    compute += o.compute;
    exposedComm += o.exposedComm;
    exposedMemcpy += o.exposedMemcpy;
    idle += o.idle;
    for (size_t d = 0; d < kCopyDirectionCount; ++d)
        memcpyByDirection[d] += o.memcpyByDirection[d];
    for (size_t c = 0; c < kGapCauseCount; ++c)
        idleByCause[c] += o.idleByCause[c];
    idleShort += o.idleShort;
    shortGaps += o.shortGaps;
}

GpuParts StepBreakdown::tileParts() const {
    GpuParts t = *this;
    t.add(leadInParts);
    return t;
}

std::optional<GapCause> StepBreakdown::leadInCause() const {
    std::optional<GapCause> out;
    TimeNs most = 0;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        if (leadInParts.idleByCause[c] > most) {
            most = leadInParts.idleByCause[c];
            out = GapCause(c);
        }
    }
    return out;
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
        // Its step_num, read at import.
        const auto args = t.extractedArgs(s.args);
        if (!args || args->stepNumber < 0) return std::nullopt;
        return args->stepNumber;
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

namespace {

// The whole idle gap of `device` within `frame` that holds the idle piece
// `piece`: from the last busy end, zero-duration activity or frame start at
// or before it to the first after it.
Interval wholeGap(const GpuDevice& device, Interval piece, const std::vector<Interval>& frame) {
    Interval out = piece;
    const auto segment = std::upper_bound(frame.begin(), frame.end(), piece.start,
                                          [](TimeNs v, const Interval& x) { return v < x.start; });
    if (segment != frame.begin() && std::prev(segment)->end >= piece.end) {
        out.start = std::prev(segment)->start;
        out.end = std::prev(segment)->end;
    }
    const std::vector<Interval>& busy = device.busy;
    // The first busy interval ending after the piece starts lies after it.
    const auto after = std::upper_bound(busy.begin(), busy.end(), piece.start,
                                        [](TimeNs v, const Interval& x) { return v < x.end; });
    if (after != busy.begin()) out.start = std::max(out.start, std::prev(after)->end);
    if (after != busy.end()) out.end = std::min(out.end, after->start);
    const std::vector<TimeNs>& points = device.instants;
    const auto later = std::upper_bound(points.begin(), points.end(), piece.start);
    if (later != points.begin()) out.start = std::max(out.start, *std::prev(later));
    const auto next = std::lower_bound(points.begin(), points.end(), piece.end);
    if (next != points.end()) out.end = std::min(out.end, *next);
    return out;
}

}  // namespace

GpuParts gpuParts(const Trace& trace, const GpuDevice& device, Interval span,
                  const std::vector<Interval>& frame, const GapExplainer& explainer,
                  TimeNs minGapNs, GapCauseCache& causes, std::vector<CausedGap>* pieces) {
    GpuParts b;
    if (span.length() <= 0) return b;
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
        const Interval gap = wholeGap(device, idle, frame);
        if (gap.length() < minGapNs) {
            b.idleShort += idle.length();
            if (idle.start == gap.start) ++b.shortGaps;
            continue;
        }
        auto known = causes.find({device.index, gap.start, gap.end});
        if (known == causes.end())
            known = causes
                        .emplace(std::tuple{device.index, gap.start, gap.end},
                                 explainer.explain(device, gap))
                        .first;
        CausedGap g = known->second;
        g.gap = idle;
        b.idleByCause[static_cast<size_t>(g.cause)] += idle.length();
        if (pieces) pieces->push_back(std::move(g));
    }
    return b;
}

StepBreakdown stepBreakdown(const Trace& trace, const GpuDevice& device, const StepGpuWindow& w,
                            const std::vector<Interval>& frame, const GapExplainer& explainer,
                            TimeNs minGapNs, GapCauseCache& causes) {
    StepBreakdown b;
    b.leadInParts =
        gpuParts(trace, device, w.leadIn, frame, explainer, minGapNs, causes, &b.idlePieces);
    static_cast<GpuParts&>(b) =
        gpuParts(trace, device, w.window, frame, explainer, minGapNs, causes, &b.idlePieces);
    b.device = device.index;
    b.gpuWindow = w.window;
    b.leadIn = w.leadIn;
    b.source = w.source;
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
            if (!vocabulary::isStepName(t.str(s.name))) continue;
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

// The GPU work of one step on one device: its ProfilerStep's GPU copy and
// the span of the activity launched from inside its CPU span.
struct StepWork {
    std::optional<Interval> annotation, launched;
};

void widen(std::optional<Interval>& span, Interval x) {
    span = span ? Interval{std::min(span->start, x.start), std::max(span->end, x.end)} : x;
}

// Each step's GPU work on each device of its rank (by correlation or flow).
std::vector<std::map<int, StepWork>> stepGpuWork(const Trace& t, const std::vector<Step>& steps,
                                                 const LaunchCalls& launches) {
    std::vector<std::map<int, StepWork>> work(steps.size());
    const auto annotated = gpuWindows(t);
    std::map<uint32_t, std::vector<size_t>> byGroup;  // each rank's steps, by start
    for (size_t i = 0; i < steps.size(); ++i) {
        const uint32_t group = groupOf(t, steps[i].slice);
        byGroup[group].push_back(i);
        const auto it = annotated.find({group, t.slices[steps[i].slice].name});
        if (it == annotated.end()) continue;
        for (const auto& [device, x] : it->second)
            work[i][device].annotation = x;
    }
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
            widen(work[i][device.index].launched, {t.slices[k].start, t.slices[k].end()});
        });
    }
    return work;
}

bool holds(Interval outer, Interval inner) {
    return outer.start <= inner.start && inner.end <= outer.end;
}

// A span as a window with no lead-in, never before the previous window's
// end: overlapping steps (nested --step-regex matches) do not overlap on the GPU.
StepGpuWindow spanWindow(Interval span, std::optional<TimeNs>& previousEnd, WindowSource source) {
    const TimeNs from = previousEnd ? std::max(span.start, *previousEnd) : span.start;
    StepGpuWindow w{{from, from}, {from, std::max(span.end, from)}, source};
    previousEnd = w.window.end;
    return w;
}

// The windows of steps found on the host (see steps.h): per device of a
// rank with steps, in step order, the lead-in from the previous window's
// end (the first step's start) and the window over the step's own work.
StepWindows windowsOf(const Trace& t, const std::vector<Step>& steps, const LaunchCalls& launches) {
    const auto work = stepGpuWork(t, steps, launches);
    StepWindows out;
    out.perStep.resize(steps.size());
    for (const GpuDevice& device : t.gpuDevices) {
        const int d = device.index;
        std::vector<size_t> mine;  // the steps of the device's rank
        for (size_t i = 0; i < steps.size(); ++i)
            if (groupOf(t, steps[i].slice) == device.group) mine.push_back(i);
        if (mine.empty()) continue;  // no steps: its active span
        std::map<size_t, std::pair<Interval, WindowSource>> own;
        for (const size_t i : mine) {
            const auto x = work[i].find(d);
            if (x == work[i].end()) continue;
            const StepWork& w = x->second;
            if (w.annotation && (!w.launched || holds(*w.annotation, *w.launched))) {
                own[i] = {*w.annotation, WindowSource::Annotation};
            } else if (w.launched) {
                own[i] = {*w.launched, WindowSource::Launched};
                if (w.annotation)
                    out.broken.push_back({i, steps[i].number, d, *w.annotation, *w.launched});
            }
        }
        std::optional<TimeNs> previousEnd;
        for (const size_t i : mine) {
            const Interval span = steps[i].span;
            StepGpuWindow w;
            if (own.empty()) {  // no step's GPU work known on it: its host's steps
                w = spanWindow(span, previousEnd, WindowSource::HostSpan);
            } else {
                const auto x = own.find(i);
                const TimeNs from = previousEnd      ? *previousEnd
                                    : x != own.end() ? std::min(span.start, x->second.first.start)
                                                     : span.start;
                if (x != own.end()) {
                    w.window = {std::max(x->second.first.start, from),
                                std::max(x->second.first.end, from)};
                    w.source = x->second.second;
                } else {
                    const TimeNs at = std::max(span.end, from);
                    w.window = {at, at};
                    w.source = WindowSource::NoWork;
                }
                w.leadIn = {from, w.window.start};
                previousEnd = w.window.end;
            }
            out.perStep[i][d] = w;
        }
    }
    std::sort(out.broken.begin(), out.broken.end(),
              [](const BrokenStepAnnotation& a, const BrokenStepAnnotation& b) {
                  return std::pair(a.step, a.device) < std::pair(b.step, b.device);
              });
    return out;
}

// TensorFlow's Steps lines: each GPU with a line of its own takes, for each
// step of the list, its own line's step of that number (numbered as the
// list is: the name's digits, else the position on the line); the others
// have no steps.
StepWindows stepsLineWindows(const Trace& t, const StepList& list) {
    std::map<int, std::map<int64_t, Interval>> lines;  // device -> number -> span
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::GpuOther || !vocabulary::isStepsLine(t.str(track.threadName)))
            continue;
        const int device = t.processes[track.process].gpuDevice;
        if (device < 0) continue;
        std::vector<Step> own;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            if (s.dur > 0)
                own.push_back({i, digits(t.str(s.name)).value_or(-1), {s.start, s.end()}});
        }
        order(own, true);
        for (const Step& s : own)
            lines[device].try_emplace(s.number, s.span);
    }
    StepWindows out;
    out.perStep.resize(list.steps.size());
    for (const auto& [device, spans] : lines) {
        std::optional<TimeNs> previousEnd;
        for (size_t i = 0; i < list.steps.size(); ++i) {
            const auto it = spans.find(list.steps[i].number);
            if (it == spans.end()) continue;
            out.perStep[i][device] = spanWindow(it->second, previousEnd, WindowSource::StepsLine);
        }
    }
    return out;
}

// Why a slow step was slower: the part of the first device's breakdown that
// grew most over its median across all steps.
// When those explain less than half of how much longer the step took, the
// time went on the host (the GPU windows follow the GPU's work): "cpu".
void explainSlowStep(StepReport& r, const std::vector<TimeNs>& medians, TimeNs median) {
    for (size_t p = 0; p < kStepPartCount; ++p) {
        const TimeNs growth = r.devices.front().tileParts().part(StepPart(p)) - medians[p];
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

StepWindows stepWindows(const Trace& trace, const StepList& list, const LaunchCalls& launches) {
    return list.source == StepSource::StepsLine ? stepsLineWindows(trace, list)
                                                : windowsOf(trace, list.steps, launches);
}

std::map<int, std::vector<Interval>> stepFrames(const StepWindows& windows) {
    std::map<int, std::vector<Interval>> tiles;
    for (const auto& step : windows.perStep)
        for (const auto& [device, w] : step)
            if (w.tile().length() > 0) tiles[device].push_back(w.tile());
    for (auto& [device, list] : tiles)
        mergeIntervals(list);
    return tiles;
}

namespace {
StepsResult computeStepAnalysis(const Trace& trace, const StepOptions& options);
}  // namespace

StepsResult stepAnalysis(const Trace& trace, const StepOptions& options) {
    // The default steps with an index: computed once per scope (the index
    // keeps the last few).
    if (options.index && !options.regex)
        return *options.index->rememberedSteps(options,
                                               [&] { return computeStepAnalysis(trace, options); });
    return computeStepAnalysis(trace, options);
}

namespace {

StepsResult computeStepAnalysis(const Trace& trace, const StepOptions& options) {
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
    StepWindows ownWindows;
    if (!indexed) {
        const LaunchCalls& launches =
            options.index ? options.index->launches() : ownLaunches.emplace(trace);
        ownWindows = stepWindows(trace, list, launches);
    }
    const StepWindows& windows = indexed ? options.index->stepWindows() : ownWindows;
    out.brokenAnnotations = windows.broken;
    const std::map<int, std::vector<Interval>> frames = stepFrames(windows);
    static const std::vector<Interval> kNoFrame;
    GapCauseCache causes;  // this call's: a gap split between steps is explained once
    // The devices of the step's rank that have steps, each over its window.
    auto breakdowns = [&](size_t step, bool firstOnly = false) {
        std::vector<StepBreakdown> devices;
        for (const GpuDevice& device : trace.gpuDevices) {
            if (device.busy.empty() && device.instants.empty()) continue;
            if (firstOnly && !devices.empty()) break;
            const auto mine = windows.perStep[step].find(device.index);
            if (mine == windows.perStep[step].end()) continue;
            const auto frame = frames.find(device.index);
            devices.push_back(stepBreakdown(trace, device, mine->second,
                                            frame == frames.end() ? kNoFrame : frame->second,
                                            explainer, options.minGapNs, causes));
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
    // The first device's parts (window and lead-in) of every step, if needed.
    std::vector<std::optional<GpuParts>> first(list.steps.size());
    for (const size_t i : chosen) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        StepReport r;
        r.step = list.steps[i];
        if (!trace.ranks.empty()) r.rank = trace.ranks[groupOf(trace, r.step.slice)].rank;
        r.duration = r.step.span.length();
        r.devices = breakdowns(i);
        if (!r.devices.empty()) first[i] = r.devices.front().tileParts();
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
                for (size_t i = 0; i < list.steps.size(); ++i) {
                    if (first[i]) continue;
                    const std::vector<StepBreakdown> b = breakdowns(i, true);
                    first[i] = b.empty() ? GpuParts{} : b.front().tileParts();
                }
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

}  // namespace

std::optional<StepScope> stepScope(const StepList& list, const StepWindows& windows,
                                   int64_t number) {
    std::optional<Interval> window, span;
    auto widen = [](std::optional<Interval>& hull, Interval x) {
        hull = hull ? Interval{std::min(hull->start, x.start), std::max(hull->end, x.end)} : x;
    };
    for (size_t i = 0; i < list.steps.size(); ++i) {
        if (list.steps[i].number != number) continue;
        widen(span, list.steps[i].span);
        if (i < windows.perStep.size())
            for (const auto& [device, w] : windows.perStep[i])
                widen(window, w.tile());
    }
    if (!span) return std::nullopt;
    return StepScope{window.value_or(*span), *span};
}

}  // namespace gapscope
