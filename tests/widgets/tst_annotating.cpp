// Annotating in the real main window: M and N, the sidecar written beside
// the trace on every change (and the trace's bytes untouched), undo and
// redo, reopening, a read-only folder's fallback, an unreadable sidecar
// kept, and the annotations drawn on the timeline and the ruler.

#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>
#include <set>

#include "annotations/annotation_controller.h"
#include "annotations/annotation_store.h"
#include "annotations/annotations_panel.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panels/analysis_table.h"
#include "picture/annotation_files.h"
#include "picture/annotation_painter.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

bool notWritable(const std::string&) {
    return false;
}

}  // namespace

class TestAnnotating : public QObject {
    Q_OBJECT

    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir dir_;
    QString trace_;

    TracePage* page() const { return window_->tracePage(); }
    TimelineView* view() const { return page()->timeline(); }
    AnnotationController* notes() const { return window_->annotations(); }
    AnnotationStore* store() const { return notes()->store(); }
    QString sidecar() const { return trace_ + ".gapscope.json"; }

    void open(const QString& path) {
        window_->openTrace(path);
        window_->loader()->wait();
        QApplication::processEvents();
        QVERIFY(page()->trace());
    }
    SidecarRead onDisk() const { return readSidecar(sidecar().toStdString()); }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // the data folder is a test one
        QCoreApplication::setOrganizationName(QStringLiteral("GapscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_annotating"));
        QSettings().clear();
        trace_ = dir_.filePath("run.pt.trace.json.gz");
        QVERIFY(QFile::copy(test::samplePath(), trace_));
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1400, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        open(trace_);
    }
    void cleanupTestCase() { window_.reset(); }

    // Shift+M: a marker at the cursor (here the centre: the cursor is elsewhere),
    // saved beside the trace at once; the trace itself is not touched.
    void markerIsSavedBesideTheTrace() {
        const QByteArray before = sha256(trace_);
        const TimeWindow v = page()->state()->visible();
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_M, Qt::ShiftModifier);
        QCOMPARE(store()->annotations().size(), size_t(1));
        const Annotation a = store()->annotations().front();
        QCOMPARE(a.kind, Annotation::Kind::Marker);
        QCOMPARE(a.start, v.start + v.span() / 2);
        const SidecarRead read = onDisk();
        QCOMPARE(read.status, SidecarStatus::Loaded);
        QCOMPARE(read.annotations.size(), size_t(1));
        QCOMPARE(read.annotations.front().start, a.start);
        QCOMPARE(sha256(trace_), before);
        QCOMPARE(notes()->panel()->table()->rowCount(), 1);
    }

    // N on a range: a range note; the panel edits its text; undo takes each
    // step back, on disk too, and redo brings it again.
    void noteOnARangeEditUndoRedo() {
        const TimeWindow b = page()->state()->bounds();
        const TimeWindow r{b.start + b.span() / 3, b.start + b.span() / 2};
        page()->state()->setSelectedRange(r);
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_N);
        QCOMPARE(store()->annotations().size(), size_t(2));
        const Annotation* note = store()->find(store()->lastAdded());
        QVERIFY(note);
        QCOMPARE(note->kind, Annotation::Kind::Range);
        QCOMPARE(note->start, r.start);
        QCOMPARE(note->end, r.end);
        const uint64_t id = note->id;
        QTableWidget* table = notes()->panel()->table();
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->data(Qt::UserRole).toULongLong() == id)
                table->item(row, 3)->setText(QStringLiteral("input stall <here>"));
        QCOMPARE(store()->find(id)->text, std::string("input stall <here>"));
        QCOMPARE(onDisk().annotations.size(), size_t(2));
        notes()->undoAction()->trigger();  // the edit
        QCOMPARE(store()->find(id)->text, std::string());
        notes()->undoAction()->trigger();  // the note
        QVERIFY(!store()->find(id));
        QCOMPARE(onDisk().annotations.size(), size_t(1));
        notes()->redoAction()->trigger();
        notes()->redoAction()->trigger();
        QCOMPARE(store()->find(id)->text, std::string("input stall <here>"));
        QCOMPARE(onDisk().annotations.size(), size_t(2));
        page()->state()->setSelectedRange(std::nullopt);
    }

    // A one-line text edits in place beyond QLineEdit's 32,767 characters;
    // one of several lines goes to the dialog (Edit… or a double click).
    void longAndMultiLineTextsEdit() {
        QVERIFY(notes()->addMarkerAt(page()->trace()->spanStart + 500, QStringLiteral("one")));
        const uint64_t id = store()->lastAdded();
        QTableWidget* table = notes()->panel()->table();
        QTableWidgetItem* text = nullptr;
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->data(Qt::UserRole).toULongLong() == id)
                text = table->item(row, 3);
        QVERIFY(text);
        // The cell's own editor, as a double click makes it.
        QAbstractItemDelegate* delegate = table->itemDelegateForColumn(3);
        QVERIFY(delegate);
        const QModelIndex index = table->model()->index(text->row(), 3);
        std::unique_ptr<QWidget> editor(
            delegate->createEditor(table->viewport(), QStyleOptionViewItem(), index));
        auto* line = qobject_cast<QLineEdit*>(editor.get());
        QVERIFY(line);
        line->setText(QString(40000, QLatin1Char('x')));
        delegate->setModelData(line, table->model(), index);
        QCOMPARE(store()->find(id)->text.size(), size_t(40000));
        QVERIFY(store()->setText(id, QStringLiteral("first line\nsecond line")));
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->data(Qt::UserRole).toULongLong() == id)
                text = table->item(row, 3);
        QVERIFY(!(text->flags() & Qt::ItemIsEditable));
        QSignalSpy asked(notes()->panel(), &AnnotationsPanel::editRequested);
        notes()->panel()->select(id);
        QString shown;
        QTimer::singleShot(0, [&shown] {  // answers the dialog
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            shown = dialog->textValue();
            dialog->setTextValue(QStringLiteral("edited\nin the dialog"));
            dialog->accept();
        });
        notes()->panel()->editButton()->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.first().first().toULongLong(), qulonglong(id));
        QCOMPARE(shown, QStringLiteral("first line\nsecond line"));
        QCOMPARE(store()->find(id)->text, std::string("edited\nin the dialog"));
        QVERIFY(store()->remove(id));
    }

    // N on a slice: the note names its track and slice and finds it again.
    void noteOnASlice() {
        const Trace& t = *page()->trace();
        uint32_t slice = kNone;
        for (uint32_t i = 0; i < t.slices.size() && slice == kNone; ++i)
            if (t.slices[i].dur > 0) slice = i;
        QVERIFY(slice != kNone);
        page()->state()->setSelectedSlice(slice);
        QVERIFY(notes()->addNoteOnSelection(QStringLiteral("this one")));
        const Annotation* a = store()->find(store()->lastAdded());
        QCOMPARE(a->kind, Annotation::Kind::Slice);
        QCOMPARE(a->slice, std::string(t.str(t.slices[slice].name)));
        QCOMPARE(a->track, t.tracks[t.trackOfSlice(slice)].displayName);
        QCOMPARE(annotatedSlice(t, *a), slice);
        page()->state()->setSelectedSlice(kNone);
        QVERIFY(!notes()->addNoteOnSelection(QStringLiteral("nothing selected")));
    }

    // What the sidecar's reader would refuse is never written: an unnamed
    // slice's note becomes a note on its span, a text cut to 64 KiB is cut
    // at a character, so the file stays readable.
    void savedAnnotationsStayReadable() {
        Annotation unnamed;
        unnamed.kind = Annotation::Kind::Slice;
        unnamed.start = page()->trace()->spanStart + 10;
        unnamed.end = unnamed.start + 100;
        unnamed.track = "stream 7";
        QVERIFY(store()->add(unnamed));
        QCOMPARE(store()->find(store()->lastAdded())->kind, Annotation::Kind::Range);
        Annotation longText;
        longText.kind = Annotation::Kind::Marker;
        longText.start = longText.end = unnamed.start;
        QString cjk;
        for (int i = 0; i < 30000; ++i)
            cjk += QChar(0x6570);  // 3 bytes in UTF-8
        longText.text = cjk.toStdString();
        QVERIFY(store()->add(longText));
        const std::string& kept = store()->find(store()->lastAdded())->text;
        QVERIFY(kept.size() <= kMaxAnnotationText);
        QCOMPARE(kept.size() % 3, size_t(0));  // whole characters
        const SidecarRead read = onDisk();
        QVERIFY2(read.status == SidecarStatus::Loaded, read.error.c_str());
        notes()->undoAction()->trigger();
        notes()->undoAction()->trigger();
        QCOMPARE(onDisk().status, SidecarStatus::Loaded);
    }

    // A table export never replaces the trace's annotations (a .json name).
    void exportsNeverReplaceTheSidecar() {
        const QByteArray before = [&] {
            QFile f(sidecar());
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!before.isEmpty());
        // An analysis panel's (the Compare panel's are of two runs).
        AnalysisTable* table = nullptr;
        for (AnalysisTable* t : window_->findChildren<AnalysisTable*>())
            if (!table && !t->objectName().startsWith(QStringLiteral("compare_"))) table = t;
        QVERIFY(table);
        QString error;
        QVERIFY(!table->exportTo(sidecar(), &error));
        QVERIFY(error.contains(QStringLiteral("annotations")));
        QFile f(sidecar());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    // The marker's colour runs down its column on screen and flags the ruler.
    void drawnOnTheTimelineAndTheRuler() {
        const Annotation* marker = nullptr;
        for (const Annotation& a : store()->annotations())
            if (a.kind == Annotation::Kind::Marker) marker = &a;
        QVERIFY(marker);
        const QColor colour(QString::fromStdString(marker->color));
        page()->state()->fitAll();
        QApplication::processEvents();
        const int x =
            static_cast<int>(TimelineView::kGutterWidth + view()->axis().toX(marker->start));
        const QImage timeline = view()->grab().toImage();
        int hits = 0;
        for (int y = 0; y < timeline.height(); ++y)
            hits += QColor(timeline.pixel(x, y)) == colour;
        QVERIFY2(hits > timeline.height() / 4, qPrintable(QString::number(hits)));
        const QImage ruler = page()->ruler()->grab().toImage();
        int flag = 0;
        for (int y = 0; y < ruler.height(); ++y)
            flag += QColor(ruler.pixel(x + 3, y)) == colour;
        QVERIFY(flag > 5);
    }

    // Reopening (File > Reload does the same) reads them back.
    void reopeningReadsThemBack() {
        const std::vector<Annotation> before = store()->annotations();
        open(trace_);
        QCOMPARE(store()->annotations(), before);
        QVERIFY(store()->writable());
        QVERIFY(!store()->inFallbackFolder());
    }

    // Where the trace's folder cannot be written, they go to the data
    // folder, the panel says so, and nothing appears beside the trace.
    void readOnlyFolderUsesTheDataFolder() {
        QTemporaryDir other;
        const QString path = other.filePath("ro.pt.trace.json.gz");
        QVERIFY(QFile::copy(test::samplePath(), path));
        setFolderCheck(notWritable);
        const auto restore = qScopeGuard([] { setFolderCheck(nullptr); });
        open(path);
        QVERIFY(store()->inFallbackFolder());
        QVERIFY(store()->sidecarPath().startsWith(QString::fromStdString(annotationFallbackDir())));
        QVERIFY(store()->notice().contains(store()->sidecarPath()));
        QVERIFY(!notes()->panel()->notice()->isHidden());
        QVERIFY(notes()->addMarkerAt(page()->trace()->spanStart + 1000, QStringLiteral("here")));
        QVERIFY(QFile::exists(store()->sidecarPath()));
        QVERIFY(!QFile::exists(path + ".gapscope.json"));
        const QString kept = store()->sidecarPath();
        open(path);  // and finds them there again
        QCOMPARE(store()->annotations().size(), size_t(1));
        QFile::remove(kept);
    }

    // A sidecar shipped beside a trace in a read-only folder is shown; the
    // first change saves all of them in the data folder, the shipped one
    // is left as it is.
    void readOnlyFolderReadsTheShippedSidecar() {
        QTemporaryDir other;
        const QString path = other.filePath("shipped.pt.trace.json.gz");
        QVERIFY(QFile::copy(test::samplePath(), path));
        Annotation shipped;
        shipped.kind = Annotation::Kind::Range;
        shipped.id = 7;
        shipped.start = page()->trace()->spanStart + 100;
        shipped.end = shipped.start + 5000;
        shipped.text = "from the team";
        const QString beside = path + ".gapscope.json";
        QVERIFY(writeSidecar(beside.toStdString(), {shipped}, "shipped").empty());
        const QByteArray before = sha256(beside);
        setFolderCheck(notWritable);
        const auto restore = qScopeGuard([] { setFolderCheck(nullptr); });
        open(path);
        QVERIFY(store()->inFallbackFolder());
        QCOMPARE(store()->annotations().size(), size_t(1));
        QCOMPARE(store()->annotations()[0].text, shipped.text);
        QVERIFY(notes()->addMarkerAt(shipped.start + 10, QStringLiteral("mine")));
        const SidecarRead copy = readSidecar(store()->sidecarPath().toStdString());
        QCOMPARE(copy.status, SidecarStatus::Loaded);
        QCOMPARE(copy.annotations.size(), size_t(2));
        QCOMPARE(sha256(beside), before);
        const QString kept = store()->sidecarPath();
        open(path);  // now from the copy
        QCOMPARE(store()->annotations().size(), size_t(2));
        QFile::remove(kept);
        open(trace_);
    }

    // Repeated or zero ids (two sidecars merged by hand) are made unique, so
    // that an edit acts on the annotation it was made on.
    void repeatedIdsAreMadeUnique() {
        QTemporaryDir other;
        const QString path = other.filePath("ids.pt.trace.json.gz");
        QVERIFY(QFile::copy(test::samplePath(), path));
        std::vector<Annotation> twins(3);
        for (size_t i = 0; i < twins.size(); ++i) {
            twins[i].kind = Annotation::Kind::Marker;
            twins[i].id = i == 2 ? 0 : 1;
            twins[i].start = twins[i].end = page()->trace()->spanStart + TimeNs(i) * 1000;
            twins[i].text = "twin " + std::to_string(i);
        }
        QVERIFY(writeSidecar((path + ".gapscope.json").toStdString(), twins, "ids").empty());
        open(path);
        std::set<uint64_t> ids;
        for (const Annotation& a : store()->annotations())
            QVERIFY(a.id != 0 && ids.insert(a.id).second);
        QCOMPARE(ids.size(), size_t(3));
        const uint64_t second = store()->annotations()[1].id;
        QVERIFY(store()->remove(second));
        QCOMPARE(store()->annotations().size(), size_t(2));
        QCOMPARE(store()->annotations()[1].text, std::string("twin 2"));
        open(trace_);
    }

    // A sidecar that cannot be read is reported and left as it is.
    void unreadableSidecarIsKept() {
        QTemporaryDir other;
        const QString path = other.filePath("bad.pt.trace.json.gz");
        QVERIFY(QFile::copy(test::samplePath(), path));
        const QByteArray garbage = "{\"format\": \"gapscope-annotations\", \"version\": 1, ";
        {
            QFile f(path + ".gapscope.json");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(garbage);
        }
        open(path);
        QVERIFY(!store()->writable());
        QVERIFY(store()->notice().contains(QStringLiteral("bad.pt.trace.json.gz.gapscope.json")));
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_M, Qt::ShiftModifier);
        QVERIFY(store()->annotations().empty());
        QFile f(path + ".gapscope.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), garbage);
        open(trace_);
    }
};

GAPSCOPE_TEST_MAIN(TestAnnotating)
#include "tst_annotating.moc"
