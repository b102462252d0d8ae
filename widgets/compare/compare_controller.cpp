#include "compare/compare_controller.h"

#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSplitter>
#include <QTimer>
#include <algorithm>
#include <utility>

#include "compare/compare_panel.h"
#include "compare/compare_report.h"
#include "compare/step_strip.h"
#include "compare/view_link.h"
#include "export/export_files.h"
#include "export/image_export.h"
#include "jobs/coalescing_runner.h"
#include "loader/path_meaning.h"
#include "loading/trace_loader.h"
#include "panels/dock_content.h"
#include "panels/table_export.h"
#include "search/search_bar.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::ui {

namespace {

// The timelines' least height alone and compared (TimelineView's own: 200).
constexpr int kTimelineHeight = 200;
constexpr int kComparedTimelineHeight = 90;

TimeWindow spanOf(const Trace& t) {
    return t.hasSpan ? TimeWindow{t.spanStart, std::max(t.spanEnd, t.spanStart + 1)}
                     : TimeWindow{0, 1000};
}

QString runLabelHtml(int run, const QString& path, bool dark) {
    return QStringLiteral("<span style='color:%1'>■</span> <b>%2</b> %3")
        .arg(StepStrip::runColour(run, dark).name(),
             run == 0 ? CompareController::tr("Base") : CompareController::tr("New"),
             QFileInfo(path).fileName().toHtmlEscaped());
}

// The slice named `name` that starts first at or after `from`, else the
// first of that name; kNone when the trace has none.
uint32_t sliceNear(const Trace& t, const std::string& name, TimeNs from) {
    const StringId id = t.strings.find(name);
    if (id == StringTable::kNotFound) return kNone;
    uint32_t first = kNone, after = kNone;
    for (uint32_t i = 0; i < t.slices.size(); ++i) {
        const Slice& s = t.slices[i];
        if (s.name != id) continue;
        if (first == kNone || s.start < t.slices[first].start) first = i;
        if (s.start >= from && (after == kNone || s.start < t.slices[after].start)) after = i;
    }
    return after != kNone ? after : first;
}

}  // namespace

CompareController::CompareController(QMainWindow* window, TracePage* basePage, QSplitter* pages,
                                     ImageExport* baseImages)
    : QObject(window),
      window_(window),
      basePage_(basePage),
      pages_(pages),
      candidatePage_(new TracePage(pages)),
      loader_(new TraceLoader(this)),
      runner_(new CoalescingRunner(this)),
      framer_(new CoalescingRunner(this)),
      link_(new ViewLink(basePage->state(), candidatePage_->state(), this)),
      baseImages_(baseImages),
      candidateImages_(new ImageExport(candidatePage_, window)),
      panel_(new ComparePanel(window)),
      dock_(new QDockWidget(tr("Compare"), window)) {
    candidatePage_->setObjectName(QStringLiteral("candidatePage"));
    pages_->addWidget(candidatePage_);
    candidatePage_->hide();
    dock_->setObjectName(QStringLiteral("compareDock"));
    dock_->setWidget(fittingDockContent(panel_));
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    dock_->hide();
    connect(
        loader_, &TraceLoader::ranksLoaded, this,
        [this](std::shared_ptr<const RanksDocument> ranks) { loadedRanks_ = std::move(ranks); });
    connect(loader_, &TraceLoader::loaded, this, &CompareController::onCandidate);
    // A candidate that did not load leaves no half comparison behind.
    connect(loader_, &TraceLoader::failed, this,
            [this](const QString& message, const QString& path) {
                if (!std::exchange(expecting_, false)) return;
                close();
                emit failed(message, path);
            });
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        if (!std::exchange(expecting_, false)) return;  // one we cancelled ourselves
        close();
        emit loadCancelled();
    });
    connect(panel_, &ComparePanel::alignmentChosen, this, &CompareController::alignOn);
    connect(panel_, &ComparePanel::fittedChosen, this, &CompareController::setFitted);
    connect(panel_, &ComparePanel::kernelChosen, this, &CompareController::frameName);
    for (auto chosen : {&ComparePanel::opChosen, &ComparePanel::scopeChosen})
        connect(panel_, chosen, this, [this](const QString& name) { frameName(name); });
    connect(panel_, &ComparePanel::closeRequested, this, &CompareController::close);
    connect(panel_, &ComparePanel::reportRequested, this, &CompareController::chooseReport);
    connect(panel_, &ComparePanel::swapRequested, this, [this] {
        if (comparing()) emit swapRequested(candidatePath_, basePath_);
    });
}

CompareController::~CompareController() {
    loader_->cancel();
    runner_->cancelAll();
    framer_->cancelAll();
}

bool CompareController::computing() const {
    return runner_->busy() || framer_->busy() || loader_->isLoading();
}

void CompareController::compareWith(const QString& path, const QString& basePath) {
    close();  // nothing of a comparison before shows while this one loads
    basePath_ = basePath;
    std::vector<std::string> names = {QFile::encodeName(path).toStdString()};
    const PathMeaning meaning = meaningOfPaths(names);
    const QString target = QFile::decodeName(QByteArray::fromStdString(meaning.path));
    switch (meaning.kind) {
        case PathMeaning::Kind::Error:
            emit failed(QString::fromStdString(meaning.error), path);
            return;
        case PathMeaning::Kind::FleetTable:
            emit failed(tr("%1 is a fleet table, not a trace: it cannot be compared").arg(path),
                        path);
            return;
        case PathMeaning::Kind::Ranks:
            loader_->loadRanks(meaning.sources, target);
            break;
        case PathMeaning::Kind::Trace:
            loader_->load(target);
            break;
    }
    // After the load starts: starting it delivers the cancel of one before.
    expecting_ = true;
    requestedPath_ = target;
    emit started(target);
}

void CompareController::onCandidate(std::shared_ptr<const Trace> trace, const QString& path) {
    if (!std::exchange(expecting_, false) || !basePage_->trace()) return;
    candidate_ = std::move(trace);
    candidatePath_ = path;
    // The ranks come just before their merged trace; a single trace has none.
    candidateRanks_ = candidate_->ranks.empty() ? nullptr : std::move(loadedRanks_);
    loadedRanks_.reset();
    result_.reset();
    alignIndex_.reset();
    const bool dark = window_->palette().color(QPalette::Window).lightness() < 128;
    candidatePage_->setTrace(candidate_, path);
    candidatePage_->timeline()->setGapThreshold(gapThreshold_);
    candidatePage_->setRunLabel(runLabelHtml(1, path, dark));
    basePage_->setRunLabel(runLabelHtml(0, basePath_, dark));
    // Two timelines and the panel share the height: each timeline may be shorter.
    for (TracePage* page : {basePage_, candidatePage_})
        page->timeline()->setMinimumHeight(kComparedTimelineHeight);
    candidatePage_->show();
    pages_->setSizes({1, 1});  // the two runs share the height
    // Until the steps are known the runs line up on their starts.
    framed_.reset();
    link_->link(spanOf(*basePage_->trace()), spanOf(*candidate_),
                {basePage_->trace()->spanStart, candidate_->spanStart, 1.0});
    basePage_->state()->fitAll();
    panel_->setNames(QFileInfo(basePath_).fileName(), QFileInfo(path).fileName());
    // Exports from the panel never replace either run or its annotations.
    panel_->setProperty(kProtectedFilesProperty, protectedFiles(basePage_->trace()->path) +
                                                     protectedFiles(candidate_->path));
    showDock();
    emit opened(path);
    compute();
}

void CompareController::showDock() {
    // With the analysis panels, in front, and tall enough for its tables.
    auto* overview = window_->findChild<QDockWidget*>(QStringLiteral("overviewDock"));
    if (overview && !overview->isFloating() && !dock_->isFloating() &&
        !window_->tabifiedDockWidgets(overview).contains(dock_))
        window_->tabifyDockWidget(overview, dock_);
    dock_->show();
    dock_->raise();
    // Once the layout has the dock (a pass of the event loop).
    QTimer::singleShot(0, this, [this] {
        window_->resizeDocks({dock_}, {window_->height() * 2 / 5}, Qt::Vertical);
    });
}

void CompareController::compute() {
    const auto base = basePage_->trace();
    if (!base || !candidate_) return;
    panel_->setComputing(true);
    const bool dark = window_->palette().color(QPalette::Window).lightness() < 128;
    const std::shared_ptr<const Trace> now = candidate_;
    const TimeNs threshold = gapThreshold_;
    const ComparedJobs jobs{baseRanks_, candidateRanks_};
    runner_->submit(
        [this, base, now, threshold, dark, jobs, before = result_](const CancelToken& cancel) {
            std::shared_ptr<const ComparedRuns> runs =
                compareRuns(base, now, threshold, dark, cancel, before.get(), jobs);
            return std::function<void()>([this, runs] {
                if (!runs || runs->now != candidate_ || runs->base != basePage_->trace()) return;
                const bool first = !result_;
                if (first) framed_.reset();
                result_ = runs;
                candidatePage_->timeline()->setGapCauseColors(result_->newGapColours);
                candidatePage_->overview()->setIndexed(result_->newIndexed);
                alignment_ = alignRuns(*result_, alignIndex_);
                panel_->setRuns(result_, alignment_, alignIndex_);
                if (first) showAlignment();
                emit compared();
            });
        });
}

void CompareController::alignOn(std::optional<size_t> index) {
    alignIndex_ = index;
    if (!result_) return;
    alignment_ = alignRuns(*result_, alignIndex_);
    framed_.reset();
    showAlignment();
}

void CompareController::setFitted(bool fitted) {
    if (fitted_ == fitted) return;
    fitted_ = fitted;
    panel_->setFitted(fitted);
    if (!result_) return;
    if (framed_)
        showFramed();
    else
        showAlignment();
}

const LinkMapping& CompareController::linkMapping() const {
    return link_->mapping();
}

LinkMapping CompareController::stepMapping() const {
    const StepAlignment& a = alignment_;
    LinkMapping m{a.baseAt, a.newAt, 1.0};
    if (!fitted_) return m;
    TimeWindow base = spanOf(*result_->base), now = spanOf(*result_->now);
    if (a.baseStep && a.newStep) {
        const Interval b = result_->input.base.steps[*a.baseStep].span;
        const Interval n = result_->input.now.steps[*a.newStep].span;
        base = {b.start, b.end};
        now = {n.start, n.end};
    }
    m.scale = double(std::max<TimeNs>(now.span(), 1)) / double(std::max<TimeNs>(base.span(), 1));
    return m;
}

void CompareController::showAlignment() {
    const StepAlignment& a = alignment_;
    const Trace& base = *result_->base;
    const Trace& now = *result_->now;
    const LinkMapping m = stepMapping();
    link_->link(spanOf(base), spanOf(now), m);
    basePage_->ruler()->setOrigin(a.baseAt);
    candidatePage_->ruler()->setOrigin(a.newAt);
    setRulerNotes(fitted_ ? tr(" · each fitted to it") : QString());
    if (!a.baseStep || !a.newStep) {
        basePage_->state()->fitAll();
        return;
    }
    const Step& b = result_->input.base.steps[*a.baseStep];
    const Step& n = result_->input.now.steps[*a.newStep];
    // The step of both runs in view: fitted, each fills its timeline; at one
    // scale, the longer of the two whole.
    const TimeNs length = fitted_ ? b.span.length() : std::max(b.span.length(), n.span.length());
    basePage_->state()->fit({a.baseAt, a.baseAt + std::max<TimeNs>(length, 1)});
}

void CompareController::setRulerNotes(const QString& how) {
    const StepAlignment& a = alignment_;
    if (!a.baseStep || !a.newStep) {
        basePage_->ruler()->setNote(tr("lined up on the runs' starts") + how);
        candidatePage_->ruler()->setNote(tr("lined up on the runs' starts") + how);
        return;
    }
    basePage_->ruler()->setNote(
        tr("0 = start of step %1").arg(result_->input.base.steps[*a.baseStep].number) + how);
    candidatePage_->ruler()->setNote(
        tr("0 = start of step %1").arg(result_->input.now.steps[*a.newStep].number) + how);
}

void CompareController::showFramed() {
    const auto [b, c] = *framed_;
    const Trace& base = *result_->base;
    const Trace& now = *result_->now;
    LinkMapping m = stepMapping();
    TimeWindow w{0, 0};
    if (b != kNone && c != kNone) {
        // The two lined up on their starts, each whole.
        const Slice& sb = base.slices[b];
        const Slice& sc = now.slices[c];
        const TimeNs bd = std::max<TimeNs>(sb.dur, 1), cd = std::max<TimeNs>(sc.dur, 1);
        m = {sb.start, sc.start, fitted_ ? double(cd) / double(bd) : 1.0};
        w = {sb.start, sb.start + (fitted_ ? bd : std::max(bd, cd))};
    } else if (b != kNone) {
        w = {base.slices[b].start, base.slices[b].end()};
    } else {
        w = m.toFirst(TimeWindow{now.slices[c].start, now.slices[c].end()});
    }
    link_->link(spanOf(base), spanOf(now), m);
    if (b != kNone && c != kNone)
        setRulerNotes(fitted_ ? tr(" · lined up on the slices, each fitted to its own")
                              : tr(" · lined up on the slices"));
    basePage_->state()->setSelectedSlice(b);
    candidatePage_->state()->setSelectedSlice(c);
    basePage_->state()->fit({w.start, std::max(w.end, w.start + 1)});
    if (b != kNone) basePage_->timeline()->revealSlice(b);
    if (c != kNone) candidatePage_->timeline()->revealSlice(c);
}

void CompareController::frameName(const QString& name, const QString& baseName) {
    if (!result_) return;
    // A search of both traces' slices: on a worker, not in the click.
    const auto runs = result_;
    const StepAlignment a = alignment_;  // near the steps lined up
    const std::string inBase = (baseName.isEmpty() ? name : baseName).toStdString();
    framer_->submit([this, runs, a, n = name.toStdString(), inBase](const CancelToken&) {
        const uint32_t b = sliceNear(*runs->base, inBase, a.baseAt);
        const uint32_t c = sliceNear(*runs->now, n, a.newAt);
        return std::function<void()>([this, runs, b, c, n, inBase] {
            if (runs != result_ || (b == kNone && c == kNone)) return;
            framed_ = std::pair{b, c};
            showFramed();
            // Every instance highlighted in its run, as a kernel picked in
            // the Kernels panel is: Enter in a search box steps through them.
            auto exactly = [](const std::string& s) {
                return QStringLiteral("^") + QRegularExpression::escape(QString::fromStdString(s)) +
                       QStringLiteral("$");
            };
            basePage_->search()->setQuery(exactly(inBase), true);
            candidatePage_->search()->setQuery(exactly(n), true);
            emit framed();
        });
    });
}

std::optional<PictureSpec> CompareController::pictureOf(const ImageExport* images, TimeNs origin,
                                                        QString* error) const {
    ImageExport::Choice choice;
    choice.range = ImageExport::Choice::Range::Visible;  // the lined-up step, as in view
    choice.width = 1400;
    auto spec = images->specFor(choice, error);
    if (spec) spec->origin = origin;  // the ruler reads from the lined-up step, as on screen
    return spec;
}

bool CompareController::exportReport(const QString& path, QString* error) const {
    if (!result_) {
        if (error) *error = tr("No comparison is open.");
        return false;
    }
    const auto base = pictureOf(baseImages_, alignment_.baseAt, error);
    const auto now = base ? pictureOf(candidateImages_, alignment_.newAt, error) : std::nullopt;
    return now && writeComparisonReport(path, *base, *now, *result_, error);
}

void CompareController::chooseReport() {
    if (!result_) return;
    QString error;
    const auto base = pictureOf(baseImages_, alignment_.baseAt, &error);
    const auto now = base ? pictureOf(candidateImages_, alignment_.newAt, &error) : std::nullopt;
    if (!now) {
        QMessageBox::warning(window_, tr("Export Comparison Report"), error);
        return;
    }
    const QString suggested = QFileInfo(basePath_).completeBaseName() + QStringLiteral("-vs-") +
                              QFileInfo(candidatePath_).completeBaseName() +
                              QStringLiteral(".html");
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Export Comparison Report"),
        suggestedSavePath(suggested, QFileInfo(basePath_).absolutePath()),
        tr("HTML, self-contained (*.html);;Markdown, pictures beside it (*.md);;PDF (*.pdf)"));
    if (path.isEmpty()) return;
    rememberSaveFolder(path);
    runExport(
        exports_, this, window_, tr("Export Comparison Report"),
        [base = *base, now = *now, runs = result_, path](QString* message) {
            const bool ok = writeComparisonReport(path, base, now, *runs, message);
            if (ok) *message = tr("Wrote the comparison report %1").arg(path);
            return ok;
        },
        [this](const QString& message) { emit reportWritten(message); });
}

void CompareController::setGapThreshold(TimeNs ns) {
    gapThreshold_ = ns;
    candidatePage_->timeline()->setGapThreshold(ns);
    if (comparing()) compute();
}

void CompareController::close() {
    const bool loading = std::exchange(expecting_, false);
    loader_->cancel();
    if (loading) emit loadStopped();
    runner_->cancelAll();
    const bool was = comparing();
    candidate_.reset();
    result_.reset();
    framed_.reset();
    candidatePath_.clear();
    link_->unlink();
    candidatePage_->overview()->setIndexed(nullptr);
    candidatePage_->setTrace(nullptr);
    candidatePage_->setRunLabel({});
    candidatePage_->hide();
    basePage_->setRunLabel({});
    basePage_->timeline()->setMinimumHeight(kTimelineHeight);
    if (const auto base = basePage_->trace()) {
        basePage_->state()->setBounds(spanOf(*base));
        basePage_->ruler()->setOrigin(base->spanStart);
        basePage_->ruler()->setNote(base->alignedOnStep
                                        ? tr("ranks aligned on step %1").arg(*base->alignedOnStep)
                                        : QString());
    }
    panel_->clear();
    dock_->hide();
    if (was) emit closed();
}

}  // namespace gapscope::ui
