#include <iostream>
#include <mutex>

#include "analysis/analysis_index.h"
#include "analysis/rank_comparison.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "io/profile_files.h"
#include "io/rank_files.h"
#include "loader/path_meaning.h"
#include "loader/rank_set.h"
#include "report/ranks_report.h"
#include "util/readable_units.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli ranks DIR|FILE... [--format table|csv|md|json]\n"
    "                  [--align-step N] [--workers N] [--step-regex RE] [--min-gap-us N]\n"
    "  The ranks of a distributed job side by side: every trace file given (or in\n"
    "  DIR) is a rank (distributedInfo.rank, else worker<N> / rank<N> in the file\n"
    "  name, else the order). Per rank and step: step time, GPU busy, idle by cause,\n"
    "  communication and exposed communication, when the rank entered the step's\n"
    "  collective (its first communication kernel) and how long it waited there.\n"
    "  Each step's straggler is the rank that entered last: the others waited for\n"
    "  it; it says how long in all, and the straggler's longest work before it\n"
    "  entered. Files load in parallel (--workers, default the cores); a file that\n"
    "  fails is reported and the others are compared.\n"
    "  --align-step N   shift each rank's times so that its step N starts with the\n"
    "                   first rank's (for ranks whose clocks differ)\n"
    "  --workers N      files opened at once (default: the machine's cores)\n";

bool takeNumber(const char* flag, const char* text, int64_t& out) {
    try {
        size_t used = 0;
        out = std::stoll(text, &used);
        if (used == std::string(text).size() && out >= 0) return true;
    } catch (const std::exception&) {
    }
    std::cerr << "gapscope-cli ranks: " << flag << " takes a non-negative integer\n";
    return false;
}

void printVerdicts(const std::vector<RankRow>& rows, const RankComparison& c) {
    if (c.alignedOn) std::cout << "Aligned on step " << *c.alignedOn << ".\n";
    for (const StepStraggler& s : c.stragglers) {
        std::cout << "Step " << s.step << ": rank " << s.rank << " entered "
                  << (s.collective.empty() ? std::string("the collective") : s.collective)
                  << " last; the other " << s.waitingRanks << " waited "
                  << readableDuration(s.othersWait) << " in all (rank " << s.longestWaitRank
                  << " longest, " << readableDuration(s.longestWait) << ").";
        if (s.instead)
            std::cout << " Before it entered, its longest work was "
                      << (s.instead->gpu ? "GPU " : "CPU ") << s.instead->name << " ("
                      << readableDuration(s.instead->ns()) << ").";
        std::cout << "\n";
    }
    if (c.stragglers.empty() && rows.size() > 1)
        std::cout << "No step has a collective on two ranks or more: no straggler to name.\n";
    for (const ClockDisagreement& d : c.clockDisagreements)
        std::cout << "The ranks' clocks disagree: " << d.sentence()
                  << "; no collective can, so waits and stragglers between them are off"
                  << (c.alignedOn ? "" : " (--align-step N aligns them)") << ".\n";
}

}  // namespace

int runRanks(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    std::optional<int64_t> alignStep;
    int64_t workers = 0;
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--align-step" || a == "--workers") && i + 1 < argc) {
            int64_t n = 0;
            if (!takeNumber(a.c_str(), argv[++i], n)) return 1;
            if (a == "--align-step") alignStep = n;
            if (a == "--workers") workers = std::min<int64_t>(n, 1024);
        } else {
            rest.push_back(argv[i]);
        }
    }
    auto args = parseAnalysisArgs("ranks", static_cast<int>(rest.size()), rest.data(),
                                  {"--min-gap-us"}, true);
    if (!args) return 1;
    if (args->range || args->step) {
        std::cerr << "gapscope-cli ranks: --range and --step do not apply (every step)\n";
        return 1;
    }
    // What the paths mean, as the viewer decides it (the newest profile run
    // and profiler cycle unless named).
    PathChoices choices;
    choices.run = args->load.options.run;
    const PathMeaning meaning = meaningOfPaths(args->load.paths, choices);
    if (meaning.kind == PathMeaning::Kind::Error) {
        std::cerr << "gapscope: " << meaning.error << "\n";
        return 2;
    }
    std::vector<RankSource> sources =
        meaning.kind == PathMeaning::Kind::Ranks ? meaning.sources : wholeFiles({meaning.path});
    // A run of one host: its file, which names the rank by its host.
    if (meaning.kind == PathMeaning::Kind::Trace && !meaning.run.empty())
        if (std::vector<std::string> hosts = xspaceFilesIn(meaning.path); !hosts.empty())
            sources = wholeFiles(hosts);
    if (meaning.cycles.size() > 1 && meaning.cycles.front().size() == 1) {
        // One process's cycles: compared as ranks, as asked, with a word.
        std::cerr << "gapscope: warning: these " << meaning.cycles.size()
                  << " files are the cycles of one profiler (one process, one after "
                     "another), not the ranks of a job; compared as ranks all the same\n";
        sources.clear();
        for (const auto& cycle : meaning.cycles)
            sources.push_back({cycle.front(), {}});
    } else if (meaning.cycles.size() > 1) {
        std::cerr << "gapscope: these files are " << meaning.cycles.size() << " cycles of "
                  << meaning.sources.size()
                  << " ranks; comparing the ranks of the newest cycle (name its files to "
                     "compare another)\n";
    }
    RankLoadOptions options;
    options.load = args->load.options;
    options.workers = static_cast<unsigned>(workers);
    const StepOptions steps = args->stepOptions();
    // Figures on each file's own thread, then its trace is let go.
    std::mutex figuresMutex;
    std::map<std::string, RankFigures> figures;
    std::map<std::string, std::optional<Interval>> spans;
    options.afterLoad = [&](RankLoad& load) {
        const AnalysisIndex index(*load.result.trace);
        RankFigureOptions fo;
        fo.stepRegex = steps.regex;
        fo.minGapNs = steps.minGapNs;
        fo.index = steps.regex ? nullptr : &index;
        RankFigures f = rankFigures(*load.result.trace, fo);
        const Trace& t = *load.result.trace;
        const std::optional<Interval> span =
            t.hasSpan ? std::optional<Interval>(Interval{t.spanStart, t.spanEnd}) : std::nullopt;
        load.result.trace.reset();
        const std::lock_guard lock(figuresMutex);
        figures[load.name()] = std::move(f);
        spans[load.name()] = span;
    };
    const RankSetLoad loaded = loadRanks(sources, options);
    if (loaded.cancelled) return 2;
    for (const std::string& w : loaded.warnings)
        std::cerr << "gapscope: " << w << "\n";
    std::vector<RankEntry> entries;
    std::vector<RankRow> rows;
    for (const RankLoad& r : loaded.ranks) {
        if (r.result.failure) {
            std::cerr << "gapscope: " << r.result.failure->message() << "\n";
            RankRow row;
            row.entry = {r.rank, r.file, r.host, {}, 0, std::nullopt, r.part};
            row.origin = rankOriginName(r.origin);
            row.error = r.result.failure->where + ": " + r.result.failure->what;
            rows.push_back(std::move(row));
            continue;
        }
        entries.push_back(
            {r.rank, r.file, r.host, std::move(figures[r.name()]), 0, spans[r.name()], r.part});
    }
    if (entries.empty()) return 2;
    const RankComparison comparison = compareRanks(entries, alignStep);
    {
        std::vector<RankRow> loadedRows;
        for (RankEntry& e : entries) {
            RankRow row;
            for (const RankLoad& r : loaded.ranks)
                if (r.file == e.file && r.part == e.part) row.origin = rankOriginName(r.origin);
            row.entry = std::move(e);
            loadedRows.push_back(std::move(row));
        }
        loadedRows.insert(loadedRows.end(), std::make_move_iterator(rows.begin()),
                          std::make_move_iterator(rows.end()));
        std::stable_sort(
            loadedRows.begin(), loadedRows.end(),
            [](const RankRow& a, const RankRow& b) { return a.entry.rank < b.entry.rank; });
        rows = std::move(loadedRows);
    }
    if (args->format == OutputFormat::Json) {
        std::cout << ranksJson(rows, comparison) << "\n";
        return 0;
    }
    // The job per rank (the Ranks panel's table), per rank and step, and
    // the stragglers: exact values, in every table format.
    const ResultTable tables[] = {rankTable(rows, comparison), rankStepTable(rows),
                                  stragglerTable(comparison)};
    for (const ResultTable& t : tables) {
        if (args->format == OutputFormat::Text && t.rows.empty()) continue;
        if (args->format == OutputFormat::Csv) std::cout << "# " << t.id << "\n";
        if (args->format == OutputFormat::Markdown) std::cout << "## " << t.title << "\n\n";
        printResult(t, args->format);
        if (&t != &tables[2]) std::cout << "\n";
    }
    if (args->format != OutputFormat::Text) return 0;
    std::cout << "\n";
    printVerdicts(rows, comparison);
    return 0;
}

}  // namespace gapscope::cli
