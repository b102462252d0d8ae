#include "panels/table_export.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QWidget>
#include <nlohmann/json.hpp>

#include "export/export_files.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_session.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/result_json.h"
#include "report/table.h"

namespace gapscope::ui {

std::optional<OutputFormat> tableExportFormatFor(const QString& path) {
    const auto format = outputFormatForPath(path.toStdString());
    if (format == OutputFormat::Text) return std::nullopt;
    return format;
}

namespace {

Unit unitOf(CellKind kind) {
    switch (kind) {
        case CellKind::Count:
            return Unit::Count;
        case CellKind::Duration:
            return Unit::Duration;
        case CellKind::Bytes:
            return Unit::Bytes;
        case CellKind::Percent:
            return Unit::Share;
        case CellKind::Number:
            return Unit::Number;
        case CellKind::Time:
            return Unit::Time;
        case CellKind::Text:
            break;
    }
    return Unit::Text;
}

// The document around a table: Markdown with a heading, or an HTML page.
std::string exportDocument(const std::string& table, OutputFormat format,
                           const std::string& title) {
    if (format == OutputFormat::Markdown) return "# " + markdownEscape(title) + "\n\n" + table;
    if (format != OutputFormat::Html) return table;
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + htmlEscape(title) +
           "</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:2px 6px}</style></head><body>\n<h1>" +
           htmlEscape(title) + "</h1>\n" + table + "</body></html>\n";
}

// A core result's rows, in the order given, written by core's renderers:
// the same bytes as `gapscope-cli` for CSV and the same rows for JSON.
std::string exportResult(const AnalysisTableModel& model, const std::vector<int>& rows,
                         OutputFormat format, const std::string& title) {
    ResultTable picked = *model.result();
    picked.rows.clear();
    for (const int r : rows)
        picked.rows.push_back(model.result()->rows[static_cast<size_t>(r)]);
    if (format == OutputFormat::Json) {
        nlohmann::json out;
        out["title"] = title;
        out["rows"] = resultRowsJson(picked);
        return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    RenderOptions options;
    options.readable = format != OutputFormat::Csv;  // documents read as the panel shows
    options.origin = model.origin();
    return exportDocument(renderResult(picked, format, options), format, title);
}

}  // namespace

std::string exportTable(const AnalysisTableModel& model, const std::vector<int>& rows,
                        OutputFormat format, const std::string& title) {
    // Every table a panel shows is a core result's (panels/result_rows.h).
    if (model.result()) return exportResult(model, rows, format, title);
    // Nothing computed yet (an empty scope, a panel not shown): its columns
    // and no row, written by the same renderers.
    AnalysisTableModel empty;
    ResultTable none;
    for (const TableColumn& c : model.columns())
        none.columns.push_back({(c.key.isEmpty() ? c.title : c.key).toStdString(),
                                c.title.toStdString(), unitOf(c.kind)});
    empty.setResult(resultRows(std::move(none), model.origin()));
    return exportResult(empty, {}, format, title);
}

bool writeTableSnapshot(const TableSnapshot& table, const QString& path, QString* error) {
    const auto format = tableExportFormatFor(path);
    if (!format) {
        if (error)
            *error = QObject::tr("%1: the name must end in .csv, .md, .json or .html").arg(path);
        return false;
    }
    if (!table.model) {
        if (error) *error = QObject::tr("%1: there is no table to export yet").arg(path);
        return false;
    }
    const std::string bytes = exportTable(*table.model, table.rows, *format, table.title);
    return writeExportFile(path, QByteArray::fromStdString(bytes), error, table.protect);
}

void copyTableSnapshot(const TableSnapshot& table) {
    if (!table.model) return;
    const QString md = QString::fromStdString(
        exportTable(*table.model, table.rows, OutputFormat::Markdown, table.title));
    auto* mime = new QMimeData;
    mime->setText(md);
    mime->setData(QStringLiteral("text/markdown"), md.toUtf8());
    QApplication::clipboard()->setMimeData(mime);
}

QList<QAction*> tableExportActions(QWidget* on, std::function<TableSnapshot()> snapshot) {
    auto* copyAll = new QAction(QObject::tr("Copy All as Markdown"), on);
    QObject::connect(copyAll, &QAction::triggered, on,
                     [snapshot] { copyTableSnapshot(snapshot()); });
    auto* exportTo = new QAction(QObject::tr("Export Table…"), on);
    QObject::connect(exportTo, &QAction::triggered, on, [on, snapshot] {
        const TableSnapshot table = snapshot();
        // "Kernels (Whole trace)" -> kernels.csv
        const QString name =
            QString::fromStdString(table.title).section(QLatin1Char(' '), 0, 0).toLower();
        const QString path = QFileDialog::getSaveFileName(
            on, QObject::tr("Export Table"), suggestedSavePath(name + QStringLiteral(".csv")),
            QObject::tr("CSV (*.csv);;Markdown (*.md);;JSON (*.json);;HTML (*.html)"));
        if (path.isEmpty()) return;
        rememberSaveFolder(path);
        QString error;
        if (!writeTableSnapshot(table, path, &error))
            QMessageBox::warning(on, QObject::tr("Export Table"), error);
    });
    return {copyAll, exportTo};
}

QStringList protectedFilesOf(const QObject* inside) {
    for (const QObject* o = inside; o; o = o->parent()) {
        // A view of several traces (a comparison) names them all.
        if (const QVariant files = o->property(kProtectedFilesProperty); files.isValid())
            return files.toStringList();
        if (const auto* panel = qobject_cast<const AnalysisPanel*>(o))
            if (const auto trace = panel->session()->trace()) return protectedFiles(trace->path);
    }
    return {};
}

std::vector<int> allRows(const AnalysisTableModel& model) {
    std::vector<int> rows(static_cast<size_t>(model.rowCount()));
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<int>(i);
    return rows;
}

}  // namespace gapscope::ui
