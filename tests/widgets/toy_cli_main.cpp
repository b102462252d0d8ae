// gapscope-cli with the test's toy analysis registered: what the man page
// generator (packaging/make_cli_docs.py) reads in tst_registry.

#include "commands.h"
#include "toy_analysis.h"

int main(int argc, char** argv) {
    gapscope::test::registerToyAnalysis();
    return gapscope::cli::cliMain(argc, argv);
}
