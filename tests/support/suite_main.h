#pragma once
// The main() of every Qt Test suite. It runs the suite as QTEST_MAIN would,
// and also:
// - leaves out the functions that tests/not_run.txt denies to this build
//   (a sanitizer build), naming each and its reason;
// - reads what Qt Test skipped (a second, TAP log) and names each skip;
// - under GAPSCOPE_REQUIRE_INPUTS=1 (CI) fails on any skip that
//   tests/not_run.txt does not allow;
// - exits 77, which ctest reports as "Skipped", when nothing ran.
// With arguments (functions picked by hand, -o, -v2) it is plain Qt Test.

#include <QTest>

namespace gapscope::test {

int runSuite(QObject* suite, int argc, char** argv);

}  // namespace gapscope::test

#define GAPSCOPE_TEST_MAIN_WRAPPER(TestObject, ...)                        \
    int main(int argc, char* argv[]) {                                     \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
        __VA_ARGS__                                                        \
        TestObject tc;                                                     \
        QTEST_SET_MAIN_SOURCE_PATH                                         \
        return gapscope::test::runSuite(&tc, argc, argv);                  \
    }

// As QTEST_MAIN (a QApplication where the suite links Qt Widgets),
// QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN.
#define GAPSCOPE_TEST_MAIN(TestObject) GAPSCOPE_TEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define GAPSCOPE_TEST_GUILESS_MAIN(TestObject) \
    GAPSCOPE_TEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define GAPSCOPE_TEST_APPLESS_MAIN(TestObject) GAPSCOPE_TEST_MAIN_WRAPPER(TestObject)
