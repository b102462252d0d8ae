#include "panels/cell_delegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QPainter>
#include <QStyle>
#include <algorithm>

#include "panels/analysis_table.h"

namespace gapscope::ui {

void CellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                         const QModelIndex& index) const {
    const QWidget* view = option.widget;
    QStyle* style = view ? view->style() : QApplication::style();
    const QPalette::ColorGroup group = !(option.state & QStyle::State_Enabled) ? QPalette::Disabled
                                       : (option.state & QStyle::State_Active) ? QPalette::Active
                                                                               : QPalette::Inactive;
    const bool selected = option.state & QStyle::State_Selected;
    if (selected) painter->fillRect(option.rect, option.palette.brush(group, QPalette::Highlight));
    // A share shows as a bar behind its figure, so a column reads at a glance.
    if (const QVariant share = index.data(kShareRole); share.isValid() && !selected) {
        const double f = std::clamp(share.toDouble(), 0.0, 1.0);
        QColor bar = option.palette.color(group, QPalette::Highlight);
        bar.setAlpha(60);
        painter->fillRect(QRectF(option.rect.x(), option.rect.y() + 2, option.rect.width() * f,
                                 option.rect.height() - 4),
                          bar);
    }
    // The same margin the style gives item text.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    const QRect textRect = option.rect.adjusted(margin, 0, -margin, 0);
    const QString text = index.data(Qt::DisplayRole).toString();
    const QVariant align = index.data(Qt::TextAlignmentRole);
    const int flags = align.isValid() ? align.toInt() : int(Qt::AlignLeft | Qt::AlignVCenter);
    painter->setPen(
        option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
    painter->setFont(option.font);
    painter->drawText(textRect, flags | Qt::TextSingleLine,
                      option.fontMetrics.elidedText(text, option.textElideMode, textRect.width()));
    if (option.state & QStyle::State_HasFocus) {
        QStyleOptionFocusRect focus;
        focus.QStyleOption::operator=(option);
        focus.backgroundColor =
            option.palette.color(group, selected ? QPalette::Highlight : QPalette::Window);
        style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, view);
    }
}

}  // namespace gapscope::ui
