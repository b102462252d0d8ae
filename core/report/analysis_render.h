#pragma once
// One renderer per output format over an analysis's typed result: text for
// a terminal, CSV (RFC 4180, one table at a time), Markdown, an HTML page
// and JSON (one object: "analysis", "schema_version", the headline figures
// by key, each table by id as an array of rows, and the findings). Values
// are exact everywhere: integer ns and bytes, shares as fractions in JSON
// and as percentages with their unit in the headers elsewhere.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/analysis_registry.h"

namespace gapscope {

// The tables a result renders, in order: "figures" (when it has any), its
// tables, and with findings "findings", "finding_figures" and
// "finding_evidence". CSV writes one of them; the others all.
std::vector<ResultTable> renderedTables(const Trace& trace, const Analysis& analysis,
                                        const AnalysisResult& result);

// Text, CSV, Markdown or HTML. CSV writes the table `csvTable` (empty: the
// analysis's primary table); an unknown id is a std::invalid_argument.
std::string renderAnalysis(const Trace& trace, const Analysis& analysis,
                           const AnalysisResult& result, OutputFormat format,
                           const std::string& csvTable = {});

nlohmann::json analysisJson(const Trace& trace, const Analysis& analysis,
                            const AnalysisResult& result);

// "ns", "bytes", "share", "count", "time_ns", "number", "flag", "text": a
// figure's unit as JSON and CSV name it.
const char* unitName(Unit unit);

}  // namespace gapscope
