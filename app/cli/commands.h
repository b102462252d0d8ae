#pragma once
// Every gapscope-cli command as data: its name, the line of the usage that
// shows its arguments, what it does (the usage's text, one line each), and
// how it runs (argv after the command's name): a registered analysis
// (report/analysis_registry.h) or a function of its own. The usage text,
// the dispatch and, through `--help`, the man page and the shell
// completions (packaging/make_cli_docs.py) all come from this list.

#include <string>
#include <vector>

namespace gapscope {
struct Analysis;
}

namespace gapscope::cli {

struct Command {
    std::string name;
    std::string arguments;  // "TRACE", "BASE NEW", "DIR|FILE..."
    std::string what;       // lines of the usage text, '\n' between them
    int (*run)(int argc, char** argv) = nullptr;
    const Analysis* analysis = nullptr;  // a registered analysis (then no `run`)
};

// The commands now: the registry's analyses between the others, so that an
// analysis registered before the call is one of them.
std::vector<Command> commands();

// gapscope-cli itself (argv[0] is the program).
int cliMain(int argc, char** argv);

}  // namespace gapscope::cli
