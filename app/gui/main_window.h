#pragma once
// The main window: opening traces (menu, recent files, drag and drop,
// command line, reload), background loading with progress and cancel,
// the trace page, docks for the side panels, status bar, persisted layout.

#include <QMainWindow>
#include <QStringList>
#include <memory>
#include <optional>

#include "loader/rank_set.h"
#include "model/trace.h"
#include "report/ranks_report.h"

class QAction;
class QDockWidget;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QShortcut;
class QSplitter;
class QStackedWidget;
class QToolButton;

namespace gapscope::ui {
class DetailsPanel;
class ImageExport;
class AnnotationController;
class CompareController;
class ReportExport;
class PanelHost;
class RanksPanel;
class SearchResults;
class TraceLoader;
class TracePage;
}  // namespace gapscope::ui

namespace gapscope::app {

class Tour;
class WelcomePage;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // A trace file, or a folder of profile runs (a TensorBoard logdir): the
    // run called `run`, else the only one, else the one picked from a list.
    // A folder of per-rank traces, or a run with several hosts, opens as the
    // ranks of one job (openRanks); a *.fleet.json as the Ranks panel.
    void openTrace(const QString& path, const QString& run = {});
    // Several files: one file opens alone, more as the ranks of one job.
    void openTraces(const QStringList& paths, const QString& run = {});
    // The ranks of a job side by side in one timeline, named `name` (the
    // folder, or the files' common folder); aligned on a step if asked.
    void openRanks(const std::vector<RankSource>& sources, const QString& name,
                   std::optional<int64_t> alignOnStep = std::nullopt);
    // A fleet table of tools/fleet in the Ranks panel, without the traces.
    void openFleet(const QString& path);
    ui::RanksPanel* ranks() const { return ranks_; }
    void openSample();
    // Two runs side by side: BASE opens as usual, NEW below it as the
    // candidate, with the Compare panel (either a file or a folder).
    void openComparison(const QString& base, const QString& now);
    // NEW against the open trace (File → Compare With…, a Ctrl+drop).
    void compareWith(const QString& now);
    ui::CompareController* comparison() const { return compare_; }
    ui::TracePage* tracePage() const { return page_; }
    ui::DetailsPanel* details() const { return details_; }
    ui::PanelHost* panels() const { return panels_; }
    ui::ImageExport* images() const { return images_; }
    ui::AnnotationController* annotations() const { return annotations_; }
    ui::TraceLoader* loader() const { return loader_; }
    QString currentPath() const { return currentPath_; }
    QString lastError() const { return lastError_; }
    // `gapscope --no-cache`: parse every trace this session (Settings keep theirs).
    void disableCacheForSession();
    // For tests and scripted screenshots: no modal dialogs, no first-run tour.
    void setInteractive(bool interactive);
    // Help > Tour: over the open trace, else over the sample once it opens.
    void startTour();
    Tour* tour() const { return tour_; }
    // The installed user guide (index.html), else the build tree's; empty if neither.
    static QString userGuidePath();
    // Help > About: the version, the license and the libraries' versions.
    static QString aboutText();

  protected:
    void changeEvent(QEvent*) override;
    void closeEvent(QCloseEvent*) override;
    void showEvent(QShowEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

  private:
    void createActions();
    void createDocks();
    void createStatusBar();
    void onLoaded(std::shared_ptr<const Trace> trace, const QString& path);
    void onFailed(const QString& message, const QString& path);
    void setLoading(bool loading);
    void addRecent(const QString& path);
    void updateRecentMenu();
    void updateStatus();
    void showRanksDock();
    void showImportReport();
    void showShortcuts();
    // The application palette with a placeholder that reads on its base.
    void keepPlaceholdersLegible();
    // The search's matches in the Search Results dock.
    void listSearchResults();
    void setWelcomeLayout(bool welcome);
    // Files that are one profiler's cycles: one is chosen and opened (true).
    // Loads one trace (a file, or a profile run's folder).
    void loadTrace(const QString& path);
    void fitDocks();
    void showUserGuide();
    void showAbout();
    void chooseFile();
    void chooseFolder();
    void chooseComparison();
    // Compares the trace whose load started after `loadsBefore` with `now`
    // once it opens (nothing when no load started).
    void followWithComparison(const QString& now, uint64_t loadsBefore);
    void applyLimits();
    void applyCache();
    void clearCache();
    void editLimits();
    void editPeaks();
    void applyPeaks();  // the setting to the panels' session

    ui::TraceLoader* loader_;
    QStackedWidget* stack_;
    WelcomePage* welcome_;
    Tour* tour_;
    bool tourWhenLoaded_ = false;
    ui::TracePage* page_;
    QSplitter* pages_;  // the trace page, and a candidate's below it when comparing
    ui::CompareController* compare_ = nullptr;
    QString pendingCompare_;     // compared with the trace that is loading, once it opens
    uint64_t loadsStarted_ = 0;  // of the main loader, to tell whether an open started one
    ui::DetailsPanel* details_;
    ui::PanelHost* panels_;
    ui::ImageExport* images_;
    ui::AnnotationController* annotations_;
    ui::ReportExport* reports_;
    ui::RanksPanel* ranks_;
    QDockWidget* ranksDock_ = nullptr;
    ui::SearchResults* searchResults_ = nullptr;
    QDockWidget* searchDock_ = nullptr;
    uint64_t listedSearch_ = 0;  // the search generation the list shows
    QAction* alignRanks_ = nullptr;
    QAction* gpusOnTop_ = nullptr;
    std::vector<RankSource> rankSources_;   // of the ranks view open, for Reload and Align
    std::optional<int64_t> rankAlignment_;  // its alignment
    std::shared_ptr<const RanksDocument> pendingRanks_;  // until its trace is shown
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QAction* reload_ = nullptr;
    QAction* back_ = nullptr;
    QAction* forward_ = nullptr;
    QDoubleSpinBox* gapThreshold_ = nullptr;
    QLabel* cursorLabel_;
    QLabel* rangeLabel_;
    QLabel* countLabel_;
    QProgressBar* progress_;
    QToolButton* cancel_;
    QShortcut* cancelShortcut_ = nullptr;
    QMessageBox* shortcutSheet_ = nullptr;           // the keyboard sheet, made once
    bool welcomeLayout_ = false;                     // no trace yet: the welcome page alone
    QList<QDockWidget*> hiddenForWelcome_;           // the docks it hid, shown with the trace
    QList<QAction*> traceActions_;                   // disabled until a trace is open
    std::pair<QString, QStringList> pendingNotice_;  // for the warnings bar, with the next trace
    QString currentPath_;
    QString lastError_;
    bool interactive_ = true;
    bool cacheDisabledForSession_ = false;
    QAction* useCache_ = nullptr;
    qint64 loadStartMs_ = 0;
    bool fitDocksWhenShown_ = false;  // the default layout, sized for the real window
};

}  // namespace gapscope::app
