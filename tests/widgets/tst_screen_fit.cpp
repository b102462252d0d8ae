// The viewer on a laptop's screen: at 1366×768 and 1280×720 (scale 1) and
// at 2560×1440 with scale 2 (CTest runs this suite twice, the second with
// QT_SCALE_FACTOR=2), every dock raised in turn (each analysis panel, the
// Details and Annotations, the Ranks of a job) leaves the window's minimum
// size within the screen, so the window keeps the size it was given, and
// no label in the dock is narrower than its text. And the placeholder
// text (the search box's, the filters', the charts' "No data") reads on a
// dark theme's base, whatever the theme left it.

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include "compare/compare_controller.h"
#include "compare/compare_panel.h"
#include "legible_palette.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panel_wait.h"
#include "panels/analysis_table.h"
#include "panels/panel_host.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;
using namespace gapscope::ui;

class TestScreenFit : public QObject {
    Q_OBJECT

    std::unique_ptr<app::MainWindow> window_;

    PanelHost* host() const { return window_->panels(); }

    // The screens this run stands for, in logical pixels.
    static std::vector<QSize> screens() {
        if (qApp->devicePixelRatio() >= 2) return {QSize(2560, 1440) / 2};
        return {QSize(1366, 768), QSize(1280, 720)};
    }

    // Every label of `dock` that is shown and not word-wrapped has the
    // width of its text (a label squeezed below that shows a cut text).
    static QString clippedLabel(const QDockWidget* dock) {
        for (const QLabel* label : dock->findChildren<QLabel*>()) {
            if (!label->isVisibleTo(dock) || label->wordWrap() || label->text().isEmpty()) continue;
            if (label->width() < label->minimumSizeHint().width())
                return QStringLiteral("%1 \"%2\": %3 px of %4")
                    .arg(dock->objectName(), label->text().left(60))
                    .arg(label->width())
                    .arg(label->minimumSizeHint().width());
        }
        return {};
    }

  private slots:
    void initTestCase() {
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1280, 720);
        window_->show();
        window_->openTrace(test::samplePath());
        window_->loader()->wait();
        QVERIFY(test::settlePanels(host(), 60000));
    }

    void everyDockFitsTheScreen_data() {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<QString>("dock");
        for (const QSize s : screens()) {
            const QString size = QStringLiteral("%1x%2@%3")
                                     .arg(s.width() * qApp->devicePixelRatio())
                                     .arg(s.height() * qApp->devicePixelRatio())
                                     .arg(qApp->devicePixelRatio());
            for (const QDockWidget* d : window_->findChildren<QDockWidget*>()) {
                if (d->objectName() == QLatin1String("compareDock")) continue;  // tst_compare
                QTest::newRow(qPrintable(size + QLatin1Char(' ') + d->objectName()))
                    << s << d->objectName();
            }
        }
    }
    void everyDockFitsTheScreen() {
        QFETCH(QSize, screen);
        QFETCH(QString, dock);
        auto* d = window_->findChild<QDockWidget*>(dock);
        QVERIFY(d);
        d->show();
        d->raise();
        if (host()->panel(dock))
            QVERIFY(test::settledPanel<AnalysisPanel>(host(), qPrintable(dock), 60000));
        window_->resize(screen);
        QApplication::processEvents();
        QApplication::processEvents();
        const QSize minimum = window_->minimumSize().expandedTo(window_->minimumSizeHint());
        QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(),
                 qPrintable(QStringLiteral("%1 raises the window's minimum size to %2×%3")
                                .arg(dock)
                                .arg(minimum.width())
                                .arg(minimum.height())));
        QCOMPARE(window_->size(), screen);
        const QString clipped = clippedLabel(d);
        QVERIFY2(clipped.isEmpty(), qPrintable(clipped));
        // A dock shown only for a job of ranks goes back as it was.
        if (dock == QLatin1String("ranksDock")) d->hide();
    }

    // Dark palettes as themes set them, without a placeholder colour of
    // their own: KDE's Breeze Dark (its view and window colours) and one
    // made from a dark button and window colour (as Fusion's dark scheme).
    void placeholdersReadOnDarkThemes_data() {
        QTest::addColumn<QPalette>("palette");
        QPalette breeze;
        for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
            breeze.setColor(group, QPalette::Window, QColor(0x31, 0x36, 0x3b));
            breeze.setColor(group, QPalette::WindowText, QColor(0xfc, 0xfc, 0xfc));
            breeze.setColor(group, QPalette::Base, QColor(0x1b, 0x1e, 0x20));
            breeze.setColor(group, QPalette::Text, QColor(0xfc, 0xfc, 0xfc));
            breeze.setColor(group, QPalette::Button, QColor(0x31, 0x36, 0x3b));
            breeze.setColor(group, QPalette::ButtonText, QColor(0xfc, 0xfc, 0xfc));
        }
        QTest::newRow("KDE Breeze Dark") << breeze;
        QPalette fusion(QColor(0x3c, 0x3c, 0x3c), QColor(0x2d, 0x2d, 0x2d));
        for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
            fusion.setColor(group, QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
            fusion.setColor(group, QPalette::Text, QColor(0xf0, 0xf0, 0xf0));
            fusion.setColor(group, QPalette::PlaceholderText, QColor(0, 0, 0, 128));
        }
        QTest::newRow("dark Fusion") << fusion;
    }
    void placeholdersReadOnDarkThemes() {
        QFETCH(QPalette, palette);
        const QPalette before = QApplication::palette();
        const QColor base = palette.color(QPalette::Base);
        QVERIFY2(contrastRatio(palette.color(QPalette::PlaceholderText).toRgb(), base) < 3,
                 "the theme's placeholder reads already: the case proves nothing");
        QApplication::setPalette(palette);
        // The viewer mends it once the change has reached every widget.
        QTRY_VERIFY(contrastRatio(QApplication::palette().color(QPalette::PlaceholderText), base) >=
                    3);
        QApplication::processEvents();
        // The application's palette, and every box with a hint (the search,
        // the filters) as it draws it.
        std::vector<std::pair<QString, QPalette>> shown = {
            {"application", QApplication::palette()}};
        for (const QLineEdit* edit : window_->findChildren<QLineEdit*>())
            if (!edit->placeholderText().isEmpty())
                shown.push_back({edit->placeholderText(), edit->palette()});
        QVERIFY(shown.size() > 2);
        for (const auto& [what, p] : shown)
            for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
                const double ratio = contrastRatio(p.color(group, QPalette::PlaceholderText),
                                                   p.color(group, QPalette::Base));
                QVERIFY2(ratio >= 3, qPrintable(what + ": " + QString::number(ratio)));
            }
        // The theme's other colours are its own.
        QCOMPARE(QApplication::palette().color(QPalette::Text), palette.color(QPalette::Text));
        QCOMPARE(QApplication::palette().color(QPalette::Base), base);
        QApplication::setPalette(before);
        QApplication::processEvents();
    }

    // Two runs compared on each screen: the window keeps its size, the two
    // timelines and the Compare panel share the height so its tables show
    // rows, not a sliver (the welcome page, out of view, holds no height).
    void aComparisonFitsTheScreen() {
        for (const QSize screen : screens()) {
            window_->resize(screen);
            window_->compareWith(test::samplePath());
            CompareController* compare = window_->comparison();
            QTRY_VERIFY_WITH_TIMEOUT(compare->result() && !compare->computing(), 60000);
            QApplication::processEvents();
            QApplication::processEvents();
            const QSize minimum = window_->minimumSize().expandedTo(window_->minimumSizeHint());
            QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(),
                     qPrintable(QStringLiteral("a comparison raises the minimum to %1×%2")
                                    .arg(minimum.width())
                                    .arg(minimum.height())));
            QCOMPARE(window_->size(), screen);
            AnalysisTable* kernels = compare->panel()->table(QStringLiteral("kernels"));
            compare->panel()->tabs()->setCurrentWidget(kernels);
            QTRY_VERIFY(kernels->isVisible());
            const int rows = kernels->view()->viewport()->height() /
                             kernels->view()->verticalHeader()->defaultSectionSize();
            QVERIFY2(rows >= 5, qPrintable(QStringLiteral("%1 rows of kernels at %2×%3")
                                               .arg(rows)
                                               .arg(screen.width())
                                               .arg(screen.height())));
            compare->close();
        }
    }

    // A light palette whose placeholder reads is left as it is.
    void aLegiblePlaceholderIsKept() {
        QPalette light;
        light.setColor(QPalette::Base, Qt::white);
        light.setColor(QPalette::Text, Qt::black);
        light.setColor(QPalette::PlaceholderText, QColor(110, 110, 110));
        QCOMPARE(withLegiblePlaceholder(light), light);
        QVERIFY(contrastRatio(Qt::white, Qt::black) > 20.9);
        QCOMPARE(contrastRatio(QColor(119, 119, 119), QColor(119, 119, 119)), 1.0);
    }
};

GAPSCOPE_TEST_MAIN(TestScreenFit)
#include "tst_screen_fit.moc"
