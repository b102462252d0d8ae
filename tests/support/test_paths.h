#pragma once
// Where test inputs live, and skipping when the shared/ folder is absent.

#include <QString>

namespace gapscope::test {

QString sourceDir();
QString sharedDir();                   // "" when ../shared is absent
QString sharedTraces();                // sharedDir() + "/traces", or ""
QString fixture(const QString& name);  // tests/fixtures/<name>
QString samplePath();                  // the bundled sample trace
QString cliPath();
QString python();  // "" when no interpreter was found at configure time

}  // namespace gapscope::test

// Skips the current test function when ../shared is not there.
#define GAPSCOPE_REQUIRE_SHARED()                                                  \
    do {                                                                           \
        if (gapscope::test::sharedDir().isEmpty())                                 \
            QSKIP("../shared is absent: real traces and generator not available"); \
    } while (0)
