#include "loading/warnings_list.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace gapscope::ui {

WarningsList::WarningsList(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      toggle_(new QToolButton(this)),
      close_(new QToolButton(this)),
      list_(new QListWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(2);
    auto* top = new QHBoxLayout;
    auto* icon = new QLabel(this);
    const int size = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    summary_->setTextFormat(Qt::PlainText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    toggle_->setCheckable(true);
    toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle_->setArrowType(Qt::RightArrow);
    toggle_->setAutoRaise(true);
    close_->setText(QStringLiteral("×"));
    close_->setAutoRaise(true);
    close_->setToolTip(tr("Hide the warnings"));
    top->addWidget(icon);
    top->addWidget(summary_, 1);
    top->addWidget(toggle_);
    top->addWidget(close_);
    layout->addLayout(top);
    // At most ten lines tall: a long list scrolls instead of pushing the
    // timeline off the window.
    list_->setMaximumHeight(fontMetrics().height() * 10 + 8);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("Copy"), list_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, [this] {
        QStringList lines;
        for (const QListWidgetItem* item : list_->selectedItems())
            lines << item->text();
        QApplication::clipboard()->setText((lines.isEmpty() ? warnings_ : lines).join('\n'));
    });
    list_->addAction(copy);
    layout->addWidget(list_);
    connect(toggle_, &QToolButton::toggled, this, &WarningsList::setExpanded);
    connect(close_, &QToolButton::clicked, this, &QWidget::hide);
    setExpanded(false);
    hide();
}

void WarningsList::setWarnings(const QString& about, const QStringList& warnings) {
    warnings_ = warnings;
    list_->clear();
    list_->addItems(warnings);
    const QString count =
        warnings.size() == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings.size());
    summary_->setText(warnings.isEmpty() ? QString() : about + ": " + count);
    setExpanded(false);
    setVisible(!warnings.isEmpty());
}

bool WarningsList::expanded() const {
    return list_->isVisibleTo(this);
}

void WarningsList::setExpanded(bool expanded) {
    const QSignalBlocker block(toggle_);
    toggle_->setChecked(expanded);
    toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    toggle_->setText(expanded ? tr("Hide") : tr("Show"));
    list_->setVisible(expanded);
}

QString WarningsList::summaryText() const {
    return summary_->text();
}

}  // namespace gapscope::ui
