#include "trace_page.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

#include "loading/warnings_list.h"
#include "search/search_bar.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"

namespace gapscope::ui {

TracePage::TracePage(QWidget* parent)
    : QWidget(parent),
      state_(new ViewState(this)),
      banner_(new QWidget(this)),
      bannerText_(new QLabel(banner_)),
      warnings_(new WarningsList(this)),
      search_(new SearchBar(this)),
      ruler_(new TimeRuler(state_, TimelineView::kGutterWidth, this)),
      overview_(new OverviewStrip(state_, TimelineView::kGutterWidth, this)),
      timeline_(new TimelineView(state_, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bannerLayout = new QHBoxLayout(banner_);
    bannerLayout->setContentsMargins(10, 6, 10, 6);
    banner_->setAutoFillBackground(true);
    QPalette warn = banner_->palette();
    warn.setColor(QPalette::Window, QColor(255, 236, 179));
    warn.setColor(QPalette::WindowText, QColor(80, 60, 0));
    banner_->setPalette(warn);
    bannerText_->setWordWrap(true);
    auto* report = new QPushButton(tr("Import report…"), banner_);
    bannerLayout->addWidget(bannerText_, 1);
    bannerLayout->addWidget(report);
    connect(report, &QPushButton::clicked, this, &TracePage::importReportRequested);
    banner_->hide();

    layout->addWidget(banner_);
    layout->addWidget(warnings_);
    layout->addWidget(search_);
    layout->addWidget(overview_);
    layout->addWidget(ruler_);
    layout->addWidget(timeline_, 1);

    // Keep the ruler and overview aligned with the timeline's track area.
    const int scrollbar = timeline_->findChild<QScrollBar*>()->sizeHint().width();
    ruler_->setRightMargin(scrollbar);
    overview_->setRightMargin(scrollbar);

    connect(search_, &SearchBar::namesChanged, timeline_,
            [this](const std::vector<uint8_t>& mask) { timeline_->setSearchNames(mask); });
    connect(search_, &SearchBar::matchActivated, this, [this](uint32_t slice) {
        if (!trace_) return;
        const Slice& s = trace_->slices[slice];
        state_->setSelectedSlice(slice);
        // Keep the zoom when the match is already comfortably visible.
        const TimeWindow v = state_->visible();
        if (s.start < v.start || s.end() > v.end || s.dur * 2000 < v.span()) {
            state_->fit({s.start, std::max(s.end(), s.start + 1)});
        }
        timeline_->revealSlice(slice);
    });
}

void TracePage::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    if (trace_ && trace_->hasSpan) {
        state_->reset({trace_->spanStart, std::max(trace_->spanEnd, trace_->spanStart + 1)});
    } else {
        state_->reset({0, 1000});
    }
    ruler_->setOrigin(trace_ ? trace_->spanStart : 0);
    ruler_->setNote(trace_ && trace_->alignedOnStep
                        ? tr("ranks aligned on step %1").arg(*trace_->alignedOnStep)
                        : QString());
    timeline_->setTrace(trace_);
    overview_->setTrace(trace_);
    search_->setTrace(trace_);
    if (trace_ && trace_->report.truncated) {
        const ImportReport& r = trace_->report;
        const QString why =
            r.warnings.empty() ? QString() : QString::fromStdString(r.warnings.front().message);
        bannerText_->setText(
            tr("<b>This trace was read only in part.</b> %1 events were kept; the rest of the "
               "file could not be read: %2")
                .arg(r.events)
                .arg(why.toHtmlEscaped()));
        banner_->show();
    } else {
        banner_->hide();
    }
}

}  // namespace gapscope::ui
