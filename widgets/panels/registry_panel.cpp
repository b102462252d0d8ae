#include "panels/registry_panel.h"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/analysis_render.h"

namespace gapscope::ui {

RegistryPanel::RegistryPanel(AnalysisSession* session, const Analysis& analysis, QWidget* parent)
    : AnalysisPanel(session, parent),
      analysis_(analysis),
      figures_(new QLabel(this)),
      tabs_(new QTabWidget(this)) {
    figures_->setWordWrap(true);
    figures_->setTextFormat(Qt::RichText);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tabs_->setDocumentMode(true);
    tabs_->setTabBarAutoHide(true);  // one table: no tab to pick
    body()->addWidget(figures_);
    body()->addWidget(tabs_, 1);
}

QString RegistryPanel::title() const {
    return QString::fromStdString(analysis_.title);
}

QString RegistryPanel::dockName() const {
    return QString::fromStdString(analysis_.id) + QStringLiteral("Dock");
}

QString RegistryPanel::figuresText() const {
    return figures_->text();
}

void RegistryPanel::clearContents() {
    for (const auto& [id, table] : tables_)
        table->model()->clearRows();
    figures_->clear();
}

struct RegistryPanel::Computed {
    std::vector<std::pair<std::string, ResultRows>> tables;  // every table but the figures
    QString figures;                                         // the figures, for people
    QString empty;
    Derived derived;
};

namespace {

struct Inputs {
    const Analysis* analysis;
    AnalysisOptions options;
    RegistryPanel::Derive derive;
};

// "Title: value" per figure with a value, as people read them.
QString figureLines(const ResultTable& figures, TimeNs origin) {
    QStringList lines;
    if (figures.rows.empty()) return {};
    for (size_t c = 0; c < figures.columns.size(); ++c) {
        const ResultColumn& column = figures.columns[c];
        const ResultCell& cell = figures.rows.front().cells[c];
        if (std::holds_alternative<std::monostate>(cell)) continue;
        lines << QStringLiteral("%1: <b>%2</b>")
                     .arg(QString::fromStdString(column.title).toHtmlEscaped(),
                          QString::fromStdString(cellText(cell, column, true, origin))
                              .toHtmlEscaped());
    }
    return lines.join(QStringLiteral(" &nbsp;·&nbsp; "));
}

std::optional<RegistryPanel::Computed> computeRegistered(const AnalysisPanel::Request& request,
                                                         const Inputs& in) {
    const Trace& t = request.trace();
    const AnalysisResult result = computeAnalysis(*in.analysis, t, request.coreScope(), in.options);
    if (request.cancelled()) return std::nullopt;
    RegistryPanel::Computed c;
    if (in.derive) c.derived = in.derive(request.indexed->trace, result);
    for (ResultTable& table : renderedTables(t, *in.analysis, result)) {
        if (table.id == "figures") continue;
        std::string id = table.id;
        c.tables.emplace_back(std::move(id), resultRows(std::move(table), t.spanStart));
    }
    c.figures = figureLines(result.figures, t.spanStart);
    c.empty = QString::fromStdString(result.empty);
    return c;
}

}  // namespace

AnalysisPanel::Work RegistryPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                           AnalysisScope scope, TimeNs threshold) {
    return computeThen(indexed, scope, threshold, Inputs{&analysis_, options(), derive()},
                       &computeRegistered, &RegistryPanel::present);
}

void RegistryPanel::present(const Computed& c) {
    figures_->setText(c.empty.isEmpty() ? c.figures : c.empty.toHtmlEscaped());
    figures_->setVisible(!figures_->text().isEmpty());
    for (const auto& [id, rows] : c.tables) {
        auto it = std::find_if(tables_.begin(), tables_.end(),
                               [&](const auto& t) { return t.first == id; });
        if (it == tables_.end()) {  // the first result: a tab per table
            auto* table = new AnalysisTable(tabs_);
            const QString title = QString::fromStdString(rows.result->title);
            table->setAccessibleName(title);  // in export titles
            tabs_->addTab(table, title);
            connect(table, &AnalysisTable::activated, session(), &AnalysisSession::navigate);
            tables_.emplace_back(id, table);
            it = std::prev(tables_.end());
        }
        it->second->model()->setResult(rows);
        // The analysis's own order until a person sorts by a column.
        it->second->setDefaultSort(-1, Qt::AscendingOrder);
    }
    presented(c.tables);
    presentedDerived(c.derived);
}

}  // namespace gapscope::ui
