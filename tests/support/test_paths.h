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

// Whether a missing input (../shared, python3) must fail rather than skip:
// CI sets GAPSCOPE_REQUIRE_INPUTS=1, where a skip would hide a broken
// install; on a person's checkout such tests skip.
bool inputsRequired();

}  // namespace gapscope::test

// Skips the current test function when `missing` holds, or fails it when
// inputs are required.
#define GAPSCOPE_SKIP_IF_MISSING(missing, why)                                         \
    do {                                                                               \
        if (missing) {                                                                 \
            if (gapscope::test::inputsRequired())                                      \
                QFAIL(why " (GAPSCOPE_REQUIRE_INPUTS is set: a missing input fails)"); \
            QSKIP(why);                                                                \
        }                                                                              \
    } while (0)

// The real traces and the generator in ../shared.
#define GAPSCOPE_REQUIRE_SHARED()                                   \
    GAPSCOPE_SKIP_IF_MISSING(gapscope::test::sharedDir().isEmpty(), \
                             "../shared is absent: real traces and generator not available")

// A Python interpreter (the trace generator, reference scripts).
#define GAPSCOPE_REQUIRE_PYTHON(why) \
    GAPSCOPE_SKIP_IF_MISSING(gapscope::test::python().isEmpty(), why)
