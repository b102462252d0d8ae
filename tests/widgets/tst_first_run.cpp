// The first ten minutes in the real window: the welcome page's buttons and
// recording snippets (the same code as the README's), the tour after the
// first trace (once; Help > Tour again), and the Help menu's guide and
// library versions.

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "loading/trace_loader.h"
#include "loading/warnings_list.h"
#include "main_window.h"
#include "record_snippets.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/timeline_view.h"
#include "tour.h"
#include "trace_page.h"

using namespace gapscope;

namespace {

QAction* helpAction(app::MainWindow& w, const QString& text) {
    for (QAction* menu : w.menuBar()->actions()) {
        if (menu->text().remove('&') != QStringLiteral("Help") || !menu->menu()) continue;
        for (QAction* a : menu->menu()->actions())
            if (a->text().remove('&') == text) return a;
    }
    return nullptr;
}

QRect inWindow(QWidget* w, QWidget* window) {
    return QRect(w->mapTo(window, QPoint(0, 0)), w->size());
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestFirstRun : public QObject {
    Q_OBJECT

    // A window as a person gets it: interactive, nothing remembered.
    std::unique_ptr<app::MainWindow> freshWindow() {
        QSettings().clear();
        auto w = std::make_unique<app::MainWindow>();
        w->disableCacheForSession();
        w->resize(1400, 900);
        w->show();
        return w;
    }
    // A non-interactive window that opened a folder of copies of the sample
    // under these names.
    std::unique_ptr<app::MainWindow> openCopies(const QTemporaryDir& dir,
                                                std::initializer_list<const char*> names) {
        for (const char* name : names)
            if (!QFile::copy(test::samplePath(), dir.filePath(QLatin1String(name)))) return {};
        auto w = freshWindow();
        w->setInteractive(false);
        w->openTrace(dir.path());
        waitForTrace(*w);
        return w;
    }

    static void waitForTrace(app::MainWindow& w) {
        w.loader()->wait();
        for (int i = 0; i < 20; ++i)
            QApplication::processEvents(QEventLoop::AllEvents, 10);
    }

  private slots:
    void theWelcomePageOffersTheFirstSteps() {
        auto w = freshWindow();
        for (const char* name : {"openSample", "openTrace", "openFolder"}) {
            auto* b = w->findChild<QPushButton*>(QString::fromLatin1(name));
            QVERIFY2(b && b->isVisible(), name);
        }
        // The welcome page has the window: no empty panel, no trace action.
        for (const QDockWidget* dock : w->findChildren<QDockWidget*>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
        // Its text names every kind of file the Open dialog takes.
        QString welcome;
        for (const QLabel* label : w->findChildren<QLabel*>())
            if (label->text().contains(QLatin1String("Where and why"))) welcome = label->text();
        for (const char* kind : {".json", ".json.gz", ".json.zst", ".xplane.pb", ".sqlite"})
            QVERIFY2(welcome.contains(QStringLiteral("<tt>%1</tt>").arg(QLatin1String(kind))),
                     kind);
        auto* threshold = w->findChild<QWidget*>(QStringLiteral("gapThreshold"));
        auto* scope = w->findChild<QWidget*>(QStringLiteral("scopePicker"));
        QVERIFY(threshold && scope);
        QVERIFY(!threshold->isEnabled() && !scope->isEnabled());
        auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("recordSnippets"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 3);
        QStringList names;
        for (int i = 0; i < tabs->count(); ++i)
            names << tabs->tabText(i);
        QCOMPARE(names, QStringList({"PyTorch", "TensorFlow", "JAX"}));
        // Copy puts exactly the shown code on the clipboard.
        tabs->setCurrentIndex(2);
        auto* code = tabs->currentWidget()->findChild<QPlainTextEdit*>();
        auto* copy = tabs->currentWidget()->findChild<QPushButton*>();
        QVERIFY(code && copy);
        QApplication::clipboard()->clear();
        QTest::mouseClick(copy, Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), code->toPlainText());
        QVERIFY(code->toPlainText().contains("jax.profiler.trace"));
        // The sample button opens the bundled trace.
        QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("openSample")), Qt::LeftButton);
        waitForTrace(*w);
        QVERIFY(w->tracePage()->trace());
        QVERIFY(w->currentPath().endsWith("h200_cnn_dataloader.pt.trace.json.gz"));
        // With the trace, the panels and the actions.
        for (const char* dock : {"overviewDock", "detailsDock"})
            QVERIFY2(w->findChild<QDockWidget*>(QLatin1String(dock))->isVisible(), dock);
        QVERIFY(threshold->isEnabled() && scope->isEnabled());
    }

    // On a laptop screen the timeline keeps at least half of the height and
    // an empty Details panel no more than a quarter of the width.
    void aLaptopScreenLeavesTheTimelineRoom() {
        QSettings().clear();
        auto w = std::make_unique<app::MainWindow>();
        w->disableCacheForSession();
        w->resize(1366, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->openTrace(test::samplePath());
        waitForTrace(*w);
        QVERIFY(w->tracePage()->isVisible());
        auto* details = w->findChild<QDockWidget*>(QStringLiteral("detailsDock"));
        QVERIFY(details && details->isVisible());
        QVERIFY2(details->width() <= w->width() / 4 + 8,
                 qPrintable(QString::number(details->width())));
        QVERIFY2(
            w->tracePage()->height() >= w->height() / 2,
            qPrintable(QStringLiteral("%1 of %2").arg(w->tracePage()->height()).arg(w->height())));
    }

    // A folder of one profiler's cycles (schedule repeat > 1) opens its
    // newest cycle as one trace, and says so; not as ranks of a job.
    void aProfilersCyclesOpenAsOneTrace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto w = openCopies(dir, {"host_42.1700000000001.pt.trace.json.gz",
                                        "host_42.1700000005000.pt.trace.json.gz"});
        QVERIFY(w);
        QVERIFY2(w->tracePage()->trace(), qPrintable(w->lastError()));
        QVERIFY(w->tracePage()->trace()->ranks.empty());
        QVERIFY(w->currentPath().endsWith("host_42.1700000005000.pt.trace.json.gz"));
        auto* bar = w->tracePage()->warnings();
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->summaryText().startsWith("Profiler cycles"), qPrintable(bar->summaryText()));
    }

    // Ranks that each wrote two cycles: the newest cycle opens as a job of
    // two ranks (not four ranks claiming two numbers twice), and it says so.
    void cyclesOfRanksOpenTheNewestCyclesRanks() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto w = openCopies(
            dir, {"rank0.1700000000001.pt.trace.json.gz", "rank0.1700000005000.pt.trace.json.gz",
                  "rank1.1700000000003.pt.trace.json.gz", "rank1.1700000005002.pt.trace.json.gz"});
        QVERIFY(w);
        const auto trace = w->tracePage()->trace();
        QVERIFY2(trace, qPrintable(w->lastError()));
        QCOMPARE(trace->ranks.size(), size_t(2));
        QStringList files;
        for (const TraceRank& r : trace->ranks)
            files << QFileInfo(QString::fromStdString(r.file)).fileName();
        files.sort();
        QCOMPARE(files, (QStringList{"rank0.1700000005000.pt.trace.json.gz",
                                     "rank1.1700000005002.pt.trace.json.gz"}));
        auto* bar = w->tracePage()->warnings();
        QVERIFY2(bar->summaryText().startsWith("Profiler cycles"), qPrintable(bar->summaryText()));
    }

    void theReadmeShowsTheSameRecordingCode() {
        const QString readme = readText(test::sourceDir() + QStringLiteral("/README.md"));
        QVERIFY(!readme.isEmpty());
        for (const app::RecordSnippet& s : app::kRecordSnippets) {
            const QString code = QString::fromUtf8(s.code).trimmed();
            QVERIFY2(readme.contains("```python\n" + code + "\n```"),
                     qPrintable(QStringLiteral("README lacks the %1 snippet as shown")
                                    .arg(QString::fromLatin1(s.framework))));
        }
    }

    void theTourFollowsTheFirstTraceOnce() {
        auto w = freshWindow();
        w->openSample();
        waitForTrace(*w);
        app::Tour* tour = w->tour();
        QVERIFY(tour->isActive());
        QCOMPARE(tour->currentStep(), 0);
        auto* highlight = w->findChild<QWidget*>(QStringLiteral("tourHighlight"));
        auto* bubble = w->findChild<QWidget*>(QStringLiteral("tourBubble"));
        QVERIFY(highlight && bubble && highlight->isVisible() && bubble->isVisible());
        // First the timeline with its gap shading, outlined; the bubble on screen.
        const QRect timeline = inWindow(w->tracePage()->timeline(), w.get());
        QVERIFY(highlight->geometry().contains(timeline));
        QVERIFY(w->rect().contains(bubble->geometry()));
        // Every step's text whole: its label as tall as its wrapped lines.
        auto* next = bubble->findChild<QPushButton*>(QStringLiteral("tourNext"));
        QVERIFY(next);
        auto* back = bubble->findChild<QPushButton*>(QStringLiteral("tourBack"));
        for (;;) {
            QApplication::processEvents();
            for (const QLabel* label : bubble->findChildren<QLabel*>()) {
                if (!label->wordWrap()) continue;
                QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                         qPrintable(QStringLiteral("step %1: \"%2\" has %3 px of %4")
                                        .arg(tour->currentStep())
                                        .arg(label->text().left(40))
                                        .arg(label->height())
                                        .arg(label->heightForWidth(label->width()))));
            }
            if (next->text() == QLatin1String("Done")) break;
            QTest::mouseClick(next, Qt::LeftButton);
        }
        QVERIFY(tour->currentStep() > 0);
        while (tour->currentStep() > 0)
            QTest::mouseClick(back, Qt::LeftButton);
        QCOMPARE(tour->currentStep(), 0);
        // Next: the Overview panel.
        QCOMPARE(next->text(), QStringLiteral("Next"));
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(tour->currentStep(), 1);
        auto* overview = w->findChild<QDockWidget*>(QStringLiteral("overviewDock"));
        QVERIFY(highlight->geometry().contains(inWindow(overview, w.get())));
        QVERIFY(w->rect().contains(bubble->geometry()));
        // Esc leaves it.
        QTest::keyClick(next, Qt::Key_Escape);
        QVERIFY(!tour->isActive());
        QVERIFY(!bubble->isVisible() && !highlight->isVisible());
        // Once: the next trace opens without it.
        w->openSample();
        waitForTrace(*w);
        QVERIFY(!tour->isActive());
        // Help > Tour repeats it, and Done at the end closes it.
        QAction* again = helpAction(*w, QStringLiteral("Tour"));
        QVERIFY(again);
        again->trigger();
        QVERIFY(tour->isActive());
        QCOMPARE(tour->currentStep(), 0);
        for (int i = 0; i < 4; ++i)
            QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(next->text(), QStringLiteral("Done"));
        QTest::mouseClick(next, Qt::LeftButton);
        QVERIFY(!tour->isActive());
    }

    void helpTourWithoutATraceOpensTheSample() {
        auto w = freshWindow();
        QSettings().setValue("tour/seen", true);
        helpAction(*w, QStringLiteral("Tour"))->trigger();
        waitForTrace(*w);
        QVERIFY(w->tracePage()->trace());
        QVERIFY(w->tour()->isActive());
    }

    void helpHasTheGuideShortcutsAndAbout() {
        auto w = freshWindow();
        for (const char* text : {"User Guide", "Tour", "Keyboard Shortcuts", "About Gapscope"})
            QVERIFY2(helpAction(*w, QString::fromLatin1(text)), text);
        // The guide of this build, with every picture it shows beside it.
        const QString guide = app::MainWindow::userGuidePath();
        QVERIFY2(QFileInfo::exists(guide), qPrintable(guide));
        const QString html = readText(guide);
        QVERIFY(html.contains("<h1"));
        const auto images = QRegularExpression("<img[^>]* src=\"([^\"]+)\"").globalMatch(html);
        int shown = 0;
        for (auto it = images; it.hasNext(); ++shown) {
            const QString src = it.next().captured(1);
            QVERIFY2(QFileInfo::exists(QFileInfo(guide).dir().filePath(src)), qPrintable(src));
        }
        QVERIFY(shown >= 3);
    }

    void aboutNamesTheLibrariesAndTheirVersions() {
        const QString about = app::MainWindow::aboutText();
        QVERIFY(about.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
        // The versions Debian's pkg-config reports for the development packages.
        const QString pkgConfig = QStandardPaths::findExecutable("pkg-config");
        if (pkgConfig.isEmpty()) QSKIP("no pkg-config to compare the versions with");
        const std::pair<const char*, const char*> libraries[] = {
            {"zstd", "libzstd"}, {"ISA-L", "libisal"}, {"nlohmann/json", "nlohmann_json"}};
        for (const auto& [name, module] : libraries) {
            QProcess p;
            p.start(pkgConfig, {"--modversion", QString::fromLatin1(module)});
            QVERIFY(p.waitForFinished(10000));
            const QString version = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
            QVERIFY2(!version.isEmpty(), module);
            QVERIFY2(about.contains(QString::fromLatin1(name) + ' ' + version),
                     qPrintable(about + " lacks " + name + ' ' + version));
        }
    }
};

GAPSCOPE_TEST_MAIN(TestFirstRun)
#include "tst_first_run.moc"
