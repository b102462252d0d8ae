#include "compare/compare_report.h"

#include "export/export_files.h"
#include "export/report_export.h"
#include "report/run_report.h"

namespace gapscope::ui {

namespace {

void addFacts(ReportContent& content, const Trace& trace, const std::string& name,
              const char* which) {
    for (auto [what, value] : traceFacts(trace, name))
        content.facts.emplace_back(what + " (" + which + ")", value);
}

}  // namespace

bool writeComparisonReport(const QString& path, const PictureSpec& base, const PictureSpec& now,
                           const ComparedRuns& runs, QString* error) {
    if (!isReportPath(path, error)) return false;
    const QStringList keep = protectedFiles(runs.base->path) + protectedFiles(runs.now->path);
    if (isProtected(path, keep)) {
        if (error)
            *error = QObject::tr(
                         "%1: this is a compared run or its annotations; choose another "
                         "name")
                         .arg(path);
        return false;
    }
    ReportContent content;
    const std::string baseName = base.title.toStdString(), newName = now.title.toStdString();
    content.traceName = baseName + " vs " + newName;
    content.title = "Gapscope comparison: " + content.traceName;
    addFacts(content, *runs.base, baseName, "base");
    addFacts(content, *runs.now, newName, "new");
    content.summary = runs.verdict();
    // The registered comparison, the kernels, ops and scopes that changed most.
    AnalysisOptions options;
    options.set("changed");
    options.set("top", 20);
    const AnalysisResult result =
        computeAnalysis(*analysisRegistry().find("diff"), runs.input, options);
    for (const ResultTable& t : result.tables) {
        if (t.rows.empty() || t.id == "fail_if") continue;
        content.tables.push_back(t);
        if (t.id == "kernels" || t.id == "ops" || t.id == "scopes")
            content.tables.back().title += ", changed most";
    }
    // People read the report: each figure carries its unit ("12.3 ms"), so
    // the machine unit column ("ns") would contradict it (the panel hides it too).
    for (ResultTable& table : content.tables) {
        for (size_t c = 0; c < table.columns.size(); ++c) {
            if (table.columns[c].key != "unit") continue;
            table.columns.erase(table.columns.begin() + std::ptrdiff_t(c));
            for (ResultRow& row : table.rows)
                if (c < row.cells.size()) row.cells.erase(row.cells.begin() + std::ptrdiff_t(c));
            break;
        }
    }
    content.withAnnotations = false;
    std::vector<QImage> images;
    for (const PictureSpec* spec : {&base, &now}) {
        QString why;
        images.push_back(renderPicture(*spec, &why));
        if (images.back().isNull()) {
            if (error) *error = QStringLiteral("%1: %2").arg(path, why);
            return false;
        }
        content.pictures.push_back(
            {"",
             (spec == &base ? QObject::tr("Base, %1: GPU idle gaps shaded by cause")
                            : QObject::tr("New, %1: the same moment of the lined-up step"))
                 .arg(spec->title)
                 .toStdString(),
             0});
    }
    return writeReportFile(path, std::move(content), images, keep, error);
}

}  // namespace gapscope::ui
