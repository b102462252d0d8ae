// Exact decimal microseconds -> integer nanoseconds, never through double.

#include <QTest>

#include "support/suite_main.h"
#include "util/decimal_time.h"

using gapscope::DecimalStatus;
using gapscope::parseMicrosToNanos;

class TestDecimalTime : public QObject {
    Q_OBJECT
  private slots:
    void micros_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("ns");
        const int ok = int(DecimalStatus::Ok), bad = int(DecimalStatus::Invalid),
                  over = int(DecimalStatus::Overflow);
        QTest::newRow("integer") << "100" << ok << qint64(100000);
        QTest::newRow("zero") << "0" << ok << qint64(0);
        QTest::newRow("negative zero") << "-0" << ok << qint64(0);
        QTest::newRow("three decimals") << "5203219863189.177" << ok << qint64(5203219863189177);
        // 16 significant digits + 3 decimals: beyond a double's 53 bits.
        QTest::newRow("epoch micros")
            << "1712195495519689.047" << ok << qint64(1712195495519689047);
        QTest::newRow("epoch micros 2")
            << "1712195495896244.499" << ok << qint64(1712195495896244499);
        QTest::newRow("round half up") << "1.0005" << ok << qint64(1001);
        QTest::newRow("round down") << "1.0004999" << ok << qint64(1000);
        QTest::newRow("negative rounds away") << "-1.0005" << ok << qint64(-1001);
        QTest::newRow("double noise") << "40.959000000000003" << ok << qint64(40959);
        QTest::newRow("double noise below") << "31.792999999999999" << ok << qint64(31793);
        QTest::newRow("exponent") << "1e3" << ok << qint64(1000000);
        QTest::newRow("exponent fraction") << "1.5E-3" << ok << qint64(2);
        QTest::newRow("tiny") << "1e-10" << ok << qint64(0);
        QTest::newRow("tiny half") << "5e-4" << ok << qint64(1);
        QTest::newRow("zero with huge exponent") << "0e400" << ok << qint64(0);
        QTest::newRow("max") << "9223372036854775.807" << ok << qint64(9223372036854775807LL);
        QTest::newRow("min") << "-9223372036854775.808" << ok << qint64(-9223372036854775807LL - 1);
        QTest::newRow("overflow") << "9223372036854775.808" << over << qint64(0);
        QTest::newRow("1e400") << "1e400" << over << qint64(0);
        QTest::newRow("many digits") << "123456789012345678901234567890" << over << qint64(0);
        QTest::newRow("empty") << "" << bad << qint64(0);
        QTest::newRow("minus only") << "-" << bad << qint64(0);
        QTest::newRow("plus") << "+1" << bad << qint64(0);
        QTest::newRow("trailing dot") << "1." << bad << qint64(0);
        QTest::newRow("leading dot") << ".5" << bad << qint64(0);
        QTest::newRow("trailing chars") << "100a" << bad << qint64(0);
        QTest::newRow("NaN") << "NaN" << bad << qint64(0);
        QTest::newRow("exponent without digits") << "1e" << bad << qint64(0);
        QTest::newRow("space inside") << "1 0" << bad << qint64(0);
    }
    void micros() {
        QFETCH(QString, text);
        QFETCH(int, status);
        QFETCH(qint64, ns);
        const std::string s = text.toStdString();
        const auto r = parseMicrosToNanos(s);
        QCOMPARE(int(r.status), status);
        if (r.status == DecimalStatus::Ok) QCOMPARE(qint64(r.value), ns);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestDecimalTime)
#include "tst_decimal_time.moc"
