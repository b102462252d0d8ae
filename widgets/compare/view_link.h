#pragma once
// One zoom for two timelines: the second shows the first's window mapped
// by a line (a time of the first, moved to an anchor and scaled, is the
// same moment of the second run: the same step's start, its end too when
// each is fitted to its step), both ways, and each can scroll as far as
// the other run reaches. Zooming or scrolling either keeps the two lined up.

#include <QObject>

#include "timeline/view_state.h"

namespace gapscope::ui {

// second = secondAt + (first − firstAt) × scale; scale 1 is one scale for both.
struct LinkMapping {
    TimeNs firstAt = 0, secondAt = 0;
    double scale = 1;  // the second's ns per ns of the first, > 0
    TimeNs toSecond(TimeNs first) const;
    TimeNs toFirst(TimeNs second) const;
    TimeWindow toSecond(TimeWindow w) const;
    TimeWindow toFirst(TimeWindow w) const;
};

class ViewLink : public QObject {
    Q_OBJECT
  public:
    ViewLink(ViewState* first, ViewState* second, QObject* parent = nullptr);
    // `firstSpan` and `secondSpan`: each run's own bounds. The second
    // follows the first now.
    void link(TimeWindow firstSpan, TimeWindow secondSpan, LinkMapping mapping);
    void unlink();
    bool linked() const { return linked_; }
    const LinkMapping& mapping() const { return mapping_; }

  private:
    void follow(ViewState* from, ViewState* to, bool toSecond);

    ViewState* first_;
    ViewState* second_;
    LinkMapping mapping_;
    bool linked_ = false;
    bool following_ = false;  // a change we made ourselves: not echoed back
};

}  // namespace gapscope::ui
