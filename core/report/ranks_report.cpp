#include "report/ranks_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "analysis/rank_totals.h"

namespace gapscope {

namespace {

// Keys in the order the header lists them, for people reading the JSON.
using json = nlohmann::ordered_json;

template <class T>
json orNull(const std::optional<T>& v) {
    return v ? json(*v) : json(nullptr);
}

json workJson(const std::optional<RankWork>& w) {
    if (!w) return nullptr;
    return {{"name", w->name},
            {"where", w->gpu ? "gpu" : "cpu"},
            {"start_ns", w->span.start},
            {"end_ns", w->span.end},
            {"ns", w->ns()}};
}

json collectivesJson(const RankStep& s) {
    json out = json::array();
    for (const RankCollective& c : s.collectives)
        out.push_back({{"name", c.name},
                       {"enter_ns", c.enter},
                       {"end_ns", c.end},
                       {"work_before", workJson(c.workBefore)}});
    return out;
}

json stepJson(const RankStep& s) {
    json byCause;
    for (size_t c = 0; c < kGapCauseCount; ++c)
        byCause[gapCauseName(GapCause(c))] = s.idleByCause[c];
    byCause["short"] = s.idleShort;
    return {{"name", s.name},
            {"number", s.number},
            {"start_ns", s.span.start},
            {"end_ns", s.span.end},
            {"duration_ns", s.duration()},
            {"busy_ns", s.busy},
            {"idle_ns", s.idle},
            {"idle_by_cause", byCause},
            {"comm_ns", s.comm},
            {"exposed_comm_ns", s.exposedComm},
            {"collective", s.collectiveEnter ? json(s.collectiveName) : json(nullptr)},
            {"collective_enter_ns", orNull(s.collectiveEnter)},
            {"collective_end_ns", orNull(s.collectiveEnd)},
            {"wait_ns", orNull(s.wait)},
            {"transfer_ns", orNull(s.transfer)},
            {"longest_work_before", workJson(s.longestWorkBefore)},
            {"collectives", collectivesJson(s)}};
}

json rankObject(const RankRow& r) {
    const RankEntry& e = r.entry;
    json steps = json::array();
    for (const RankStep& s : e.figures.steps)
        steps.push_back(stepJson(s));
    const RankTotals totals = rankTotals(e.figures);
    json j = {{"rank", e.rank},
              {"file", e.file},
              {"part", e.part.empty() ? json(nullptr) : json(e.part)},
              {"host", e.host},
              {"origin", r.origin},
              {"device", e.figures.device >= 0 ? json(e.figures.device) : json(nullptr)},
              {"step_source", e.figures.source == StepSource::None
                                  ? json(nullptr)
                                  : json(stepSourceName(e.figures.source))},
              {"offset_ns", e.offset},
              {"steps", steps},
              {"totals",
               {{"steps", e.figures.steps.size()},
                {"duration_ns", totals.duration},
                {"gpu_time_ns", totals.gpuTime},
                {"busy_ns", totals.busy},
                {"comm_ns", totals.comm},
                {"exposed_comm_ns", totals.exposedComm},
                {"wait_ns", totals.wait},
                {"transfer_ns", totals.transfer}}}};
    if (!r.error.empty()) j["error"] = r.error;
    return j;
}

}  // namespace

std::string ranksJson(const std::vector<RankRow>& ranks, const RankComparison& c) {
    json rs = json::array();
    for (const RankRow& r : ranks)
        rs.push_back(rankObject(r));
    json st = json::array();
    for (const StepStraggler& s : c.stragglers) {
        st.push_back({{"step", s.step},
                      {"name", s.name},
                      {"rank", s.rank},
                      {"collective", s.collective},
                      {"entered_ns", s.enteredAt},
                      {"others_wait_ns", s.othersWait},
                      {"waiting_ranks", s.waitingRanks},
                      {"longest_wait_ns", s.longestWait},
                      {"longest_wait_rank", s.longestWaitRank},
                      {"instead", workJson(s.instead)}});
    }
    json unaligned = json::array();
    for (const int64_t r : c.unaligned)
        unaligned.push_back(r);
    json clocks = json::array();
    for (const ClockDisagreement& d : c.clockDisagreements)
        clocks.push_back({{"step", d.step},
                          {"collective", d.collective},
                          {"ended_rank", d.endedRank},
                          {"ended_ns", d.endedAt},
                          {"entered_rank", d.enteredRank},
                          {"entered_ns", d.enteredAt},
                          {"by_ns", d.by()}});
    return json{{"aligned_on_step", orNull(c.alignedOn)},
                {"unaligned_ranks", unaligned},
                {"ranks", rs},
                {"stragglers", st},
                {"clock_disagreements", clocks}}
        .dump(2, ' ', false, json::error_handler_t::replace);
}

namespace {

// Reads a ranks document; throws std::runtime_error("where: what").
class RanksReader {
  public:
    RanksDocument read(const nlohmann::json& j) {
        RanksDocument d;
        object(j, "the document");
        const auto& aligned = j.value("aligned_on_step", nlohmann::json());
        if (!aligned.is_null()) d.comparison.alignedOn = integer(aligned, "aligned_on_step");
        for (const auto& r : list(j, "unaligned_ranks"))
            d.comparison.unaligned.push_back(integer(r, "unaligned_ranks[]"));
        const auto& ranks = list(j, "ranks");
        for (size_t i = 0; i < ranks.size(); ++i)
            d.ranks.push_back(rank(ranks[i], "ranks[" + std::to_string(i) + "]"));
        const auto& stragglers = list(j, "stragglers");
        for (size_t i = 0; i < stragglers.size(); ++i)
            d.comparison.stragglers.push_back(
                straggler(stragglers[i], "stragglers[" + std::to_string(i) + "]", d.ranks));
        const auto& clocks = list(j, "clock_disagreements");
        for (size_t i = 0; i < clocks.size(); ++i) {
            const std::string where = "clock_disagreements[" + std::to_string(i) + "]";
            object(clocks[i], where);
            ClockDisagreement c;
            c.step = field(clocks[i], "step", where);
            c.collective = text(clocks[i], "collective", where);
            c.endedRank = field(clocks[i], "ended_rank", where);
            c.endedAt = field(clocks[i], "ended_ns", where);
            c.enteredRank = field(clocks[i], "entered_rank", where);
            c.enteredAt = field(clocks[i], "entered_ns", where);
            d.comparison.clockDisagreements.push_back(std::move(c));
        }
        if (const auto f = j.find("fleet"); f != j.end()) {
            object(*f, "fleet");
            d.fleet = true;
            d.fleetTraces = static_cast<uint64_t>(
                integer(f->value("traces", nlohmann::json(0)), "fleet.traces"));
            for (const auto& x : list(*f, "failed", "fleet."))
                d.fleetFailed.push_back(
                    {text(x, "file", "fleet.failed[]"), text(x, "error", "fleet.failed[]")});
            for (const auto& w : list(*f, "warnings", "fleet.")) {
                if (!w.is_string()) bad("fleet.warnings[]", "not a string");
                d.warnings.push_back(w.get<std::string>());
            }
        }
        return d;
    }

  private:
    [[noreturn]] static void bad(const std::string& where, const std::string& what) {
        throw std::runtime_error(where + ": " + what);
    }
    // A span whose length is a number: it starts before it ends, by less
    // than 2^63 ns.
    static void checkSpan(Interval s, const std::string& where) {
        TimeNs length = 0;
        if (s.end < s.start || __builtin_sub_overflow(s.end, s.start, &length))
            bad(where, "ends before it starts, or lasts too long");
    }
    static void object(const nlohmann::json& j, const std::string& where) {
        if (!j.is_object()) bad(where, "not an object");
    }
    static const nlohmann::json& list(const nlohmann::json& j, const char* key,
                                      const std::string& prefix = "") {
        static const nlohmann::json empty = nlohmann::json::array();
        const auto it = j.find(key);
        if (it == j.end()) return empty;
        if (!it->is_array()) bad(prefix + key, "not a list");
        return *it;
    }
    static int64_t integer(const nlohmann::json& v, const std::string& where) {
        if (!v.is_number_integer()) bad(where, "not an integer");
        return v.get<int64_t>();
    }
    static int64_t field(const nlohmann::json& o, const char* key, const std::string& where) {
        const auto it = o.find(key);
        if (it == o.end()) bad(where + "." + key, "missing");
        return integer(*it, where + "." + key);
    }
    static std::optional<int64_t> maybe(const nlohmann::json& o, const char* key,
                                        const std::string& where) {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) return std::nullopt;
        return integer(*it, where + "." + key);
    }
    static std::string text(const nlohmann::json& o, const char* key, const std::string& where) {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) return {};
        if (!it->is_string()) bad(where + "." + key, "not a string");
        return it->get<std::string>();
    }
    static std::optional<RankWork> work(const nlohmann::json& o, const char* key,
                                        const std::string& where) {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) return std::nullopt;
        const std::string here = where + "." + key;
        object(*it, here);
        RankWork w;
        w.name = text(*it, "name", here);
        w.gpu = text(*it, "where", here) == "gpu";
        w.span = {field(*it, "start_ns", here), field(*it, "end_ns", here)};
        checkSpan(w.span, here);
        return w;
    }
    static RankRow rank(const nlohmann::json& r, const std::string& where) {
        object(r, where);
        RankRow row;
        row.entry.rank = field(r, "rank", where);
        row.entry.file = text(r, "file", where);
        row.entry.part = text(r, "part", where);
        row.entry.host = text(r, "host", where);
        row.origin = text(r, "origin", where);
        row.error = text(r, "error", where);
        row.entry.offset = maybe(r, "offset_ns", where).value_or(0);
        row.entry.figures.device = static_cast<int>(maybe(r, "device", where).value_or(-1));
        const std::string source = text(r, "step_source", where);
        for (const StepSource s : {StepSource::Regex, StepSource::ProfilerStep,
                                   StepSource::TrainTest, StepSource::StepsLine})
            if (source == stepSourceName(s)) row.entry.figures.source = s;
        const auto& steps = list(r, "steps", where + ".");
        for (size_t i = 0; i < steps.size(); ++i) {
            const std::string here = where + ".steps[" + std::to_string(i) + "]";
            const nlohmann::json& s = steps[i];
            object(s, here);
            RankStep st;
            st.name = text(s, "name", here);
            st.number = field(s, "number", here);
            st.span = {field(s, "start_ns", here), field(s, "end_ns", here)};
            checkSpan(st.span, here);
            st.busy = field(s, "busy_ns", here);
            st.idle = field(s, "idle_ns", here);
            st.comm = field(s, "comm_ns", here);
            st.exposedComm = field(s, "exposed_comm_ns", here);
            if (const auto c = s.find("idle_by_cause"); c != s.end() && c->is_object()) {
                for (size_t k = 0; k < kGapCauseCount; ++k) {
                    const char* key = gapCauseName(GapCause(k));
                    if (GapCause(k) == GapCause::Host && !c->contains(key))
                        key = kFormerHostCauseName;  // written before "host" had its name
                    st.idleByCause[k] = maybe(*c, key, here + ".idle_by_cause").value_or(0);
                }
                st.idleShort = maybe(*c, "short", here + ".idle_by_cause").value_or(0);
            }
            st.collectiveEnter = maybe(s, "collective_enter_ns", here);
            st.collectiveEnd = maybe(s, "collective_end_ns", here);
            st.collectiveName = text(s, "collective", here);
            st.wait = maybe(s, "wait_ns", here);
            st.transfer = maybe(s, "transfer_ns", here);
            st.longestWorkBefore = work(s, "longest_work_before", here);
            const auto& collectives = list(s, "collectives", here + ".");
            for (size_t c = 0; c < collectives.size(); ++c) {
                const std::string at = here + ".collectives[" + std::to_string(c) + "]";
                object(collectives[c], at);
                RankCollective rc;
                rc.name = text(collectives[c], "name", at);
                rc.enter = field(collectives[c], "enter_ns", at);
                rc.end = field(collectives[c], "end_ns", at);
                checkSpan({rc.enter, rc.end}, at);
                rc.workBefore = work(collectives[c], "work_before", at);
                st.collectives.push_back(std::move(rc));
            }
            // Written before the list: the step's collective is the only one known.
            if (collectives.empty() && st.collectiveEnter && st.collectiveEnd &&
                *st.collectiveEnter <= *st.collectiveEnd)
                st.collectives.push_back({st.collectiveName, *st.collectiveEnter, *st.collectiveEnd,
                                          st.longestWorkBefore});
            row.entry.figures.steps.push_back(std::move(st));
        }
        return row;
    }
    static StepStraggler straggler(const nlohmann::json& s, const std::string& where,
                                   const std::vector<RankRow>& ranks) {
        object(s, where);
        StepStraggler st;
        st.step = field(s, "step", where);
        st.name = text(s, "name", where);
        st.rank = field(s, "rank", where);
        st.enteredAt = field(s, "entered_ns", where);
        st.collective = text(s, "collective", where);
        st.othersWait = field(s, "others_wait_ns", where);
        st.waitingRanks = static_cast<int>(field(s, "waiting_ranks", where));
        st.longestWait = field(s, "longest_wait_ns", where);
        st.longestWaitRank = field(s, "longest_wait_rank", where);
        st.instead = work(s, "instead", where);
        st.entry = ranks.size();
        for (size_t i = 0; i < ranks.size(); ++i)
            if (ranks[i].entry.rank == st.rank) st.entry = i;
        if (st.entry == ranks.size()) bad(where + ".rank", "names no rank of the document");
        return st;
    }
};

}  // namespace

std::optional<RanksDocument> parseRanksJson(std::string_view text, std::string& error) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        error = "not JSON";
        return std::nullopt;
    }
    try {
        return RanksReader().read(j);
    } catch (const std::exception& e) {
        error = e.what();
        return std::nullopt;
    }
}

}  // namespace gapscope
