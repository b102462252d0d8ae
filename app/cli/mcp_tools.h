#pragma once
// The agent tools of `gapscope-cli mcp` made from the registry: each
// analysis's input schema from its options, a tool call's arguments as the
// command line `gapscope-cli ID` would get, and its answer: the CLI's JSON
// with long tables paged, and a short summary for people and models.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/analysis_registry.h"

namespace gapscope::cli::mcp {

// Rows of each table per answer unless `limit` says otherwise, and the most.
inline constexpr int64_t kDefaultRows = 25;
inline constexpr int64_t kMaxRows = 500;
// An answer's JSON text is kept under this (fewer rows per page until it is).
inline constexpr size_t kMaxAnswerBytes = 256 * 1024;

// Every tool: open_trace, one per registered analysis, render.
nlohmann::json toolList(bool canRender);

// The tool of an analysis, by name; null for the others.
const Analysis* analysisTool(const std::string& name);

// A tool call's arguments as command-line tokens of `analysis` (its own
// options and the shared ones; not the paths); none, with why.
std::optional<std::vector<std::string>> optionTokens(const Analysis& analysis,
                                                     const nlohmann::json& arguments,
                                                     std::string& error);

// The paths the call names: `trace`; `base` and `new`; `paths`.
std::optional<std::vector<std::string>> inputPaths(const Analysis& analysis,
                                                   const nlohmann::json& arguments,
                                                   std::string& error);

struct Paging {
    std::string table;  // only this table (and the figures); empty: all
    int64_t offset = 0;
    int64_t limit = kDefaultRows;
};
std::optional<Paging> pagingOf(const Analysis& analysis, const nlohmann::json& arguments,
                               std::string& error);

// The CLI's JSON of a result, its tables (and findings) cut to the page,
// with "paging": {table: {total, offset, returned, next_offset}}.
nlohmann::json pagedJson(const Trace& subject, const Analysis& analysis,
                         const AnalysisResult& result, const Paging& paging);

// A few lines: the headline figures as people read them, each table's
// rows and page, the first findings, or the result's `empty` sentence.
std::string summaryText(const Trace& subject, const Analysis& analysis,
                        const AnalysisResult& result, const nlohmann::json& paged);

std::string base64(const std::string& bytes);

}  // namespace gapscope::cli::mcp
