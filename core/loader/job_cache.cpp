#include "loader/job_cache.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "loader/rank_view.h"

namespace gapscope {
namespace {

// The record in the machine's own layout (the entry's header already ties
// it to this build), every field in a fixed order.
class RecordWriter {
  public:
    template <class T>
    void pod(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        out_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void string(std::string_view s) {
        pod<uint64_t>(s.size());
        out_.append(s);
    }
    void interval(const Interval& i) {
        pod(i.start);
        pod(i.end);
    }
    template <class T, class F>
    void optional(const std::optional<T>& v, F&& write) {
        pod<uint8_t>(v ? 1 : 0);
        if (v) write(*v);
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class RecordReader {
  public:
    explicit RecordReader(std::string_view in) : in_(in) {}
    template <class T>
    T pod() {
        static_assert(std::is_trivially_copyable_v<T>);
        if (in_.size() < sizeof(T)) throw std::runtime_error("the job's record ends early");
        T v;
        std::memcpy(&v, in_.data(), sizeof v);
        in_.remove_prefix(sizeof v);
        return v;
    }
    // A count of items of at least `itemBytes` each, checked against what is left.
    size_t count(size_t itemBytes) {
        const auto n = pod<uint64_t>();
        if (n > in_.size() / itemBytes)
            throw std::runtime_error("a count in the job's record overruns it");
        return static_cast<size_t>(n);
    }
    std::string string() {
        const size_t n = count(1);
        std::string s(in_.substr(0, n));
        in_.remove_prefix(n);
        return s;
    }
    bool flag() {
        const auto v = pod<uint8_t>();
        if (v > 1) throw std::runtime_error("a flag in the job's record is out of range");
        return v != 0;
    }
    template <class E>
    E enumeration(E last) {
        const auto v = pod<uint8_t>();
        if (v > static_cast<uint8_t>(last))
            throw std::runtime_error("an enum in the job's record is out of range");
        return static_cast<E>(v);
    }
    Interval interval() {
        Interval i;
        i.start = pod<TimeNs>();
        i.end = pod<TimeNs>();
        if (i.end < i.start)
            throw std::runtime_error("an interval in the job's record is backwards");
        return i;
    }
    template <class T, class F>
    std::optional<T> optional(F&& read) {
        if (!flag()) return std::nullopt;
        return read();
    }
    bool done() const { return in_.empty(); }

  private:
    std::string_view in_;
};

void writeWork(RecordWriter& w, const RankWork& work) {
    w.string(work.name);
    w.pod<uint8_t>(work.gpu ? 1 : 0);
    w.interval(work.span);
}

RankWork readWork(RecordReader& r) {
    RankWork work;
    work.name = r.string();
    work.gpu = r.flag();
    work.span = r.interval();
    return work;
}

void writeStep(RecordWriter& w, const RankStep& s) {
    auto time = [&w](const TimeNs& t) { w.pod(t); };
    w.string(s.name);
    w.pod(s.number);
    w.interval(s.span);
    for (const TimeNs t : {s.busy, s.idle, s.comm, s.exposedComm, s.idleShort})
        w.pod(t);
    for (const TimeNs t : s.idleByCause)
        w.pod(t);
    w.pod<uint64_t>(s.collectives.size());
    for (const RankCollective& c : s.collectives) {
        w.string(c.name);
        w.pod(c.enter);
        w.pod(c.end);
        w.optional(c.workBefore, [&w](const RankWork& work) { writeWork(w, work); });
    }
    w.optional(s.collectiveEnter, time);
    w.optional(s.collectiveEnd, time);
    w.string(s.collectiveName);
    w.optional(s.longestWorkBefore, [&w](const RankWork& work) { writeWork(w, work); });
    w.optional(s.wait, time);
    w.optional(s.transfer, time);
}

RankStep readStep(RecordReader& r) {
    auto time = [&r] { return r.pod<TimeNs>(); };
    auto work = [&r] { return readWork(r); };
    RankStep s;
    s.name = r.string();
    s.number = r.pod<int64_t>();
    s.span = r.interval();
    for (TimeNs* t : {&s.busy, &s.idle, &s.comm, &s.exposedComm, &s.idleShort})
        *t = r.pod<TimeNs>();
    for (TimeNs& t : s.idleByCause)
        t = r.pod<TimeNs>();
    s.collectives.resize(r.count(8 + 8 + 8 + 1));
    for (RankCollective& c : s.collectives) {
        c.name = r.string();
        c.enter = r.pod<TimeNs>();
        c.end = r.pod<TimeNs>();
        c.workBefore = r.optional<RankWork>(work);
    }
    s.collectiveEnter = r.optional<TimeNs>(time);
    s.collectiveEnd = r.optional<TimeNs>(time);
    s.collectiveName = r.string();
    s.longestWorkBefore = r.optional<RankWork>(work);
    s.wait = r.optional<TimeNs>(time);
    s.transfer = r.optional<TimeNs>(time);
    return s;
}

// As many as a merged trace can hold (ArgsStore::kMaxParts).
constexpr size_t kMaxRanks = 0x7FFF;

std::string absolute(const std::string& file) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(file, ec);
    return ec ? file : p.lexically_normal().string();
}

}  // namespace

std::optional<JobCacheEntry> jobCacheEntry(const std::vector<RankSource>& sources,
                                           const RankViewOptions& options) {
    // A regex is not a value the key can hold.
    if (!options.load.load.cache || options.figures.stepRegex || sources.empty())
        return std::nullopt;
    JobCacheEntry entry;
    std::set<std::string> files;
    for (const RankSource& s : sources) {
        const std::string file = absolute(s.file);
        files.insert(file);
        // The name as given too: the view (and the args parts' reopening)
        // names each rank's file so.
        entry.key += file + '\t' + s.file + '\t' + s.part.cacheKey() + '\t' + s.part.label + '\n';
    }
    entry.key +=
        "record " + std::to_string(kJobRecordVersion) + "\naligned on " +
        (options.alignOnStep ? std::to_string(*options.alignOnStep) : std::string("none")) +
        "\ngaps from " + std::to_string(options.figures.minGapNs) + " ns\n";
    entry.stamp = stampOfFiles({files.begin(), files.end()},
                               std::max(1u, std::thread::hardware_concurrency()));
    if (!entry.stamp.valid) return std::nullopt;
    return entry;
}

std::string encodeJobRecord(const JobRecord& record) {
    RecordWriter w;
    w.pod<uint64_t>(record.ranks.size());
    for (const RankEntry& e : record.ranks) {
        w.pod(e.rank);
        w.string(e.file);
        w.string(e.host);
        w.string(e.part);
        w.pod(e.offset);
        w.optional(e.span, [&w](const Interval& i) { w.interval(i); });
        w.pod<int32_t>(e.figures.device);
        w.pod<uint8_t>(static_cast<uint8_t>(e.figures.source));
        w.pod<uint64_t>(e.figures.steps.size());
        for (const RankStep& s : e.figures.steps)
            writeStep(w, s);
    }
    w.pod<uint64_t>(record.origins.size());
    for (const auto& [name, origin] : record.origins) {
        w.string(name);
        w.pod<uint8_t>(static_cast<uint8_t>(origin));
    }
    w.pod<uint64_t>(record.warnings.size());
    for (const std::string& warning : record.warnings)
        w.string(warning);
    return w.take();
}

JobRecord decodeJobRecord(std::string_view bytes) {
    RecordReader r(bytes);
    JobRecord record;
    // (The smallest rank and step the writer can write, for the counts.)
    const size_t ranks = r.count(8 + 3 * 8 + 8 + 1 + 4 + 1 + 8);
    if (ranks > kMaxRanks) throw std::runtime_error("the job's record holds too many ranks");
    record.ranks.resize(ranks);
    for (RankEntry& e : record.ranks) {
        e.rank = r.pod<int64_t>();
        e.file = r.string();
        e.host = r.string();
        e.part = r.string();
        e.offset = r.pod<TimeNs>();
        e.span = r.optional<Interval>([&r] { return r.interval(); });
        e.figures.device = r.pod<int32_t>();
        e.figures.source = r.enumeration(StepSource::StepsLine);
        e.figures.steps.resize(r.count(8 + 8 + 16 + 5 * 8 + kGapCauseCount * 8 + 8));
        for (RankStep& s : e.figures.steps)
            s = readStep(r);
    }
    for (size_t n = r.count(9); n > 0; --n) {
        std::string name = r.string();
        record.origins[std::move(name)] = r.enumeration(RankOrigin::Process);
    }
    record.warnings.resize(r.count(8));
    for (std::string& warning : record.warnings)
        warning = r.string();
    if (!r.done()) throw std::runtime_error("the job's record has trailing bytes");
    return record;
}

}  // namespace gapscope
