#pragma once
// Runs GUI-thread work one piece per pass of the event loop. When several
// workers finish together (every panel after a load or a scope change),
// their results would otherwise be applied back to back in one pass and
// hold off input and painting for their sum; paced, the loop serves input,
// timers and paints between any two of them.

#include <QObject>
#include <QPointer>
#include <deque>
#include <functional>

class QTimer;

namespace gapscope::ui {

class GuiPacer : public QObject {
    Q_OBJECT
  public:
    explicit GuiPacer(QObject* parent = nullptr);

    // Runs `piece` in a later pass, after what was queued before, unless
    // `owner` is gone by then.
    void post(QObject* owner, std::function<void()> piece);
    bool idle() const { return queue_.empty(); }

  private:
    void runOne();

    struct Piece {
        QPointer<QObject> owner;
        std::function<void()> run;
    };
    std::deque<Piece> queue_;
    QTimer* timer_;
};

}  // namespace gapscope::ui
