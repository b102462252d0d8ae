#include "report/analysis_registry.h"

#include <stdexcept>

#include "analysis/analysis_index.h"
#include "report/analyses/builtin_analyses.h"
#include "report/result_memo.h"
#include "util/cancel_token.h"

namespace gapscope {

std::optional<int64_t> AnalysisOptions::value(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

const std::vector<std::string>& AnalysisOptions::texts(std::string_view name) const {
    static const std::vector<std::string> none;
    const auto it = texts_.find(name);
    return it == texts_.end() ? none : it->second;
}

std::string AnalysisOptions::key() const {
    std::string out;
    for (const auto& [name, value] : values_)
        out += name + "=" + std::to_string(value) + ";";
    for (const auto& [name, list] : texts_)
        for (const std::string& text : list)
            out += name + "+" + text + '\x1e';
    return out;
}

StepOptions Scope::stepOptions() const {
    StepOptions o;
    o.regex = stepRegex;
    o.index = index;
    o.minGapNs = minGapNs;
    o.window = window;
    o.cancel = cancel;
    return o;
}

std::vector<Step> Scope::steps(const Trace& trace) const {
    std::vector<Step> out;
    // The index has the default steps; a regex finds its own.
    const StepList found = index && !stepRegex ? StepList{} : findSteps(trace, stepRegex);
    const StepList& list = index && !stepRegex ? index->steps() : found;
    for (const Step& s : list.steps) {
        // Step N is that step, whose window (its GPU windows) may start
        // before its CPU span.
        if (step ? s.number == *step : s.span.start >= window.start && s.span.start < window.end)
            out.push_back(s);
    }
    return out;
}

namespace {

void setDefaults(const Analysis& analysis, AnalysisOptions& options) {
    for (const OptionSpec& o : analysis.options)
        if (o.defaultValue && !options.value(o.name)) options.set(o.name, *o.defaultValue);
}

void expectInput(const Analysis& analysis, AnalysisInput input) {
    if (analysis.input != input)
        throw std::logic_error("analysis '" + analysis.id + "' reads another input");
}

}  // namespace

AnalysisResult computeAnalysis(const Analysis& analysis, const TwoRuns& runs,
                               AnalysisOptions options) {
    expectInput(analysis, AnalysisInput::TwoRuns);
    setDefaults(analysis, options);
    return analysis.compareRuns(runs, options);
}

AnalysisResult computeAnalysis(const Analysis& analysis, const RankJob& job,
                               AnalysisOptions options) {
    expectInput(analysis, AnalysisInput::Ranks);
    setDefaults(analysis, options);
    return analysis.compareRanks(job, options);
}

AnalysisResult computeAnalysis(const Analysis& analysis, const Trace& trace, const Scope& scope,
                               AnalysisOptions options) {
    expectInput(analysis, AnalysisInput::Trace);
    setDefaults(analysis, options);
    // An analysis about the whole trace sees the whole trace, whatever the
    // view's scope (a panel passes its window, a step); one without a step
    // regex sees the steps without it.
    Scope own = scope;
    if (!analysis.scoped) {
        own.window = kWholeTrace;
        own.range.reset();
        own.step.reset();
    }
    if (!analysis.takesStepRegex) own.stepRegex = nullptr;
    // A result of this scope and these options computed before is the same.
    const std::string key = own.memo ? memoKey(analysis, own, options) : std::string();
    if (!key.empty())
        if (const auto known = own.memo->find(key)) return *known;
    AnalysisResult result = analysis.compute(trace, own, options);
    // A cancelled computation may be partial: not remembered.
    if (!key.empty() && !(own.cancel && own.cancel->isCancelled()))
        own.memo->remember(key, std::make_shared<const AnalysisResult>(result));
    return result;
}

void AnalysisResult::addFigure(ResultColumn column, ResultCell value) {
    if (figures.id.empty()) {
        figures.id = "figures";
        figures.title = "Figures";
    }
    if (figures.rows.empty()) figures.rows.emplace_back();
    figures.columns.push_back(std::move(column));
    figures.rows.front().cells.push_back(std::move(value));
}

const ResultTable* AnalysisResult::table(std::string_view id) const {
    if (id == "figures" && !figures.columns.empty()) return &figures;
    for (const ResultTable& t : tables)
        if (t.id == id) return &t;
    return nullptr;
}

void AnalysisRegistry::add(Analysis a) {
    auto fail = [&](const std::string& why) {
        throw std::logic_error("analysis '" + a.id + "': " + why);
    };
    if (a.id.empty() || a.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz-_") != std::string::npos)
        fail("an id is lower-case letters, '-' and '_'");
    if (find(a.id)) fail("registered twice");
    const int computes =
        int(bool(a.compute)) + int(bool(a.compareRuns)) + int(bool(a.compareRanks));
    const bool ofItsInput = a.input == AnalysisInput::Trace     ? bool(a.compute)
                            : a.input == AnalysisInput::TwoRuns ? bool(a.compareRuns)
                                                                : bool(a.compareRanks);
    if (computes != 1 || !ofItsInput) fail("needs the one compute function of its input");
    if (a.input != AnalysisInput::Trace && (a.scoped || !a.summary.empty()))
        fail("a comparison is about whole runs and is no part of one trace's summary");
    if (a.what.empty() || a.help.empty() || a.title.empty()) fail("no description");
    for (const OptionSpec& o : a.options) {
        if (o.name.empty() || o.name.starts_with("-") || o.help.empty())
            fail("option '" + o.name + "' needs a name without dashes and a help line");
        static constexpr std::string_view kShared[] = {"format",     "range",  "step",
                                                       "step-regex", "table",  "out",
                                                       "help",       "schema", "min-gap-us"};
        for (const std::string_view s : kShared)
            if (o.name == s) fail("option --" + o.name + " is one every analysis shares");
    }
    analyses_.push_back(std::move(a));
}

const Analysis* AnalysisRegistry::find(std::string_view id) const {
    for (const Analysis& a : analyses_)
        if (a.id == id) return &a;
    return nullptr;
}

AnalysisRegistry& analysisRegistry() {
    static AnalysisRegistry registry = [] {
        AnalysisRegistry r;
#define GAPSCOPE_ANALYSIS(name) r.add(name##Analysis());
#include "report/analyses/builtin_analyses.def"
#undef GAPSCOPE_ANALYSIS
        return r;
    }();
    return registry;
}

}  // namespace gapscope
