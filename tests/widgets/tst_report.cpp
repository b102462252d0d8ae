// File > Export Report's writer on a generated trace: HTML self-contained
// (the picture inline, decodable, of the picture's size), Markdown with the
// picture beside it, PDF with pages and the text (read back by pdftotext);
// the trace's facts, the summary's top kernel from the generator's truth,
// the annotations, everything from the trace escaped.

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "export/report_export.h"
#include "loader/loader.h"
#include "picture/picture.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;
using namespace gapscope::ui;

class TestReport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    test::Generated gen_;
    std::shared_ptr<const Trace> trace_;
    std::string topKernel_;  // by total time, from the truth

    PictureSpec spec() const {
        PictureSpec s;
        s.trace = trace_;
        s.range = {trace_->spanStart, trace_->spanEnd};
        s.width = 1200;
        s.title = QStringLiteral("report.json");
        s.origin = trace_->spanStart;
        s.gapThreshold = kDefaultGapThresholdNs;
        s.font = QApplication::font();
        Annotation a;
        a.kind = Annotation::Kind::Range;
        a.id = 1;
        a.start = trace_->spanStart + (trace_->spanEnd - trace_->spanStart) / 3;
        a.end = a.start + (trace_->spanEnd - trace_->spanStart) / 10;
        a.text = "slow <b>step</b> & \"why\"";
        s.annotations = {a};
        return s;
    }
    QByteArray read(const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        gen_ = test::generateTrace(dir_.path(), "report.json",
                                   {"--profile", "kineto", "--steps", "6", "--seed", "11"});
        QVERIFY2(gen_.error.isEmpty(), qPrintable(gen_.error));
        const LoadResult r = loadTrace(gen_.trace.toStdString());
        QVERIFY(r.trace);
        trace_ = r.trace;
        int64_t best = -1;
        for (const auto& [name, k] : gen_.truth["kernels"].items()) {
            if (k["total_ns"].get<int64_t>() > best) {
                best = k["total_ns"].get<int64_t>();
                topKernel_ = name;
            }
        }
        QVERIFY(!topKernel_.empty());
    }

    // GAPSCOPE_EXAMPLES_DIR=docs/examples: the reports the docs show, from
    // this generated trace (tools/docs-examples.sh).
    void cleanupTestCase() {
        const QString out = qEnvironmentVariable("GAPSCOPE_EXAMPLES_DIR");
        if (out.isEmpty() || !trace_) return;
        for (const char* name : {"report.html", "report.md", "report.pdf"}) {
            QString error;
            const QString path = QDir(out).filePath(QLatin1String(name));
            QFile::remove(path);
            if (!writeReport(path, spec(), nullptr, &error)) qWarning("%s", qPrintable(error));
        }
    }

    void htmlIsSelfContained() {
        const QString path = dir_.filePath("report.html");
        QString error;
        QVERIFY2(writeReport(path, spec(), nullptr, &error), qPrintable(error));
        const QString html = QString::fromUtf8(read(path));
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(
            html.contains(QStringLiteral("slow &lt;b&gt;step&lt;/b&gt; &amp; &quot;why&quot;")));
        QVERIFY(!html.contains(QStringLiteral("<b>step</b>")));
        QVERIFY(html.contains(QStringLiteral("PyTorch profiler (Kineto)")));
        QVERIFY(html.contains(QString::fromStdString(topKernel_).toHtmlEscaped()));
        // Times in units people read: the top kernel's total (the truth's
        // integer ns) as milliseconds to two decimals, in its row.
        const int64_t total = gen_.truth["kernels"][topKernel_]["total_ns"].get<int64_t>();
        QVERIFY(total >= 1'000'000 && total < 1'000'000'000);
        const QString row = html.section(QString::fromStdString(topKernel_).toHtmlEscaped(), 1)
                                .section(QStringLiteral("</tr>"), 0, 0);
        QVERIFY2(row.contains(QStringLiteral(">%1 ms<").arg(double(total) / 1e6, 0, 'f', 2)),
                 qPrintable(row));
        QVERIFY(html.contains(QStringLiteral("<th>Kernel</th>")));
        QVERIFY(!html.contains(QStringLiteral("total ns")));
        const auto m = QRegularExpression(QStringLiteral("src=\"data:image/png;base64,([^\"]+)\""))
                           .match(html);
        QVERIFY(m.hasMatch());
        const QImage image = QImage::fromData(QByteArray::fromBase64(m.captured(1).toLatin1()));
        QCOMPARE(image.size(), pictureSize(spec()));
        // The report holds the picture itself, not another rendering of it.
        QCOMPARE(image.convertToFormat(QImage::Format_RGB32),
                 renderPicture(spec()).convertToFormat(QImage::Format_RGB32));
        QVERIFY(!html.contains(QStringLiteral("src=\"http")));  // nothing fetched from elsewhere
    }

    // The picture at known pixels: against the same picture without gap
    // shading, the columns that change are those of the GPU's idle gaps
    // that the generator's truth lists (≥ 100 µs), and every such gap
    // changes its middle column. Positions come from the truth's times and
    // the picture's linear time axis, not from the analysis that drew it.
    void thePictureShadesTheTruthsGapsAndNothingElse() {
        PictureSpec s = spec();
        s.annotations.clear();
        const QImage shaded = renderPicture(s).convertToFormat(QImage::Format_RGB32);
        s.gapThreshold = TimeNs{1} << 60;
        const QImage plain = renderPicture(s).convertToFormat(QImage::Format_RGB32);
        QCOMPARE(shaded.size(), plain.size());
        const auto& device = gen_.truth["devices"]["0"];
        QCOMPARE(gen_.truth["min_gap_us"].get<double>() * 1000, double(kDefaultGapThresholdNs));
        const TimeNs start = s.range.start, span = s.range.end - s.range.start;
        const double pxPerNs = double(s.width - kPictureGutter) / double(span);
        auto xOf = [&](TimeNs t) { return kPictureGutter + double(t - start) * pxPerNs; };
        std::vector<std::pair<double, double>> gaps;  // x0, x1
        for (const auto& g : device["idle_gaps"])
            gaps.push_back({xOf(g["start_ns"].get<TimeNs>()), xOf(g["end_ns"].get<TimeNs>())});
        QVERIFY2(gaps.size() >= 3, qPrintable(QString::number(gaps.size())));
        // Rows above the legend, whose "GPU idle ≥ …" line differs.
        const int rows = shaded.height() - 40;
        auto changed = [&](int x) {
            for (int y = 0; y < rows; ++y)
                if (shaded.pixel(x, y) != plain.pixel(x, y)) return true;
            return false;
        };
        int changedColumns = 0;
        for (int x = kPictureGutter; x < shaded.width(); ++x) {
            if (!changed(x)) continue;
            ++changedColumns;
            const bool inAGap = std::any_of(gaps.begin(), gaps.end(), [&](const auto& g) {
                return x >= std::floor(g.first) - 1 && x <= std::ceil(g.second) + 1;
            });
            QVERIFY2(inAGap, qPrintable(QStringLiteral("column %1 changed, outside every gap of "
                                                       "the truth")
                                            .arg(x)));
        }
        for (const auto& [x0, x1] : gaps)
            QVERIFY2(
                changed(static_cast<int>((x0 + x1) / 2)),
                qPrintable(QStringLiteral("the gap at x %1..%2 is not shaded").arg(x0).arg(x1)));
        QVERIFY(changedColumns >= int(gaps.size()));
    }

    void markdownHasThePictureBesideIt() {
        const QString path = dir_.filePath("report.md");
        QString error;
        QVERIFY2(writeReport(path, spec(), nullptr, &error), qPrintable(error));
        const QString md = QString::fromUtf8(read(path));
        QVERIFY(md.startsWith(QStringLiteral("# Gapscope report: report.json")));
        QVERIFY(md.contains(QStringLiteral("](report.md.png)")));
        QCOMPARE(QImage(dir_.filePath("report.md.png")).size(), pictureSize(spec()));
        QVERIFY(md.contains(QStringLiteral("## Annotations")));
        // What a Markdown reader shows: CommonMark drops the backslash before
        // punctuation and reads the entities.
        QString shown = md;
        shown.replace(QRegularExpression(QStringLiteral("\\\\([!-/:-@\\[-`{-~])")),
                      QStringLiteral("\\1"));
        shown.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
        shown.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
        QVERIFY2(shown.contains(QString::fromStdString(topKernel_)), topKernel_.c_str());
        // The raw text has none of a kernel name's markup left active.
        QVERIFY(!md.contains(QStringLiteral("<")));
        if (topKernel_.find('_') != std::string::npos)
            QVERIFY(!md.contains(QString::fromStdString(topKernel_)));
    }

    void pdfHasPagesAndText() {
        const QString path = dir_.filePath("report.pdf");
        QString error;
        QVERIFY2(writeReport(path, spec(), nullptr, &error), qPrintable(error));
        const QByteArray pdf = read(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        GAPSCOPE_SKIP_IF_MISSING(pdftotext.isEmpty(), "no pdftotext (poppler-utils)");
        QProcess p;
        p.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("Gapscope report: report.json")),
                 qPrintable(text.left(500)));
        QVERIFY(text.contains(QStringLiteral("slow <b>step</b> & \"why\"")));
        QVERIFY(text.contains(QStringLiteral("Annotations")));
        // Pages: the facts, the picture and eight tables do not fit on one.
        const int pages = static_cast<int>(text.count(QChar('\f')));
        QVERIFY2(pages >= 2, qPrintable(QString::number(pages)));
    }

    void otherNamesAreRefused() {
        QString error;
        QVERIFY(!writeReport(dir_.filePath("report.docx"), spec(), nullptr, &error));
        QVERIFY(error.contains(QStringLiteral(".pdf")));
        QVERIFY(!QFile::exists(dir_.filePath("report.docx")));
    }
};

GAPSCOPE_TEST_MAIN(TestReport)
#include "tst_report.moc"
