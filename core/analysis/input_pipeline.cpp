#include "analysis/input_pipeline.h"

#include <algorithm>
#include <map>

#include "analysis/gpu_utilization.h"
#include "analysis/launch_calls.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

const char* inputVerdictName(InputVerdict v) {
    switch (v) {
        case InputVerdict::Highly:
            return "highly input-bound";
        case InputVerdict::Moderately:
            return "moderately input-bound";
        case InputVerdict::NotInputBound:
            break;
    }
    return "not input-bound";
}

Interval activitySpan(const Trace& t) {
    Interval span{INT64_MAX, INT64_MIN};
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        for (const Row& row : track.rows) {
            if (row.begin == row.end) continue;
            span.start = std::min(span.start, t.slices[row.begin].start);
            span.end = std::max(span.end, t.slices[row.end - 1].end());
        }
    }
    for (const GpuDevice& d : t.gpuDevices) {
        if (const auto active = activeSpan(d)) {
            span.start = std::min(span.start, active->start);
            span.end = std::max(span.end, active->end);
        }
    }
    return span.start <= span.end ? span : Interval{0, 0};
}

namespace {

PipelineChecks checkStages(const Trace& t, const std::vector<PipelineStage>& stages) {
    PipelineChecks c;
    bool prefetch = false, cache = false;
    for (const PipelineStage& s : stages) {
        const auto parts = vocabulary::tfDataStageParts(t.str(s.name));
        for (const std::string_view p : parts) {
            prefetch |= vocabulary::isTfDataPrefetch(p);
            cache |= vocabulary::isTfDataCache(p);
        }
        c.sequentialMap |= vocabulary::isTfDataSequentialMap(parts.back());
    }
    c.missingPrefetch = !prefetch;
    c.noCache = !cache;
    return c;
}

using vocabulary::InputRole;

}  // namespace

PipelineReport inputPipeline(const Trace& t, const std::vector<Step>& steps,
                             const TimeAccount* account) {
    PipelineReport out;
    // The input wait is the role decided at import (the gap causes' input);
    // the vocabulary says which part of the pipeline each such slice is.
    std::vector<int8_t> memo(t.strings.size() + 1, -1);
    auto roleOf = [&](const Slice& s) {
        if (hostRole(s) != HostRole::InputWait) return InputRole::None;
        if (s.name < memo.size() && memo[s.name] >= 0) return static_cast<InputRole>(memo[s.name]);
        const InputRole r = vocabulary::inputRoleOfName(t.str(s.name));
        if (s.name < memo.size()) memo[s.name] = static_cast<int8_t>(r);
        return r;
    };
    const EnclosingSlices enclosing(t);
    std::map<StringId, PipelineStage> stages;
    std::vector<Interval> waits;
    std::vector<uint32_t> waitSlices;
    DataLoaderUse loader;
    bool single = false, workers = false;
    for (const Track& track : t.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        loader.pinMemoryThread |= vocabulary::isPinMemoryThread(t.str(track.threadName));
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = t.slices[i];
            switch (roleOf(s)) {
                case InputRole::Stage: {
                    PipelineStage& st = stages[s.name];
                    st.name = s.name;
                    ++st.calls;
                    st.inclusive += s.dur;
                    st.self += s.dur;
                    // Less this stage's time in its nearest enclosing stage.
                    bool done = false;
                    enclosing.forEach(i, [&](uint32_t p) {
                        if (done || roleOf(t.slices[p]) != InputRole::Stage) return;
                        stages[t.slices[p].name].self -= s.dur;
                        done = true;
                    });
                    break;
                }
                case InputRole::GetNext:
                    out.getNext += s.dur;
                    waits.push_back({s.start, s.end()});
                    waitSlices.push_back(i);
                    break;
                case InputRole::DataLoaderNext: {
                    ++loader.calls;
                    loader.total += s.dur;
                    const auto iterator = vocabulary::dataLoaderIterator(t.str(s.name));
                    single |= iterator == vocabulary::DataLoaderIterator::SingleProcess;
                    workers |= iterator == vocabulary::DataLoaderIterator::WorkerProcesses;
                    waits.push_back({s.start, s.end()});
                    waitSlices.push_back(i);
                    break;
                }
                case InputRole::None:
                    break;
            }
        }
    }
    TimeNs selfTotal = 0;
    for (auto& [name, st] : stages) {
        selfTotal += st.self;
        out.stages.push_back(st);
    }
    for (PipelineStage& st : out.stages)
        if (selfTotal > 0) st.share = static_cast<double>(st.self) / static_cast<double>(selfTotal);
    std::sort(out.stages.begin(), out.stages.end(), [&](const auto& a, const auto& b) {
        if (a.self != b.self) return a.self > b.self;
        return t.str(a.name) < t.str(b.name);
    });
    if (!out.stages.empty()) out.checks = checkStages(t, out.stages);
    if (loader.calls > 0) {
        if (single)
            loader.kind = "single-process";
        else if (workers)
            loader.kind = "worker processes";
        out.dataLoader = loader;
    }
    mergeIntervals(waits);
    if (steps.empty()) {
        const Interval span = activitySpan(t);
        out.hostTime = span.length();
        out.hostWait = lengthWithin(waits, span);
    }
    for (const Step& s : steps) {
        StepInputWait w;
        w.number = s.number;
        w.wait = lengthWithin(waits, s.span);
        w.share = s.span.length() > 0
                      ? static_cast<double>(w.wait) / static_cast<double>(s.span.length())
                      : 0;
        out.hostWait += w.wait;
        out.hostTime += s.span.length();
        out.perStep.push_back(w);
    }
    out.fromGpu = account && !account->devices.empty();
    if (out.fromGpu) {
        out.inputWait = account->idle(GapCause::Input);
        out.time = account->time();
        out.denominator = account->denominatorOfAll();
    } else {
        out.inputWait = out.hostWait;
        out.time = out.hostTime;
        out.denominator = steps.empty() ? Denominator::ActiveSpan : Denominator::StepTime;
    }
    if (out.time > 0) {
        out.inputShare = static_cast<double>(out.inputWait) / static_cast<double>(out.time);
        out.verdict = out.inputWait * 5 >= out.time    ? InputVerdict::Highly
                      : out.inputWait * 20 >= out.time ? InputVerdict::Moderately
                                                       : InputVerdict::NotInputBound;
    }
    std::sort(waitSlices.begin(), waitSlices.end(), [&](uint32_t a, uint32_t b) {
        if (t.slices[a].dur != t.slices[b].dur) return t.slices[a].dur > t.slices[b].dur;
        return t.slices[a].start < t.slices[b].start;
    });
    if (waitSlices.size() > 10) waitSlices.resize(10);
    out.longestWaits = std::move(waitSlices);
    return out;
}

}  // namespace gapscope
