#pragma once
// GPU utilisation: the overview strip's data as a chart per device, the busy
// share of each bucket of the visible window (the bucket size settable),
// on the timeline's time axis. Hover shows the figure; a click frames the
// bucket.

#include "panels/analysis_panel.h"
#include "panels/table_export.h"
#include "panels/time_axis_chart.h"

class QDoubleSpinBox;
class QLabel;

namespace gapscope::ui {

class ViewState;

class UtilizationChart : public TimeAxisChart {
    Q_OBJECT
  public:
    explicit UtilizationChart(QWidget* parent = nullptr);
    // Per device: its index and the busy fraction of each bucket of `window`.
    // labels[r] names row r's GPU ("rank 2 · GPU 1" in merged ranks);
    // means[r] its busy share of the whole window (a line and a figure).
    void setData(Interval window, std::vector<std::pair<int, std::vector<double>>> rows,
                 QStringList labels, TimeNs origin = 0, std::vector<double> means = {});
    const std::vector<double>& means() const { return means_; }
    // A row's height: the rows share the chart's height (at least one
    // line of bars per GPU, the chart scrolls below that).
    int rowHeight() const;
    const std::vector<std::pair<int, std::vector<double>>>& rows() const { return rows_; }
    Interval window() const { return window_; }
    QString rowLabel(size_t r) const;
    size_t buckets() const { return rows_.empty() ? 0 : rows_.front().second.size(); }
    Interval bucket(int i) const;  // to the ns, rounded down
    QSize sizeHint() const override { return {600, 120}; }

  signals:
    void bucketClicked(gapscope::Interval bucket);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;

  private:
    // The (row, bucket) under a point, or {-1, -1}.
    std::pair<int, int> at(QPoint p) const;

    Interval window_;
    std::vector<std::pair<int, std::vector<double>>> rows_;
    QStringList labels_;
    std::vector<double> means_;
    TimeNs origin_ = 0;  // the time axis counts from here (the trace's start)
    std::optional<QPoint> mouse_;
};

class UtilizationPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    UtilizationPanel(AnalysisSession* session, ViewState* view, QWidget* parent = nullptr);
    QString title() const override { return tr("GPU Utilisation"); }
    QString dockName() const override { return QStringLiteral("utilizationDock"); }
    // It follows the timeline's visible window, whatever the panels' scope.
    QString scopeText() const override;
    UtilizationChart* chart() const { return chart_; }
    QDoubleSpinBox* bucket() const { return bucket_; }
    // The chart's numbers (each bucket's start and end, each GPU's busy
    // share), for Copy All as Markdown and Export Table.
    TableSnapshot snapshot() const;

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;
    bool keepsWholeTrace() const override { return false; }

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
    ViewState* view_;
    UtilizationChart* chart_;
    QDoubleSpinBox* bucket_;
    QLabel* note_;
};

}  // namespace gapscope::ui
