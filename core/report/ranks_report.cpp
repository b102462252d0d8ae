#include "report/ranks_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace gapscope {

namespace {

// Keys in the order the header lists them, for people reading the JSON.
using json = nlohmann::ordered_json;

std::string percentOf(TimeNs part, TimeNs whole) {
    if (whole <= 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", 100.0 * double(part) / double(whole));
    return buf;
}

template <class T>
std::string orDash(const std::optional<T>& v) {
    return v ? std::to_string(*v) : "-";
}

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
            {"longest_work_before", workJson(s.longestWorkBefore)}};
}

json rankObject(const RankRow& r) {
    const RankEntry& e = r.entry;
    json steps = json::array();
    TimeNs duration = 0, busy = 0, comm = 0, exposed = 0, wait = 0;
    for (const RankStep& s : e.figures.steps) {
        steps.push_back(stepJson(s));
        duration += s.duration();
        busy += s.busy;
        comm += s.comm;
        exposed += s.exposedComm;
        wait += s.wait.value_or(0);
    }
    json j = {{"rank", e.rank},
              {"file", e.file},
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
                {"duration_ns", duration},
                {"busy_ns", busy},
                {"comm_ns", comm},
                {"exposed_comm_ns", exposed},
                {"wait_ns", wait}}}};
    if (!r.error.empty()) j["error"] = r.error;
    return j;
}

}  // namespace

Table rankStepsTable(const std::vector<RankRow>& ranks) {
    Table t;
    t.headers = {"rank",     "host",     "step",     "start ns",        "duration ns",  "busy %",
                 "busy ns",  "idle ns",  "input ns", "sync ns",         "comm idle ns", "launch ns",
                 "other ns", "short ns", "comm ns",  "exposed comm ns", "entered ns",   "wait ns"};
    t.numeric.assign(t.headers.size(), true);
    t.numeric[1] = false;
    for (const RankRow& r : ranks) {
        const RankEntry& e = r.entry;
        if (!r.error.empty()) {
            std::vector<std::string> row(t.headers.size(), "-");
            row[0] = std::to_string(e.rank);
            row[1] = e.host;
            row[2] = "failed: " + r.error;
            t.rows.push_back(std::move(row));
            continue;
        }
        for (const RankStep& s : e.figures.steps) {
            std::vector<std::string> row = {
                std::to_string(e.rank),       e.host,
                std::to_string(s.number),     std::to_string(s.span.start),
                std::to_string(s.duration()), percentOf(s.busy, s.duration()),
                std::to_string(s.busy),       std::to_string(s.idle)};
            for (size_t c = 0; c < kGapCauseCount; ++c)
                row.push_back(std::to_string(s.idleByCause[c]));
            row.push_back(std::to_string(s.idleShort));
            row.push_back(std::to_string(s.comm));
            row.push_back(std::to_string(s.exposedComm));
            row.push_back(orDash(s.collectiveEnter));
            row.push_back(orDash(s.wait));
            t.rows.push_back(std::move(row));
        }
    }
    return t;
}

Table stragglersTable(const RankComparison& c) {
    Table t;
    t.headers = {"step",          "straggler",       "entered ns",           "others' wait ns",
                 "waiting ranks", "longest wait ns", "longest waiting rank", "instead",
                 "instead ns"};
    t.numeric.assign(t.headers.size(), true);
    t.numeric[7] = false;
    for (const StepStraggler& s : c.stragglers) {
        t.rows.push_back({std::to_string(s.step), std::to_string(s.rank),
                          std::to_string(s.enteredAt), std::to_string(s.othersWait),
                          std::to_string(s.waitingRanks), std::to_string(s.longestWait),
                          std::to_string(s.longestWaitRank),
                          s.instead ? (s.instead->gpu ? "GPU " : "CPU ") + s.instead->name : "-",
                          s.instead ? std::to_string(s.instead->ns()) : "-"});
    }
    return t;
}

std::string ranksJson(const std::vector<RankRow>& ranks, const RankComparison& c) {
    json rs = json::array();
    for (const RankRow& r : ranks)
        rs.push_back(rankObject(r));
    json st = json::array();
    for (const StepStraggler& s : c.stragglers) {
        st.push_back({{"step", s.step},
                      {"name", s.name},
                      {"rank", s.rank},
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
    return json{{"aligned_on_step", orNull(c.alignedOn)},
                {"unaligned_ranks", unaligned},
                {"ranks", rs},
                {"stragglers", st}}
        .dump(2, ' ', false, json::error_handler_t::replace);
}

std::string rankJson(const RankRow& rank) {
    return rankObject(rank).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace gapscope
