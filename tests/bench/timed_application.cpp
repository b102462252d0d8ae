#include "timed_application.h"

#include <QEvent>
#include <QPointer>

#include "bench_common.h"

namespace gapscope::bench {

bool TimedApplication::notify(QObject* receiver, QEvent* event) {
    if (depth_ > 0) return QApplication::notify(receiver, event);
    ++depth_;
    const auto t0 = Clock::now();
    const double cpu0 = threadCpuMs();
    const int type = event->type();           // the event may be gone afterwards
    const QPointer<QObject> alive(receiver);  // and so may the receiver
    const bool handled = QApplication::notify(receiver, event);
    const double ms = msSince(t0);
    --depth_;
    if (ms > slowest_.ms) {
        slowest_.ms = ms;
        slowest_.cpuMs = threadCpuMs() - cpu0;
        slowest_.what = QStringLiteral("event %1").arg(type);
        if (alive)
            slowest_.what = QStringLiteral("%1(%2) event %3")
                                .arg(alive->metaObject()->className(), alive->objectName())
                                .arg(type);
    }
    return handled;
}

}  // namespace gapscope::bench
