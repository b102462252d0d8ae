// Table output: CSV as RFC 4180 and safe in a spreadsheet, Markdown with
// its separators escaped, aligned text.

#include <QTest>

#include "report/table.h"
#include "support/suite_main.h"

using namespace gapscope;

class TestTable : public QObject {
    Q_OBJECT
  private slots:
    void csvCells_data() {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << "abc"
                               << "abc";
        QTest::newRow("comma") << "a,b"
                               << "\"a,b\"";
        QTest::newRow("quote") << "say \"hi\""
                               << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb"
                                 << "\"a\nb\"";
        QTest::newRow("formula") << "=cmd|' /C calc'!A0"
                                 << "'=cmd|' /C calc'!A0";
        QTest::newRow("plus") << "+1+2"
                              << "'+1+2";
        QTest::newRow("at") << "@SUM(A1)"
                            << "'@SUM(A1)";
        QTest::newRow("tab") << "\tx"
                             << "'\tx";
        QTest::newRow("negative number stays a number") << "-12.5"
                                                        << "-12.5";
        QTest::newRow("minus text") << "-x"
                                    << "'-x";
        QTest::newRow("formula with a comma") << "=A1,B1"
                                              << "\"'=A1,B1\"";
    }
    void csvCells() {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(csvCell(in.toStdString())), out);
    }

    void formats() {
        Table t;
        t.headers = {"name", "n"};
        t.numeric = {false, true};
        t.rows = {{"a|b", "1"}, {"long name", "1234"}};
        QCOMPARE(formatTable(t, OutputFormat::Csv),
                 std::string("name,n\r\na|b,1\r\nlong name,1234\r\n"));
        QCOMPARE(formatTable(t, OutputFormat::Markdown),
                 std::string("| name | n |\n|---|---:|\n| a\\|b | 1 |\n| long name | 1234 |\n"));
        QCOMPARE(
            formatTable(t, OutputFormat::Text),
            std::string("name          n\n---------  ----\na|b           1\nlong name  1234\n"));
    }

    // Each character that CommonMark reads as markup comes out escaped, so a
    // renderer shows the name itself (and never raw HTML).
    void markdownShowsNamesAsThemselves_data() {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("template") << "f<float*, 4>"
                                  << "f&lt;float\\*, 4>";
        QTest::newRow("script") << "<script>x</script>"
                                << "&lt;script>x&lt;/script>";
        QTest::newRow("underscores") << "ampere_sgemm_128x64"
                                     << "ampere\\_sgemm\\_128x64";
        QTest::newRow("link") << "[a](http://x)"
                              << "\\[a\\](http://x)";
        QTest::newRow("image") << "![i](u)"
                               << "\\!\\[i\\](u)";
        QTest::newRow("code and strike") << "`c` ~~s~~"
                                         << "\\`c\\` \\~\\~s\\~\\~";
        QTest::newRow("heading") << "# h"
                                 << "\\# h";
        QTest::newRow("cell and lines") << "a|b\nc\\d"
                                        << "a\\|b c\\\\d";
        QTest::newRow("entity") << "&lt;"
                                << "&amp;lt;";
    }
    void markdownShowsNamesAsThemselves() {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(markdownEscape(in.toStdString())), out);
    }

    // Name and value pairs (empty headers) have no header row in HTML.
    void htmlLeavesOutAnEmptyHeader() {
        Table t;
        t.headers = {"", ""};
        t.numeric = {false, false};
        t.rows = {{"file", "a.json"}};
        QCOMPARE(formatTable(t, OutputFormat::Html),
                 std::string("<table>\n<tbody>\n<tr><td>file</td><td>a.json</td></tr>\n</tbody>\n"
                             "</table>\n"));
    }

    void htmlEscapesEverything() {
        QCOMPARE(
            htmlEscape("<script>alert(\"x\" & 'y')</script>"),
            std::string("&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"));
        Table t;
        t.headers = {"<b>name</b>", "n"};
        t.numeric = {false, true};
        t.rows = {{"a&b", "1"}};
        QCOMPARE(formatTable(t, OutputFormat::Html),
                 std::string("<table>\n<thead><tr><th>&lt;b&gt;name&lt;/b&gt;</th><th "
                             "class=\"num\">n</th></tr></thead>\n<tbody>\n<tr><td>a&amp;b</"
                             "td><td class=\"num\">1</td></tr>\n</tbody>\n</table>\n"));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTable)
#include "tst_table.moc"
