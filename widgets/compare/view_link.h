#pragma once
// One zoom for two timelines: the second shows the first's window moved by
// an offset (a time of the first plus the offset is the same moment of the
// second run, e.g. the same step's start), both ways, and each can scroll
// as far as the other run reaches.

#include <QObject>

#include "timeline/view_state.h"

namespace gapscope::ui {

class ViewLink : public QObject {
    Q_OBJECT
  public:
    ViewLink(ViewState* first, ViewState* second, QObject* parent = nullptr);
    // `firstSpan` and `secondSpan`: each run's own bounds; `offset` takes
    // the first's times to the second's. The second follows the first now.
    void link(TimeWindow firstSpan, TimeWindow secondSpan, TimeNs offset);
    void unlink();
    bool linked() const { return linked_; }
    TimeNs offset() const { return offset_; }

  private:
    void follow(ViewState* from, ViewState* to, TimeNs shift);

    ViewState* first_;
    ViewState* second_;
    TimeNs offset_ = 0;
    bool linked_ = false;
    bool following_ = false;  // a change we made ourselves: not echoed back
};

}  // namespace gapscope::ui
