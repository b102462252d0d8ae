// Two runs compared (report/run_diff.h): the regression gate.

#include <stdexcept>

#include "report/analyses/builtin_analyses.h"
#include "report/diff_tables.h"

namespace gapscope {

namespace {

// The step-time shift test as headline figures ("step_noise": {...} in JSON).
void addNoiseFigures(AnalysisResult& r, const std::optional<ShiftTest>& t) {
    auto number = [&](const char* key, const char* title, std::optional<double> v, int decimals) {
        ResultColumn c{std::string("step_noise.") + key, title, Unit::Number};
        c.decimals = decimals;
        r.addFigure(std::move(c), cellOf(v));
    };
    auto flag = [&](const char* key, const char* title, std::optional<bool> v) {
        r.addFigure({std::string("step_noise.") + key, title, Unit::Flag},
                    v ? ResultCell(int64_t{*v}) : ResultCell());
    };
    auto duration = [&](const char* key, const char* title, std::optional<TimeNs> v) {
        r.addFigure({std::string("step_noise.") + key, title, Unit::Duration}, cellOf(v));
    };
    r.addFigure({"step_noise.sentence", "Step time against noise", Unit::Text},
                t ? ResultCell(noiseSentence(*t))
                  : ResultCell(std::string("no test against noise (fewer than two steps in a "
                                           "run)")));
    r.addFigure({"step_noise.method", "Test", Unit::Text},
                t ? ResultCell(std::string("mann_whitney_u")) : ResultCell());
    flag("significant", "Beyond noise", t ? std::optional(t->significant) : std::nullopt);
    number("p_value", "p", t ? std::optional(t->pValue) : std::nullopt, 6);
    number("level", "Level", t ? std::optional(t->level) : std::nullopt, 3);
    flag("exact", "Exact test", t ? std::optional(t->exact) : std::nullopt);
    number("smallest_p_value", "Smallest p these steps allow",
           t ? std::optional(t->smallestP) : std::nullopt, 6);
    r.addFigure({"step_noise.steps_base", "Steps (base)", Unit::Count},
                t ? ResultCell(int64_t(t->baseCount)) : ResultCell());
    r.addFigure({"step_noise.steps_new", "Steps (new)", Unit::Count},
                t ? ResultCell(int64_t(t->newCount)) : ResultCell());
    duration("shift_ns", "Shift", t ? t->shift : std::nullopt);
    duration("shift_low_ns", "Shift, low", t ? t->shiftLow : std::nullopt);
    duration("shift_high_ns", "Shift, high", t ? t->shiftHigh : std::nullopt);
    number("interval_level", "Interval level",
           t && t->shift ? std::optional(t->intervalLevel) : std::nullopt, 3);
}

ResultCell inputVerdictCell(const RunMetrics& m) {
    return m.metric("input_share") ? ResultCell(std::string(inputVerdictName(m.inputVerdict)))
                                   : ResultCell();
}

AnalysisResult compareRuns(const TwoRuns& runs, const AnalysisOptions& options) {
    std::vector<FailIf> gates;
    for (const std::string& text : options.texts("fail-if")) {
        std::string error;
        std::optional<FailIf> g = parseFailIf(text, error);
        if (!g) throw std::invalid_argument("--fail-if " + text + ": " + error);
        gates.push_back(std::move(*g));
    }
    // The verdict weighs noise at the gates' level where they name one (all
    // the same), so that it and the gates never disagree; else at 95 %.
    double level = 0.95;
    std::optional<double> gateLevel;
    bool oneLevel = true;
    for (const FailIf& g : gates) {
        if (!g.beyondNoise) continue;
        if (gateLevel && *gateLevel != *g.beyondNoise) oneLevel = false;
        gateLevel = g.beyondNoise;
    }
    if (gateLevel && oneLevel) level = *gateLevel;
    const RunDiff d = diffRuns(runs.base, runs.now, level);
    std::vector<FailIfResult> results;
    bool crossed = false;
    for (const FailIf& g : gates) {
        results.push_back(evaluateFailIf(g, runs.base, runs.now));
        crossed = crossed || results.back().crossed;
    }

    AnalysisResult r;
    ResultColumn base{"base", "Base", Unit::Text}, now{"new", "New", Unit::Text};
    base.path = now.path = true;
    r.addFigure(base, runs.basePath);
    r.addFigure(now, runs.newPath);
    r.addFigure({"verdict", "Verdict", Unit::Text}, d.verdict);
    r.addFigure({"input_verdict.base", "Input pipeline (base)", Unit::Text},
                inputVerdictCell(runs.base));
    r.addFigure({"input_verdict.new", "Input pipeline (new)", Unit::Text},
                inputVerdictCell(runs.now));
    addNoiseFigures(r, d.stepChange);
    r.addFigure({"failed", "A condition crossed", Unit::Flag}, int64_t{crossed});

    const auto top = static_cast<size_t>(options.value("top").value_or(0));
    const bool changed = options.flag("changed");
    r.tables = {diffFigureTable(d),
                diffGpuTable(d),
                diffKernelTable(d, changed, top),
                diffOpTable(d, changed, top),
                diffScopeTable(d, changed, top),
                diffFindingTable(d),
                diffStepTable(runs.base, runs.now)};
    // Two jobs: each rank and the stragglers side by side too.
    if (runs.baseJob && runs.newJob) {
        r.tables.push_back(diffRankTable(runs.baseJob->ranks, runs.baseJob->comparison,
                                         runs.newJob->ranks, runs.newJob->comparison));
        r.tables.push_back(diffStragglerTable(runs.baseJob->comparison, runs.newJob->comparison));
    } else {
        r.tables.push_back(diffRankTable({}, {}, {}, {}));
        r.tables.push_back(diffStragglerTable({}, {}));
        r.tables[r.tables.size() - 1].rows.clear();
    }
    r.tables.push_back(diffGateTable(gates, results));
    return r;
}

// The gate's verdict: 2 where a condition could not be evaluated, else 1
// where one crossed; each condition's outcome on its line.
int gateOf(const AnalysisResult& result, std::string& log) {
    const ResultTable* gates = result.table("fail_if");
    if (!gates) return 0;
    bool crossed = false, unusable = false;
    for (size_t i = 0; i < gates->rows.size(); ++i) {
        const bool error = !textOr(gates->at(i, "error")).empty();
        const bool yes = integerOr(gates->at(i, "crossed")) != 0;
        unusable = unusable || error;
        crossed = crossed || yes;
        log += std::string(error ? "gapscope-cli diff: "
                           : yes ? "FAILED "
                                 : "ok     ") +
               textOr(gates->at(i, "outcome")) + "\n";
    }
    return unusable ? 2 : crossed ? 1 : 0;
}

}  // namespace

Analysis diffAnalysis() {
    Analysis a;
    a.id = "diff";
    a.title = "Comparison";
    a.arguments = "BASE NEW";
    a.input = AnalysisInput::TwoRuns;
    a.scoped = false;
    a.usesGapThreshold = true;
    a.what =
        "two runs compared with deltas; --fail-if EXPR makes it a\nregression gate (exit 1 when "
        "a condition holds)";
    a.help =
        "Compares two runs: mean and median step time, GPU busy and idle, idle by\n"
        "cause, exposed communication, memory peak, kernel time and count (each the\n"
        "figure its own analysis reports), and per kernel (count, total, mean) and\n"
        "per op (self time, GPU time) the absolute and relative deltas, new,\n"
        "vanished and renamed names (a kernel launched from the same op, or in the\n"
        "same named range, under another name), sorted by impact, and the kernel\n"
        "time of each named range (record_function, NVTX, nn.Module) around the\n"
        "launches. Whether the step time changed beyond its step-to-step noise is a\n"
        "Mann-Whitney U test (step_noise).\n"
        "BASE and NEW may each be a folder of a job's rank traces: the ranks are\n"
        "merged as the viewer shows them, and with two jobs each rank's figures and\n"
        "the stragglers are compared too.\n"
        "Exit status: 0 nothing crossed, 1 a condition crossed, 2 bad input (a trace\n"
        "that cannot be read, a malformed option or condition). Each condition's\n"
        "outcome is also one line on stderr.";
    a.options = {
        {"top", OptionSpec::Kind::Count, "the N kernels, ops and scopes that changed most"},
        {"changed", OptionSpec::Kind::Flag, "only the kernels, ops and scopes that changed"},
        {"fail-if", OptionSpec::Kind::Texts, "exit 1 when EXPR holds (repeatable; see Conditions)",
         std::nullopt, "EXPR", [](const std::string& text) {
             std::string error;
             return parseFailIf(text, error) ? std::string() : error;
         }}};
    a.helpNotes = "Conditions:\n" + failIfGrammar();
    a.gate = gateOf;
    a.textColumns["kernels"] = {"name",           "status",        "count_base",
                                "count_new",      "total_base_ns", "total_new_ns",
                                "delta_total_ns", "relative",      "base_name"};
    a.textColumns["ops"] = {"name",         "status",      "count_base",  "count_new",
                            "self_base_ns", "self_new_ns", "gpu_base_ns", "gpu_new_ns"};
    a.primaryTable = "metrics";
    a.schemaVersion = 2;
    a.compareRuns = compareRuns;
    return a;
}

}  // namespace gapscope
