#pragma once
// The Details panel: everything about the selected slice (name, category,
// track, start, duration, self time, launch parameters, args parsed on
// demand, flows in and out as links), or a summary of the selected range.

#include <QWidget>
#include <memory>

#include "model/trace.h"
#include "timeline/time_axis.h"

class QTextBrowser;

namespace gapscope::ui {

class DetailsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit DetailsPanel(QWidget* parent = nullptr);
    void setTrace(std::shared_ptr<const Trace> trace);
    void showSlice(uint32_t slice);
    void showRange(TimeWindow range);
    void clear();
    QString plainText() const;  // for tests and copy

  signals:
    void sliceActivated(uint32_t slice);  // a flow link was clicked

  private:
    std::shared_ptr<const Trace> trace_;
    QTextBrowser* view_;
};

}  // namespace gapscope::ui
