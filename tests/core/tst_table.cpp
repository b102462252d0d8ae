// Table output: CSV as RFC 4180 and safe in a spreadsheet, Markdown with
// its separators escaped, aligned text; the one formatter of durations and
// sizes; typed results as text and JSON.

#include <QTest>
#include <climits>

#include "model/device_properties.h"
#include "report/result_json.h"
#include "report/result_table.h"
#include "report/table.h"
#include "support/suite_main.h"
#include "util/readable_units.h"
#include "util/symbol_names.h"

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
        TextGrid t;
        t.headers = {"name", "n"};
        t.numeric = {false, true};
        t.rows = {{"a|b", "1"}, {"long name", "1234"}};
        QCOMPARE(formatGrid(t, OutputFormat::Csv),
                 std::string("name,n\r\na|b,1\r\nlong name,1234\r\n"));
        QCOMPARE(formatGrid(t, OutputFormat::Markdown),
                 std::string("| name | n |\n|---|---:|\n| a\\|b | 1 |\n| long name | 1234 |\n"));
        QCOMPARE(
            formatGrid(t, OutputFormat::Text),
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
        TextGrid t;
        t.headers = {"", ""};
        t.numeric = {false, false};
        t.rows = {{"file", "a.json"}};
        QCOMPARE(formatGrid(t, OutputFormat::Html),
                 std::string("<table>\n<tbody>\n<tr><td>file</td><td>a.json</td></tr>\n</tbody>\n"
                             "</table>\n"));
    }

    void htmlEscapesEverything() {
        QCOMPARE(
            htmlEscape("<script>alert(\"x\" & 'y')</script>"),
            std::string("&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"));
        TextGrid t;
        t.headers = {"<b>name</b>", "n"};
        t.numeric = {false, true};
        t.rows = {{"a&b", "1"}};
        QCOMPARE(formatGrid(t, OutputFormat::Html),
                 std::string("<table>\n<thead><tr><th>&lt;b&gt;name&lt;/b&gt;</th><th "
                             "class=\"num\">n</th></tr></thead>\n<tbody>\n<tr><td>a&amp;b</"
                             "td><td class=\"num\">1</td></tr>\n</tbody>\n</table>\n"));
    }

    // The unit moves up where rounding would print 1000 (1024 for sizes).
    void readableUnits() {
        QCOMPARE(readableDuration(0), std::string("0 ns"));
        QCOMPARE(readableDuration(999), std::string("999 ns"));
        QCOMPARE(readableDuration(1000), std::string("1.00 µs"));
        QCOMPARE(readableDuration(999994), std::string("999.99 µs"));
        QCOMPARE(readableDuration(999995), std::string("1.00 ms"));
        QCOMPARE(readableDuration(189212248), std::string("189.21 ms"));
        QCOMPARE(readableDuration(-1500), std::string("-1.50 µs"));
        QCOMPARE(readableDuration(1420000000), std::string("1.42 s"));
        QCOMPARE(readableDuration(INT64_MIN).front(), '-');  // no overflow
        QCOMPARE(readableBytes(1023), std::string("1023 B"));
        QCOMPARE(readableBytes(1536), std::string("1.5 KiB"));
        QCOMPARE(readableBytes(1048575), std::string("1.0 MiB"));
        QCOMPARE(readableBytes(4.02 * 1024 * 1024 * 1024), std::string("4.02 GiB"));
        QCOMPARE(readablePercent(0.1234), std::string("12.3 %"));
        QCOMPARE(readableCount(999), std::string("999"));
        QCOMPARE(readableCount(1234567), std::string("1\u2009234\u2009567"));
        QCOMPARE(readableCount(-1000), std::string("-1\u2009000"));
    }

    void resultsRenderTheirUnits() {
        ResultTable t;
        t.columns = {
            {"name", "Name", Unit::Text},        {"total_ns", "Total", Unit::Duration},
            {"share", "Share", Unit::Share},     {"at_ns", "At", Unit::Time},
            {"size", "Size", Unit::Bytes},       {"tc", "Tensor Cores", Unit::Flag},
            {"launch.grid", "Grid", Unit::Text}, {"launch.registers", "Registers", Unit::Count}};
        // A name of 90 characters, µ (two bytes) among them, cut in the middle.
        std::string name = "µ";
        for (int i = 0; i < 89; ++i)
            name += char('a' + i % 26);
        t.rows.push_back({{name, int64_t{1500}, 0.25, int64_t{5000000000000000}, ResultCell(),
                           ResultCell(), std::vector<int64_t>{8, 1, 1}, ResultCell()},
                          {}});
        const std::string csv = renderResult(t, OutputFormat::Csv);
        QCOMPARE(csv.substr(0, csv.find('\r')),
                 std::string("Name,Total (ns),Share (%),At (absolute ns),Size (bytes),Tensor "
                             "Cores,Grid,Registers"));
        QVERIFY(csv.find(",1500,25.00,5000000000000000,,unknown,8x1x1,\r\n") != std::string::npos);
        RenderOptions readable;
        readable.readable = true;
        readable.origin = 5000000000000000 - 2000;
        const std::string md = renderResult(t, OutputFormat::Markdown, readable);
        QVERIFY(md.find("| At (from the start) |") != std::string::npos);
        QVERIFY(md.find("| 1.50 µs | 25.0 % | 2.00 µs | - | unknown | 8×1×1 | - |") !=
                std::string::npos);
        const std::string text = renderResult(t, OutputFormat::Text);
        // 79 code points kept: 39 before the cut (µ is two bytes), 40 after.
        const std::string cut = name.substr(0, 40) + "…" + name.substr(name.size() - 40);
        QVERIFY2(text.find(cut) != std::string::npos, text.c_str());
        // JSON: raw values; a group without a value is null.
        const nlohmann::json row = resultRowJson(t, t.rows.front());
        QCOMPARE(row["total_ns"].get<int64_t>(), int64_t{1500});
        QCOMPARE(row["at_ns"].get<int64_t>(), int64_t{5000000000000000});
        QVERIFY(row["tc"].is_null() && row["size"].is_null());
        QCOMPARE(row["launch"]["grid"].size(), size_t(3));
        QVERIFY(!row["launch"].contains("registers"));
        t.rows.front().cells[6] = ResultCell();
        QVERIFY(resultRowJson(t, t.rows.front())["launch"].is_null());
    }

    // A text column with labels: people read the label, machines the value.
    void labelledValues() {
        ResultTable t;
        ResultColumn why{"why", "Why", Unit::Text};
        why.labels = {{"idle_input", "Idle: input"}, {"cpu", "CPU"}};
        t.columns = {why};
        t.rows = {{{std::string("idle_input")}, {}}, {{std::string("other")}, {}}};
        QCOMPARE(cellText(t.rows[0].cells[0], why, true), std::string("Idle: input"));
        QCOMPARE(cellText(t.rows[0].cells[0], why, false), std::string("idle_input"));
        QCOMPARE(cellText(t.rows[1].cells[0], why, true), std::string("other"));  // no label
        QCOMPARE(renderResult(t, OutputFormat::Csv), std::string("Why\r\nidle_input\r\nother\r\n"));
        QCOMPARE(resultRowJson(t, t.rows[0])["why"].get<std::string>(), std::string("idle_input"));
        RenderOptions readable;
        readable.readable = true;
        QVERIFY(renderResult(t, OutputFormat::Markdown, readable).find("| Idle: input |") !=
                std::string::npos);
    }

    // Short names of kernels as the panels show them: the function without
    // return type, template arguments, parameters and anonymous namespaces.
    void shortSymbolNames_data() {
        QTest::addColumn<QString>("full");
        QTest::addColumn<QString>("shown");
        QTest::newRow("PyTorch") << "void at::native::(anonymous namespace)::multi_tensor_apply_"
                                    "kernel<at::native::(anonymous namespace)::FusedOptimizer"
                                    "TensorListMetadata<4>, float>(int, float const*)"
                                 << "at::native::multi_tensor_apply_kernel";
        QTest::newRow("cuBLAS") << "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"
                                << "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT";
        QTest::newRow("NCCL") << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned "
                                 "long, ncclWork*)"
                              << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL";
        QTest::newRow("CUTLASS") << "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_"
                                    "16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_"
                                    "align4::Params)"
                                 << "cutlass::Kernel";
        QTest::newRow("return type") << "unsigned int foo::bar<int>(int)"
                                     << "foo::bar";
        QTest::newRow("no name") << "(weird"
                                 << "(weird";
        QTest::newRow("empty") << ""
                               << "";
    }
    void shortSymbolNames() {
        QFETCH(QString, full);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(shortSymbolName(full.toStdString())), shown);
    }

    // GPU models as people name them, in headers that must stay short.
    void shortDeviceNames_data() {
        QTest::addColumn<QString>("full");
        QTest::addColumn<QString>("shown");
        QTest::newRow("V100") << "Tesla V100-SXM2-16GB"
                              << "V100";
        QTest::newRow("A100") << "NVIDIA A100-PG509-200"
                              << "A100";
        QTest::newRow("H100") << "NVIDIA H100 80GB HBM3"
                              << "H100";
        QTest::newRow("H200") << "NVIDIA H200"
                              << "H200";
        QTest::newRow("RTX") << "NVIDIA GeForce RTX 4090"
                             << "RTX 4090";
        QTest::newRow("MI250X") << "AMD Instinct MI250X"
                                << "MI250X";
        QTest::newRow("Radeon") << "AMD Radeon Graphics"
                                << "Radeon Graphics";
        QTest::newRow("NVIDIA alone") << "NVIDIA"
                                      << "NVIDIA";
        QTest::newRow("empty") << ""
                               << "";
    }
    void shortDeviceNames() {
        QFETCH(QString, full);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(shortDeviceName(full.toStdString())), shown);
    }

    // Demangled as binutils' c++filt writes them (its output for these
    // names, checked in; tests/tools/demangle_check.py runs c++filt itself).
    void demangledSymbols() {
        QCOMPARE(demangleSymbol("_Z10add_kernelPfPKfS1_i").value_or("?"),
                 std::string("add_kernel(float*, float const*, float const*, int)"));
        QCOMPARE(
            demangleSymbol("_ZN4vllm25paged_attention_v1_kernelIttLi128ELi16ELi128ELb0EEEvPT_"
                           "PKS1_")
                .value_or("?"),
            std::string("void vllm::paged_attention_v1_kernel<unsigned short, unsigned "
                        "short, 128, 16, 128, false>(unsigned short*, unsigned short const*)"));
        QVERIFY(!demangleSymbol("_Zbroken"));
        QVERIFY(!demangleSymbol("add_kernel"));
        QVERIFY(!demangleSymbol(""));
        // Longer than any real symbol: left as it is, in bounded time.
        QVERIFY(!demangleSymbol("_Z" + std::string(kMaxMangledBytes, 'N')));
    }

    void outputFormats() {
        QCOMPARE(parseOutputFormat("table"), std::optional(OutputFormat::Text));
        QCOMPARE(parseOutputFormat("md"), std::optional(OutputFormat::Markdown));
        QCOMPARE(parseOutputFormat("xml"), std::optional<OutputFormat>());
        QCOMPARE(outputFormatForPath("a/b.HTM"), std::optional(OutputFormat::Html));
        QCOMPARE(outputFormatForPath("kernels.csv"), std::optional(OutputFormat::Csv));
        QCOMPARE(outputFormatForPath("x.xlsx"), std::optional<OutputFormat>());
        QCOMPARE(outputFormatForPath("noextension"), std::optional<OutputFormat>());
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTable)
#include "tst_table.moc"
