#include "jobs/gui_pacer.h"

#include <QTimer>

namespace gapscope::ui {

GuiPacer::GuiPacer(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
    // A zero-interval timer fires once per pass, after the pass's posted
    // events and input: the pacing itself.
    timer_->setInterval(0);
    connect(timer_, &QTimer::timeout, this, &GuiPacer::runOne);
}

void GuiPacer::post(QObject* owner, std::function<void()> piece) {
    queue_.push_back({owner, std::move(piece)});
    timer_->start();
}

void GuiPacer::runOne() {
    while (!queue_.empty()) {
        Piece p = std::move(queue_.front());
        queue_.pop_front();
        if (!p.owner) continue;  // its owner is gone: nothing to run, try the next
        p.run();
        break;
    }
    if (queue_.empty()) timer_->stop();
}

}  // namespace gapscope::ui
