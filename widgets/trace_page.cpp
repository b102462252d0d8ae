#include "trace_page.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include "loading/warnings_list.h"
#include "search/search_bar.h"
#include "timeline/arrangement_settings.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"

namespace gapscope::ui {

TracePage::TracePage(QWidget* parent)
    : QWidget(parent),
      state_(new ViewState(this)),
      runLabel_(new QLabel(this)),
      banner_(new QWidget(this)),
      bannerText_(new QLabel(banner_)),
      warnings_(new WarningsList(this)),
      search_(new SearchBar(this)),
      trackFilter_(new QLineEdit(this)),
      trackFilterTimer_(new QTimer(this)),
      arrangementTimer_(new QTimer(this)),
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

    runLabel_->setObjectName(QStringLiteral("runLabel"));
    runLabel_->setTextFormat(Qt::RichText);
    runLabel_->setContentsMargins(8, 3, 8, 3);
    runLabel_->hide();
    layout->addWidget(banner_);
    layout->addWidget(warnings_);
    // The slice search and the track filter share a line; compared, the
    // run's name heads it (a line less for each of the two timelines).
    auto* find = new QHBoxLayout;
    find->setContentsMargins(0, 0, 0, 0);
    find->setSpacing(0);
    find->addWidget(runLabel_);
    find->addWidget(search_, 1);
    find->addWidget(trackFilter_);
    layout->addLayout(find);
    trackFilter_->setObjectName(QStringLiteral("trackFilter"));
    trackFilter_->setPlaceholderText(tr("Filter tracks (name or regex)"));
    trackFilter_->setClearButtonEnabled(true);
    trackFilter_->setToolTip(
        tr("Shows only the tracks whose process or name matches, e.g. “GPU 3|rank 5 · .*main”. "
           "Pinned tracks stay."));
    trackFilter_->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 34);
    trackFilterTimer_->setSingleShot(true);
    trackFilterTimer_->setInterval(150);  // a keystroke does not rebuild a million rows
    connect(trackFilter_, &QLineEdit::textChanged, trackFilterTimer_, qOverload<>(&QTimer::start));
    connect(trackFilterTimer_, &QTimer::timeout, this, &TracePage::applyTrackFilter);
    connect(timeline_, &TimelineView::trackFilterRequested, this, [this] {
        trackFilter_->setFocus();
        trackFilter_->selectAll();
    });
    // Saved once the clicks pause (naming a million tracks takes a moment).
    arrangementTimer_->setSingleShot(true);
    arrangementTimer_->setInterval(1000);
    connect(timeline_, &TimelineView::arrangementChanged, arrangementTimer_,
            qOverload<>(&QTimer::start));
    connect(arrangementTimer_, &QTimer::timeout, this, &TracePage::saveArrangementNow);
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

void TracePage::setRunLabel(const QString& html) {
    runLabel_->setText(html);
    runLabel_->setVisible(!html.isEmpty());
}

void TracePage::applyTrackFilter() {
    trackFilterTimer_->stop();
    const int shown = timeline_->setTrackFilter(trackFilter_->text());
    const bool none = shown == 0 && !trackFilter_->text().trimmed().isEmpty();
    // Say that nothing matched rather than show an empty timeline unexplained.
    trackFilter_->setStyleSheet(none ? QStringLiteral("QLineEdit { color: #d9534f; }") : QString());
    trackFilter_->setToolTip(none ? tr("No track matches") : tr("%n track(s) shown", "", shown));
}

void TracePage::saveArrangementNow() {
    arrangementTimer_->stop();
    if (trace_) saveArrangement(path_, *trace_, timeline_->arrangement());
}

TracePage::~TracePage() {
    if (arrangementTimer_->isActive()) saveArrangementNow();
}

void TracePage::setTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    // The last trace's arrangement is saved before it goes.
    if (arrangementTimer_->isActive()) saveArrangementNow();
    const bool sameFile = !path.isEmpty() && path == path_;
    path_ = path;
    if (trace != trace_) ruler_->setSteps({});  // another trace's come with its index
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
    if (trace_) timeline_->setArrangement(loadArrangement(path_, *trace_));
    // A reload keeps the filter; another trace starts with all tracks.
    if (!sameFile) trackFilter_->clear();
    applyTrackFilter();
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
