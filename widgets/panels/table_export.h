#pragma once
// A panel's table written out: CSV (RFC 4180, formula-safe) and JSON carry
// the raw values (integer ns, bytes), Markdown and HTML the text the panel
// shows; HTML escapes everything from the trace. JSON has the shape of
// `gapscope-cli summary --format json`'s tables:
// {"title": T, "rows": [{"KEY": VALUE, ...}]}, missing values null. Every
// panel's table is a core result, written by core's renderers (the CLI's
// CSV and JSON rows exactly).

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "report/output_format.h"

class QAction;
class QObject;
class QWidget;

namespace gapscope::ui {

class AnalysisTableModel;

// By the file name's extension (.csv, .md, .json, .html / .htm).
std::optional<OutputFormat> tableExportFormatFor(const QString& path);

// `rows`: source rows of the model, in the order to write them (the view's).
std::string exportTable(const AnalysisTableModel& model, const std::vector<int>& rows,
                        OutputFormat format, const std::string& title);

// What a panel exports when asked: its model (or one made for the export,
// kept alive by `owned`), the rows in the order shown, a title
// ("Kernels (Whole trace)") and the files no export may replace.
struct TableSnapshot {
    std::shared_ptr<const AnalysisTableModel> owned;
    const AnalysisTableModel* model = nullptr;
    std::vector<int> rows;
    std::string title;
    QStringList protect;
};

// Writes it to `path`, the format by the extension, atomically; false with
// "PATH: why" in `error`.
bool writeTableSnapshot(const TableSnapshot& table, const QString& path, QString* error);
// As Markdown on the clipboard (text and text/markdown).
void copyTableSnapshot(const TableSnapshot& table);
// "Copy All as Markdown" and "Export Table…" (a file dialog), parented to
// `on`, for its context menu; `snapshot` is taken when one is triggered.
QList<QAction*> tableExportActions(QWidget* on, std::function<TableSnapshot()> snapshot);
// The open trace and its annotations, for the panel `inside` is part of;
// or the files a widget around it names in this property (a QStringList).
QStringList protectedFilesOf(const QObject* inside);
inline constexpr const char* kProtectedFilesProperty = "gapscopeProtectedFiles";
// 0 .. rows-1: every row of a model in its own order.
std::vector<int> allRows(const AnalysisTableModel& model);

}  // namespace gapscope::ui
