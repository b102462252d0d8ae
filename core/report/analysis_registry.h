#pragma once
// Every analysis, registered once: its id, what it computes, its options
// (typed, with defaults and checks), its compute function over a trace and
// a scope, and what it returns: headline figures, typed tables and
// findings, each value with its unit. The CLI's commands, their --help,
// man page and completions, the JSON Schemas in docs/schema and the
// renderings in every format are made from this, not written per analysis.
// Adding an analysis is one file in report/analyses/ and one line in
// report/analyses/builtin_analyses.def.

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/advice.h"
#include "analysis/device_peaks.h"
#include "analysis/steps.h"
#include "report/compared_inputs.h"
#include "report/result_table.h"

namespace gapscope {

class ResultMemo;

// One option of an analysis: --NAME, a flag or a value.
struct OptionSpec {
    enum class Kind : uint8_t {
        Flag,    // --name
        Count,   // --name N, a positive integer
        Index,   // --name N, a non-negative integer (a step number)
        Micros,  // --name N, non-negative microseconds (exact decimals), kept in ns
        Texts,   // --name TEXT, repeatable: each value in order
    };
    std::string name;  // "top" is --top
    Kind kind = Kind::Flag;
    std::string help;                          // one line
    std::optional<int64_t> defaultValue = {};  // Count, Index, Micros (ns); none: absent
    std::string valueName = "N";
    // Texts: what is wrong with a value ("" when nothing), so that a
    // command refuses it before it loads anything.
    std::function<std::string(const std::string&)> check = {};
};

// The options' values by name, set from the command line or by a view.
class AnalysisOptions {
  public:
    void set(std::string_view name, int64_t value = 1) { values_[std::string(name)] = value; }
    void add(std::string_view name, std::string text) {
        texts_[std::string(name)].push_back(std::move(text));
    }
    bool flag(std::string_view name) const { return values_.contains(std::string(name)); }
    std::optional<int64_t> value(std::string_view name) const;
    // A Texts option's values in the order given; none when absent.
    const std::vector<std::string>& texts(std::string_view name) const;
    // Every value, in one text: equal texts, equal options.
    std::string key() const;

  private:
    std::map<std::string, int64_t, std::less<>> values_;
    std::map<std::string, std::vector<std::string>, std::less<>> texts_;
};

// Where an analysis looks: the CLI's --range / --step, or the viewer's scope.
struct Scope {
    // The figures' window: --range, or step N's lead-ins and GPU windows
    // (their hull over the GPUs), or the whole trace.
    Interval window = kWholeTrace;
    std::optional<Interval> range;  // --range as given
    std::optional<int64_t> step;    // --step N
    const std::regex* stepRegex = nullptr;
    TimeNs minGapNs = kDefaultGapThresholdNs;
    // Every GPU's roofs as a person gives them (--peak, Settings > GPU
    // Peaks), over the GPU table's: the efficiency figures' roofs.
    std::optional<DevicePeaks> peaks;
    const AnalysisIndex* index = nullptr;  // built once per trace; else built as needed
    const CancelToken* cancel = nullptr;
    // Where results of this trace are remembered (report/result_memo.h);
    // null: each computed afresh.
    ResultMemo* memo = nullptr;
    // How the loader used the index cache ("hit", "miss (no entry);
    // written"); empty without one. A fact of the load `info` reports.
    std::string indexCache;

    bool whole() const { return !range && !step; }
    // "No WHAT in this trace." (or "in this range."): a result's `empty`.
    std::string nothing(std::string_view what) const {
        return "No " + std::string(what) + (whole() ? " in this trace." : " in this range.");
    }
    // The steps' options over this scope's window (threshold, index, cancel).
    StepOptions stepOptions() const;
    // The steps in the scope: step N, else those that start inside the window.
    std::vector<Step> steps(const Trace& trace) const;
};

// What an analysis returns; every view renders it without computing.
struct AnalysisResult {
    // The headline figures: one row of columns (key, title, unit, `of`);
    // none when the analysis has no figures.
    ResultTable figures;
    std::vector<ResultTable> tables;  // always all of them, rows or not
    std::vector<Finding> findings;
    // Set when there is nothing to show, for people ("No GPU kernels in
    // this trace."): text, Markdown and HTML say it instead of the figures
    // and tables; CSV and JSON write them as always.
    std::string empty;

    void addFigure(ResultColumn column, ResultCell value);
    const ResultTable* table(std::string_view id) const;
    // A headline figure's value; null without one.
    const ResultCell& figure(std::string_view key) const { return figures.at(0, key); }
};

// A table of the summary (gapscope-cli summary, the HTML report) made of
// an analysis's result: one of its tables ("figures": the headline figures
// as one row), some of its columns, at most the summary's top rows.
struct SummaryPart {
    std::string table;                 // the result's table id, or "figures"
    std::string id;                    // the summary's table id (CSV file name, JSON key)
    std::string title;                 // its heading
    std::vector<std::string> columns;  // those shown, in this order; none: all
    bool top = false;                  // at most the summary's --top rows
};

// What an analysis reads: most one trace; a comparison what was loaded of
// two runs (gapscope-cli diff, the Compare panel) or of a job's ranks
// (gapscope-cli ranks, the Ranks panel), for which the caller loads.
enum class AnalysisInput : uint8_t { Trace, TwoRuns, Ranks };

struct Analysis {
    std::string id;     // the CLI command and JSON "analysis"
    std::string title;  // "Kernels": the panel's and the report's heading
    std::string arguments = "TRACE";
    std::string what;       // the command list's lines, '\n' between them
    std::string help;       // --help's paragraph (after the usage line)
    std::string helpNotes;  // --help's text after the options, as written (a grammar)
    std::vector<OptionSpec> options;
    bool scoped = true;             // takes --range and --step (else whole trace only)
    bool usesGapThreshold = false;  // takes --min-gap-us
    bool usesPeaks = false;         // takes --peak (its figures hold work against roofs)
    bool takesStepRegex = true;
    bool hasFindings = false;
    int schemaVersion = 1;
    // CSV without --table: this table ("figures" for the headline figures);
    // empty: the first of `tables`.
    std::string primaryTable;
    // The terminal's table shows these columns of a table (by table id);
    // every other format writes them all.
    std::map<std::string, std::vector<std::string>> textColumns;
    // What the summary shows of it, in the registry's order.
    std::vector<SummaryPart> summary;
    AnalysisInput input = AnalysisInput::Trace;
    // The viewer shows it in a panel (its own, or the one that claims it);
    // false: none does, as every part of it is another panel's table (the
    // summary, which the viewer's report writes).
    bool panel = true;
    // Its command reads a folder of a job's ranks as one trace, the ranks
    // merged (as the viewer opens them together), where the others refuse it.
    bool acrossRanks = false;
    // The compute function of its input (the one set):
    std::function<AnalysisResult(const Trace&, const Scope&, const AnalysisOptions&)> compute;
    std::function<AnalysisResult(const TwoRuns&, const AnalysisOptions&)> compareRuns;
    std::function<AnalysisResult(const RankJob&, const AnalysisOptions&)> compareRanks;
    // A gate's verdict, for the CLI: its exit status (0 nothing crossed, 1 a
    // condition crossed, 2 one that the runs cannot answer) and the lines it
    // also writes on stderr, whatever the format. Unset: 0 and none.
    std::function<int(const AnalysisResult&, std::string& log)> gate;

    bool readsOneTrace() const { return input == AnalysisInput::Trace; }
};

// The analysis over `scope` with `options`, each option it leaves unset at
// its registered default: how every view runs a registration. One about
// the whole trace (not `scoped`) gets the whole trace whatever `scope` says.
AnalysisResult computeAnalysis(const Analysis& analysis, const Trace& trace, const Scope& scope,
                               AnalysisOptions options = {});
// A comparison's, likewise (its input must be the analysis's).
AnalysisResult computeAnalysis(const Analysis& analysis, const TwoRuns& runs,
                               AnalysisOptions options = {});
AnalysisResult computeAnalysis(const Analysis& analysis, const RankJob& job,
                               AnalysisOptions options = {});

class AnalysisRegistry {
  public:
    // Checks the registration (a unique id, options, a compute function);
    // throws std::logic_error on a mistake, which is a programming error.
    void add(Analysis analysis);
    const Analysis* find(std::string_view id) const;
    const std::deque<Analysis>& all() const { return analyses_; }

  private:
    std::deque<Analysis> analyses_;  // a deque: pointers stay valid as more are added
};

// The built-in analyses (report/analyses/builtin_analyses.def), registered
// on first use; a test or a plug-in may add more.
AnalysisRegistry& analysisRegistry();

}  // namespace gapscope
