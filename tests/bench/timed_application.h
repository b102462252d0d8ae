#pragma once
// A QApplication that remembers the slowest event it delivered (outermost
// only: nested event loops are not counted twice), so that the benchmark can
// say which receiver stalled the GUI thread, not only for how long.

#include <QApplication>
#include <QString>
#include <chrono>

namespace gapscope::bench {

class TimedApplication : public QApplication {
  public:
    using QApplication::QApplication;

    struct Slowest {
        double ms = 0;
        double cpuMs = 0;  // of which the GUI thread was on a core
        QString what;      // "ClassName(objectName) event N"
    };

    bool notify(QObject* receiver, QEvent* event) override;
    void resetSlowest() { slowest_ = {}; }
    Slowest slowest() const { return slowest_; }
    static TimedApplication* instance() {
        return dynamic_cast<TimedApplication*>(QCoreApplication::instance());
    }

  private:
    int depth_ = 0;
    Slowest slowest_;
};

}  // namespace gapscope::bench
