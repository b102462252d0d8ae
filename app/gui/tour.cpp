#include "tour.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace gapscope::app {

Tour::Tour(QWidget* window)
    : QObject(window),
      window_(window),
      bubble_(new QFrame(window)),
      highlight_(new QFrame(window)),
      title_(new QLabel(bubble_)),
      text_(new QLabel(bubble_)),
      counter_(new QLabel(bubble_)),
      back_(new QPushButton(tr("Back"), bubble_)),
      next_(new QPushButton(tr("Next"), bubble_)) {
    bubble_->setObjectName(QStringLiteral("tourBubble"));
    highlight_->setObjectName(QStringLiteral("tourHighlight"));
    // The highlight only outlines: clicks go through to what it marks.
    highlight_->setAttribute(Qt::WA_TransparentForMouseEvents);
    const QColor accent = window->palette().color(QPalette::Highlight);
    highlight_->setStyleSheet(QStringLiteral("#tourHighlight { border: 3px solid %1; "
                                             "border-radius: 6px; background: transparent; }")
                                  .arg(accent.name()));
    const QPalette palette = window->palette();
    bubble_->setStyleSheet(QStringLiteral("#tourBubble { background: %1; border: 2px solid %2; "
                                          "border-radius: 8px; } #tourBubble QLabel { color: %3; }")
                               .arg(palette.color(QPalette::Base).name(), accent.name(),
                                    palette.color(QPalette::Text).name()));
    title_->setTextFormat(Qt::RichText);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    back_->setObjectName(QStringLiteral("tourBack"));
    next_->setObjectName(QStringLiteral("tourNext"));
    auto* close = new QPushButton(tr("Skip tour"), bubble_);
    close->setObjectName(QStringLiteral("tourSkip"));
    close->setFlat(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(counter_);
    buttons->addStretch();
    buttons->addWidget(close);
    buttons->addWidget(back_);
    buttons->addWidget(next_);
    auto* layout = new QVBoxLayout(bubble_);
    layout->setContentsMargins(14, 10, 14, 10);
    layout->addWidget(title_);
    layout->addWidget(text_);
    layout->addLayout(buttons);
    bubble_->setFixedWidth(bubble_->fontMetrics().averageCharWidth() * 52);
    bubble_->hide();
    highlight_->hide();
    connect(back_, &QPushButton::clicked, this, [this] { showStep(current_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] {
        if (current_ + 1 < static_cast<int>(steps_.size())) {
            showStep(current_ + 1);
        } else {
            stop();
        }
    });
    connect(close, &QPushButton::clicked, this, &Tour::stop);
    window_->installEventFilter(this);
}

void Tour::start(std::vector<Step> steps) {
    steps_ = std::move(steps);
    if (steps_.empty()) return;
    showStep(0);
}

bool Tour::isActive() const {
    return current_ >= 0;
}

void Tour::showStep(int index) {
    if (index < 0 || index >= static_cast<int>(steps_.size())) return;
    current_ = index;
    const Step& s = steps_[static_cast<size_t>(index)];
    if (target_) target_->removeEventFilter(this);
    target_ = s.target ? s.target() : nullptr;
    if (target_) target_->installEventFilter(this);
    title_->setText(QStringLiteral("<b>%1</b>").arg(s.title));
    text_->setText(s.text);
    counter_->setText(tr("%1 of %2").arg(index + 1).arg(steps_.size()));
    back_->setEnabled(index > 0);
    next_->setText(index + 1 < static_cast<int>(steps_.size()) ? tr("Next") : tr("Done"));
    place();
    next_->setFocus();
}

void Tour::stop() {
    if (current_ < 0) return;
    current_ = -1;
    if (target_) target_->removeEventFilter(this);
    target_ = nullptr;
    bubble_->hide();
    highlight_->hide();
    emit finished();
}

void Tour::place() {
    if (current_ < 0) return;
    // The text wraps at the bubble's fixed width, so its height is the one
    // for that width (adjustSize() took the hint's, wider, and cut the last
    // line).
    const int width = bubble_->width();
    bubble_->layout()->activate();
    const int height = bubble_->layout()->hasHeightForWidth()
                           ? bubble_->layout()->totalHeightForWidth(width)
                           : bubble_->sizeHint().height();
    bubble_->resize(width, std::max(height, bubble_->minimumSizeHint().height()));
    const QRect area = window_->rect().adjusted(8, 8, -8, -8);
    QRect target = area;
    if (target_ && target_->isVisible())
        target = QRect(target_->mapTo(window_, QPoint(0, 0)), target_->size());
    highlight_->setGeometry(target.adjusted(-2, -2, 2, 2));
    highlight_->setVisible(target_ && target_->isVisible());
    highlight_->raise();
    // Inside a large target, at its lower right (the timeline's GPU rows
    // stay in view); above a small one when there is room, else below.
    const QSize b = bubble_->size();
    QPoint at;
    const bool large = target.width() * target.height() > area.width() * area.height() / 4;
    if (large) {
        at = QPoint(target.right() - b.width() - 24, target.bottom() - b.height() - 24);
    } else if (target.top() - b.height() - 12 >= area.top()) {
        at = QPoint(target.left() + 24, target.top() - b.height() - 12);
    } else if (target.bottom() + b.height() + 12 <= area.bottom()) {
        at = QPoint(target.left() + 24, target.bottom() + 12);
    } else {
        at = QPoint(target.left() + 24, target.top() + 48);
    }
    at.setX(std::clamp(at.x(), area.left(), std::max(area.left(), area.right() - b.width())));
    at.setY(std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - b.height())));
    bubble_->move(at);
    bubble_->show();
    bubble_->raise();
}

bool Tour::eventFilter(QObject* watched, QEvent* event) {
    if (current_ >= 0) {
        const auto type = event->type();
        if (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show ||
            type == QEvent::Hide || type == QEvent::LayoutRequest)
            place();
        if (watched == window_ && type == QEvent::KeyPress &&
            static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
            stop();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace gapscope::app
