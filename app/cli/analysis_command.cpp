#include "analysis_command.h"

#include <charconv>
#include <filesystem>
#include <iostream>

#include "analysis_args.h"
#include "load_args.h"
#include "report/analysis_render.h"
#include "report/analysis_schema.h"
#include "util/atomic_file.h"
#include "util/decimal_time.h"

namespace gapscope::cli {

namespace {

constexpr size_t kHelpColumn = 22;  // where option descriptions start

// "  --top N             the text", continuation lines under the text.
std::string optionLine(const std::string& term, const std::string& text) {
    std::string out = "  " + term;
    out += out.size() + 2 <= kHelpColumn ? std::string(kHelpColumn - out.size(), ' ')
                                         : "\n" + std::string(kHelpColumn, ' ');
    for (const char c : text) {
        out += c;
        if (c == '\n') out += std::string(kHelpColumn, ' ');
    }
    return out + "\n";
}

std::string optionTerm(const OptionSpec& o) {
    return "--" + o.name + (o.kind == OptionSpec::Kind::Flag ? "" : " " + o.valueName);
}

std::vector<std::string> tableIds(const Analysis& a) {
    std::vector<std::string> ids;
    for (const TableShape& s : analysisShape(a))
        ids.push_back(s.table.id);
    return ids;
}

std::string primaryTable(const Analysis& a, const std::vector<std::string>& ids) {
    if (!a.primaryTable.empty()) return a.primaryTable;
    for (const std::string& id : ids)
        if (id != "figures") return id;
    return ids.empty() ? std::string() : ids.front();
}

bool parseInt(const std::string& s, int64_t& out) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

const char* extensionOf(OutputFormat f) {
    switch (f) {
        case OutputFormat::Json:
            return ".json";
        case OutputFormat::Markdown:
            return ".md";
        case OutputFormat::Html:
            return ".html";
        case OutputFormat::Csv:
            return ".csv";
        case OutputFormat::Text:
            break;
    }
    return ".txt";
}

}  // namespace

std::string analysisHelp(const Analysis& a) {
    // The usage line, wrapped under the command.
    const std::string head = "Usage: gapscope-cli " + a.id + " " + a.arguments;
    std::vector<std::string> parts = {"[--format table|csv|md|json|html]", "[--table NAME]",
                                      "[--out DIR]"};
    if (a.scoped) parts.insert(parts.end(), {"[--range START:END]", "[--step N]"});
    if (a.takesStepRegex) parts.push_back("[--step-regex RE]");
    if (a.usesGapThreshold) parts.push_back("[--min-gap-us N]");
    if (a.usesPeaks) parts.push_back("[--peak PEAKS]");
    for (const OptionSpec& o : a.options)
        parts.push_back("[" + optionTerm(o) + "]");
    std::string usage = head, line = head;
    const std::string indent(std::string("Usage: gapscope-cli ").size() + a.id.size() + 1, ' ');
    for (const std::string& p : parts) {
        if (line.size() + 1 + p.size() > 86) {
            usage += "\n" + indent + p;
            line = indent + p;
        } else {
            usage += " " + p;
            line += " " + p;
        }
    }
    std::string out = usage + "\n";
    std::string paragraph = "  ";
    for (const char c : a.help)
        paragraph += c == '\n' ? std::string("\n  ") : std::string(1, c);
    out += paragraph + "\n";
    for (const OptionSpec& o : a.options)
        out += optionLine(optionTerm(o), o.help);
    const std::vector<std::string> ids = tableIds(a);
    std::string tables;
    for (const std::string& id : ids)
        tables += (tables.empty() ? "" : ", ") + id;
    out += optionLine("--format table|csv|md|json|html",
                      "the output (default table); exact values: JSON times in\n"
                      "integer ns, shares as fractions");
    out += optionLine("--table NAME", "CSV: the table to write (default " + primaryTable(a, ids) +
                                          ");\none of: " + tables);
    out += optionLine(
        "--out DIR", "write to DIR instead of stdout (CSV: every table as\nNAME.csv; else " + a.id +
                         ".md, .json, .html or .txt)");
    out += optionLine("--schema", "print the JSON Schema of --format json (docs/schema)");
    if (a.scoped) {
        out +=
            optionLine("--range START:END", "only [START, END), absolute ns as in `info --json`");
        out += optionLine("--step N", "only step N (ProfilerStep#N, TensorFlow step_num, ...)");
    }
    if (a.takesStepRegex)
        out += optionLine("--step-regex RE",
                          "steps are the CPU slices whose name matches RE\n(ECMAScript)");
    if (a.usesGapThreshold)
        out += optionLine("--min-gap-us N",
                          "the gap threshold in microseconds (default 100; may be\nfractional)");
    if (a.usesPeaks)
        out += optionLine("--peak PEAKS",
                          "every GPU's roofs over the GPU table's: TFLOP/s per type\n"
                          "and GB/s, e.g. bf16=989.4,fp32=66.9,bw=3350,link=450");
    return out + kLoadOptionsHelp + a.helpNotes;
}

std::optional<CommandLine> parseCommandLine(const Analysis& a, int argc, char** argv, int& status,
                                            std::ostream& err) {
    const std::string name = "gapscope-cli " + a.id;
    status = 1;
    auto fail = [&](const std::string& why) {
        err << name << ": " << why << "\n";
        return std::nullopt;
    };
    CommandLine line;
    AnalysisArgs& args = line.args;
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "-h" || arg == "--help") {
            std::cout << analysisHelp(a);
            status = 0;
            return std::nullopt;
        }
        if (arg == "--schema") {
            std::cout << analysisSchema(a).dump(2) << "\n";
            status = 0;
            return std::nullopt;
        }
        if (arg == "--format" && hasValue) {
            const auto format = parseOutputFormat(argv[++i]);
            if (!format) return fail("--format takes table, csv, md, json or html");
            args.format = *format;
        } else if (arg == "--table" && hasValue) {
            line.table = argv[++i];
        } else if (arg == "--out" && hasValue) {
            line.outDir = argv[++i];
        } else if (arg == "--range" && hasValue && a.scoped) {
            args.range = parseRangeArg(argv[++i]);
            if (!args.range) return fail("--range takes START:END, integer ns with START < END");
            args.rangeGiven = true;
        } else if (arg == "--step" && hasValue && a.scoped) {
            int64_t n = 0;
            if (!parseInt(argv[++i], n) || n < 0) return fail("--step takes a step number");
            args.step = n;
        } else if ((arg == "--range" || arg == "--step") && !a.scoped) {
            return fail(a.id + " is about " +
                        (a.readsOneTrace() ? "the whole trace" : "whole runs") +
                        "; --range and --step do not apply");
        } else if (arg == "--step-regex" && hasValue && a.takesStepRegex) {
            args.stepRegexText = argv[++i];
            try {
                args.stepRegex.emplace(args.stepRegexText, std::regex::ECMAScript);
            } catch (const std::regex_error& e) {
                return fail("--step-regex: " + args.stepRegexText + ": " + e.what());
            }
        } else if (arg == "--peak" && hasValue && a.usesPeaks) {
            std::string error;
            args.peaks = parsePeaks(argv[++i], &error);
            if (!args.peaks) return fail(std::string("--peak ") + argv[i] + ": " + error);
        } else if (arg == "--min-gap-us" && hasValue && a.usesGapThreshold) {
            args.minGapNs = parseMicrosArg(argv[++i]);
            if (!args.minGapNs)
                return fail("--min-gap-us takes a non-negative number of microseconds");
        } else {
            const OptionSpec* spec = nullptr;
            for (const OptionSpec& o : a.options)
                if (arg == "--" + o.name) spec = &o;
            if (!spec) {
                rest.push_back(argv[i]);
                continue;
            }
            if (spec->kind == OptionSpec::Kind::Flag) {
                line.options.set(spec->name);
                continue;
            }
            if (!hasValue) return fail("--" + spec->name + " takes a value");
            const std::string v = argv[++i];
            int64_t n = 0;
            if (spec->kind == OptionSpec::Kind::Texts) {
                if (spec->check)
                    if (const std::string error = spec->check(v); !error.empty())
                        return fail("--" + spec->name + " " + v + ": " + error +
                                    (a.helpNotes.empty() ? "" : "\n" + a.helpNotes));
                line.options.add(spec->name, v);
                continue;
            }
            if (spec->kind == OptionSpec::Kind::Count) {
                if (!parseInt(v, n) || n <= 0)
                    return fail("--" + spec->name + " takes a positive count");
            } else if (spec->kind == OptionSpec::Kind::Index) {
                if (!parseInt(v, n) || n < 0)
                    return fail("--" + spec->name + " takes a non-negative integer");
            } else {
                const std::optional<TimeNs> ns = parseMicrosArg(v);
                if (!ns)
                    return fail("--" + spec->name + " takes a non-negative number of microseconds");
                n = *ns;
            }
            line.options.set(spec->name, n);
        }
    }
    if (!line.table.empty() && args.format != OutputFormat::Csv)
        return fail("--table picks the table of --format csv (the other formats write them all)");
    if (!line.table.empty()) {
        const std::vector<std::string> ids = tableIds(a);
        if (std::find(ids.begin(), ids.end(), line.table) == ids.end()) {
            std::string known;
            for (const std::string& id : ids)
                known += (known.empty() ? "" : ", ") + id;
            return fail("--table " + line.table + ": no such table (" + known + ")");
        }
    }
    if (!line.outDir.empty() && !std::filesystem::is_directory(line.outDir))
        return fail("--out " + line.outDir + ": not a folder");
    auto load = parseLoadArgs(name.c_str(), static_cast<int>(rest.size()), rest.data(), {},
                              !a.readsOneTrace(), err);
    if (!load) return std::nullopt;
    args.load = std::move(*load);
    return line;
}

int writeResult(const Analysis& a, const Trace& subject, const AnalysisResult& result,
                const CommandLine& line) {
    const std::string name = "gapscope-cli " + a.id;
    const OutputFormat format = line.args.format;
    // What goes where: (file name, bytes).
    std::vector<std::pair<std::string, std::string>> outputs;
    try {
        const std::vector<ResultTable> tables = renderedTables(subject, a, result);
        if (format == OutputFormat::Csv) {
            if (!line.table.empty() &&
                std::none_of(tables.begin(), tables.end(),
                             [&](const ResultTable& t) { return t.id == line.table; })) {
                std::string ids;
                for (const ResultTable& t : tables)
                    ids += (ids.empty() ? "" : ", ") + t.id;
                std::cerr << name << ": --table " << line.table << ": no such table (" << ids
                          << ")\n";
                return 1;
            }
            if (line.outDir.empty() || !line.table.empty())
                outputs.push_back(
                    {line.table.empty() ? a.id + ".csv" : line.table + ".csv",
                     renderAnalysis(subject, a, result, OutputFormat::Csv, line.table)});
            else
                for (const ResultTable& t : tables)
                    outputs.push_back({t.id + ".csv", renderResult(t, OutputFormat::Csv)});
        } else {
            outputs.push_back(
                {a.id + extensionOf(format), renderAnalysis(subject, a, result, format)});
        }
    } catch (const std::exception& e) {  // a registration's mistake (tst_registry checks them)
        std::cerr << name << ": " << subject.path << ": " << e.what() << "\n";
        return 2;
    }
    if (line.outDir.empty()) {
        std::cout << outputs.front().second;
        return 0;
    }
    for (const auto& [file, bytes] : outputs) {
        const std::string path = (std::filesystem::path(line.outDir) / file).string();
        const std::string error = writeFileAtomically(path, bytes, Overwrite::Yes);
        if (!error.empty()) {
            std::cerr << name << ": " << path << ": " << error << "\n";
            return 2;
        }
        std::cout << path << "\n";
    }
    return 0;
}

int finishCommand(const Analysis& a, const Trace& subject, const AnalysisResult& result,
                  const CommandLine& line) {
    const int written = writeResult(a, subject, result, line);
    // A gate that cannot say is bad input (2), never "crossed" (1).
    if (written != 0) return a.gate ? 2 : written;
    if (!a.gate) return 0;
    std::string log;
    const int status = a.gate(result, log);
    std::cerr << log;
    return status;
}

Scope scopeOf(const AnalysisArgs& args, std::string cacheNote) {
    Scope scope;
    scope.indexCache = std::move(cacheNote);
    scope.window = args.range.value_or(kWholeTrace);
    if (args.rangeGiven) scope.range = args.range;
    scope.step = args.step;
    scope.stepRegex = args.stepRegex ? &*args.stepRegex : nullptr;
    if (args.minGapNs) scope.minGapNs = *args.minGapNs;
    scope.peaks = args.peaks;
    return scope;
}

int runAnalysisCommand(const Analysis& a, int argc, char** argv) {
    int status = 1;
    std::optional<CommandLine> line = parseCommandLine(a, argc, argv, status);
    if (!line) return status;
    AnalysisArgs& args = line->args;
    std::string cacheNote;
    const auto trace = loadOrReport(args.load, &cacheNote, a.acrossRanks);
    if (!trace) return 2;
    if (!applyStepWindow(args, *trace, a.id.c_str())) return 1;

    const Scope scope = scopeOf(args, cacheNote);
    AnalysisResult result;
    try {
        result = computeAnalysis(a, *trace, scope, line->options);
    } catch (const std::exception& e) {  // a registration's mistake (tst_registry checks them)
        std::cerr << "gapscope-cli " << a.id << ": " << args.load.path << ": " << e.what() << "\n";
        return 2;
    }
    return finishCommand(a, *trace, result, *line);
}

}  // namespace gapscope::cli
