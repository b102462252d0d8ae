// gapscope-cli diff BASE NEW: the regression gate. Both traces' figures
// side by side with their deltas, and --fail-if conditions that set the
// exit status (1: one crossed, 2: bad input or a malformed condition).

#include <cmath>
#include <iostream>

#include "analysis/analysis_index.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "loader/path_meaning.h"
#include "loader/rank_view.h"
#include "report/diff_tables.h"
#include "report/fail_if.h"
#include "report/result_json.h"
#include "report/run_diff.h"
#include "report/table.h"
#include "util/readable_units.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli diff BASE NEW [--format table|md|json] [--step-regex RE]\n"
    "                  [--min-gap-us N] [--top N] [--fail-if EXPR]...\n"
    "  Compares two runs: mean and median step time, GPU busy and idle %, idle by\n"
    "  cause, exposed communication, memory peak, kernel time and count, and per\n"
    "  kernel (count, total, mean) and per op (self time, GPU time) the absolute and\n"
    "  relative deltas, new, vanished and renamed names (a kernel launched from the\n"
    "  same op, or in the same named range, under another name), sorted by impact,\n"
    "  and the kernel time of each named range (record_function, NVTX, nn.Module)\n"
    "  around the launches. --top N keeps the N kernels, ops and ranges that\n"
    "  changed most in the table (JSON keeps all).\n"
    "  BASE and NEW may each be a folder of a job's rank traces: the ranks are\n"
    "  merged as the viewer shows them, and with two jobs each rank's figures and\n"
    "  the stragglers are compared too.\n"
    "  --fail-if EXPR (repeatable): exit 1 when a condition holds, listing each.\n"
    "  Exit status: 0 nothing crossed, 1 a condition crossed, 2 bad input (a trace\n"
    "  that cannot be read, a malformed option or condition).\n"
    "Conditions:\n";

// The options that take a value, so that their values are not taken for traces.
const char* const kValued[] = {"--format",          "--range",   "--step",      "--step-regex",
                               "--min-gap-us",      "--top",     "--fail-if",   "--max-event-mb",
                               "--memory-limit-mb", "--threads", "--cache-dir", "--run"};

bool takesValue(const std::string& arg) {
    for (const char* v : kValued)
        if (arg == v) return true;
    return false;
}

std::string number(std::optional<double> v, MetricUnit unit) {
    if (!v) return "-";
    if (std::isinf(*v)) return *v > 0 ? "+inf" : "-inf";
    if (unit == MetricUnit::Percent) return fixed(*v, 2);
    return fixed(*v, std::abs(*v - std::round(*v)) < 1e-9 ? 0 : 1);
}

std::string signedNumber(std::optional<double> v, MetricUnit unit) {
    const std::string s = number(v, unit);
    return v && *v > 0 && !std::isinf(*v) ? "+" + s : s;
}

std::string relativeText(std::optional<double> v) {
    if (!v) return "-";
    std::string text = *v > 0 ? "+" : "";
    text += fixed(*v, 1);
    text += '%';
    return text;
}

// The relative change in percent, as the JSON writes it.
std::optional<double> relativeOf(double base, double now) {
    const std::optional<double> r = relativeChange(base, now);
    return r ? std::optional(100.0 * *r) : std::nullopt;
}

nlohmann::json textOrNull(const std::string& text) {
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

nlohmann::json finite(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return v ? nlohmann::json(*v > 0 ? "+inf" : "-inf") : nullptr;
    return *v;
}

// A shift test as the JSON names it (docs/cli.md).
nlohmann::json noiseJson(const ShiftTest& t) {
    auto ns = [](const std::optional<TimeNs>& v) { return v ? nlohmann::json(*v) : nullptr; };
    return {{"method", "mann_whitney_u"},
            {"exact", t.exact},
            {"level", t.level},
            {"p_value", t.pValue},
            {"significant", t.significant},
            {"steps_base", t.baseCount},
            {"steps_new", t.newCount},
            {"smallest_p_value", t.smallestP},
            {"shift_ns", ns(t.shift)},
            {"shift_low_ns", ns(t.shiftLow)},
            {"shift_high_ns", ns(t.shiftHigh)},
            {"interval_level", t.shift ? nlohmann::json(t.intervalLevel) : nullptr}};
}

// A job of ranks: each rank's figures and the stragglers, as `ranks`
// computes them.
struct Job {
    std::vector<RankRow> ranks;
    RankComparison comparison;
};

// What the viewer opens as the ranks of a job (a folder of rank traces, a
// profile run of several hosts, the ranks' processes of one export): the
// ranks merged into one trace as the viewer merges them (`trace`, null on
// failure, said on stderr), and the job. None for anything else, or with
// --process (one rank), `trace` untouched.
std::optional<Job> loadJob(const AnalysisArgs& args, std::shared_ptr<const Trace>& trace) {
    PathChoices choices;
    choices.run = args.load.options.run;
    const PathMeaning meaning = meaningOfPaths({args.load.path}, choices);
    if (meaning.kind != PathMeaning::Kind::Ranks || args.load.process) return std::nullopt;
    RankViewOptions options;
    options.load.load = args.load.options;
    const StepOptions steps = args.stepOptions();
    options.figures.stepRegex = steps.regex;
    options.figures.minGapNs = steps.minGapNs;
    RankView view = loadRankView(meaning.sources, meaning.path, options);
    for (const std::string& w : view.warnings)
        std::cerr << "gapscope: " << w << "\n";
    if (!view.trace) {
        std::cerr << "gapscope: "
                  << (view.failure ? view.failure->message() : args.load.path + ": no ranks")
                  << "\n";
        return Job{};
    }
    Job job;
    for (RankEntry& e : view.ranks)
        job.ranks.push_back({std::move(e), "", ""});
    for (const RankFailure& f : view.failed) {
        std::cerr << "gapscope: " << f.failure.message() << "\n";
        RankRow row;
        row.entry.rank = f.rank;
        row.entry.file = f.failure.path;
        row.entry.part = f.part;
        row.error = f.failure.where + ": " + f.failure.what;
        job.ranks.push_back(std::move(row));
    }
    std::stable_sort(job.ranks.begin(), job.ranks.end(), [](const RankRow& a, const RankRow& b) {
        return a.entry.rank < b.entry.rank;
    });
    job.comparison = std::move(view.comparison);
    trace = std::move(view.trace);
    return job;
}

}  // namespace

int runDiff(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            std::cout << kHelp << kFailIfGrammar << "Options:\n"
                      << kAnalysisOptionsHelp << kLoadOptionsHelp;
            return 0;
        }
    }
    // BASE and NEW are the first two arguments that are neither options nor
    // their values; everything else is shared by both loads.
    std::vector<std::string> paths;
    std::vector<std::string> conditions;
    std::vector<char*> shared;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--fail-if" && i + 1 < argc) {
            conditions.push_back(argv[++i]);
        } else if (takesValue(a) && i + 1 < argc) {
            shared.push_back(argv[i]);
            shared.push_back(argv[++i]);
        } else if (!a.empty() && a[0] != '-') {
            paths.push_back(a);
        } else {
            shared.push_back(argv[i]);
        }
    }
    if (paths.size() != 2) {
        std::cerr << "gapscope-cli diff: needs BASE and NEW (see --help)\n";
        return 2;
    }
    std::vector<FailIf> gates;
    for (const std::string& c : conditions) {
        std::string error;
        std::optional<FailIf> f = parseFailIf(c, error);
        if (!f) {
            std::cerr << "gapscope-cli diff: --fail-if: " << error << "\naccepted:\n"
                      << kFailIfGrammar;
            return 2;
        }
        gates.push_back(std::move(*f));
    }
    RunMetrics metrics[2];
    std::optional<Job> jobs[2];  // a folder of ranks: the job's ranks and stragglers
    std::optional<AnalysisArgs> args;
    for (int k = 0; k < 2; ++k) {
        std::vector<char*> one = shared;
        one.push_back(paths[static_cast<size_t>(k)].data());
        args = parseAnalysisArgs("diff", static_cast<int>(one.size()), one.data(),
                                 {"--min-gap-us", "--top"});
        if (!args) return 2;
        if (args->format == OutputFormat::Csv) {
            std::cerr << "gapscope-cli diff: --format takes table, md or json\n";
            return 2;
        }
        if (args->range || args->step || args->byDevice) {
            std::cerr << "gapscope-cli diff: --range and --step do not apply (whole runs are "
                         "compared)\n";
            return 2;
        }
        std::shared_ptr<const Trace> trace;
        if (std::optional<Job> job = loadJob(*args, trace)) {
            jobs[k] = std::move(*job);
        } else if (!trace) {
            trace = loadOrReport(args->load);
        }
        if (!trace) return 2;
        const AnalysisIndex index(*trace);
        StepOptions options = args->stepOptions();
        options.index = &index;
        metrics[k] = runMetrics(*trace, options);
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
    const RunDiff d = diffRuns(metrics[0], metrics[1], level);
    // Two jobs: each rank and the stragglers side by side too.
    std::vector<ResultTable> jobTables;
    if (jobs[0] && jobs[1]) {
        jobTables.push_back(diffRankTable(jobs[0]->ranks, jobs[0]->comparison, jobs[1]->ranks,
                                          jobs[1]->comparison));
        jobTables.push_back(diffStragglerTable(jobs[0]->comparison, jobs[1]->comparison));
    } else if (jobs[0] || jobs[1]) {
        std::cerr << "gapscope-cli diff: only " << (jobs[0] ? "BASE" : "NEW")
                  << " is a job of ranks: its ranks are compared as one trace\n";
    }
    std::vector<FailIfResult> results;
    bool crossed = false, unusable = false;
    for (const FailIf& g : gates) {
        results.push_back(evaluateFailIf(g, metrics[0], metrics[1]));
        crossed = crossed || results.back().crossed;
        unusable = unusable || !results.back().error.empty();
    }
    const int status = unusable ? 2 : crossed ? 1 : 0;

    if (args->format == OutputFormat::Json) {
        nlohmann::json j;
        j["base"] = paths[0];
        j["new"] = paths[1];
        j["verdict"] = d.verdict;
        // The input pipeline's verdict in each run (as `pipeline`'s), none
        // where a run has no input share.
        auto inputVerdict = [](const RunMetrics& m) {
            return m.inputShare ? nlohmann::json(inputVerdictName(m.inputVerdict))
                                : nlohmann::json(nullptr);
        };
        j["input_verdict"] = {{"base", inputVerdict(metrics[0])},
                              {"new", inputVerdict(metrics[1])}};
        for (const MetricDelta& m : d.metrics) {
            nlohmann::json row = {
                {"metric", m.metric},         {"unit", metricUnitName(m.unit)},
                {"base", finite(m.base)},     {"new", finite(m.now)},
                {"delta", finite(m.delta())}, {"relative_percent", finite(m.relative())}};
            // Whether the change is beyond noise, where a run's steps say.
            row["significant"] = nullptr;
            if (isStepTimeMetric(m.metric) && d.stepChange) {
                row["significant"] = d.stepChange->significant;
                row["noise_test"] = noiseJson(*d.stepChange);
            }
            j["metrics"].push_back(std::move(row));
        }
        j["kernels"] = nlohmann::json::array();
        for (const KernelDelta& k : d.kernels)
            j["kernels"].push_back(
                {{"name", k.name},
                 {"status", nameStatusName(k.status)},
                 {"base_name",
                  k.baseName.empty() ? nlohmann::json(nullptr) : nlohmann::json(k.baseName)},
                 {"op_path", textOrNull(k.now.count ? k.now.opPath : k.base.opPath)},
                 {"scope", textOrNull(k.now.count ? k.now.scope : k.base.scope)},
                 {"matched_by", textOrNull(k.matchedBy)},
                 {"base",
                  {{"count", k.base.count},
                   {"total_ns", k.base.total},
                   {"mean_ns", k.base.mean()}}},
                 {"new",
                  {{"count", k.now.count}, {"total_ns", k.now.total}, {"mean_ns", k.now.mean()}}},
                 {"delta_total_ns", k.now.total - k.base.total},
                 {"relative_total_percent",
                  finite(relativeOf(double(k.base.total), double(k.now.total)))}});
        j["ops"] = nlohmann::json::array();
        for (const OpDelta& o : d.ops)
            j["ops"].push_back(
                {{"name", o.name},
                 {"status", nameStatusName(o.status)},
                 {"base",
                  {{"count", o.base.count}, {"self_ns", o.base.self}, {"gpu_ns", o.base.gpu}}},
                 {"new", {{"count", o.now.count}, {"self_ns", o.now.self}, {"gpu_ns", o.now.gpu}}},
                 {"delta_self_ns", o.now.self - o.base.self},
                 {"delta_gpu_ns", o.now.gpu - o.base.gpu}});
        // Kernel time by scope: a named range's "name" is its path, null
        // for the kernels outside any.
        j["scopes"] = nlohmann::json::array();
        for (const ScopeDelta& sc : d.scopes)
            j["scopes"].push_back(
                {{"name", textOrNull(sc.name)},
                 {"status", nameStatusName(sc.status)},
                 {"base", {{"count", sc.base.count}, {"total_ns", sc.base.total}}},
                 {"new", {{"count", sc.now.count}, {"total_ns", sc.now.total}}},
                 {"delta_total_ns", sc.now.total - sc.base.total},
                 {"relative_total_percent",
                  finite(relativeOf(double(sc.base.total), double(sc.now.total)))},
                 {"only_base", sc.gone},
                 {"only_base_ns", sc.goneTime},
                 {"only_new", sc.added},
                 {"only_new_ns", sc.addedTime}});
        j["gpus"] = nlohmann::json::array();
        auto device = [](const std::optional<int>& gpu) {
            return gpu ? nlohmann::json(*gpu) : nlohmann::json(nullptr);
        };
        for (const GpuDelta& g : d.gpus) {
            nlohmann::json figures = nlohmann::json::array();
            for (const GpuDelta::Figure& f : g.figures)
                figures.push_back({{"figure", f.name},
                                   {"base_ns", f.base},
                                   {"new_ns", f.now},
                                   {"delta_ns", f.now - f.base}});
            j["gpus"].push_back({{"device_base", device(g.baseDevice)},
                                 {"device_new", device(g.newDevice)},
                                 {"figures", figures}});
        }
        j["findings"] = nlohmann::json::array();
        for (const FindingChange& f : d.findings)
            j["findings"].push_back(
                {{"status", findingStatusName(f.status)},
                 {"rule", f.finding.rule},
                 {"device", f.finding.device >= 0 ? nlohmann::json(f.finding.device)
                                                  : nlohmann::json(nullptr)},
                 {"severity", severityName(f.finding.severity)},
                 {"message", f.finding.message}});
        for (const ResultTable& t : jobTables)
            j[t.id] = resultRowsJson(t);
        j["fail_if"] = nlohmann::json::array();
        for (size_t i = 0; i < gates.size(); ++i)
            j["fail_if"].push_back(
                {{"expression", gates[i].text},
                 {"crossed", results[i].crossed},
                 {"base", finite(results[i].base)},
                 {"new", finite(results[i].now)},
                 {"measured", finite(results[i].measured)},
                 {"threshold", gates[i].threshold},
                 {"beyond_noise", gates[i].beyondNoise ? nlohmann::json(*gates[i].beyondNoise)
                                                       : nlohmann::json(nullptr)},
                 {"noise_test",
                  results[i].noise ? noiseJson(*results[i].noise) : nlohmann::json(nullptr)},
                 {"noise_agrees", results[i].noise ? nlohmann::json(results[i].noiseAgrees)
                                                   : nlohmann::json(nullptr)},
                 {"error", results[i].error.empty() ? nlohmann::json(nullptr)
                                                    : nlohmann::json(results[i].error)}});
        j["failed"] = crossed;
        printJson(j);
    } else {
        const bool md = args->format == OutputFormat::Markdown;
        const OutputFormat tableFormat = md ? OutputFormat::Markdown : OutputFormat::Text;
        std::cout << (md ? "## " : "") << "BASE " << paths[0] << "\n"
                  << (md ? "\n## " : "") << "NEW  " << paths[1] << "\n\n"
                  << d.verdict << "\n\n";
        // The tables the Compare panel shows, written exactly (integer ns, bytes).
        auto print = [&](const ResultTable& table, const std::string& heading, const char* none) {
            std::cout << "\n" << (md ? "### " : "") << heading << "\n\n";
            if (table.rows.empty())
                std::cout << none << "\n";
            else
                std::cout << renderResult(table, tableFormat, {.readable = false, .textWidth = 60});
        };
        std::cout << renderResult(diffFigureTable(d), tableFormat, {.readable = false});
        print(diffGpuTable(d), "GPU time per GPU", "(no GPU in either run)");
        std::cout << "\n"
                  << (md ? "Step time: " : "step time: ")
                  << (d.stepChange ? noiseSentence(*d.stepChange)
                                   : "no test against noise (fewer than two steps in a run)")
                  << "\n";
        const size_t top = args->top ? args->top : 20;
        print(diffKernelTable(d, true, top), "Kernels that changed most", "(none changed)");
        print(diffOpTable(d, true, top), "Ops that changed most", "(none changed)");
        if (!d.scopes.empty())
            print(diffScopeTable(d, true, top), "Kernel time by scope, changed", "(none changed)");
        print(diffFindingTable(d), "Advice, new and resolved", "(no finding in either run)");
        for (const ResultTable& t : jobTables)
            print(t, t.title + " of the two jobs", "(none)");
    }
    // The gate's verdict, always on stderr too, so a CI log shows it whatever the format.
    for (size_t i = 0; i < gates.size(); ++i) {
        const FailIfResult& r = results[i];
        const FailIf& g = gates[i];
        if (!r.error.empty()) {
            std::cerr << "gapscope-cli diff: cannot evaluate " << g.text << ": " << r.error << "\n";
            continue;
        }
        const std::string measured =
            g.measure == FailIf::Measure::RelativeChange
                ? relativeText(r.measured)
                : (g.measure == FailIf::Measure::Change ? signedNumber(r.measured, g.unit)
                                                        : number(r.measured, g.unit));
        std::cerr << (r.crossed ? "FAILED " : "ok     ") << g.text << ": " << measured << " (base "
                  << number(r.base, g.unit) << ", new " << number(r.now, g.unit) << " "
                  << metricUnitName(g.unit) << ")"
                  << (r.noise ? ", " + noiseSentence(*r.noise) : std::string())
                  << (r.noise && r.noise->significant && !r.noiseAgrees
                          ? ", but the steps moved the other way"
                          : "")
                  << "\n";
    }
    return status;
}

}  // namespace gapscope::cli
