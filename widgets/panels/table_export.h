#pragma once
// A panel's table written out: CSV (RFC 4180, formula-safe) and JSON carry
// the raw values (integer ns, bytes, percent), Markdown and HTML the text
// the panel shows; HTML escapes everything from the trace. JSON has the
// shape of `gapscope-cli summary --format json`'s tables:
// {"title": T, "rows": [{"COLUMN": VALUE, ...}]}, missing values null.

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace gapscope::ui {

class AnalysisTableModel;

enum class TableExportFormat { Csv, Markdown, Json, Html };

// By the file name's extension (.csv, .md, .json, .html / .htm).
std::optional<TableExportFormat> tableExportFormatFor(const QString& path);

// `rows`: source rows of the model, in the order to write them (the view's).
std::string exportTable(const AnalysisTableModel& model, const std::vector<int>& rows,
                        TableExportFormat format, const std::string& title);

// A raw column's header: "Total (ns)", "Bytes (bytes)", "% busy (%)".
QString rawHeader(const AnalysisTableModel& model, int column);

}  // namespace gapscope::ui
