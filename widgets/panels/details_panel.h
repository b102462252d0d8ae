#pragma once
// The Details panel: everything about the selected slice (name, category,
// track, start, duration, self time, launch parameters, args parsed on
// demand, flows in and out as links), or a summary of the selected range.
// The range summary runs off the GUI thread (CoalescingRunner): dragging a
// range over a huge trace costs the GUI thread only the hand-over, and the
// panel shows the newest summary when it is ready.

#include <QWidget>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "timeline/time_axis.h"

class QLabel;
class QTextBrowser;

namespace gapscope::ui {

class DetailsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit DetailsPanel(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    void showSlice(uint32_t slice);
    // Several slices (Ctrl+click): their count, total and span, by name,
    // and a link to each.
    void showSlices(const std::vector<uint32_t>& slices);
    void showRange(TimeWindow range);
    void clear();
    QString plainText() const;  // for tests and copy
    bool summarising() const;   // a range summary is being computed

  signals:
    void sliceActivated(uint32_t slice);  // a flow link was clicked

  private:
    std::shared_ptr<const Trace> trace_;
    QLabel* status_;
    QTextBrowser* view_;
    class CoalescingRunner* runner_;
};

}  // namespace gapscope::ui
