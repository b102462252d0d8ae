#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <utility>

#include "analysis/analysis_index.h"
#include "analysis/device_peaks.h"
#include "analysis/idle_gaps.h"
#include "annotations/annotation_controller.h"
#include "annotations/annotations_panel.h"
#include "cache/index_cache.h"
#include "compare/compare_controller.h"
#include "export/image_export.h"
#include "export/report_export.h"
#include "io/library_versions.h"
#include "legible_palette.h"
#include "loader/loader.h"
#include "loader/path_meaning.h"
#include "loader/rank_view.h"
#include "loading/run_chooser.h"
#include "loading/trace_loader.h"
#include "loading/warnings_list.h"
#include "model/slice_kind.h"
#include "panels/analysis_session.h"
#include "panels/details_panel.h"
#include "panels/dock_content.h"
#include "panels/panel_host.h"
#include "ranks/ranks_panel.h"
#include "search/search_bar.h"
#include "search/search_results.h"
#include "timeline/key_bindings.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"
#include "tour.h"
#include "tour_steps.h"
#include "trace_page.h"
#include "welcome_page.h"

// Resources of a static library must be registered by hand (outside any namespace).
static void initGapscopeResources() {
    Q_INIT_RESOURCE(gapscope);
}

namespace gapscope::app {

namespace {
constexpr int kMaxRecent = 10;

// Where a rank's step is on the timeline: its step slice in the merged
// trace (selected, so that the rank's tracks come into view), else the
// span alone.
ui::NavTarget rankStepTarget(const Trace* trace, int64_t rank, Interval span) {
    if (trace)
        for (const TraceRank& r : trace->ranks) {
            if (r.rank != rank) continue;
            // Each row of the rank's tracks, searched at the step's start
            // (rows are by start): no walk over the rank's slices.
            for (uint32_t tr = r.firstTrack; tr < r.firstTrack + r.trackCount; ++tr)
                for (const Row& row : trace->tracks[tr].rows) {
                    const auto [lo, hi] = trace->visibleInRow(row, span.start, span.start);
                    for (uint32_t i = lo; i < hi; ++i) {
                        const Slice& s = trace->slices[i];
                        if (sliceKind(s) == SliceKind::Step && s.start == span.start) {
                            ui::NavTarget t = ui::NavTarget::toSlice(i);
                            t.range = span;
                            return t;
                        }
                    }
                }
        }
    return ui::NavTarget::toRange(span);
}

const char* kRecentKey = "recentFiles";
const char* kTourSeenKey = "tour/seen";
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      loader_(new ui::TraceLoader(this)),
      stack_(new QStackedWidget(this)),
      welcome_(new WelcomePage(this)),
      tour_(new Tour(this)),
      page_(new ui::TracePage(this)),
      pages_(new QSplitter(Qt::Vertical, this)),
      details_(new ui::DetailsPanel(this)),
      panels_(new ui::PanelHost(this, page_)),
      images_(new ui::ImageExport(page_, this)),
      annotations_(new ui::AnnotationController(page_, images_, this)),
      reports_(new ui::ReportExport(images_, panels_->session(), this)),
      ranks_(new ui::RanksPanel(this)),
      cursorLabel_(new QLabel(this)),
      rangeLabel_(new QLabel(this)),
      countLabel_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      cancel_(new QToolButton(this)) {
    initGapscopeResources();
    keepPlaceholdersLegible();
    setWindowTitle(tr("Gapscope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/gapscope.svg")));
    setAcceptDrops(true);
    // A stack is as tall as its tallest page: in a scroll area the welcome
    // page does not keep the trace's page (and a comparison's panel below it)
    // from a laptop screen's height.
    stack_->addWidget(ui::fittingDockContent(welcome_));
    pages_->setObjectName(QStringLiteral("tracePages"));
    pages_->setChildrenCollapsible(false);
    pages_->addWidget(page_);
    stack_->addWidget(pages_);
    setCentralWidget(stack_);
    compare_ = new ui::CompareController(this, page_, pages_, images_);
    createActions();
    createDocks();
    createStatusBar();

    connect(loader_, &ui::TraceLoader::ranksLoaded, this,
            [this](std::shared_ptr<const RanksDocument> doc) { pendingRanks_ = std::move(doc); });
    connect(loader_, &ui::TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(ranks_, &ui::RanksPanel::frameRankStep, this, [this](int64_t rank, Interval range) {
        panels_->session()->navigate(rankStepTarget(page_->trace().get(), rank, range));
    });
    connect(ranks_, &ui::RanksPanel::openTrace, this,
            [this](const QString& path) { openTrace(path); });
    connect(loader_, &ui::TraceLoader::failed, this, &MainWindow::onFailed);
    auto loadCancelled = [this] {
        pendingNotice_ = {};  // it was about the load that was cancelled
        pendingCompare_.clear();
        setLoading(false);
        statusBar()->showMessage(tr("Loading cancelled"), 4000);
    };
    connect(loader_, &ui::TraceLoader::cancelled, this, loadCancelled);
    // The candidate's, when the person cancelled it (not when a comparison closed).
    // The candidate's cancel, failure and end touch only what is its own:
    // the base may be loading meanwhile, with a comparison to follow it.
    auto candidateDone = [this] {
        if (!loader_->isLoading()) setLoading(false);
    };
    connect(compare_, &ui::CompareController::loadCancelled, this, [this, candidateDone] {
        candidateDone();
        statusBar()->showMessage(tr("Loading cancelled"), 4000);
    });
    connect(compare_, &ui::CompareController::loadStopped, this, candidateDone);
    for (ui::TraceLoader* loader : {loader_, compare_->loader()}) {
        connect(loader, &ui::TraceLoader::progressChanged, this,
                [this](int percent, const QString& phase) {
                    progress_->setValue(percent);
                    progress_->setFormat(phase + QStringLiteral(" %p%"));
                });
    }
    // The candidate of a comparison: its load shows as any other.
    connect(compare_, &ui::CompareController::started, this, [this](const QString& path) {
        setLoading(true);
        statusBar()->showMessage(tr("Opening %1 to compare…").arg(QFileInfo(path).fileName()));
    });
    connect(compare_, &ui::CompareController::opened, this,
            [this, candidateDone](const QString& path) {
                candidateDone();
                setWindowTitle(
                    tr("%1 vs %2 — Gapscope")
                        .arg(QFileInfo(currentPath_).fileName(), QFileInfo(path).fileName()));
            });
    connect(compare_, &ui::CompareController::failed, this,
            [this, candidateDone](const QString& message) {
                candidateDone();
                lastError_ = message;
                if (interactive_) QMessageBox::critical(this, tr("Cannot compare"), message);
            });
    connect(compare_, &ui::CompareController::swapRequested, this, &MainWindow::openComparison);
    connect(compare_, &ui::CompareController::reportWritten, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    connect(compare_, &ui::CompareController::closed, this, [this] {
        setWindowTitle(tr("%1 — Gapscope").arg(QFileInfo(currentPath_).fileName()));
    });
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::chooseFile);
    connect(welcome_, &WelcomePage::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(welcome_, &WelcomePage::sampleRequested, this, &MainWindow::openSample);
    connect(welcome_, &WelcomePage::recentRequested, this,
            [this](const QString& path) { openTrace(path); });
    connect(page_, &ui::TracePage::importReportRequested, this, &MainWindow::showImportReport);
    // The strip's busy shares are of the index's step windows (the time account's).
    connect(panels_->session(), &ui::AnalysisSession::indexReady, this, [this] {
        const auto indexed = panels_->session()->indexed();
        page_->overview()->setIndexed(indexed);
        // The steps the ruler offers to count time from.
        std::vector<std::pair<int64_t, Interval>> steps;
        if (indexed && indexed->trace == page_->trace())
            for (const Step& s : indexed->index->steps().steps)
                steps.push_back({s.number, s.span});
        page_->ruler()->setSteps(std::move(steps));
    });

    ui::ViewState* state = page_->state();
    // Details follows the selection: a slice, else a range, else nothing.
    auto showSelection = [this, state] {
        const auto range = state->selectedRange();
        if (state->selectedSlice() != kNone) {
            details_->showSlices(state->selectedSlices());
        } else if (range && range->span() > 0) {
            details_->showRange(*range);
        } else {
            details_->clear();
        }
        updateStatus();
    };
    connect(state, &ui::ViewState::selectedSliceChanged, this, showSelection);
    connect(state, &ui::ViewState::selectedRangeChanged, this, [this, state, showSelection] {
        // A new range replaces the slice selection in Details.
        if (const auto r = state->selectedRange(); r && r->span() > 0) {
            details_->showRange(*r);
            updateStatus();
        } else {
            showSelection();
        }
    });
    connect(state, &ui::ViewState::visibleChanged, this, &MainWindow::updateStatus);
    connect(state, &ui::ViewState::historyChanged, this, [this, state] {
        back_->setEnabled(state->canGoBack());
        forward_->setEnabled(state->canGoForward());
    });
    connect(details_, &ui::DetailsPanel::sliceActivated, this, [this](uint32_t slice) {
        const auto trace = page_->trace();
        if (!trace || slice >= trace->slices.size()) return;
        page_->state()->setSelectedSlice(slice);
        const Slice& s = trace->slices[slice];
        const ui::TimeWindow v = page_->state()->visible();
        if (s.start < v.start || s.end() > v.end)
            page_->state()->fit({s.start, std::max(s.end(), s.start + 1)});
        page_->timeline()->revealSlice(slice);
    });
    connect(page_->timeline(), &ui::TimelineView::hoverTimeChanged, this,
            [this](TimeNs t, bool inside) {
                const auto trace = page_->trace();
                // From the ruler's origin, as the ruler counts.
                cursorLabel_->setText(
                    inside && trace
                        ? tr("cursor %1").arg(ui::formatDuration(t - page_->ruler()->origin(), 1))
                        : QString());
            });

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!settings.contains("window/geometry")) resize(1500, 900);
    if (!restoreState(settings.value("window/state").toByteArray())) {
        panels_->resetLayout();
        fitDocksWhenShown_ = true;
    }
    compare_->dock()->hide();  // shown when comparing, whatever the saved layout says
    welcome_->setRecentFiles(settings.value(kRecentKey).toStringList());
    updateRecentMenu();
    setWelcomeLayout(true);
}

MainWindow::~MainWindow() = default;

void MainWindow::fitDocks() {
    panels_->fitDockHeight();
    // Details beside the timeline: a quarter of the width at most (it took
    // a third, empty, on a laptop screen).
    if (auto* details = findChild<QDockWidget*>(QStringLiteral("detailsDock")))
        resizeDocks({details}, {std::clamp(width() / 4, 240, 480)}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // The docks are fitted when they first show (with the first trace).
    if (!fitDocksWhenShown_ || welcomeLayout_) return;
    fitDocksWhenShown_ = false;
    // After this pass: the window has its size on screen only then.
    QTimer::singleShot(0, this, [this] { fitDocks(); });
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Folder…"), this, &MainWindow::chooseFolder)
        ->setToolTip(tr("A TensorBoard log folder or a profile run's folder (*.xplane.pb)"));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &Sample Trace"), this, &MainWindow::openSample);
    QAction* compareAction =
        file->addAction(tr("&Compare With…"), this, &MainWindow::chooseComparison);
    compareAction->setToolTip(
        tr("Open another run below this one, lined up on a step, with the Compare panel"));
    traceActions_.push_back(compareAction);
    reload_ = file->addAction(tr("&Reload"), this, [this] {
        if (!compare_->requestedPath().isEmpty()) {  // compared, or about to be
            const QString now = compare_->requestedPath();
            const uint64_t before = loadsStarted_;
            if (!rankSources_.empty())
                openRanks(rankSources_, currentPath_, rankAlignment_);
            else
                openTrace(currentPath_);
            followWithComparison(now, before);
        } else if (!rankSources_.empty())
            openRanks(rankSources_, currentPath_, rankAlignment_);
        else if (!currentPath_.isEmpty())
            openTrace(currentPath_);
    });
    reload_->setShortcut(QKeySequence::Refresh);
    reload_->setEnabled(false);
    file->addAction(tr("Import &Report…"), this, &MainWindow::showImportReport);
    file->addSeparator();
    file->addAction(images_->exportAction());
    file->addAction(reports_->action());
    connect(reports_, &ui::ReportExport::finished, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(annotations_->undoAction());
    edit->addAction(annotations_->redoAction());
    edit->addSeparator();
    edit->addAction(annotations_->markerAction());
    edit->addAction(annotations_->noteAction());
    edit->addSeparator();
    edit->addAction(images_->copyAction());
    connect(annotations_, &ui::AnnotationController::message, this, [this](const QString& text) {
        if (!text.isEmpty()) statusBar()->showMessage(text, 10000);
    });
    connect(images_, &ui::ImageExport::finished, this,
            [this](const QString& message) { statusBar()->showMessage(message, 6000); });

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    ui::ViewState* state = page_->state();
    back_ = viewMenu_->addAction(tr("&Back"), state, &ui::ViewState::goBack);
    back_->setShortcuts({QKeySequence::Back, QKeySequence(Qt::Key_Backspace)});
    back_->setEnabled(false);
    forward_ = viewMenu_->addAction(tr("&Forward"), state, &ui::ViewState::goForward);
    forward_->setShortcut(QKeySequence::Forward);
    forward_->setEnabled(false);
    QAction* fit = viewMenu_->addAction(tr("Fit &All"), state, &ui::ViewState::fitAll);
    traceActions_.push_back(fit);
    fit->setToolTip(tr("Show the whole trace (0)"));
    QAction* find =
        viewMenu_->addAction(tr("&Find…"), page_->search(), &ui::SearchBar::focusSearch);
    find->setShortcut(QKeySequence::Find);
    viewMenu_->addSeparator();

    QMenu* settingsMenu = menuBar()->addMenu(tr("&Settings"));
    settingsMenu->addAction(tr("Loading &Limits…"), this, &MainWindow::editLimits);
    settingsMenu->addAction(tr("GPU &Peaks…"), this, &MainWindow::editPeaks)
        ->setToolTip(tr("The roofs of a GPU the built-in table does not know (Efficiency)"));
    useCache_ = settingsMenu->addAction(tr("Use the &Index Cache"));
    useCache_->setCheckable(true);
    useCache_->setToolTip(
        tr("Reopen unchanged traces from a saved index instead of parsing "
           "them again"));
    useCache_->setChecked(QSettings().value("cache/enabled", true).toBool());
    connect(useCache_, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue("cache/enabled", on);
        applyCache();
    });
    settingsMenu->addAction(tr("&Clear the Index Cache"), this, &MainWindow::clearCache);
    applyLimits();
    applyCache();
    applyPeaks();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&User Guide"), this, &MainWindow::showUserGuide)
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Tour"), this, &MainWindow::startTour)
        ->setToolTip(tr("Where the idle GPU shows and what the panels say"));
    // `?` as in Perfetto and most web apps (a text field keeps its own `?`).
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts)
        ->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::CTRL | Qt::Key_Slash)});
    help->addSeparator();
    help->addAction(tr("&About Gapscope"), this, &MainWindow::showAbout);

    QToolBar* bar = addToolBar(tr("Navigation"));
    bar->setObjectName("navigationToolbar");
    bar->addAction(open);
    bar->addSeparator();
    bar->addAction(back_);
    bar->addAction(forward_);
    bar->addAction(fit);
    bar->addSeparator();
    traceActions_.push_back(bar->addWidget(new QLabel(tr(" GPU idle gaps ≥ "), bar)));
    gapThreshold_ = new QDoubleSpinBox(bar);
    gapThreshold_->setObjectName(QStringLiteral("gapThreshold"));
    gapThreshold_->setDecimals(1);
    gapThreshold_->setRange(0, 1e7);
    gapThreshold_->setSuffix(tr(" µs"));
    gapThreshold_->setToolTip(tr("Idle gaps on a GPU shorter than this are not shaded"));
    gapThreshold_->setValue(
        QSettings().value("gaps/thresholdUs", double(kDefaultGapThresholdNs) / 1000).toDouble());
    page_->timeline()->setGapThreshold(static_cast<TimeNs>(gapThreshold_->value() * 1000));
    panels_->session()->setGapThreshold(static_cast<TimeNs>(gapThreshold_->value() * 1000));
    compare_->setGapThreshold(static_cast<TimeNs>(gapThreshold_->value() * 1000));
    connect(gapThreshold_, &QDoubleSpinBox::valueChanged, this, [this](double us) {
        page_->timeline()->setGapThreshold(static_cast<TimeNs>(us * 1000));
        panels_->session()->setGapThreshold(static_cast<TimeNs>(us * 1000));
        compare_->setGapThreshold(static_cast<TimeNs>(us * 1000));
        QSettings().setValue("gaps/thresholdUs", us);
    });
    traceActions_.push_back(bar->addWidget(gapThreshold_));
}

void MainWindow::applyCache() {
    const std::string dir = IndexCache::defaultDir();
    const bool on = useCache_->isChecked() && !cacheDisabledForSession_ && !dir.empty();
    const auto cache = on ? std::make_shared<IndexCache>(dir) : nullptr;
    loader_->setCache(cache);
    compare_->loader()->setCache(cache);
}

void MainWindow::disableCacheForSession() {
    cacheDisabledForSession_ = true;
    applyCache();
}

void MainWindow::clearCache() {
    const QString dir = QString::fromStdString(IndexCache::defaultDir());
    if (dir.isEmpty()) return;
    loader_->dropCacheWrite();
    int removed = 0;
    for (const QFileInfo& entry :
         QDir(dir).entryInfoList({QStringLiteral("*.gsidx"), QStringLiteral("*.gsidx.*")},
                                 QDir::Files | QDir::Hidden)) {
        removed += QFile::remove(entry.absoluteFilePath()) ? 1 : 0;
    }
    statusBar()->showMessage(
        tr("Removed %n index cache entries from %1", nullptr, removed).arg(dir), 5000);
}

void MainWindow::applyLimits() {
    QSettings settings;
    const uint64_t eventMb = settings.value("limits/maxEventMiB", 256).toULongLong();
    const uint64_t memoryMb = settings.value("limits/memoryMiB", 0).toULongLong();
    loader_->setLimits(static_cast<size_t>(eventMb) << 20, memoryMb << 20);
    compare_->loader()->setLimits(static_cast<size_t>(eventMb) << 20, memoryMb << 20);
}

void MainWindow::editPeaks() {
    QString peaks = QSettings().value(QStringLiteral("efficiency/peaks")).toString();
    for (;;) {
        bool ok = false;
        peaks = QInputDialog::getText(
            this, tr("GPU Peaks"),
            tr("Every GPU's dense peaks in TFLOP/s per data type (fp64, fp64_tensor, fp32, tf32, "
               "bf16, fp16, fp8, int8), its memory bandwidth (bw) and its links' bandwidth one "
               "way (link) in GB/s, as gapscope-cli efficiency --peak takes them. They replace "
               "the built-in table's; empty: the table's alone.\n\nExample: "
               "bf16=989.4,fp32=66.9,bw=3350,link=450"),
            QLineEdit::Normal, peaks, &ok);
        if (!ok) return;
        peaks = peaks.trimmed();
        std::string error;
        if (peaks.isEmpty() || parsePeaks(peaks.toStdString(), &error)) break;
        QMessageBox::warning(this, tr("GPU Peaks"), QString::fromStdString(error));
    }
    QSettings().setValue(QStringLiteral("efficiency/peaks"), peaks);
    applyPeaks();
}

void MainWindow::applyPeaks() {
    // A setting that does not parse (edited by hand) is the table's alone.
    const QString peaks = QSettings().value(QStringLiteral("efficiency/peaks")).toString();
    panels_->session()->setPeaks(peaks.isEmpty() ? std::nullopt
                                                 : parsePeaks(peaks.toStdString(), nullptr));
}

void MainWindow::editLimits() {
    QSettings settings;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Loading Limits"));
    auto* form = new QFormLayout(&dialog);
    auto* memory = new QSpinBox(&dialog);
    memory->setRange(0, 1 << 22);
    memory->setSuffix(tr(" MiB"));
    memory->setSpecialValueText(
        tr("automatic (3/4 of physical memory: %1 MiB)").arg(defaultMemoryLimit() >> 20));
    memory->setValue(settings.value("limits/memoryMiB", 0).toInt());
    auto* event = new QSpinBox(&dialog);
    event->setRange(1, 1 << 16);
    event->setSuffix(tr(" MiB"));
    event->setValue(settings.value("limits/maxEventMiB", 256).toInt());
    form->addRow(new QLabel(
        tr("Traces that need more are refused with a message, so a hostile or broken file "
           "cannot exhaust this machine. Raise them for legitimate large traces."),
        &dialog));
    form->addRow(tr("Memory for one trace:"), memory);
    form->addRow(tr("Largest single event:"), event);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;
    settings.setValue("limits/memoryMiB", memory->value());
    settings.setValue("limits/maxEventMiB", event->value());
    applyLimits();
}

void MainWindow::createDocks() {
    auto addDock = [this](const QString& title, const QString& name, QWidget* content,
                          bool visible) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(ui::fittingDockContent(content));
        addDockWidget(Qt::RightDockWidgetArea, dock);
        viewMenu_->addAction(dock->toggleViewAction());
        dock->setVisible(visible);
        return dock;
    };
    QDockWidget* detailsDock = addDock(tr("Details"), "detailsDock", details_, true);
    QDockWidget* notes = addDock(tr("Annotations"), "annotationsDock", annotations_->panel(), true);
    tabifyDockWidget(detailsDock, notes);
    detailsDock->raise();
    panels_->install(viewMenu_, findChild<QToolBar*>("navigationToolbar"));
    // The ranks of a job: with the analysis panels, shown when there are ranks.
    ranksDock_ = new QDockWidget(tr("Ranks"), this);
    ranksDock_->setObjectName(QStringLiteral("ranksDock"));
    ranksDock_->setWidget(ui::fittingDockContent(ranks_));
    panels_->tabWithPanels(ranksDock_);
    viewMenu_->addAction(ranksDock_->toggleViewAction());
    ranksDock_->setVisible(false);
    // A search's matches as a list: with the analysis panels, shown by the
    // search bar's List button.
    searchResults_ = new ui::SearchResults(this);
    searchDock_ = new QDockWidget(tr("Search Results"), this);
    searchDock_->setObjectName(QStringLiteral("searchDock"));
    searchDock_->setWidget(ui::fittingDockContent(searchResults_));
    panels_->tabWithPanels(searchDock_);
    viewMenu_->addAction(searchDock_->toggleViewAction());
    searchDock_->setVisible(false);
    connect(searchDock_, &QDockWidget::visibilityChanged, this, [this](bool shown) {
        if (shown) listSearchResults();
    });
    connect(page_->search(), &ui::SearchBar::matchesChanged, this, [this] {
        if (searchDock_->isVisible()) listSearchResults();
    });
    connect(page_->search(), &ui::SearchBar::listRequested, this, [this] {
        searchDock_->show();
        searchDock_->raise();
        listSearchResults();
    });
    connect(searchResults_, &ui::SearchResults::activated, panels_->session(),
            &ui::AnalysisSession::navigate);
    // The comparison's panel: with the analysis panels, shown while comparing.
    panels_->tabWithPanels(compare_->dock());
    viewMenu_->addAction(compare_->dock()->toggleViewAction());
    compare_->dock()->setVisible(false);
    viewMenu_->addSeparator();
    gpusOnTop_ = viewMenu_->addAction(tr("GPUs of All Ranks on Top"), this,
                                      [this](bool on) { page_->timeline()->setGpusOnTop(on); });
    gpusOnTop_->setCheckable(true);
    gpusOnTop_->setEnabled(false);
    alignRanks_ = viewMenu_->addAction(tr("Align Ranks on Step…"), this, [this] {
        bool ok = false;
        const int step = QInputDialog::getInt(
            this, tr("Align Ranks"),
            tr("Shift each rank's times so that this step starts together\n"
               "(for ranks whose clocks differ; -1: as written):"),
            rankAlignment_ ? static_cast<int>(*rankAlignment_) : -1, -1, INT_MAX, 1, &ok);
        if (!ok) return;
        openRanks(rankSources_, currentPath_,
                  step < 0 ? std::nullopt : std::optional<int64_t>(step));
    });
    alignRanks_->setEnabled(false);
}

void MainWindow::createStatusBar() {
    progress_->setMaximumWidth(260);
    progress_->setRange(0, 100);
    progress_->hide();
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop loading (Esc)"));
    cancel_->hide();
    connect(cancel_, &QToolButton::clicked, loader_, &ui::TraceLoader::cancel);
    connect(cancel_, &QToolButton::clicked, compare_->loader(), &ui::TraceLoader::cancel);
    // Esc cancels a load; only while loading, so the timeline keeps Esc otherwise.
    cancelShortcut_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    cancelShortcut_->setEnabled(false);
    connect(cancelShortcut_, &QShortcut::activated, loader_, &ui::TraceLoader::cancel);
    connect(cancelShortcut_, &QShortcut::activated, compare_->loader(), &ui::TraceLoader::cancel);
    statusBar()->addWidget(cursorLabel_);
    statusBar()->addWidget(rangeLabel_);
    statusBar()->addPermanentWidget(countLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
}

void MainWindow::chooseFile() {
    const QString dir = QFileInfo(currentPath_).absolutePath();
    // Several files at once are the ranks of one job.
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Trace"), dir,
        tr("Traces (*.json *.json.gz *.json.zst *.gz *.zst *.xplane.pb *.pb *.sqlite);;"
           "Nsight Systems exports (*.sqlite);;Fleet tables (*.fleet.json);;All files (*)"));
    openTraces(paths);
}

void MainWindow::chooseFolder() {
    const QString dir = QFileInfo(currentPath_).absolutePath();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open Profile Folder"), dir);
    if (!path.isEmpty()) openTrace(path);
}

void MainWindow::chooseComparison() {
    const QString dir = QFileInfo(currentPath_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare With"), dir,
        tr("Traces (*.json *.json.gz *.json.zst *.gz *.zst *.xplane.pb *.pb *.sqlite);;"
           "All files (*)"));
    if (!path.isEmpty()) compareWith(path);
}

void MainWindow::compareWith(const QString& now) {
    if (!page_->trace()) return openTrace(now);
    // A trace is loading to replace the one shown: compared with that one.
    if (loader_->isLoading()) {
        pendingCompare_ = now;
        return;
    }
    pendingCompare_.clear();
    lastError_.clear();
    compare_->compareWith(now, currentPath_);
}

void MainWindow::openComparison(const QString& base, const QString& now) {
    const uint64_t before = loadsStarted_;
    openTrace(base);
    followWithComparison(now, before);
}

void MainWindow::followWithComparison(const QString& now, uint64_t loadsBefore) {
    // Only when the base's load did start (starting it cancelled the one
    // before, and with it what was to follow that one): a base refused, or
    // a chooser cancelled, is followed by nothing.
    pendingCompare_ = loadsStarted_ != loadsBefore ? now : QString();
}

void MainWindow::openSample() {
    // The sample is compiled in, so it opens wherever the app is installed.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    QDir().mkpath(dir);
    const QString path = dir + QStringLiteral("/h200_cnn_dataloader.pt.trace.json.gz");
    QFile resource(QStringLiteral(":/samples/h200_cnn_dataloader.pt.trace.json.gz"));
    if (!QFileInfo::exists(path) || QFileInfo(path).size() != resource.size()) {
        QFile::remove(path);
        resource.copy(path);
    }
    openTrace(path);
}

void MainWindow::openTraces(const QStringList& paths, const QString& run) {
    if (paths.isEmpty()) return;
    lastError_.clear();
    std::vector<std::string> names;
    for (const QString& p : paths)
        names.push_back(QFile::encodeName(p).toStdString());
    PathChoices choices;
    choices.run = run.toStdString();
    PathMeaning meaning = meaningOfPaths(names, choices);
    // A folder of several profile runs, none named: the person picks one.
    if (meaning.runs.size() > 1 && run.isEmpty() && interactive_) {
        const ui::RunChoice choice = ui::chooseProfileRun(this, paths.front(), run, true);
        if (!choice.error.isEmpty()) onFailed(choice.error, paths.front());
        if (choice.folder.isEmpty()) return;  // cancelled
        names = {QFile::encodeName(choice.folder).toStdString()};
        choices.run.clear();
        meaning = meaningOfPaths(names, choices);
    }
    // Profiler cycles, not ranks: the person picks one (the newest is preselected).
    if (meaning.cycles.size() > 1) {
        std::vector<QStringList> cycles;
        for (const auto& cycle : meaning.cycles) {
            cycles.emplace_back();
            for (const std::string& f : cycle)
                cycles.back() << QFile::decodeName(QByteArray::fromStdString(f));
        }
        const int chosen = ui::chooseProfilerCycle(this, cycles, interactive_);
        if (chosen < 0) return;  // cancelled: nothing opens
        choices.cycle = static_cast<size_t>(chosen);
        meaning = meaningOfPaths(names, choices);
        const QStringList& open = cycles[static_cast<size_t>(chosen)];
        // Said once the trace is open, in the warnings bar.
        pendingNotice_ = {
            tr("Profiler cycles"),
            {open.size() == 1
                 ? tr("%1 files are the cycles of one profiler, not ranks: %2 is open; "
                      "File → Open for another.")
                       .arg(cycles.size())
                       .arg(QFileInfo(open.front()).fileName())
                 : tr("%1 files are %2 cycles of %3 ranks: cycle %4 is open; File → Open for "
                      "another.")
                       .arg(cycles.size() * static_cast<size_t>(open.size()))
                       .arg(cycles.size())
                       .arg(open.size())
                       .arg(chosen + 1)}};
    }
    const QString path = QFile::decodeName(QByteArray::fromStdString(meaning.path));
    switch (meaning.kind) {
        case PathMeaning::Kind::Error:
            return onFailed(QString::fromStdString(meaning.error), paths.front());
        case PathMeaning::Kind::FleetTable:
            return openFleet(path);
        case PathMeaning::Kind::Ranks:
            return openRanks(meaning.sources, path);
        case PathMeaning::Kind::Trace:
            return loadTrace(path);
    }
}

void MainWindow::openRanks(const std::vector<RankSource>& sources, const QString& name,
                           std::optional<int64_t> alignOnStep) {
    lastError_.clear();
    rankSources_ = sources;
    rankAlignment_ = alignOnStep;
    loadStartMs_ = QDateTime::currentMSecsSinceEpoch();
    // The load first: starting it delivers the cancel of the one before.
    loader_->loadRanks(sources, name, alignOnStep);
    ++loadsStarted_;
    setLoading(true);
    statusBar()->showMessage(tr("Opening %1 ranks…").arg(sources.size()));
}

void MainWindow::showRanksDock() {
    // Among the analysis panels' tabs, in front.
    auto* overview = findChild<QDockWidget*>(QStringLiteral("overviewDock"));
    if (overview && !overview->isFloating() && !ranksDock_->isFloating() &&
        !tabifiedDockWidgets(overview).contains(ranksDock_))
        tabifyDockWidget(overview, ranksDock_);
    ranksDock_->setVisible(true);
    ranksDock_->raise();
}

void MainWindow::openFleet(const QString& path) {
    QFile f(path);
    std::string error;
    std::optional<RanksDocument> doc;
    if (!f.open(QIODevice::ReadOnly)) {
        error = f.errorString().toStdString();
    } else if (f.size() > (qint64{256} << 20)) {
        error = "larger than 256 MiB: not a fleet table";
    } else {
        doc = parseRanksJson(f.readAll().toStdString(), error);
    }
    if (!doc) return onFailed(path + ": " + QString::fromStdString(error), path);
    ranks_->setDocument(std::make_shared<const RanksDocument>(std::move(*doc)), false);
    showRanksDock();
    addRecent(path);
    statusBar()->showMessage(tr("Opened the fleet table %1").arg(QFileInfo(path).fileName()), 8000);
}

void MainWindow::openTrace(const QString& path, const QString& run) {
    openTraces({path}, run);
}

void MainWindow::loadTrace(const QString& path) {
    rankSources_.clear();
    loadStartMs_ = QDateTime::currentMSecsSinceEpoch();
    // The load first: starting it delivers the cancel of the one before.
    loader_->load(path);
    ++loadsStarted_;
    setLoading(true);
    statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::setLoading(bool loading) {
    progress_->setVisible(loading);
    cancel_->setVisible(loading);
    cancelShortcut_->setEnabled(loading);
    if (loading) progress_->setValue(0);
    if (!loading) statusBar()->clearMessage();
}

void MainWindow::onLoaded(std::shared_ptr<const Trace> trace, const QString& path) {
    setLoading(false);
    currentPath_ = path;
    // Ranks of a job: the panel gets their figures; a single trace has none.
    const bool ranks = !trace->ranks.empty() && pendingRanks_;
    ranks_->setDocument(ranks ? pendingRanks_ : nullptr, ranks);
    pendingRanks_.reset();
    if (!ranks) rankSources_.clear();
    alignRanks_->setEnabled(ranks);
    gpusOnTop_->setEnabled(ranks);
    page_->timeline()->setGpusOnTop(ranks && gpusOnTop_->isChecked());
    page_->warnings()->clear();
    QString noticeTitle = pendingNotice_.first;
    QStringList notices = pendingNotice_.second;
    pendingNotice_ = {};
    if (ranks) {
        showRanksDock();
        // Files that failed, and ranks two files claimed: said once, not hidden.
        QStringList problems;
        for (const RankRow& r : ranks_->document()->ranks)
            if (!r.error.empty()) problems << QString::fromStdString(r.entry.file + ": " + r.error);
        for (const std::string& w : ranks_->document()->warnings)
            problems << QString::fromStdString(w);
        if (!problems.isEmpty()) {
            noticeTitle = tr("Some ranks");
            notices += problems;
        }
    }
    if (!notices.isEmpty()) page_->warnings()->setWarnings(noticeTitle, notices);
    reload_->setEnabled(true);
    details_->setTrace(trace);
    page_->setTrace(trace, path);
    panels_->setTrace(trace, loader_->cacheNote());
    annotations_->traceOpened(path);  // after the page has the trace
    panels_->raisePanel(QStringLiteral("overviewDock"));
    if (ranks) ranksDock_->raise();  // the question of a job: which rank holds the others back
    stack_->setCurrentWidget(pages_);
    setWelcomeLayout(false);
    // The tour once, after the first trace a person opens; Help > Tour again.
    QSettings settings;
    if (tourWhenLoaded_ || (interactive_ && !settings.value(kTourSeenKey, false).toBool())) {
        tourWhenLoaded_ = false;
        settings.setValue(kTourSeenKey, true);
        QTimer::singleShot(0, this, [this] { tour_->start(mainWindowTour(this)); });
    }
    page_->timeline()->setFocus();
    setWindowTitle(tr("%1 — Gapscope").arg(QFileInfo(path).fileName()));
    addRecent(path);
    updateStatus();
    const double seconds =
        static_cast<double>(QDateTime::currentMSecsSinceEpoch() - loadStartMs_) / 1000.0;
    statusBar()->showMessage(
        (trace->fromCache ? tr("Opened %1 from the index cache: %2 events in %3 s")
                          : tr("Opened %1: %2 events in %3 s"))
            .arg(QFileInfo(path).fileName())
            .arg(trace->report.events)
            .arg(seconds, 0, 'f', 2),
        8000);
    // A trace opened to compare: the candidate follows; any other ends a comparison.
    compare_->setBaseRanks(ranks ? ranks_->document() : nullptr);
    if (!pendingCompare_.isEmpty())
        compare_->compareWith(std::exchange(pendingCompare_, QString()), path);
    else
        compare_->close();
}

void MainWindow::setInteractive(bool interactive) {
    interactive_ = interactive;
    annotations_->setInteractive(interactive);
}

void MainWindow::onFailed(const QString& message, const QString& path) {
    pendingNotice_ = {};
    pendingCompare_.clear();
    setLoading(false);
    lastError_ = message;
    Q_UNUSED(path);
    if (interactive_) QMessageBox::critical(this, tr("Cannot open trace"), message);
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    settings.setValue(kRecentKey, files);
    welcome_->setRecentFiles(files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openTrace(f); })
            ->setToolTip(f);
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

void MainWindow::updateStatus() {
    const auto trace = page_->trace();
    if (!trace) return;
    const auto range = page_->state()->selectedRange();
    rangeLabel_->setText(range && range->span() > 0
                             ? tr("selection %1").arg(ui::formatDuration(range->span(), 1))
                             : QString());
    countLabel_->setText(tr("%L1 slices in view").arg(page_->timeline()->slicesInView()));
}

// The import report is the Trace panel: the `info` analysis, computed on
// the panels' worker like every other.
void MainWindow::showImportReport() {
    if (page_->trace()) panels_->raisePanel(QStringLiteral("infoDock"));
}

void MainWindow::changeEvent(QEvent* event) {
    // A theme changed while the viewer runs (a desktop switched to dark).
    // Once the change has reached every widget: a palette set while Qt
    // hands out the last one would reach only some.
    if (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)
        QMetaObject::invokeMethod(this, &MainWindow::keepPlaceholdersLegible, Qt::QueuedConnection);
    QMainWindow::changeEvent(event);
}

void MainWindow::keepPlaceholdersLegible() {
    const QPalette legible = ui::withLegiblePlaceholder(QApplication::palette());
    if (legible != QApplication::palette()) QApplication::setPalette(legible);
}

void MainWindow::listSearchResults() {
    // Shown, raised and asked for by List at once: the table is made once.
    const uint64_t generation = page_->search()->generation();
    if (generation == listedSearch_) return;
    listedSearch_ = generation;
    const auto trace = page_->trace();
    searchResults_->setMatches(trace.get(), page_->search()->matches(), page_->search()->query());
}

void MainWindow::showShortcuts() {
    // Not modal: it stays open beside the timeline while the keys are tried.
    if (!shortcutSheet_) {
        QString html = QStringLiteral("<table cellpadding='3'>");
        for (const ui::KeyBinding& k : ui::kKeyBindings)
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(QString::fromUtf8(k.keys).toHtmlEscaped(), tr(k.what).toHtmlEscaped());
        html += QStringLiteral("</table><p>") +
                tr("Drag pans, as in a map and in Chrome's trace viewer; Shift+drag selects "
                   "(Perfetto and Nsight Systems select on drag).") +
                QStringLiteral("</p>");
        shortcutSheet_ = new QMessageBox(this);
        shortcutSheet_->setObjectName(QStringLiteral("keyboardSheet"));
        shortcutSheet_->setWindowTitle(tr("Keyboard Shortcuts"));
        shortcutSheet_->setText(html);
        shortcutSheet_->setModal(false);
        shortcutSheet_->setStandardButtons(QMessageBox::Ok);
        shortcutSheet_->setEscapeButton(QMessageBox::Ok);
    }
    shortcutSheet_->show();
    shortcutSheet_->raise();
    // Its keys, not the timeline's: Esc closes it (the timeline would take
    // Esc to clear its selection).
    shortcutSheet_->activateWindow();
}

void MainWindow::startTour() {
    if (page_->trace()) {
        tour_->start(mainWindowTour(this));
    } else {
        tourWhenLoaded_ = true;
        openSample();
    }
}

QString MainWindow::userGuidePath() {
    const QString installed = QCoreApplication::applicationDirPath() +
                              QStringLiteral("/../share/gapscope/user-guide/index.html");
    if (QFileInfo::exists(installed)) return QFileInfo(installed).canonicalFilePath();
#ifdef GAPSCOPE_BUILD_GUIDE
    if (QFileInfo::exists(QStringLiteral(GAPSCOPE_BUILD_GUIDE)))
        return QStringLiteral(GAPSCOPE_BUILD_GUIDE);
#endif
    return {};
}

void MainWindow::showUserGuide() {
    const QString path = userGuidePath();
    if (!path.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(path))) return;
    const QString why = path.isEmpty() ? tr("The user guide is not installed with this build.")
                                       : tr("No program opened %1.").arg(path.toHtmlEscaped());
    QMessageBox::information(this, tr("User Guide"),
                             why + tr("<p>It is <tt>docs/user-guide.md</tt> in Gapscope's "
                                      "sources.</p>"));
}

QString MainWindow::aboutText() {
    QString libraries = QStringLiteral("Qt %1 (built with %2)")
                            .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
    for (const auto& [name, version] : libraryVersions())
        libraries += QStringLiteral(", %1 %2").arg(QString::fromStdString(name),
                                                   QString::fromStdString(version));
    return tr("<h3>Gapscope %1</h3><p>Where and why is the GPU idle? A native viewer for "
              "GPU/CPU traces of machine-learning jobs.</p><p>MIT license.</p>"
              "<p>Libraries: %2.</p>")
        .arg(QCoreApplication::applicationVersion(), libraries.toHtmlEscaped());
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Gapscope"), aboutText());
}

void MainWindow::setWelcomeLayout(bool welcome) {
    if (welcome == welcomeLayout_) return;
    welcomeLayout_ = welcome;
    // Until a trace is open the welcome page has the window: no empty
    // panels, no actions on a trace that is not there.
    if (welcome) {
        for (QDockWidget* dock : findChildren<QDockWidget*>()) {
            if (dock->isHidden()) continue;
            hiddenForWelcome_.push_back(dock);
            dock->hide();
        }
    } else {
        for (QDockWidget* dock : hiddenForWelcome_)
            dock->show();
        hiddenForWelcome_.clear();
        // Showing a tabbed dock raises it: Details goes back on top of Annotations.
        if (auto* details = findChild<QDockWidget*>(QStringLiteral("detailsDock")))
            details->raise();
        if (fitDocksWhenShown_ && isVisible()) {
            fitDocksWhenShown_ = false;
            QTimer::singleShot(0, this, [this] { fitDocks(); });
        }
    }
    for (QAction* a : traceActions_)
        a->setEnabled(!welcome);
    if (QWidget* scope = findChild<QWidget*>(QStringLiteral("scopePicker")))
        scope->setEnabled(!welcome);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    loader_->cancel();
    compare_->loader()->cancel();
    // The docks as a person left them with a trace, not as the welcome page hides them.
    for (QDockWidget* dock : hiddenForWelcome_)
        dock->show();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    // Several files dropped at once are the ranks of one job.
    QStringList paths;
    for (const QUrl& url : e->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    // One trace dropped with Ctrl onto an open one: compared with it.
    if ((e->modifiers() & Qt::ControlModifier) && paths.size() == 1 && page_->trace())
        return compareWith(paths.front());
    openTraces(paths);
}

}  // namespace gapscope::app
