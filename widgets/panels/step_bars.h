#pragma once
// A stacked bar per step: its breakdown (compute, exposed communication,
// exposed memcpy, idle by cause, short gaps) on the first GPU, heights to
// scale, slow steps marked, the current step outlined. Hover shows the
// figures; a click picks the step.

#include <QImage>
#include <QPalette>
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
    using Steps = std::shared_ptr<const std::vector<StepReport>>;

    // The bars, without the outline of the current step, as a picture of
    // `size` logical pixels. A pure function of its arguments, so that a
    // panel's worker can draw it (1,000+ steps took 4-5 ms of GUI time).
    struct Picture {
        QImage image;
        const void* of = nullptr;  // the steps drawn
        QSize size;
        qreal dpr = 1;
        qint64 paletteKey = 0;
    };
    static Picture draw(const Steps& steps, QSize size, qreal dpr, const QPalette& palette);

    explicit StepBars(QWidget* parent = nullptr);
    // Shared with the panel that shows them; the same steps again only
    // repaint. `picture` is used when it was drawn for them at this size.
    void setSteps(Steps reports, Picture picture);
    void setSteps(Steps reports);
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
    bool fits(const Picture& p) const;

    std::span<const StepReport> steps() const {
        return steps_ ? std::span<const StepReport>(*steps_) : std::span<const StepReport>();
    }

    Steps steps_;
    std::optional<int64_t> current_;
    Picture picture_;
};

}  // namespace gapscope::ui
