#include "search/search_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <utility>

#include "jobs/coalescing_runner.h"

namespace gapscope::ui {

namespace {

bool containsIgnoreCase(std::string_view hay, std::string_view needle) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                       [&](char a, char b) { return lower(a) == lower(b); }) != hay.end();
}

}  // namespace

std::vector<uint8_t> matchNames(const Trace& trace, const QString& query, bool regex,
                                QString* error) {
    if (query.isEmpty()) return {};
    std::vector<uint8_t> mask(trace.strings.size(), 0);
    if (regex) {
        const QRegularExpression re(query, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            if (error) *error = re.errorString();
            return {};
        }
        for (StringId id = 1; id < trace.strings.size(); ++id) {
            const std::string_view s = trace.str(id);
            mask[id] =
                re.match(QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()))).hasMatch();
        }
    } else {
        const std::string needle = query.toStdString();
        for (StringId id = 1; id < trace.strings.size(); ++id)
            mask[id] = containsIgnoreCase(trace.str(id), needle);
    }
    return mask;
}

SearchBar::SearchBar(QWidget* parent)
    : QWidget(parent),
      edit_(new QLineEdit(this)),
      regex_(new QCheckBox(tr("Regex"), this)),
      count_(new QLabel(this)),
      debounce_(new QTimer(this)),
      runner_(new CoalescingRunner(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    edit_->setPlaceholderText(tr("Search slices by name (Ctrl+F)"));
    edit_->setClearButtonEnabled(true);
    edit_->installEventFilter(this);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* nextButton = new QToolButton(this);
    nextButton->setText(QStringLiteral("▼"));
    nextButton->setToolTip(tr("Next match (Enter)"));
    auto* list = new QToolButton(this);
    list->setObjectName(QStringLiteral("searchList"));
    list->setText(tr("List"));
    list->setToolTip(tr("Every match in a list: name, track, start, duration (sortable)"));
    layout->addWidget(edit_, 1);
    layout->addWidget(regex_);
    layout->addWidget(prev);
    layout->addWidget(nextButton);
    layout->addWidget(list);
    layout->addWidget(count_);
    count_->setMinimumWidth(110);
    debounce_->setSingleShot(true);
    debounce_->setInterval(200);
    connect(debounce_, &QTimer::timeout, this, &SearchBar::recompute);
    connect(edit_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
    connect(regex_, &QCheckBox::toggled, this, &SearchBar::recompute);
    connect(prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &SearchBar::next);
    connect(list, &QToolButton::clicked, this, [this] {
        if (debounce_->isActive()) recompute();
        if (searching_)
            pendingList_ = true;
        else
            emit listRequested();
    });
}

void SearchBar::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    pendingStep_ = 0;  // a step asked for in the trace before
    pendingList_ = false;
    recompute();
}

void SearchBar::setQuery(const QString& text, bool regex) {
    const QSignalBlocker a(edit_), b(regex_);
    edit_->setText(text);
    regex_->setChecked(regex);
    recompute();
}

void SearchBar::focusSearch() {
    edit_->setFocus();
    edit_->selectAll();
}

void SearchBar::recompute() {
    debounce_->stop();
    runner_->cancelAll();
    const QString text = edit_->text();
    if (!trace_ || text.isEmpty()) {
        apply({}, {}, {});
        return;
    }
    searching_ = true;
    updateLabel();
    runner_->submit([this, trace = trace_, text, regex = regex_->isChecked()](
                        const CancelToken& cancel) -> std::function<void()> {
        QString error;
        std::vector<uint8_t> mask = matchNames(*trace, text, regex, &error);
        std::vector<uint32_t> matches;
        if (!mask.empty()) {
            const auto& slices = trace->slices;
            for (uint32_t i = 0; i < slices.size(); ++i) {
                if ((i & 0xFFFFF) == 0 && cancel.isCancelled()) return {};
                if (mask[slices[i].name]) matches.push_back(i);
            }
            std::stable_sort(matches.begin(), matches.end(), [&](uint32_t a, uint32_t b) {
                return slices[a].start < slices[b].start;
            });
        }
        return [this, mask = std::move(mask), matches = std::move(matches), error]() mutable {
            apply(std::move(mask), std::move(matches), error);
        };
    });
}

void SearchBar::apply(std::vector<uint8_t> mask, std::vector<uint32_t> matches,
                      const QString& error) {
    searching_ = false;
    ++generation_;
    matches_ = std::move(matches);
    current_ = -1;
    edit_->setToolTip(error);
    edit_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #d33"));
    updateLabel();
    emit namesChanged(mask);
    emit matchesChanged();
    if (const int direction = std::exchange(pendingStep_, 0)) step(direction);
    if (std::exchange(pendingList_, false)) emit listRequested();
}

QString SearchBar::query() const {
    return edit_->text();
}

void SearchBar::updateLabel() {
    if (searching_) {
        count_->setText(tr("searching…"));
    } else if (edit_->text().isEmpty()) {
        count_->clear();
    } else if (matches_.empty()) {
        count_->setText(tr("no matches"));
    } else if (current_ < 0) {
        count_->setText(tr("%n match(es)", nullptr, static_cast<int>(matches_.size())));
    } else {
        count_->setText(tr("%1 of %2").arg(current_ + 1).arg(matches_.size()));
    }
}

void SearchBar::step(int direction) {
    if (debounce_->isActive()) recompute();
    if (searching_) {  // once the matches are in
        pendingStep_ = direction;
        return;
    }
    if (matches_.empty()) return;
    const int n = static_cast<int>(matches_.size());
    current_ = current_ < 0 ? (direction > 0 ? 0 : n - 1) : (current_ + direction + n) % n;
    updateLabel();
    emit matchActivated(matches_[static_cast<size_t>(current_)]);
}

void SearchBar::next() {
    step(+1);
}
void SearchBar::previous() {
    step(-1);
}

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == edit_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            (key->modifiers() & Qt::ShiftModifier) ? previous() : next();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace gapscope::ui
