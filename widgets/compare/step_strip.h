#pragma once
// Both runs' step times on one axis: a row per run, a tick per step, the
// band from p10 to p90 and the median, so the spread (the noise a change
// is weighed against) and the shift read at a glance. Hover names a step.

#include <QWidget>
#include <optional>
#include <vector>

#include "util/types.h"

namespace gapscope::ui {

struct StripRun {
    QString label;                  // "Base", "New"
    std::vector<TimeNs> durations;  // in step order
    std::vector<int64_t> numbers;   // the steps' numbers, parallel
    std::optional<double> median;
    std::optional<TimeNs> p10, p90;
};

class StepStrip : public QWidget {
    Q_OBJECT
  public:
    explicit StepStrip(QWidget* parent = nullptr);
    void setRuns(StripRun base, StripRun now);
    void clear();
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Base's colour and New's, as the timelines' labels show them.
    static QColor runColour(int run, bool dark);

  protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent*) override;

  private:
    struct Axis {
        double from = 0, to = 1;
        int left = 0, right = 0;
        double x(double ns) const;
    };
    Axis axis() const;
    int rowTop(int run) const;

    StripRun runs_[2];
};

}  // namespace gapscope::ui
