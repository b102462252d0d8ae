// gapscope-cli: the headless front end (app/cli/cli_main.cpp).

#include "commands.h"

int main(int argc, char** argv) {
    return gapscope::cli::cliMain(argc, argv);
}
