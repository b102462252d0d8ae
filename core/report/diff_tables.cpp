#include "report/diff_tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "analysis/gap_causes.h"

namespace gapscope {

namespace {

Unit unitOf(MetricUnit u) {
    switch (u) {
        case MetricUnit::Ns:
            return Unit::Duration;
        case MetricUnit::Percent:
            return Unit::Share;
        case MetricUnit::Bytes:
            return Unit::Bytes;
        case MetricUnit::Count:
            return Unit::Count;
    }
    return Unit::Number;
}

// A figure as its unit holds it: a percentage as a share, a whole number
// of ns, bytes or items as an integer (so exact renderings write no ".0").
ResultCell figureCell(std::optional<double> v, MetricUnit unit) {
    if (!v) return {};
    if (unit == MetricUnit::Percent) return *v / 100.0;
    if (std::isfinite(*v) && *v == std::round(*v) && std::abs(*v) < 9e18)
        return static_cast<int64_t>(*v);
    return *v;
}

ResultCell relativeCell(double base, double now) {
    return cellOf(relativeChange(base, now));
}

std::vector<std::pair<std::string, std::string>> statusLabels() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const NameStatus s :
         {NameStatus::Same, NameStatus::Changed, NameStatus::New, NameStatus::Vanished,
          NameStatus::Renamed, NameStatus::WithinNoise}) {
        std::string label = nameStatusName(s);  // "within_noise": "Within noise"
        label[0] = static_cast<char>(label[0] - 'a' + 'A');
        std::replace(label.begin(), label.end(), '_', ' ');
        out.emplace_back(nameStatusName(s), label);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> figureLabels() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& m : headlineMetricNames())
        out.emplace_back(m, figureTitle(m));
    for (const char* m : {"time", "computation", "exposed_memcpy"})
        out.emplace_back(m, figureTitle(m));
    return out;
}

ResultCell textOrNone(const std::string& text) {
    return text.empty() ? ResultCell() : ResultCell(text);
}

// A column of changes: "+" before a rise.
ResultColumn change(std::string key, std::string title, Unit unit) {
    ResultColumn c{std::move(key), std::move(title), unit};
    c.signedChange = true;
    return c;
}

std::string fixed(double v, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

std::string number(std::optional<double> v, MetricUnit unit) {
    if (!v) return "-";
    if (std::isinf(*v)) return *v > 0 ? "+inf" : "-inf";
    if (unit == MetricUnit::Percent) return fixed(*v, 2);
    return fixed(*v, std::abs(*v - std::round(*v)) < 1e-9 ? 0 : 1);
}

// What a condition compared with its threshold, as its grammar words it.
std::string measuredText(const FailIf& g, std::optional<double> v) {
    if (g.measure == FailIf::Measure::Value) return number(v, g.unit);
    if (!v) return "-";
    if (std::isinf(*v)) return std::string(*v > 0 ? "+inf" : "-inf") + "%";
    std::string text = *v > 0 ? "+" : "";
    if (g.measure == FailIf::Measure::Change) return text + number(v, g.unit);
    return text + fixed(*v, 1) + "%";
}

template <class Delta>
bool keep(const Delta& d, bool changedOnly) {
    return !changedOnly || d.status != NameStatus::Same;
}

}  // namespace

std::string figureTitle(const std::string& metric) {
    static const std::pair<const char*, const char*> kTitles[] = {
        {"step_time", "Step time, mean"},
        {"step_time_median", "Step time, median"},
        {"step_time_p10", "Step time, p10"},
        {"step_time_p90", "Step time, p90"},
        {"gpu_busy", "GPU busy"},
        {"gpu_idle", "GPU idle"},
        {"idle_short", "Idle: short gaps"},
        {"exposed_comm", "Exposed communication"},
        {"exposed_memcpy", "Exposed memcpy"},
        {"computation", "Computation"},
        {"time", "GPU time"},
        {"input_share", "Input share"},
        {"launch_delay_median", "Launch delay, median"},
        {"memory_peak", "Memory peak"},
        {"memory_growth_per_step", "Memory growth per step"},
        {"kernel_total", "Kernel time"},
        {"kernel_count", "Kernels launched"}};
    for (const auto& [key, title] : kTitles)
        if (metric == key) return title;
    if (metric.rfind("idle_", 0) == 0) return "Idle: " + metric.substr(5);
    return metric;
}

ResultTable diffFigureTable(const RunDiff& diff) {
    ResultTable t;
    t.id = "metrics";
    t.title = "Figures compared";
    ResultColumn figure{"metric", "Figure", Unit::Text};
    figure.labels = figureLabels();
    ResultColumn base{"base", "Base", Unit::Number}, now{"new", "New", Unit::Number},
        delta{"delta", "Δ", Unit::Number};
    base.unitPerRow = now.unitPerRow = delta.unitPerRow = true;
    delta.signedChange = true;
    // A percentage is a share here, as in every table (0.25 is 25 %).
    ResultColumn unit{"unit", "Unit", Unit::Text};
    unit.labels = {{"share", "%"}};
    t.columns = {figure,
                 unit,
                 base,
                 now,
                 delta,
                 change("relative", "Relative", Unit::Share),
                 {"noise", "Against noise", Unit::Text}};
    for (const MetricDelta& m : diff.metrics) {
        ResultRow r;
        r.unit = unitOf(m.unit);
        // A percentage's change is in points (the Δ column); its relative
        // change would read as another percentage.
        ResultCell relative;
        if (const auto rel = m.relative(); rel && m.unit != MetricUnit::Percent)
            relative = *rel / 100.0;
        // The step times' change weighed against their spread (the others: none).
        ResultCell noise;
        if (isStepTimeMetric(m.metric) && diff.stepChange)
            noise = std::string(diff.stepChange->significant ? "beyond noise" : "within noise");
        r.cells = {m.metric,
                   std::string(m.unit == MetricUnit::Percent ? "share" : metricUnitName(m.unit)),
                   figureCell(m.base, m.unit),
                   figureCell(m.now, m.unit),
                   figureCell(m.delta(), m.unit),
                   relative,
                   noise};
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable diffGpuTable(const RunDiff& diff) {
    ResultTable t;
    t.id = "gpus";
    t.title = "GPU time per GPU";
    ResultColumn figure{"figure", "Figure", Unit::Text};
    figure.labels = figureLabels();
    t.columns = {{"device_base", "GPU (base)", Unit::Count},
                 {"device_new", "GPU (new)", Unit::Count},
                 figure,
                 {"base_ns", "Base", Unit::Duration},
                 {"new_ns", "New", Unit::Duration},
                 change("delta_ns", "Δ", Unit::Duration),
                 change("relative", "Relative", Unit::Share)};
    for (const GpuDelta& g : diff.gpus) {
        for (const GpuDelta::Figure& f : g.figures) {
            ResultRow r;
            r.cells = {cellOf(g.baseDevice ? std::optional<int64_t>(*g.baseDevice) : std::nullopt),
                       cellOf(g.newDevice ? std::optional<int64_t>(*g.newDevice) : std::nullopt),
                       f.name,
                       f.base,
                       f.now,
                       f.now - f.base,
                       relativeCell(double(f.base), double(f.now))};
            t.rows.push_back(std::move(r));
        }
    }
    return t;
}

// How far a name's time per step moved against its noise (run_diff.h).
ResultColumn stepPValueColumn() {
    ResultColumn c{"step_p_value", "p (per step)", Unit::Number, 4};
    c.sparse = true;  // none without two steps in each run
    return c;
}

// An op's: the smaller of its self time's and its GPU time's (beyond noise
// when either is).
ResultCell stepPValueOf(const OpDelta& o) {
    if (!o.selfStepChange || !o.gpuStepChange) return {};
    return std::min(o.selfStepChange->pValue, o.gpuStepChange->pValue);
}

ResultTable diffKernelTable(const RunDiff& diff, bool changedOnly, size_t top) {
    ResultTable t;
    t.id = "kernels";
    t.title = "Kernels";
    ResultColumn matchedBy{"matched_by", "Matched by", Unit::Text};
    matchedBy.labels = {{"op_path", "op path"}, {"scope", "scope"}};
    ResultColumn status{"status", "Status", Unit::Text};
    status.labels = statusLabels();
    // Only renamed kernels have these: the text tables leave them out otherwise.
    ResultColumn baseName = symbolColumn("base_name", "Name in base");
    baseName.sparse = matchedBy.sparse = true;
    const ResultColumn stepPValue = stepPValueColumn();
    t.columns = {symbolColumn("name", "Kernel"),
                 status,
                 {"count_base", "Count (base)", Unit::Count},
                 {"count_new", "Count (new)", Unit::Count},
                 {"total_base_ns", "Total (base)", Unit::Duration},
                 {"total_new_ns", "Total (new)", Unit::Duration},
                 change("delta_total_ns", "Δ total", Unit::Duration),
                 change("relative", "Relative", Unit::Share),
                 stepPValue,
                 {"mean_base_ns", "Mean (base)", Unit::Duration},
                 {"mean_new_ns", "Mean (new)", Unit::Duration},
                 baseName,
                 matchedBy,
                 {"op_path", "Launched from", Unit::Text},
                 {"scope", "Scope", Unit::Text}};
    for (const KernelDelta& k : diff.kernels) {
        if (!keep(k, changedOnly)) continue;
        if (top && t.rows.size() == top) break;
        ResultRow r;
        r.cells = {k.name,
                   std::string(nameStatusName(k.status)),
                   static_cast<int64_t>(k.base.count),
                   static_cast<int64_t>(k.now.count),
                   k.base.total,
                   k.now.total,
                   k.now.total - k.base.total,
                   relativeCell(double(k.base.total), double(k.now.total)),
                   k.stepChange ? ResultCell(k.stepChange->pValue) : ResultCell(),
                   k.base.count ? ResultCell(k.base.mean()) : ResultCell(),
                   k.now.count ? ResultCell(k.now.mean()) : ResultCell(),
                   textOrNone(k.baseName),
                   textOrNone(k.matchedBy),
                   textOrNone(k.now.count ? k.now.opPath : k.base.opPath),
                   textOrNone(k.now.count ? k.now.scope : k.base.scope)};
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable diffOpTable(const RunDiff& diff, bool changedOnly, size_t top) {
    ResultTable t;
    t.id = "ops";
    t.title = "Ops";
    ResultColumn status{"status", "Status", Unit::Text};
    status.labels = statusLabels();
    t.columns = {{"name", "Op", Unit::Text},
                 status,
                 {"count_base", "Count (base)", Unit::Count},
                 {"count_new", "Count (new)", Unit::Count},
                 {"self_base_ns", "Self (base)", Unit::Duration},
                 {"self_new_ns", "Self (new)", Unit::Duration},
                 change("delta_self_ns", "Δ self", Unit::Duration),
                 {"gpu_base_ns", "GPU (base)", Unit::Duration},
                 {"gpu_new_ns", "GPU (new)", Unit::Duration},
                 change("delta_gpu_ns", "Δ GPU", Unit::Duration),
                 stepPValueColumn()};
    for (const OpDelta& o : diff.ops) {
        if (!keep(o, changedOnly)) continue;
        if (top && t.rows.size() == top) break;
        ResultRow r;
        r.cells = {o.name,
                   std::string(nameStatusName(o.status)),
                   static_cast<int64_t>(o.base.count),
                   static_cast<int64_t>(o.now.count),
                   o.base.self,
                   o.now.self,
                   o.now.self - o.base.self,
                   o.base.gpu,
                   o.now.gpu,
                   o.now.gpu - o.base.gpu,
                   stepPValueOf(o)};
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable diffScopeTable(const RunDiff& diff, bool changedOnly, size_t top) {
    ResultTable t;
    t.id = "scopes";
    t.title = "Kernel time by scope";
    // Null ("-") for the kernels outside any named range, as in the CLI's JSON.
    ResultColumn scope{"name", "Scope", Unit::Text};
    ResultColumn status{"status", "Status", Unit::Text};
    status.labels = statusLabels();
    t.columns = {scope,
                 status,
                 {"total_base_ns", "Total (base)", Unit::Duration},
                 {"total_new_ns", "Total (new)", Unit::Duration},
                 change("delta_total_ns", "Δ total", Unit::Duration),
                 change("relative", "Relative", Unit::Share),
                 {"count_base", "Kernels (base)", Unit::Count},
                 {"count_new", "Kernels (new)", Unit::Count},
                 {"only_base", "Only in base", Unit::Text},
                 {"only_base_ns", "Only in base, time", Unit::Duration},
                 {"only_new", "Only in new", Unit::Text},
                 {"only_new_ns", "Only in new, time", Unit::Duration}};
    for (const ScopeDelta& s : diff.scopes) {
        if (!keep(s, changedOnly)) continue;
        if (top && t.rows.size() == top) break;
        ResultRow r;
        r.cells = {textOrNone(s.name),
                   std::string(nameStatusName(s.status)),
                   s.base.total,
                   s.now.total,
                   s.now.total - s.base.total,
                   relativeCell(double(s.base.total), double(s.now.total)),
                   static_cast<int64_t>(s.base.count),
                   static_cast<int64_t>(s.now.count),
                   s.gone,
                   s.goneTime,
                   s.added,
                   s.addedTime};
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable diffFindingTable(const RunDiff& diff) {
    ResultTable t;
    t.id = "advice";
    t.title = "Advice, new and resolved";
    ResultColumn status{"status", "Status", Unit::Text};
    for (const FindingStatus s :
         {FindingStatus::New, FindingStatus::Resolved, FindingStatus::Still})
        status.labels.emplace_back(findingStatusName(s), s == FindingStatus::New ? "New"
                                                         : s == FindingStatus::Resolved
                                                             ? "Resolved"
                                                             : "Still there");
    t.columns = {status,
                 {"rule", "Finding", Unit::Text},
                 {"device", "GPU", Unit::Count},
                 {"severity", "Severity", Unit::Text},
                 {"message", "Message", Unit::Text}};
    for (const FindingChange& f : diff.findings) {
        ResultRow r;
        r.cells = {std::string(findingStatusName(f.status)), f.finding.rule,
                   f.finding.device >= 0 ? ResultCell(int64_t{f.finding.device}) : ResultCell(),
                   std::string(severityName(f.finding.severity)), f.finding.message};
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable sideBySide(const ResultTable& base, const ResultTable& now, const std::string& key,
                       const std::vector<std::string>& figures) {
    ResultTable t;
    t.id = base.id;
    t.title = base.title;
    const int baseKey = base.column(key), newKey = now.column(key);
    if (baseKey < 0 || newKey < 0) return t;
    t.columns.push_back(base.columns[size_t(baseKey)]);
    std::vector<std::pair<int, int>> at;  // each figure's column in BASE and NEW
    for (const std::string& f : figures) {
        const int b = base.column(f), n = now.column(f);
        if (b < 0 || n < 0) continue;
        at.emplace_back(b, n);
        const ResultColumn& c = base.columns[size_t(b)];
        for (const auto& [side, title] : {std::pair{"base.", c.title + " (base)"},
                                          {"new.", c.title + " (new)"},
                                          {"delta.", "Δ " + c.title}}) {
            ResultColumn out = c;
            out.key = side + c.key;
            out.title = title;
            out.signedChange = std::string(side) == "delta.";
            t.columns.push_back(std::move(out));
        }
    }
    // BASE's keys in its order, then NEW's that BASE lacks.
    std::vector<ResultCell> keys;
    auto known = [&keys](const ResultCell& k) {
        return std::find(keys.begin(), keys.end(), k) != keys.end();
    };
    for (const ResultRow& r : base.rows)
        if (!known(r.cells[size_t(baseKey)])) keys.push_back(r.cells[size_t(baseKey)]);
    for (const ResultRow& r : now.rows)
        if (!known(r.cells[size_t(newKey)])) keys.push_back(r.cells[size_t(newKey)]);
    auto rowOf = [](const ResultTable& table, int column, const ResultCell& k) -> const ResultRow* {
        for (const ResultRow& r : table.rows)
            if (r.cells[size_t(column)] == k) return &r;
        return nullptr;
    };
    for (const ResultCell& k : keys) {
        const ResultRow* b = rowOf(base, baseKey, k);
        const ResultRow* n = rowOf(now, newKey, k);
        ResultRow row;
        row.cells.push_back(k);
        for (const auto& [bc, nc] : at) {
            const ResultCell x = b ? b->cells[size_t(bc)] : ResultCell();
            const ResultCell y = n ? n->cells[size_t(nc)] : ResultCell();
            ResultCell d;
            const auto *xi = std::get_if<int64_t>(&x), *yi = std::get_if<int64_t>(&y);
            const auto *xd = std::get_if<double>(&x), *yd = std::get_if<double>(&y);
            if (xi && yi)
                d = *yi - *xi;
            else if ((xi || xd) && (yi || yd))
                d = (yd ? *yd : double(*yi)) - (xd ? *xd : double(*xi));
            row.cells.insert(row.cells.end(), {x, y, d});
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

ResultTable diffRankTable(const std::vector<RankRow>& base, const RankComparison& baseRanks,
                          const std::vector<RankRow>& now, const RankComparison& newRanks) {
    const std::vector<std::string> figures = {"step_time_ns", "busy_share", "exposed_comm_ns",
                                              "wait_ns", "straggler_in"};
    // A rank whose file failed has no figures (not zeros), so no change either.
    auto withoutFailed = [&figures](ResultTable t) {
        const int error = t.column("error");
        for (ResultRow& r : t.rows) {
            if (error < 0 || std::holds_alternative<std::monostate>(r.cells[size_t(error)]))
                continue;
            for (const std::string& f : figures)
                if (const int c = t.column(f); c >= 0) r.cells[size_t(c)] = {};
        }
        return t;
    };
    return sideBySide(withoutFailed(rankTable(base, baseRanks)),
                      withoutFailed(rankTable(now, newRanks)), "rank", figures);
}

namespace {

// One job's straggler figures (see diffStragglerTable), by name.
struct StragglerFigures {
    int64_t steps = 0;
    TimeNs othersWait = 0, longestWait = 0;
    std::optional<double> perStep;
    std::optional<int64_t> mostOften, mostOftenSteps;
};

StragglerFigures stragglerFigures(const RankComparison& c) {
    StragglerFigures f;
    std::map<int64_t, int64_t> times;
    for (const StepStraggler& s : c.stragglers) {
        ++f.steps;
        f.othersWait += s.othersWait;
        f.longestWait = std::max(f.longestWait, s.longestWait);
        ++times[s.rank];
    }
    if (f.steps) f.perStep = double(f.othersWait) / double(f.steps);
    for (const auto& [rank, n] : times)  // by rank: the lower one on a tie
        if (!f.mostOftenSteps || n > *f.mostOftenSteps) {
            f.mostOften = rank;
            f.mostOftenSteps = n;
        }
    return f;
}

}  // namespace

ResultTable diffStragglerTable(const RankComparison& base, const RankComparison& now) {
    ResultTable t;
    t.id = "stragglers";
    t.title = "Stragglers";
    ResultColumn figure{"figure", "Figure", Unit::Text};
    figure.labels = {{"steps_with_straggler", "Steps with a straggler"},
                     {"others_wait", "Others' wait for it, in all"},
                     {"others_wait_per_step", "Others' wait per such step"},
                     {"longest_wait", "Longest wait of a rank"},
                     {"most_often", "Straggler most often (rank)"},
                     {"most_often_steps", "… in steps"}};
    ResultColumn b{"base", "Base", Unit::Number}, n{"new", "New", Unit::Number},
        d{"delta", "Δ", Unit::Number};
    b.unitPerRow = n.unitPerRow = d.unitPerRow = true;
    d.signedChange = true;
    t.columns = {
        figure, {"unit", "Unit", Unit::Text}, b, n, d, change("relative", "Relative", Unit::Share)};
    const StragglerFigures x = stragglerFigures(base), y = stragglerFigures(now);
    auto add = [&t](const char* name, Unit unit, ResultCell from, ResultCell to, bool change) {
        ResultRow r;
        r.unit = unit;
        ResultCell delta, relative;
        const auto *fi = std::get_if<int64_t>(&from), *ti = std::get_if<int64_t>(&to);
        const auto *fd = std::get_if<double>(&from), *td = std::get_if<double>(&to);
        if (change && (fi || fd) && (ti || td)) {
            const double f = fd ? *fd : double(*fi), v = td ? *td : double(*ti);
            delta = fi && ti ? ResultCell(*ti - *fi) : ResultCell(v - f);
            relative = relativeCell(f, v);
        }
        const char* unitName = unit == Unit::Duration ? "ns" : "count";
        r.cells = {std::string(name), std::string(unitName), from, to, delta, relative};
        t.rows.push_back(std::move(r));
    };
    add("steps_with_straggler", Unit::Count, x.steps, y.steps, true);
    add("others_wait", Unit::Duration, x.othersWait, y.othersWait, true);
    add("others_wait_per_step", Unit::Duration, cellOf(x.perStep), cellOf(y.perStep), true);
    add("longest_wait", Unit::Duration, x.longestWait, y.longestWait, true);
    add("most_often", Unit::Count, cellOf(x.mostOften), cellOf(y.mostOften), false);
    add("most_often_steps", Unit::Count, cellOf(x.mostOftenSteps), cellOf(y.mostOftenSteps), true);
    return t;
}

ResultTable diffGateTable(const std::vector<FailIf>& gates,
                          const std::vector<FailIfResult>& results) {
    ResultTable t;
    t.id = "fail_if";
    t.title = "Regression gate";
    // Every figure of a condition in its own unit, as its grammar reads it
    // (a percent metric in percent, a relative change in percent).
    ResultColumn base{"base", "Base", Unit::Number}, now{"new", "New", Unit::Number};
    base.decimals = now.decimals = 2;
    t.columns = {{"expression", "Condition", Unit::Text},
                 {"crossed", "Crossed", Unit::Flag},
                 {"unit", "Unit", Unit::Text},
                 base,
                 now,
                 {"measured", "Measured", Unit::Number},
                 {"threshold", "Threshold", Unit::Number},
                 {"beyond_noise", "Noise level", Unit::Share},
                 {"noise.p_value", "p", Unit::Number, 4},
                 {"noise.significant", "Beyond noise", Unit::Flag},
                 {"noise.shift_ns", "Shift", Unit::Duration},
                 {"noise_agrees", "Steps agree", Unit::Flag},
                 {"error", "Error", Unit::Text},
                 {"outcome", "Outcome", Unit::Text}};
    t.columns[5].decimals = t.columns[6].decimals = 2;
    t.columns[8].decimals = 6;
    for (size_t i = 0; i < gates.size() && i < results.size(); ++i) {
        const FailIf& g = gates[i];
        const FailIfResult& r = results[i];
        ResultRow row;
        const auto noise = r.noise;
        auto finiteCell = [](std::optional<double> v) {
            return v && std::isfinite(*v) ? ResultCell(*v) : ResultCell();
        };
        // One line for a CI log: what was measured, both runs, the noise.
        std::string outcome = r.error.empty()
                                  ? g.text + ": " + measuredText(g, r.measured) + " (base " +
                                        number(r.base, g.unit) + ", new " + number(r.now, g.unit) +
                                        " " + metricUnitName(g.unit) + ")"
                                  : "cannot evaluate " + g.text + ": " + r.error;
        if (r.error.empty() && noise) outcome += ", " + noiseSentence(*noise);
        if (r.error.empty() && noise && noise->significant && !r.noiseAgrees)
            outcome += ", but the steps moved the other way";
        row.cells = {g.text,
                     int64_t{r.crossed},
                     std::string(metricUnitName(g.unit)),
                     finiteCell(r.base),
                     finiteCell(r.now),
                     finiteCell(r.measured),
                     g.threshold,
                     cellOf(g.beyondNoise),
                     noise ? ResultCell(noise->pValue) : ResultCell(),
                     noise ? ResultCell(int64_t{noise->significant}) : ResultCell(),
                     noise ? cellOf(noise->shift) : ResultCell(),
                     noise ? ResultCell(int64_t{r.noiseAgrees}) : ResultCell(),
                     textOrNone(r.error),
                     outcome};
        t.rows.push_back(std::move(row));
    }
    return t;
}

ResultTable diffStepTable(const RunMetrics& base, const RunMetrics& now) {
    ResultTable t;
    t.id = "steps";
    t.title = "Steps";
    t.columns = {{"index", "#", Unit::Count},
                 {"step_base", "Step (base)", Unit::Count},
                 {"duration_base_ns", "Duration (base)", Unit::Duration},
                 {"step_new", "Step (new)", Unit::Count},
                 {"duration_new_ns", "Duration (new)", Unit::Duration}};
    const size_t n = std::max(base.stepDurations.size(), now.stepDurations.size());
    for (size_t i = 0; i < n; ++i) {
        ResultRow r;
        auto number = [i](const RunMetrics& m) {
            return i < m.steps.size() ? ResultCell(m.steps[i].number) : ResultCell();
        };
        auto duration = [i](const RunMetrics& m) {
            return i < m.stepDurations.size() ? ResultCell(m.stepDurations[i]) : ResultCell();
        };
        r.cells = {static_cast<int64_t>(i + 1), number(base), duration(base), number(now),
                   duration(now)};
        t.rows.push_back(std::move(r));
    }
    return t;
}

}  // namespace gapscope
