#pragma once
// Search slices by name: substring (case-insensitive) or regular
// expression; shows the match count; Enter / Shift+Enter step through the
// matches in time order.

#include <QWidget>
#include <memory>
#include <vector>

#include "model/trace.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace gapscope::ui {

// Per StringId, 1 when the name matches; empty when the query is empty.
// `error` is set for an invalid regular expression.
std::vector<uint8_t> matchNames(const Trace& trace, const QString& query, bool regex,
                                QString* error = nullptr);

class SearchBar : public QWidget {
    Q_OBJECT
  public:
    explicit SearchBar(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    void setQuery(const QString& text, bool regex);  // runs the search at once
    int matchCount() const { return static_cast<int>(matches_.size()); }
    // The matching slices, in time order, and what was searched.
    const std::vector<uint32_t>& matches() const { return matches_; }
    QString query() const;
    // Counts the searches run: equal counts, equal matches.
    uint64_t generation() const { return generation_; }
    int currentIndex() const { return current_; }
    void focusSearch();

  public slots:
    void next();
    void previous();

  signals:
    void namesChanged(const std::vector<uint8_t>& mask);
    void matchActivated(uint32_t slice);
    void matchesChanged();
    // Its List button: every match as a list (SearchResults).
    void listRequested();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void recompute();
    void step(int direction);
    void updateLabel();

    std::shared_ptr<const Trace> trace_;
    QLineEdit* edit_;
    QCheckBox* regex_;
    QLabel* count_;
    QTimer* debounce_;
    std::vector<uint32_t> matches_;  // slice ids in time order
    int current_ = -1;
    uint64_t generation_ = 0;
};

}  // namespace gapscope::ui
