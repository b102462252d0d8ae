#include "panels/analysis_table.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QResizeEvent>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "panels/analysis_panel.h"
#include "panels/cell_delegate.h"
#include "panels/result_rows.h"
#include "panels/table_export.h"
#include "panels/text_widths.h"
#include "panels/units.h"
#include "report/result_table.h"
#include "report/table.h"

namespace gapscope::ui {

void AnalysisTableModel::setColumns(std::vector<TableColumn> columns) {
    beginResetModel();
    columns_ = std::move(columns);
    rows_ = std::make_shared<const std::vector<TableRow>>();
    result_.reset();
    endResetModel();
}

void AnalysisTableModel::setRows(Rows rows) {
    if (!rows) rows = std::make_shared<const std::vector<TableRow>>();
    if (rows == rows_) return;
    beginResetModel();
    rows_ = std::move(rows);
    result_.reset();
    endResetModel();
}

void AnalysisTableModel::setRows(std::vector<TableRow> rows) {
    setRows(std::make_shared<const std::vector<TableRow>>(std::move(rows)));
}

void AnalysisTableModel::setResult(const ResultRows& r) {
    const bool sameColumns =
        r.columns.size() == columns_.size() &&
        std::equal(r.columns.begin(), r.columns.end(), columns_.begin(),
                   [](const TableColumn& a, const TableColumn& b) { return a.key == b.key; });
    // One reset: whoever listens sees the columns, rows and result together.
    beginResetModel();
    if (!sameColumns) columns_ = r.columns;
    rows_ = r.rows ? r.rows : std::make_shared<const std::vector<TableRow>>();
    result_ = r.result;
    origin_ = r.origin;
    endResetModel();
}

void AnalysisTableModel::clearRows() {
    setRows(Rows{});
}

int AnalysisTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_->size());
}

int AnalysisTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QString AnalysisTableModel::displayText(int row, int column) const {
    const TableCell& c = cell(row, column);
    if (c.empty) return QStringLiteral("-");
    switch (columns_[static_cast<size_t>(column)].kind) {
        case CellKind::Text:
            return c.text;
        case CellKind::Count:
            return groupedInteger(static_cast<qint64>(c.number));
        case CellKind::Duration:
        case CellKind::Time:
            return shortDuration(static_cast<TimeNs>(c.number));
        case CellKind::Bytes:
            return formatBytes(c.number);
        case CellKind::Percent:
            return formatPercent(c.number);
        case CellKind::Number:
            return c.text.isEmpty() ? QString::number(c.number, 'g', 4) : c.text;
    }
    return {};
}

QVariant AnalysisTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const TableCell& c = cell(index.row(), index.column());
    const CellKind kind = columns_[static_cast<size_t>(index.column())].kind;
    switch (role) {
        case Qt::DisplayRole:
            return displayText(index.row(), index.column());
        case kFilterRole:
            return kind == CellKind::Text && !c.tooltip.isEmpty()
                       ? displayText(index.row(), index.column()) + '\n' + c.tooltip
                       : displayText(index.row(), index.column());
        case Qt::ToolTipRole: {
            QString exact;
            if (!c.empty) {
                if (kind == CellKind::Duration) exact = exactNs(static_cast<TimeNs>(c.number));
                if (kind == CellKind::Time)
                    exact = tr("%1 from the start, absolute %2 ns")
                                .arg(exactNs(static_cast<TimeNs>(c.number)))
                                .arg(c.exact);
                if (kind == CellKind::Bytes) exact = exactBytes(c.number);
                if (kind == CellKind::Percent)
                    exact = QString::number(c.number * 100, 'f', 4) + " %";
                if (kind == CellKind::Text) exact = c.text;
            }
            if (!c.tooltip.isEmpty()) exact += (exact.isEmpty() ? "" : "\n") + c.tooltip;
            return exact.isEmpty() ? QVariant() : QVariant(exact);
        }
        case Qt::TextAlignmentRole:
            return kind == CellKind::Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
        case kShareRole:
            return kind == CellKind::Percent && !c.empty ? QVariant(c.number) : QVariant();
        default:
            return {};
    }
}

QVariant AnalysisTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section >= columnCount()) return {};
    return columns_[static_cast<size_t>(section)].title;
}

namespace {

// Sorts on the cells themselves: the stock proxy builds two QVariants per
// comparison, which for thousands of gaps or steps held the GUI thread for
// tens of ms. Text by its string, numbers by value, empty numbers first.
class CellSortProxy : public QSortFilterProxyModel {
  public:
    CellSortProxy(AnalysisTableModel* model, QObject* parent)
        : QSortFilterProxyModel(parent), model_(model) {}

  protected:
    bool lessThan(const QModelIndex& l, const QModelIndex& r) const override {
        const int column = l.column();
        const TableCell& a = model_->cell(l.row(), column);
        const TableCell& b = model_->cell(r.row(), column);
        if (model_->columns()[static_cast<size_t>(column)].kind == CellKind::Text)
            return QString::compare(a.text, b.text, sortCaseSensitivity()) < 0;
        const double x = a.empty ? -1e300 : a.number, y = b.empty ? -1e300 : b.number;
        return x < y;
    }

  private:
    AnalysisTableModel* model_;
};

}  // namespace

AnalysisTable::AnalysisTable(QWidget* parent)
    : QWidget(parent),
      model_(new AnalysisTableModel(this)),
      proxy_(new CellSortProxy(model_, this)),
      view_(new QTableView(this)),
      filter_(new QLineEdit(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterRole(kFilterRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setPlaceholderText(tr("Filter"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    view_->setModel(proxy_);
    view_->setItemDelegate(new CellDelegate(view_));
    view_->setSortingEnabled(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    // A long name keeps its start and its distinguishing end.
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(true);
    // Not the header too on every selection change (1-2 ms a repaint).
    view_->horizontalHeader()->setHighlightSections(false);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Fit the columns to new rows (names capped so the numbers stay in view).
    // The hidden columns first: the columns shown share the width.
    connect(model_, &QAbstractItemModel::modelReset, this, &AnalysisTable::applyHiddenColumns);
    connect(model_, &QAbstractItemModel::modelReset, this, &AnalysisTable::fitColumns);
    // A column a person sizes (a drag on the header, not a splitter's or the
    // dock's, which resize the stretched last column) keeps its width.
    view_->horizontalHeader()->viewport()->installEventFilter(this);
    connect(view_->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!fitting_ && headerPressed_) fittedByHand_ = true;
    });
    view_->viewport()->installEventFilter(this);  // its width: the columns follow
    view_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_->horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
            &AnalysisTable::showHeaderMenu);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(filter_);
    layout->addWidget(view_);
    auto* copy = new QAction(tr("Copy"), view_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &AnalysisTable::copySelection);
    view_->addAction(copy);
    view_->addActions(tableExportActions(view_, [this] { return snapshot(); }));
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto emitRow = [this](const QModelIndex& index) {
        if (!index.isValid()) return;
        const QModelIndex source = proxy_->mapToSource(index);
        emit activated(model_->row(source.row()).target);
        emit rowActivated(source.row());
    };
    // A row is shown when it becomes current (click, arrows); Enter or a
    // double-click shows it again (the next occurrence of a name).
    connect(view_, &QTableView::activated, this, emitRow);
    view_->installEventFilter(this);  // Shift+Enter: the previous occurrence
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [emitRow](const QModelIndex& current, const QModelIndex&) { emitRow(current); });
}

namespace {

// A column as the hidden list names it: a result's key, else its title.
QString columnId(const TableColumn& c) {
    return c.key.isEmpty() ? c.title : c.key;
}

}  // namespace

void AnalysisTable::setHiddenColumns(QStringList keys) {
    hidden_ = std::move(keys);
    applyHiddenColumns();
}

void AnalysisTable::applyHiddenColumns() {
    const auto& columns = model_->columns();
    for (size_t c = 0; c < columns.size(); ++c) {
        bool empty = columns[c].sparse;
        for (int r = 0; empty && r < model_->rowCount(); ++r)
            empty = model_->cell(r, static_cast<int>(c)).empty;
        view_->setColumnHidden(static_cast<int>(c),
                               empty || hidden_.contains(columnId(columns[c])));
    }
}

void AnalysisTable::showHeaderMenu(const QPoint& at) {
    QMenu menu(this);
    const auto& columns = model_->columns();
    for (size_t c = 0; c < columns.size(); ++c) {
        const int column = static_cast<int>(c);
        QAction* a = menu.addAction(columns[c].title);
        a->setCheckable(true);
        a->setChecked(!view_->isColumnHidden(column));
        connect(a, &QAction::toggled, this, [this, column, id = columnId(columns[c])](bool shown) {
            view_->setColumnHidden(column, !shown);
            hidden_.removeAll(id);
            if (!shown) hidden_.append(id);
        });
    }
    menu.exec(view_->horizontalHeader()->mapToGlobal(at));
}

void AnalysisTable::fitColumns() {
    // Measured here from a sample of the rows spread over the whole table:
    // QTableView::resizeColumnsToContents asks the delegate for every
    // sampled cell's size hint (a style option per cell), which took 5-10 ms
    // of GUI time for 1,400 rows of a dozen columns even at 100 rows.
    constexpr int kSampleRows = 60;
    // A name is cut no shorter than this (it keeps its start and end).
    constexpr int kLeastNameWidth = 160;
    const TextWidths textWidth(view_->font());
    const int padding =
        2 * (view_->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 1) + 6;
    const int rows = model_->rowCount();
    const int step = std::max(1, rows / kSampleRows);
    QHeaderView* header = view_->horizontalHeader();
    std::vector<int> widths(static_cast<size_t>(model_->columnCount()));
    int total = 0;
    for (int c = 0; c < model_->columnCount(); ++c) {
        int width = header->sectionSizeHint(c);
        for (int r = 0; r < rows; r += step)
            width = std::max(width, textWidth(model_->displayText(r, c)) + padding);
        if (rows > 0)  // and the last
            width = std::max(width, textWidth(model_->displayText(rows - 1, c)) + padding);
        widths[size_t(c)] = width;
        if (!view_->isColumnHidden(c)) total += width;
    }
    // Too wide for the view: the text columns (names, paths) give up what the
    // numbers need, each down to a name's least width: the later ones first,
    // the row's name (the first text column) last.
    int excess = total - view_->viewport()->width();
    for (int c = int(widths.size()) - 1; c >= 0 && excess > 0; --c) {
        if (view_->isColumnHidden(c) || model_->columns()[size_t(c)].kind != CellKind::Text)
            continue;
        const int cut = std::clamp(widths[size_t(c)] - kLeastNameWidth, 0, excess);
        widths[size_t(c)] -= cut;
        excess -= cut;
    }
    fitting_ = true;
    for (int c = 0; c < int(widths.size()); ++c)
        view_->setColumnWidth(c, widths[size_t(c)]);
    fitting_ = false;
}

bool AnalysisTable::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->horizontalHeader()->viewport()) {
        if (event->type() == QEvent::MouseButtonPress ||
            event->type() == QEvent::MouseButtonDblClick)
            headerPressed_ = true;
        else if (event->type() == QEvent::MouseButtonRelease)
            headerPressed_ = false;
    }
    if (watched == view_->viewport() && event->type() == QEvent::Resize && !fittedByHand_ &&
        !refitQueued_) {
        auto* resize = static_cast<QResizeEvent*>(event);
        if (resize->size().width() != resize->oldSize().width()) {
            // Once per pass of the event loop, however many resizes a drag makes.
            refitQueued_ = true;
            QTimer::singleShot(0, this, [this] {
                refitQueued_ = false;
                if (!fittedByHand_) fitColumns();
            });
        }
    }
    if (watched == view_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (enter && (key->modifiers() & Qt::ShiftModifier) && view_->currentIndex().isValid()) {
            NavTarget t = model_->row(proxy_->mapToSource(view_->currentIndex()).row()).target;
            t.backwards = true;
            emit activated(t);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AnalysisTable::setDefaultSort(const QString& key, Qt::SortOrder order) {
    const int column = model_->column(key);
    if (column >= 0) setDefaultSort(column, order);
}

int AnalysisTableModel::column(const QString& key) const {
    for (size_t c = 0; c < columns_.size(); ++c)
        if (columns_[c].key == key) return static_cast<int>(c);
    return -1;
}

void AnalysisTable::setDefaultSort(int column, Qt::SortOrder order) {
    if (sorted_) return;  // the proxy keeps its column and order for new rows
    sorted_ = true;
    view_->sortByColumn(column, order);
}

int AnalysisTable::visibleRows() const {
    return proxy_->rowCount();
}

const TableRow& AnalysisTable::visibleRow(int i) const {
    return model_->row(proxy_->mapToSource(proxy_->index(i, 0)).row());
}

std::vector<int> AnalysisTable::selectedSourceRows() const {
    std::vector<std::pair<int, int>> rows;  // (view row, source row)
    for (const QModelIndex& i : view_->selectionModel()->selectedRows())
        rows.push_back({i.row(), proxy_->mapToSource(i).row()});
    std::sort(rows.begin(), rows.end());
    std::vector<int> out;
    for (const auto& r : rows)
        out.push_back(r.second);
    return out;
}

QString AnalysisTable::selectedMarkdown() const {
    const std::vector<int> rows = selectedSourceRows();
    // A core result: its own Markdown rendering, as Copy All and the exports.
    if (const auto& result = model_->result()) {
        ResultTable picked = *result;
        picked.rows.clear();
        for (const int r : rows)
            picked.rows.push_back(result->rows[static_cast<size_t>(r)]);
        RenderOptions readable;
        readable.readable = true;
        readable.origin = model_->origin();
        return QString::fromStdString(renderResult(picked, OutputFormat::Markdown, readable));
    }
    return {};  // every table a panel shows is a core result's
}

QString AnalysisTable::selectedTabSeparated() const {
    const int columns = model_->columnCount();
    QStringList lines;
    QStringList header;
    for (int c = 0; c < columns; ++c)
        header << model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    lines << header.join('\t');
    for (const int r : selectedSourceRows()) {
        QStringList cells;
        for (int c = 0; c < columns; ++c)
            cells << model_->displayText(r, c).replace('\t', ' ');
        lines << cells.join('\t');
    }
    return lines.join('\n') + "\n";
}

std::vector<int> AnalysisTable::shownSourceRows() const {
    std::vector<int> rows;
    rows.reserve(static_cast<size_t>(proxy_->rowCount()));
    for (int i = 0; i < proxy_->rowCount(); ++i)
        rows.push_back(proxy_->mapToSource(proxy_->index(i, 0)).row());
    return rows;
}

QString AnalysisTable::exportTitle() const {
    for (const QObject* o = parent(); o; o = o->parent()) {
        if (const auto* panel = qobject_cast<const AnalysisPanel*>(o)) {
            QString title = panel->title();
            if (!accessibleName().isEmpty()) title += QStringLiteral(": ") + accessibleName();
            return title + QStringLiteral(" (") + panel->headerText() + QStringLiteral(")");
        }
    }
    return accessibleName().isEmpty() ? tr("Table") : accessibleName();
}

TableSnapshot AnalysisTable::snapshot() const {
    TableSnapshot t;
    t.model = model_;
    t.rows = shownSourceRows();
    t.title = exportTitle().toStdString();
    t.protect = protectedFilesOf(this);  // never the open trace or its annotations
    return t;
}

bool AnalysisTable::exportTo(const QString& path, QString* error) const {
    return writeTableSnapshot(snapshot(), path, error);
}

void AnalysisTable::copySelection() const {
    auto* mime = new QMimeData;
    mime->setText(selectedTabSeparated());
    mime->setData(QStringLiteral("text/markdown"), selectedMarkdown().toUtf8());
    QApplication::clipboard()->setMimeData(mime);
}

}  // namespace gapscope::ui
