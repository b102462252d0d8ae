#pragma once
// Search slices by name: substring (case-insensitive) or regular
// expression; shows the match count; Enter / Shift+Enter step through the
// matches in time order. The names are matched and the slices collected on
// a worker (a trace holds tens of millions); a step or the list asked for
// meanwhile follows when the matches arrive, and a newer query supersedes.

#include <QWidget>
#include <memory>
#include <vector>

#include "model/trace.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace gapscope::ui {

class CoalescingRunner;

// Per StringId, 1 when the name matches; empty when the query is empty.
// `error` is set for an invalid regular expression.
std::vector<uint8_t> matchNames(const Trace& trace, const QString& query, bool regex,
                                QString* error = nullptr);

class SearchBar : public QWidget {
    Q_OBJECT
  public:
    explicit SearchBar(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    // Starts the search now (no typing delay); matchesChanged() follows.
    void setQuery(const QString& text, bool regex);
    // A search is running: the matches are the previous query's until it ends.
    bool searching() const { return searching_; }
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
    void apply(std::vector<uint8_t> mask, std::vector<uint32_t> matches, const QString& error);

    CoalescingRunner* runner_;
    std::vector<uint32_t> matches_;  // slice ids in time order
    int current_ = -1;
    uint64_t generation_ = 0;
    bool searching_ = false;
    int pendingStep_ = 0;       // +1 / -1 asked for while searching
    bool pendingList_ = false;  // the list asked for while searching
};

}  // namespace gapscope::ui
