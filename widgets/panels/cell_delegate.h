#pragma once
// Paints a table cell as the analysis tables need it: the selection, the
// text elided to the cell, the focus frame. QStyledItemDelegate builds a
// full style option per cell (a dozen data() calls through the proxy) and
// draws through the style; for a panel of a dozen columns that was 4 ms of
// GUI time per repaint on the test machines. The model only answers
// DisplayRole, TextAlignmentRole and ToolTipRole, so nothing is lost.

#include <QStyledItemDelegate>

namespace gapscope::ui {

class CellDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

}  // namespace gapscope::ui
