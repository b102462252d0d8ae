#include "search/search_results.h"

#include <QLabel>
#include <QVBoxLayout>

#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

SearchResults::SearchResults(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), table_(new AnalysisTable(this)) {
    setObjectName(QStringLiteral("searchResults"));
    header_->setWordWrap(true);
    table_->setAccessibleName(tr("search results"));  // in export titles
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(header_);
    layout->addWidget(table_, 1);
    connect(table_, &AnalysisTable::activated, this, &SearchResults::activated);
    setMatches(nullptr, {}, {});
}

QString SearchResults::headerText() const {
    return header_->text();
}

void SearchResults::setMatches(const Trace* trace, const std::vector<uint32_t>& matches,
                               const QString& query) {
    if (!trace || query.isEmpty()) {
        header_->setText(tr("Search slices by name (Ctrl+F): every match is listed here."));
        table_->model()->clearRows();
        return;
    }
    const QString quoted = QStringLiteral("“%1”").arg(query);
    if (matches.size() > kMostListed)
        header_->setText(tr("The first %L1 of %L2 slices named %3, in time order (narrow the "
                            "search to list the others).")
                             .arg(kMostListed)
                             .arg(matches.size())
                             .arg(quoted));
    else
        header_->setText(tr("%L1 slices named %2.").arg(matches.size()).arg(quoted));
    table_->model()->setResult(
        resultRows(sliceTable(*trace, matches, kMostListed), trace->spanStart));
}

}  // namespace gapscope::ui
