#pragma once
// The one output-format vocabulary of the CLI, the summary and the panels'
// exports (each offers the formats that make sense for it).

#include <optional>
#include <string_view>

namespace gapscope {

enum class OutputFormat { Text, Csv, Markdown, Html, Json };

// "table" / "text", "csv", "md" / "markdown", "html", "json".
std::optional<OutputFormat> parseOutputFormat(std::string_view name);
// By a file name's extension: .txt, .csv, .md, .html / .htm, .json.
std::optional<OutputFormat> outputFormatForPath(std::string_view path);

}  // namespace gapscope
