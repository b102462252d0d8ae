#pragma once
// The roofline of a GPU (log-log: FLOPs per byte across, TFLOP/s up): the
// memory roof (bandwidth × intensity) up to each compute roof (the dense
// peak of a data type), and each op signature a point at its intensity and
// achieved TFLOP/s, its area to scale with its GPU time. Hover names it
// with its figures; a click frames its first instance on the timeline.

#include <QWidget>
#include <optional>
#include <vector>

#include "panels/nav_target.h"
#include "util/types.h"

namespace gapscope::ui {

struct RooflinePoint {
    double intensity = 0;                        // FLOPs per byte
    double tflops = 0;                           // achieved
    TimeNs time = 0;                             // GPU time: the point's area
    enum class Bound { Compute, Memory, None };  // None: no roof holds it (a host copy)
    Bound bound = Bound::Compute;
    QString label;   // the op's name and shapes
    QString detail;  // its figures, for the tooltip
    NavTarget target;
};

struct RooflineRoofs {
    QString device;
    double memoryTBps = 0;                          // TB/s
    std::vector<std::pair<QString, double>> peaks;  // data type, TFLOP/s
};

class RooflineChart : public QWidget {
    Q_OBJECT
  public:
    explicit RooflineChart(QWidget* parent = nullptr);
    void setData(std::vector<RooflinePoint> points, std::optional<RooflineRoofs> roofs);
    const std::vector<RooflinePoint>& points() const { return points_; }
    // The point under `pos` (the smallest there), or -1; where point `i` is drawn.
    int pointAt(QPointF pos) const;
    QPointF centerOf(size_t i) const;
    QSize sizeHint() const override { return {560, 320}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

  signals:
    void pointClicked(const gapscope::ui::NavTarget& target);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent* e) override;

  private:
    struct Axes {
        QRectF plot;
        double x0 = -2, x1 = 4, y0 = -3, y1 = 4;  // log10 bounds
        QPointF at(double intensity, double tflops) const;
    };
    Axes axes() const;
    double radius(TimeNs time) const;

    std::vector<RooflinePoint> points_;
    std::vector<size_t> largestFirst_;  // the drawing order, made once per data
    std::optional<RooflineRoofs> roofs_;
    TimeNs maxTime_ = 0;
    int hovered_ = -1;
};

}  // namespace gapscope::ui
