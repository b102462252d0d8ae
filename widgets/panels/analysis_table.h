#pragma once
// The table every panel shows: a QAbstractTableModel of typed cells behind a
// QSortFilterProxyModel. Sortable by the raw value, filterable by text,
// numbers in units that fit them with the exact figure as tooltip,
// keyboard navigation, and Ctrl+C copying the selected rows as Markdown and
// tab-separated text. Activating a row (click, arrow keys, Enter) emits
// its NavTarget.

#include <QAbstractTableModel>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

#include "panels/nav_target.h"
#include "panels/table_export.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope {
struct ResultTable;
}

namespace gapscope::ui {

struct ResultRows;

// Time: a point in time, shown from the trace's start (as the ruler),
// exported as absolute integer ns (`exact`: a double cannot hold them).
enum class CellKind { Text, Count, Duration, Bytes, Percent, Number, Time };

// A Percent cell's share in [0, 1], for the delegate's bar behind the text.
inline constexpr int kShareRole = Qt::UserRole + 1;
// What the filter matches: the shown text and, for a short name, the whole.
inline constexpr int kFilterRole = Qt::UserRole + 2;

struct TableCell {
    double number =
        0;         // Count, Duration (ns), Bytes, Percent (share), Number; Time: from the start
    QString text;  // Text, or "" to format `number`
    bool empty = false;  // no value ("-")
    QString tooltip;     // extra, shown after the exact figure
    int64_t exact = 0;   // Time: absolute ns

    static TableCell ofTime(TimeNs absolute, TimeNs origin) {
        TableCell c;
        c.number = static_cast<double>(absolute - origin);
        c.exact = absolute;
        return c;
    }

    static TableCell of(double v) {
        TableCell c;
        c.number = v;
        return c;
    }
    static TableCell ofText(QString t) {
        TableCell c;
        c.text = std::move(t);
        return c;
    }
    static TableCell none() {
        TableCell c;
        c.empty = true;
        return c;
    }
};

struct TableColumn {
    TableColumn(QString title_ = {}, CellKind kind_ = CellKind::Text, QString key_ = {})
        : title(std::move(title_)), kind(kind_), key(std::move(key_)) {}
    QString title;
    CellKind kind = CellKind::Text;
    QString key;          // a core result's column key ("total_ns"); "" for a panel's own table
    bool sparse = false;  // hidden while no row has a value (a single trace's step rank)
};

struct TableRow {
    std::vector<TableCell> cells;
    NavTarget target;
};

class AnalysisTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    // Shared, not copied: a panel keeps the whole trace's rows and shows
    // them again; the same rows again leave the view as it is.
    using Rows = std::shared_ptr<const std::vector<TableRow>>;

    using QAbstractTableModel::QAbstractTableModel;
    void setColumns(std::vector<TableColumn> columns);
    void setRows(Rows rows);
    void setRows(std::vector<TableRow> rows);
    void clearRows();
    // A core result (panels/result_rows.h): its columns (kept when the keys
    // are the same), its rows, and the result for the exports.
    void setResult(const ResultRows& rows);
    // The result the rows were made of (null for a panel's own table), and
    // the origin its times are shown from.
    const std::shared_ptr<const ResultTable>& result() const { return result_; }
    TimeNs origin() const { return origin_; }
    const TableRow& row(int i) const { return (*rows_)[static_cast<size_t>(i)]; }
    // The index of the column with that key; -1 without one.
    int column(const QString& key) const;
    const TableCell& cell(int row, int column) const {
        return (*rows_)[static_cast<size_t>(row)].cells[static_cast<size_t>(column)];
    }
    const std::vector<TableColumn>& columns() const { return columns_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    QString displayText(int row, int column) const;

  private:
    std::vector<TableColumn> columns_;
    Rows rows_ = std::make_shared<const std::vector<TableRow>>();
    std::shared_ptr<const ResultTable> result_;
    TimeNs origin_ = 0;
};

class AnalysisTable : public QWidget {
    Q_OBJECT
  public:
    explicit AnalysisTable(QWidget* parent = nullptr);
    AnalysisTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QLineEdit* filter() const { return filter_; }
    // The rows as the view shows them (sorted, filtered): for tests and copy.
    int visibleRows() const;
    const TableRow& visibleRow(int i) const;
    // The selected rows as Markdown and as tab-separated text.
    QString selectedMarkdown() const;
    QString selectedTabSeparated() const;
    void copySelection() const;
    // Every shown row (sorted and filtered as the view shows them) to a
    // file, the format by its extension (panels/table_export.h), atomically.
    bool exportTo(const QString& path, QString* error) const;
    TableSnapshot snapshot() const;  // the shown rows, for exports
    std::vector<int> shownSourceRows() const;
    // "Kernels (Whole trace)": the panel's title and scope, for exports.
    QString exportTitle() const;
    // Sort by a column until the user picks another: the first call sorts,
    // later ones (new rows for another scope) keep the user's order.
    void setDefaultSort(int column, Qt::SortOrder order);
    // The same by a result's column key.
    void setDefaultSort(const QString& key, Qt::SortOrder order);
    // Columns (by key) hidden until the user shows them from the header's
    // context menu; a result's full table stays in the exports.
    void setHiddenColumns(QStringList keys);

  signals:
    void activated(const gapscope::ui::NavTarget& target);
    // The same activation by the model's row (a table whose rows name
    // something outside one trace, as a comparison's).
    void rowActivated(int sourceRow);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    std::vector<int> selectedSourceRows() const;
    void fitColumns();
    void applyHiddenColumns();
    void showHeaderMenu(const QPoint& at);

    AnalysisTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    bool sorted_ = false;
    QStringList hidden_;  // column keys
    // The columns follow the view's width until a person sizes one.
    bool fittedByHand_ = false;
    bool headerPressed_ = false;  // a button is down on the header
    bool fitting_ = false;
    bool refitQueued_ = false;
};

}  // namespace gapscope::ui
