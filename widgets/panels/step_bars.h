#pragma once
// A stacked bar per step: its breakdown (compute, exposed communication,
// exposed memcpy, idle by cause, short gaps) on the first GPU, heights to
// scale, slow steps marked, the current step outlined. Hover shows the
// figures; a click picks the step.

#include <QWidget>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "analysis/steps.h"

namespace gapscope::ui {

class StepBars : public QWidget {
    Q_OBJECT
  public:
    explicit StepBars(QWidget* parent = nullptr);
    // Shared with the panel that shows them; the same steps again only repaint.
    void setSteps(std::shared_ptr<const std::vector<StepReport>> reports);
    void setCurrent(std::optional<int64_t> number);
    int stepAt(QPoint pos) const;  // index into the steps, or -1
    QSize sizeHint() const override { return {400, 140}; }

  signals:
    void stepClicked(int64_t number);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

  private:
    QRectF plot() const;

    std::span<const StepReport> steps() const {
        return steps_ ? std::span<const StepReport>(*steps_) : std::span<const StepReport>();
    }

    std::shared_ptr<const std::vector<StepReport>> steps_;
    std::optional<int64_t> current_;
    TimeNs longest_ = 1;
};

}  // namespace gapscope::ui
