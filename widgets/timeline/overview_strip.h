#pragma once
// GPU utilisation over the whole trace, one lane per device, with the
// visible window marked; clicking or dragging navigates there. Beyond a few
// devices (the ranks of a large job) the lanes fold into a density band of
// a bounded height: devices × time, each pixel's colour the busy share of
// the devices and time it stands for, so the timeline keeps the window.

#include <QImage>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/gpu_time_account.h"
#include "jobs/coalescing_runner.h"
#include "model/trace.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

struct IndexedTrace;

class OverviewStrip : public QWidget {
    Q_OBJECT
  public:
    OverviewStrip(ViewState* state, int gutterWidth, QWidget* parent = nullptr);
    ~OverviewStrip() override;
    void setTrace(std::shared_ptr<const Trace> trace);
    // The trace's analysis index, once built: the busy shares are of the
    // steps' GPU windows it holds (the time account's), so the lanes show
    // "busy …" until it is given.
    void setIndexed(std::shared_ptr<const IndexedTrace> indexed);
    void setRightMargin(int px) {
        rightMargin_ = px;
        update();
    }
    QSize sizeHint() const override;
    // Devices drawn as lanes at most; more fold into the band.
    static constexpr int kMaxLanes = 8;
    // The band's height in pixels, whatever the devices' count.
    static constexpr int kBandHeight = 96;
    bool folded() const { return trace_ && trace_->gpuDevices.size() > size_t(kMaxLanes); }
    // The devices one band row stands for: [first, last) into gpuDevices.
    std::pair<size_t, size_t> bandRowDevices(int row) const;
    int bandRows() const;
    // For tests: whether the lanes for the current width are in, and how
    // many times a worker delivered them.
    bool lanesCurrent() const { return lanesKey_ == wantedKey(laneWidth()); }
    uint64_t lanesFromWorker() const { return lanesFromWorker_; }

  protected:
    bool event(QEvent*) override;  // the band's tooltip: the devices under the cursor
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

  private:
    void navigate(double x);
    void paintLanes(QPainter& p, int w, bool current);
    void paintBand(QPainter& p, int w);
    // Each GPU's busy share per pixel and over its active span, for the
    // whole trace: computed when the trace or the width changes, not per
    // paint (the strip repaints on every pan and zoom), and on a worker (the
    // busy union of a large trace has millions of intervals: 5 ms of GUI
    // time on a 1 GB trace). Until they arrive the last ones are stretched.
    struct Lane {
        std::optional<BusyShare> busy;  // of the time account's denominator
        std::vector<double> bins;
    };
    struct LanesKey {
        const Trace* trace = nullptr;
        const IndexedTrace* indexed = nullptr;
        int width = -1;
        TimeWindow bounds{0, 0};
        bool operator==(const LanesKey&) const = default;
    };
    // Empty when cancelled.
    static std::vector<Lane> computeLanes(const Trace& trace, const LanesKey& key,
                                          const IndexedTrace* indexed, const CancelToken* cancel);
    LanesKey wantedKey(int width) const;
    int laneWidth() const { return width() - gutter_ - rightMargin_; }
    void requestLanes(const LanesKey& key);
    std::vector<Lane> lanes_;
    std::shared_ptr<const IndexedTrace> indexed_;  // of trace_, once built
    LanesKey lanesKey_;                            // what lanes_ holds
    std::optional<LanesKey> asked_;                // what the worker is computing
    std::unique_ptr<CoalescingRunner> binner_;
    uint64_t lanesFromWorker_ = 0;
    // The band as an image, one pixel per column and band row, made once
    // per lanes and palette (the strip repaints on every pan and zoom).
    QImage bandImage_;
    std::optional<std::pair<LanesKey, std::pair<QRgb, QRgb>>> bandKey_;  // (idle, busy)

    ViewState* state_;
    int gutter_;
    int rightMargin_ = 0;
    std::shared_ptr<const Trace> trace_;
};

}  // namespace gapscope::ui
