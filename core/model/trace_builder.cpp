#include "model/trace_builder.h"

#include <algorithm>
#include <new>
#include <nlohmann/json.hpp>

#include "format/import_report.h"
#include "model/builder_state.h"
#include "model/demangle_slices.h"
#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"
#include "util/executor.h"
#include "util/load_error.h"

namespace gapscope {

namespace {

bool needsTimestamp(Phase phase) {
    return phase != Phase::Metadata;
}

}  // namespace

TraceBuilder::State::State(Trace& t) : trace(t) {
    trace.categories.push_back(0);  // category 0 = ""
    categoryIndex.emplace(0, 0);
}

uint32_t TraceBuilder::State::process(const IdKey& pid) {
    auto [it, inserted] = processByPid.try_emplace(pid, static_cast<uint32_t>(processes.size()));
    if (inserted) {
        approxBytes += sizeof(Process) + 64;
        Process p;
        p.pid = pid;
        processes.push_back(p);
    }
    return it->second;
}

uint32_t TraceBuilder::State::track(const TrackKey& key) {
    auto [it, inserted] = trackByKey.try_emplace(key, static_cast<uint32_t>(tracks.size()));
    if (inserted) {
        approxBytes += sizeof(PendingTrack) + 64;
        tracks.emplace_back();
        tracks.back().key = key;
    }
    return it->second;
}

uint16_t TraceBuilder::State::category(std::string_view name) {
    const StringId id = trace.strings.intern(name);
    auto it = categoryIndex.find(id);
    if (it != categoryIndex.end()) return it->second;
    if (trace.categories.size() >= UINT16_MAX) {
        if (!categoryOverflowWarned) {
            trace.report.warn(0, "more than 65534 distinct categories: the rest are shown as none");
            categoryOverflowWarned = true;
        }
        return 0;
    }
    const auto index = static_cast<uint16_t>(trace.categories.size());
    trace.categories.push_back(id);
    categoryIndex.emplace(id, index);
    // While reading, which profiler wrote it is not known yet (its metadata
    // may come last): any vocabulary's GPU categories make GPU tracks.
    // assignKinds decides each slice's kind in its producer's.
    categoryKinds.push_back(
        vocabulary::categoryKind(Producer::Unknown, name).value_or(SliceKind::Other));
    return index;
}

bool TraceBuilder::State::isActivity(uint16_t c) const {
    return c < categoryKinds.size() && isGpuKind(categoryKinds[c]);
}

bool TraceBuilder::State::isGpuAnnotation(uint16_t c) const {
    return c < categoryKinds.size() && categoryKinds[c] == SliceKind::GpuAnnotation;
}

IdKey TraceBuilder::State::tidKey(const RawEvent& ev) {
    // A missing tid means the process's main thread (tid == pid), as in Perfetto.
    return ev.tid.kind == RawId::Kind::Absent || ev.tid.kind == RawId::Kind::Invalid
               ? idKey(ev.pid)
               : idKey(ev.tid);
}

IdKey TraceBuilder::State::idKey(const RawId& id) {
    if (id.kind == RawId::Kind::Number) return IdKey::fromNumber(id.number);
    if (id.kind == RawId::Kind::Text) {
        // "25738" and 25738 name the same thread (old Kineto writes both in one
        // file; Chrome's viewer keys threads by their text too).
        const std::string_view s = id.text;
        const bool canonical =
            !s.empty() && s.size() <= 18 &&
            (s == "0" || (s[0] != '0' && !(s[0] == '-' && (s.size() == 1 || s[1] == '0')))) &&
            std::all_of(s.begin() + (s[0] == '-'), s.end(),
                        [](char c) { return c >= '0' && c <= '9'; });
        if (canonical) return IdKey::fromNumber(std::stoll(std::string(s)));
        return IdKey::fromText(trace.strings.intern(id.text));
    }
    return IdKey::fromNumber(0);  // absent: the Trace Event Format's default
}

namespace {

// JSON text as Kineto writes it, whatever the file's whitespace: none
// outside strings but one space after each comma. An op's signature is then
// one line per part, and equal inputs one signature (a file re-saved
// indented says the same).
void appendCanonicalJson(std::string& out, std::string_view text) {
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            out.push_back(c);
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        out.push_back(c);
        if (c == '"') inString = true;
        if (c == ',') out.push_back(' ');
    }
}

}  // namespace

uint32_t TraceBuilder::State::storeArgs(const RawEvent& ev) {
    if (!ev.argsAreRecord && !ev.argsReference && ev.args.size() <= 2 && !ev.hasKnown)
        return kNone;  // none, or "{}"
    ArgsRecord rec;
    // Args that are the file's own (uncompressed input) stay there; the
    // rest (compressed input, args a reader composed) go to the blocks.
    if (ev.argsReference && trace.argsStore.fileBacked()) {
        rec.offset = ev.argsOffset;
        rec.length = ev.argsReference;
    } else {
        rec.offset = trace.argsStore.fileBacked() && ev.argsInInput
                         ? ev.argsOffset
                         : trace.argsStore.append(ev.args);
        rec.length = static_cast<uint32_t>(std::min<size_t>(ev.args.size(), UINT32_MAX));
    }
    if (ev.hasKnown) {
        const ExtractedArgs& k = ev.known;
        ArgIds id;
        id.correlation = k.correlation;
        id.externalId = k.externalId;
        id.device = k.device;
        id.stream = k.stream;
        // Extraction keeps only step numbers that fit (format/args_extractor.cpp).
        id.stepNumber = static_cast<int32_t>(k.stepNumber);
        if (hasLaunchParams(k)) {
            id.launch = static_cast<uint32_t>(trace.launches.size());
            trace.launches.push_back(launchParamsOf(k));
        }
        rec.extracted = static_cast<uint32_t>(trace.ids.size());
        trace.ids.push_back(id);
    }
    trace.args.push_back(rec);
    const auto index = static_cast<uint32_t>(trace.args.size() - 1);
    if (!ev.inputDims.empty() || ev.flops >= 0) {
        OpShapes o;
        o.args = index;
        o.flops = ev.flops;
        o.bytes = ev.flops >= 0 ? ev.bytesAccessed : -1;
        if (ev.inputDims.empty() && !ev.resultShape.empty()) {
            shapesText.assign("\n\n\n").append(ev.resultShape);
            // One part per line: a hostile shape's own breaks are not parts.
            std::replace(shapesText.begin() + 3, shapesText.end(), '\n', ' ');
            o.shapes = trace.strings.intern(shapesText);
        } else if (!ev.inputDims.empty()) {
            shapesText.clear();
            appendCanonicalJson(shapesText, ev.inputDims);
            shapesText.append(1, '\n');
            appendCanonicalJson(shapesText, ev.inputTypes);
            shapesText.append(1, '\n');
            appendCanonicalJson(shapesText, ev.concreteInputs);
            o.shapes = trace.strings.intern(shapesText);
        }
        trace.opShapes.push_back(o);
    }
    if (!ev.collectiveName.empty()) {
        CollectiveArgs c;
        c.args = index;
        c.name = trace.strings.intern(ev.collectiveName);
        c.type = trace.strings.intern(ev.collectiveType);
        c.inElements = ev.collectiveIn;
        c.outElements = ev.collectiveOut;
        c.groupSize = ev.collectiveGroup;
        trace.collectives.push_back(c);
    }
    return index;
}

uint32_t TraceBuilder::State::counter(uint32_t proc, std::string_view name) {
    const StringId id = trace.strings.intern(name);
    const uint64_t key = (static_cast<uint64_t>(proc) << 32) | id;
    auto [it, inserted] =
        counterByKey.try_emplace(key, static_cast<uint32_t>(trace.counters.size()));
    if (inserted) {
        CounterSeries s;
        s.process = proc;
        s.name = id;
        trace.counters.push_back(std::move(s));
    }
    return it->second;
}

TraceBuilder::TraceBuilder(Trace& trace) : state_(std::make_unique<State>(trace)) {}

void TraceBuilder::setMemoryLimit(uint64_t bytes) {
    state_->memoryLimit = bytes;
}

void TraceBuilder::expectInputBytes(uint64_t bytes, uint64_t bytesPerEvent) {
    // Trace events are rarely under ~100 bytes of JSON; cap the guess so a
    // wrong size never reserves absurd address space.
    state_->expectedBytes = bytes;
    const uint64_t events =
        std::min<uint64_t>(bytes / std::max<uint64_t>(bytesPerEvent, 16), uint64_t{1} << 30);
    if (events < (1u << 16)) return;  // small traces: growth is cheap
    Trace& t = state_->trace;
    try {
        t.args.reserve(static_cast<size_t>(events));
        t.ids.reserve(static_cast<size_t>(events));
        t.launches.reserve(static_cast<size_t>(events / 2));
        state_->flowPoints.reserve(static_cast<size_t>(events / 2));
    } catch (const std::bad_alloc&) {
        // Only an optimisation: where address space is limited (ulimit -v),
        // grow as needed instead.
        HugeVector<ArgsRecord>().swap(t.args);
        HugeVector<ArgIds>().swap(t.ids);
        HugeVector<LaunchParams>().swap(t.launches);
        HugeVector<FlowPoint>().swap(state_->flowPoints);
    }
}

void TraceBuilder::State::checkMemory(const RawEvent& ev) {
    const uint64_t total =
        approxBytes + trace.strings.memoryBytes() + trace.argsStore.memoryBytes();
    if (total <= memoryLimit) return;
    throw LoadError("event " + std::to_string(ev.index),
                    "the trace needs more memory than the limit of " +
                        std::to_string(memoryLimit >> 20) +
                        " MiB; raise the limit (gapscope-cli --memory-limit-mb, or Settings → "
                        "Loading Limits in the viewer) "
                        "if this machine has the memory");
}
TraceBuilder::~TraceBuilder() = default;

void TraceBuilder::onMetadata(std::string_view key, std::string_view rawValue) {
    Trace& t = state_->trace;
    if (key == "displayTimeUnit" && rawValue.size() >= 2 && rawValue.front() == '"') {
        t.displayTimeUnit = std::string(rawValue.substr(1, rawValue.size() - 2));
    }
    // The profiler's own log (Kineto's): its errors and warnings are the
    // report's, as every reader words them (Trace Health counts them).
    // (A log bigger than any real one is not parsed into a tree: said, not read.)
    constexpr size_t kMostLogBytes = 16u << 20;
    const std::optional<bool> error = vocabulary::kinetoLogIsError(key);
    if (error && rawValue.size() > kMostLogBytes)
        t.report.warn(0, "the profiler's " + std::string(key) + " log (" +
                             std::to_string(rawValue.size()) + " bytes) is too big to read");
    if (error && rawValue.size() <= kMostLogBytes) {
        const auto lines = nlohmann::json::parse(rawValue, nullptr, /*allow_exceptions=*/false);
        // A log of thousands of lines says what the first ones say: they
        // are the report's, the rest is counted (all stay in the metadata).
        constexpr size_t kMostText = 2000, kMostLines = 20;
        const std::string prefix(*error ? kProfilerErrorPrefix : kProfilerWarningPrefix);
        size_t taken = 0, more = 0;
        if (lines.is_array())
            for (const auto& line : lines) {
                if (!line.is_string()) continue;
                if (taken == kMostLines) {
                    ++more;
                    continue;
                }
                ++taken;
                t.report.warn(0, prefix + line.get_ref<const std::string&>().substr(0, kMostText));
            }
        if (more)
            t.report.warn(0, prefix + std::to_string(more) + " more " + std::string(key) +
                                 " lines, in the trace's metadata");
    }
    constexpr size_t kMaxKept = 1 << 20;  // keep small metadata; note big values
    if (rawValue.size() <= kMaxKept) {
        t.metadata[std::string(key)] = std::string(rawValue);
    } else {
        t.metadata[std::string(key)] =
            "\"(omitted: " + std::to_string(rawValue.size()) + " bytes)\"";
    }
}

void TraceBuilder::onEvent(const RawEvent& ev) {
    State& st = *state_;
    Trace& t = st.trace;
    const uint32_t seq = st.seq++;
    if ((seq & 0x3fff) == 0) st.checkMemory(ev);
    st.approxBytes += 48 + ev.args.size() / 6;  // a record, its args (compressed), index share
    const Phase phase = ev.phase;
    if (phase == Phase::Missing) {
        ++t.report.withoutPhase;
        return;
    }
    // The report counts phases as written ("XXX" is a complete event, as
    // in Chrome and Perfetto; the count says "XXX"), else by letter.
    const char ph = ev.phText.empty() ? phaseLetter(phase) : ev.phText[0];
    if (ev.phText.size() > 1)
        ++st.otherPhases[std::string(ev.phText)];
    else
        ++st.singleCharPhases[static_cast<unsigned char>(ph)];
    if (ev.badField) {
        t.report.warn(ev.offset, "event " + std::to_string(ev.index) + ": field \"" + ev.badField +
                                     "\" has a JSON type that makes no sense there; ignored");
    }
    if (needsTimestamp(phase) && !ev.ts.valid) {
        if (phase == Phase::Unmodelled) return;
        ++t.report.invalidEvents;
        t.report.warn(ev.offset, "event " + std::to_string(ev.index) + " (ph '" + ph +
                                     "'): missing or invalid \"ts\"; event dropped");
        return;
    }
    if (phase == Phase::Complete && ev.dur.present && !ev.dur.valid) {
        ++t.report.invalidEvents;
        t.report.warn(ev.offset, "event " + std::to_string(ev.index) +
                                     " (ph 'X'): \"dur\" is not a number; event dropped");
        return;
    }
    const TimeNs ts = ev.ts.ns;
    if (needsTimestamp(phase)) {
        TimeNs end = ts;
        if (phase == Phase::Complete && ev.dur.valid && ev.dur.ns > 0)
            end = saturatingAdd(ts, ev.dur.ns);
        st.spanStart = std::min(st.spanStart, ts);
        st.spanEnd = std::max(st.spanEnd, end);
    }

    switch (phase) {
        case Phase::Complete:
            ingestCompleteSlice(st, ev, ts, seq);
            break;
        case Phase::Begin:
        case Phase::End:
            ingestBeginEnd(st, ev, ts, seq);
            break;
        case Phase::Instant:
        case Phase::ProcessInstant:
            ingestInstant(st, ev, ts);
            break;
        case Phase::Counter:
            ingestCounter(st, ev, ts);
            break;
        case Phase::Metadata:
            ingestMetadata(st, ev);
            break;
        case Phase::FlowStart:
        case Phase::FlowStep:
        case Phase::FlowEnd:
            ingestFlowPoint(st, ev, ts, seq);
            break;
        case Phase::AsyncBegin:
        case Phase::AsyncEnd:
        case Phase::AsyncStart:
        case Phase::AsyncStep:
        case Phase::AsyncFinish:
            ingestAsyncPoint(st, ev, ts, seq);
            break;
        case Phase::Missing:
        case Phase::Unmodelled:
        case Phase::Unknown:
            break;  // counted in phases; reported as skipped in finish()
    }
}

namespace {

// Relative memory curves (2021 Kineto) become the running sum of their
// changes, now that they are in time order. A device that also has
// absolute totals keeps only those: both together would be two answers.
void finishRelativeMemory(Trace& t) {
    std::vector<int32_t> absolute;
    for (const CounterSeries& cs : t.counters)
        if (cs.memory == MemoryCurve::Allocated && !cs.relative)
            absolute.push_back(cs.memoryDevice);
    std::vector<CounterSeries> kept;
    kept.reserve(t.counters.size());
    for (CounterSeries& cs : t.counters) {
        if (cs.relative) {
            if (std::find(absolute.begin(), absolute.end(), cs.memoryDevice) != absolute.end())
                continue;
            double sum = 0;
            for (double& v : cs.values) {
                sum += v;
                v = sum;
            }
        }
        kept.push_back(std::move(cs));
    }
    t.counters = std::move(kept);
}

// The allocator's events by time, then track (file order between equals on
// one track: the order of different threads' events at one time depends on
// how the input was read), each on its final track.
void finishMemoryEvents(TraceBuilder::State& st, const std::vector<uint32_t>& finalTrackOf) {
    HugeVector<MemoryEvent>& events = st.memoryEvents;
    for (MemoryEvent& m : events)
        m.track = finalTrackOf[m.track];
    std::stable_sort(events.begin(), events.end(), [](const MemoryEvent& a, const MemoryEvent& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.track < b.track;
    });
    st.trace.memoryEvents = std::move(events);
}

}  // namespace

void TraceBuilder::finish(const CancelToken* cancel, bool secondThread,
                          const std::function<void()>& alongside) {
    State& st = *state_;
    Trace& t = st.trace;
    auto checkCancel = [&] {
        if (cancel && cancel->isCancelled()) throw LoadCancelled();
    };

    // Phase counts as written, and which of them were not modelled.
    auto count = [&](const std::string& ph, uint64_t n) {
        t.report.phases[ph] += n;
        const Phase phase = phaseOf(ph);
        if (phase != Phase::Unmodelled && phase != Phase::Unknown) return;
        t.report.skipped[ph] += n;
        if (ph.size() > 1 || phase == Phase::Unknown) t.report.unknown[ph] += n;
    };
    for (int c = 0; c < 256; ++c) {
        if (st.singleCharPhases[c])
            count(std::string(1, static_cast<char>(c)), st.singleCharPhases[c]);
    }
    for (const auto& [ph, n] : st.otherPhases)
        count(ph, n);
    t.hasSpan = st.spanStart <= st.spanEnd;
    t.spanStart = t.hasSpan ? st.spanStart : 0;
    t.spanEnd = t.hasSpan ? st.spanEnd : 0;

    buildBeginEndSlices(st);
    buildAsyncSlices(st);
    checkCancel();
    std::vector<uint32_t> trackOrder;
    classifyAndOrder(st, trackOrder);
    // Flow work on a second core: it reads what the layout has finished and
    // writes nothing the rest of finish() touches (see builder_state.h). A
    // task not started by the time it is needed runs here (Pending::get),
    // and one left behind by an exception is waited for (~Pending).
    Executor::Pending<std::vector<uint32_t>> grouping;
    if (secondThread && !st.flowPoints.empty())
        grouping = sharedExecutor(Priority::Work).submit([&points = st.flowPoints] {
            return groupFlowPoints(points);
        });
    std::vector<uint32_t> finalTrackOfPending;
    layoutTracks(st, trackOrder, finalTrackOfPending);
    checkCancel();
    FlowBinding flows(st, finalTrackOfPending);
    Executor::Pending<void> binding;
    if (secondThread && !st.flowPoints.empty())
        binding = sharedExecutor(Priority::Work).submit([&] { flows.bindSome(); });
    const std::vector<uint32_t> flowOrder =
        grouping.valid() ? grouping.get() : groupFlowPoints(st.flowPoints);
    indexRowBreaks(t);
    finishMemoryEvents(st, finalTrackOfPending);
    for (CounterSeries& cs : t.counters) {
        if (std::is_sorted(cs.ts.begin(), cs.ts.end())) continue;
        std::vector<uint32_t> idx(cs.ts.size());
        for (uint32_t i = 0; i < idx.size(); ++i)
            idx[i] = i;
        std::stable_sort(idx.begin(), idx.end(),
                         [&](uint32_t a, uint32_t b) { return cs.ts[a] < cs.ts[b]; });
        HugeVector<TimeNs> ts(idx.size());
        HugeVector<double> values(idx.size());
        for (size_t i = 0; i < idx.size(); ++i) {
            ts[i] = cs.ts[idx[i]];
            values[i] = cs.values[idx[i]];
        }
        cs.ts = std::move(ts);
        cs.values = std::move(values);
    }
    finishRelativeMemory(t);
    for (CounterSeries& cs : t.counters)
        cs.extremes.build(cs.values);
    if (alongside) alongside();
    flows.bindSome();  // what the other thread has not taken yet
    if (binding.valid()) binding.get();
    flows.link(st, flowOrder);
    linkDirectFlows(st);
    demangleSliceNames(t);
    assignKinds(t);  // after demangling: kinds read the names people read
    t.argsStore.seal();
    // No shrink_to_fit for args, ids and launches: the spare capacity was
    // never touched, so it is address space, not memory; copying to trim it
    // would fault in a second copy.
}

}  // namespace gapscope
