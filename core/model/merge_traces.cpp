#include "model/merge_traces.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "model/earliest_slices.h"
#include "model/trace_schema.h"

namespace gapscope {

namespace {

constexpr int kIdRankShift = 40;

// What one rank's indices become in the merged trace.
class PartMap {
  public:
    PartMap(Trace& into, const Trace& from, uint32_t group, int& nextDevice,
            std::unordered_map<StringId, uint16_t>& categoryIndex)
        : group_(group), strings_(from.strings.size()) {
        for (size_t i = 0; i < strings_.size(); ++i)
            strings_[i] = into.strings.intern(from.strings.view(static_cast<StringId>(i)));
        for (const StringId c : from.categories) {
            const StringId mine = strings_[c];
            auto [it, fresh] = categoryIndex.try_emplace(mine, uint16_t{0});
            if (fresh) {
                if (into.categories.size() > UINT16_MAX)
                    throw std::length_error("more than 65536 categories in the ranks together");
                it->second = static_cast<uint16_t>(into.categories.size());
                into.categories.push_back(mine);
            }
            categories_.push_back(it->second);
        }
        // Every device the rank names, in order, onto the next global indices.
        std::set<int> devices;
        for (const GpuDevice& d : from.gpuDevices)
            devices.insert(d.index);
        for (const Process& p : from.processes)
            if (p.gpuDevice >= 0) devices.insert(p.gpuDevice);
        for (const Track& t : from.tracks)
            if (t.gpuDevice >= 0) devices.insert(t.gpuDevice);
        for (const CounterSeries& c : from.counters)
            if (c.memoryDevice >= 0) devices.insert(c.memoryDevice);
        for (const ArgIds& a : from.ids)
            if (a.device >= 0) devices.insert(a.device);
        for (const int d : devices)
            devices_[d] = nextDevice++;
        processBase = static_cast<uint32_t>(into.processes.size());
        trackBase = static_cast<uint32_t>(into.tracks.size());
        sliceBase = checked(into.slices.size(), from.slices.size());
        instantBase = checked(into.instants.size(), from.instants.size());
        argsBase = checked(into.args.size(), from.args.size());
        idsBase = checked(into.ids.size(), from.ids.size());
        launchBase = checked(into.launches.size(), from.launches.size());
    }

    StringId str(StringId s) const { return strings_.at(s); }
    uint16_t category(uint16_t c) const { return c < categories_.size() ? categories_[c] : c; }
    int device(int d) const {
        if (d < 0) return d;
        const auto it = devices_.find(d);
        return it == devices_.end() ? d : it->second;
    }
    IdKey key(IdKey k) const {
        if (k.isText) k.text = str(k.text);
        return k;
    }
    uint32_t shifted(uint32_t index, uint32_t base) const {
        return index == kNone ? kNone : index + base;
    }
    int64_t id(int64_t v) const {
        if (v < 0 || v >= (int64_t{1} << kIdRankShift)) return v;
        return v | (static_cast<int64_t>(group_ + 1) << kIdRankShift);
    }

    uint32_t processBase = 0, trackBase = 0, sliceBase = 0, instantBase = 0, argsBase = 0,
             idsBase = 0, launchBase = 0;

  private:
    static uint32_t checked(size_t have, size_t more) {
        if (have + more >= kNone)
            throw std::length_error("more than 2^32 items in the ranks together");
        return static_cast<uint32_t>(have);
    }

    uint32_t group_;
    std::vector<StringId> strings_;
    std::vector<uint16_t> categories_;
    std::map<int, int> devices_;
};

// Each field as the schema says what it refers to: its index, string,
// category, device, correlation or time in the merged trace.
class Remap {
  public:
    Remap(const PartMap& map, TimeNs by) : map_(map), by_(by) {}
    template <class F>
    void operator()(const char*, F& field, schema::Ref ref) const {
        if constexpr (std::is_same_v<F, IdKey>) {
            field = map_.key(field);
        } else if constexpr (std::is_same_v<F, std::vector<uint32_t>>) {
            for (uint32_t& x : field)
                x = static_cast<uint32_t>(moved(x, ref));
        } else if constexpr (std::is_integral_v<F> && !std::is_same_v<F, bool>) {
            field = static_cast<F>(moved(static_cast<int64_t>(field), ref));
        }
    }

  private:
    int64_t moved(int64_t v, schema::Ref ref) const {
        using R = schema::Ref;
        const auto index = static_cast<uint32_t>(v);
        switch (ref) {
            case R::Time:
                return v + by_;
            case R::String:
                return map_.str(index);
            case R::Category:
                return map_.category(static_cast<uint16_t>(v));
            case R::Process:
                return v + map_.processBase;
            case R::ProcessOrNone:
                return map_.shifted(index, map_.processBase);
            case R::Track:
                return v + map_.trackBase;
            case R::SliceOrNone:
                return map_.shifted(index, map_.sliceBase);
            case R::SliceBound:
                return v + map_.sliceBase;
            case R::InstantBound:
                return v + map_.instantBase;
            case R::ArgsOrNone:
                return map_.shifted(index, map_.argsBase);
            case R::IdsOrNone:
                return map_.shifted(index, map_.idsBase);
            case R::LaunchOrNone:
                return map_.shifted(index, map_.launchBase);
            case R::Device:
                return map_.device(static_cast<int>(v));
            case R::Correlation:
                return map_.id(v);
            case R::None:
            case R::Key:
                return v;
        }
        return v;
    }
    const PartMap& map_;
    TimeNs by_;
};

Interval moved(Interval i, TimeNs by) {
    return {i.start + by, i.end + by};
}

std::string rankLabel(const RankPart& part) {
    std::string label = "rank " + std::to_string(part.rank);
    if (!part.host.empty()) label.append(" \u00b7 ").append(part.host);
    return label;
}

void appendPart(Trace& m, RankPart& part, uint32_t group, bool fileCounted, int& nextDevice,
                std::unordered_map<StringId, uint16_t>& categoryIndex) {
    Trace& t = *part.trace;
    TimeNs lo = 0, hi = 0;
    if (part.offset != 0 && t.hasSpan &&
        (__builtin_add_overflow(t.spanStart, part.offset, &lo) ||
         __builtin_add_overflow(t.spanEnd, part.offset, &hi)))
        throw std::length_error("rank " + std::to_string(part.rank) +
                                ": the alignment would move its times out of range");
    const PartMap map(m, t, group, nextDevice, categoryIndex);
    const TimeNs by = part.offset;
    const std::string label = rankLabel(part);

    TraceRank rank;
    rank.rank = part.rank;
    rank.host = part.host;
    rank.file = part.file;
    rank.part = part.part;
    rank.inputFormat = t.inputFormat;
    rank.compression = t.compression;
    rank.offset = by;
    rank.firstProcess = map.processBase;
    rank.processCount = static_cast<uint32_t>(t.processes.size());
    rank.firstTrack = map.trackBase;
    rank.trackCount = static_cast<uint32_t>(t.tracks.size());
    rank.firstSlice = map.sliceBase;
    rank.sliceCount = static_cast<uint32_t>(t.slices.size());

    const Remap remap(map, by);
    for (Process p : t.processes) {
        schema::fields(p, remap);
        // "rank 3 · GPU 0": the host is on the rank's header, and a header
        // must read at the gutter's width.
        p.displayName = "rank " + std::to_string(part.rank) + " \u00b7 " + p.displayName;
        p.group = group;
        m.processes.push_back(std::move(p));
    }
    for (Slice s : t.slices) {
        schema::fields(s, remap);
        m.slices.push_back(s);
    }
    HugeVector<Slice>().swap(t.slices);
    for (Track& from : t.tracks) {
        Track tr = std::move(from);
        schema::fields(tr, remap);
        for (Row& r : tr.rows) {
            r.begin += map.sliceBase;
            r.end += map.sliceBase;
        }
        // The rank's index over its slices, moved with them; built again
        // only where it is not whole (or would leave the time range).
        if (!tr.index.covers(tr.sliceBegin - map.sliceBase, tr.sliceEnd - map.sliceBase) ||
            !tr.index.move(map.sliceBase, by)) {
            HugeVector<uint32_t> ids(tr.sliceCount());
            for (uint32_t i = 0; i < ids.size(); ++i)
                ids[i] = tr.sliceBegin + i;
            tr.index = IntervalIndex();
            tr.index.build(m.slices, std::move(ids));
        }
        tr.rowBreaks.clear();
        m.tracks.push_back(std::move(tr));
    }
    for (Instant in : t.instants) {
        schema::fields(in, remap);
        m.instants.push_back(in);
    }
    for (CounterSeries& c : t.counters) {
        CounterSeries out = std::move(c);
        schema::fields(out, remap);
        for (TimeNs& ts : out.ts)
            ts += by;
        out.extremes = MinMaxIndex();
        out.extremes.build(out.values);
        m.counters.push_back(std::move(out));
    }
    for (Flow f : t.flows) {
        schema::fields(f, remap);
        m.flows.push_back(f);
    }
    const uint64_t tag = m.argsStore.adoptPart(std::move(t.argsStore));
    for (ArgsRecord a : t.args) {
        schema::fields(a, remap);
        a.offset |= tag;  // the store it now reads from
        m.args.push_back(a);
    }
    for (ArgIds a : t.ids) {
        schema::fields(a, remap);
        m.ids.push_back(a);
    }
    m.launches.insert(m.launches.end(), t.launches.begin(), t.launches.end());
    for (OpShapes o : t.opShapes) {  // in args order still: each rank's args follow the last's
        schema::fields(o, remap);
        m.opShapes.push_back(o);
    }
    for (CollectiveArgs c : t.collectives) {
        schema::fields(c, remap);
        m.collectives.push_back(c);
    }
    for (MemoryEvent e : t.memoryEvents) {  // (each rank's by time: merged after)
        schema::fields(e, remap);
        m.memoryEvents.push_back(e);
    }
    for (GpuDevice d : t.gpuDevices) {
        rank.gpuLocalIndices.push_back(d.index);
        schema::fields(d, remap);
        for (Interval& b : d.busy)
            b = moved(b, by);
        for (TimeNs& p : d.instants)
            p += by;
        d.group = group;
        rank.gpuDevices.push_back(d.index);
        m.gpuDevices.push_back(std::move(d));
    }
    for (const auto& [key, value] : t.metadata)
        m.metadata[label + ": " + key] = value;
    m.report.absorb(t.report, label + ": ");
    // The first slices of the ranks' flow steps without a start, here.
    if (!t.report.orphanFlowSlices.empty()) {
        EarliestSlices earliest(m);
        for (uint32_t s : m.report.orphanFlowSlices)
            earliest.add(s);
        for (uint32_t s : t.report.orphanFlowSlices) {
            if (s >= rank.sliceCount) continue;  // (a damaged cache's)
            remap("orphanFlowSlice", s, schema::Ref::SliceOrNone);
            earliest.add(s);
        }
        m.report.orphanFlowSlices = earliest.examples();
    }
    if (t.hasSpan) {
        m.spanStart = m.hasSpan ? std::min(m.spanStart, t.spanStart + by) : t.spanStart + by;
        m.spanEnd = m.hasSpan ? std::max(m.spanEnd, t.spanEnd + by) : t.spanEnd + by;
        m.hasSpan = true;
    }
    // The ranks of one file (its processes) are its size once.
    if (!fileCounted) {
        m.fileSize += t.fileSize;
        m.decompressedSize += t.decompressedSize;
    }
    m.ranks.push_back(std::move(rank));
}

}  // namespace

namespace {

// Room for `more` items, reserved for what all the ranks are expected to
// hold where the estimate is larger: a vector that grows by doubling copies
// itself (and holds both copies for a moment) a dozen times over a job,
// while reserved pages that are never written cost no memory. Where the
// estimate cannot be had (or mapped), the vector grows by half its size, so
// that the copies stay few; false then, and the merge stops estimating.
template <class V>
bool makeRoom(V& v, size_t more, double scale) {
    const size_t need = v.size() + more;
    if (need <= v.capacity()) return true;
    const double wanted = static_cast<double>(need) * scale;
    const size_t most = v.max_size();
    const size_t expected =
        wanted >= static_cast<double>(most) ? most : static_cast<size_t>(wanted);
    if (scale > 1.0) {
        try {
            v.reserve(std::max(need, expected));
            return true;
        } catch (const std::bad_alloc&) {  // an estimate too large to map
        } catch (const std::length_error&) {
        }
    }
    v.reserve(std::max(need, v.capacity() + v.capacity() / 2));
    return false;
}

}  // namespace

RankMerger::RankMerger(std::string path, uint64_t expectedBytes)
    : trace_(std::make_shared<Trace>()), expectedBytes_(expectedBytes) {
    trace_->path = std::move(path);
}

RankMerger::~RankMerger() = default;

void RankMerger::reserve(const std::vector<RankPart>& parts) {
    size_t slices = 0, instants = 0, args = 0, ids = 0;
    for (const RankPart& p : parts) {
        slices += p.trace->slices.size();
        instants += p.trace->instants.size();
        args += p.trace->args.size();
        ids += p.trace->ids.size();
    }
    trace_->slices.reserve(slices);
    trace_->instants.reserve(instants);
    trace_->args.reserve(args);
    trace_->ids.reserve(ids);
    reserved_ = true;
}

void RankMerger::append(RankPart part) {
    if (groups_ >= ArgsStore::kMaxParts) throw std::length_error("more than 32767 ranks");
    Trace& m = *trace_;
    const Trace& t = *part.trace;
    if (groups_ == 0) {
        m.compression = t.compression;
        m.inputFormat = t.inputFormat;
        m.producer = t.producer;
        m.objectForm = t.objectForm;
        m.displayTimeUnit = t.displayTimeUnit;
    }
    const bool seen = !counted_.insert(part.file).second;
    if (!seen) bytesSoFar_ += std::max<uint64_t>(t.fileSize, 1);
    if (!reserved_) {
        // What is expected of all ranks, from the bytes merged so far.
        const double scale = estimating_ && expectedBytes_ > bytesSoFar_
                                 ? 1.1 * static_cast<double>(expectedBytes_) /
                                       static_cast<double>(std::max<uint64_t>(bytesSoFar_, 1))
                                 : 1.0;
        bool estimated = true;
        estimated = makeRoom(m.slices, t.slices.size(), scale) && estimated;
        estimated = makeRoom(m.instants, t.instants.size(), scale) && estimated;
        estimated = makeRoom(m.args, t.args.size(), scale) && estimated;
        estimated = makeRoom(m.ids, t.ids.size(), scale) && estimated;
        estimated = makeRoom(m.flows, t.flows.size(), scale) && estimated;
        estimated = makeRoom(m.launches, t.launches.size(), scale) && estimated;
        estimated = makeRoom(m.opShapes, t.opShapes.size(), scale) && estimated;
        estimated = makeRoom(m.collectives, t.collectives.size(), scale) && estimated;
        estimated = makeRoom(m.memoryEvents, t.memoryEvents.size(), scale) && estimated;
        estimating_ = estimating_ && estimated;
    }
    appendPart(m, part, groups_, seen, nextDevice_, categoryIndex_);
    ++groups_;
    part.trace.reset();  // the rest of it is no longer needed
}

std::shared_ptr<Trace> RankMerger::finish() {
    Trace& m = *trace_;
    std::sort(m.gpuDevices.begin(), m.gpuDevices.end(),
              [](const GpuDevice& a, const GpuDevice& b) { return a.index < b.index; });
    std::stable_sort(m.memoryEvents.begin(), m.memoryEvents.end(),
                     [](const MemoryEvent& a, const MemoryEvent& b) {
                         return a.ts != b.ts ? a.ts < b.ts : a.track < b.track;
                     });
    indexRowBreaks(m);
    return std::move(trace_);
}

std::shared_ptr<Trace> mergeRankTraces(std::vector<RankPart> parts, const std::string& path) {
    if (parts.size() > ArgsStore::kMaxParts) throw std::length_error("more than 32767 ranks");
    std::stable_sort(parts.begin(), parts.end(),
                     [](const RankPart& a, const RankPart& b) { return a.rank < b.rank; });
    RankMerger merger(path);
    // Reserved whole: pages are touched only as each rank is copied, while
    // the ranks already copied have been freed.
    merger.reserve(parts);
    for (RankPart& p : parts)
        merger.append(std::move(p));
    return merger.finish();
}

}  // namespace gapscope
