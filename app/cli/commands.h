#pragma once
// Every gapscope-cli command as data: its name, the line of the usage that
// shows its arguments, what it does (the usage's text, one line each), and
// the function that runs it (argv after the command's name). The usage
// text, the dispatch and, through `--help`, the man page and the shell
// completions (packaging/make_cli_docs.py) all come from this list.

#include <span>

namespace gapscope::cli {

struct Command {
    const char* name;
    const char* arguments;  // "TRACE", "BASE NEW", "DIR|FILE..."
    const char* what;       // lines of the usage text, '\n' between them
    int (*run)(int argc, char** argv);
};

std::span<const Command> commands();

}  // namespace gapscope::cli
