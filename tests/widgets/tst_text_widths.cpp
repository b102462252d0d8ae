// TextWidths (the column fitting's estimate) against Qt's own shaping: never
// narrower than the text really is, so a fitted column never elides what it
// was fitted to, and not much wider.

#include <QApplication>
#include <QFont>
#include <QTest>

#include "panels/text_widths.h"
#include "support/suite_main.h"

using namespace gapscope::ui;

class TstTextWidths : public QObject {
    Q_OBJECT

    static QStringList samples() {
        return {
            QString(),
            QStringLiteral("Kernel"),
            QStringLiteral("ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_64x3_nn"),
            QStringLiteral("void at::native::vectorized_elementwise_kernel<4, "
                           "at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, "
                           "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"),
            QStringLiteral("aten::convolution_backward"),
            QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long)"),
            QStringLiteral("14.2 µs"),
            QStringLiteral("1,234,567"),
            QStringLiteral("32×1×1 × 256×1×1"),
            QStringLiteral("waiting for input (DataLoader) +3.1 ms"),
            QStringLiteral("12.5 %"),
            QStringLiteral("Σ Ω — …"),
            QStringLiteral("数据加载器"),
            QStringLiteral("cafe\u0301 na\u0308ive"),            // combining marks
            QStringLiteral("tab\there"),                         // a control character
            QString::fromUtf8("emoji \xF0\x9F\x9A\x80 rocket"),  // a surrogate pair
        };
    }

  private slots:
    void neverNarrowerAndCloseToTheShapedWidth_data() {
        QTest::addColumn<QFont>("font");
        QFont plain = QApplication::font();
        QFont bold = plain;
        bold.setBold(true);
        QFont large = plain;
        large.setPointSizeF(plain.pointSizeF() * 1.6);
        QTest::newRow("application font") << plain;
        QTest::newRow("bold") << bold;
        QTest::newRow("large") << large;
    }

    void neverNarrowerAndCloseToTheShapedWidth() {
        QFETCH(QFont, font);
        const QFontMetrics fm(font);
        const TextWidths estimate(font);
        for (const QString& text : samples()) {
            const int shaped = fm.horizontalAdvance(text);
            const int ours = estimate(text);
            if (ours < shaped)
                QFAIL(qPrintable(QStringLiteral("'%1': %2 < %3").arg(text).arg(ours).arg(shaped)));
            if (ours > shaped + shaped / 20 + 3)
                QFAIL(qPrintable(
                    QStringLiteral("'%1': %2 > %3 + 5 %").arg(text).arg(ours).arg(shaped)));
            QCOMPARE(estimate(text), ours);  // the same again (characters measured once)
        }
    }
};

GAPSCOPE_TEST_MAIN(TstTextWidths)
#include "tst_text_widths.moc"
