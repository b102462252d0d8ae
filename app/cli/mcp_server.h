#pragma once
// gapscope-cli mcp: Gapscope as a tool for coding agents, over the Model
// Context Protocol (JSON-RPC 2.0, one message per line on stdin and
// stdout; nothing else is written to stdout, and no network is opened).
// Its tools are the registry's analyses (each returns the CLI's JSON,
// long tables paged, with a short text summary), a comparison of two runs
// and of ranks, opening a trace, and a picture of a range (an image).

#include <deque>
#include <iosfwd>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "trace_session.h"

namespace gapscope::cli {

struct McpOptions {
    // Where the index cache lives (empty: none); the CLI's default.
    std::string cacheDir;
    // Traces kept open at once (the least recently used is let go).
    size_t openTraces = 4;
    // False: a tool call stops with an error where it would read a file,
    // its arguments checked (the fuzz target's server).
    bool readFiles = true;
};

class McpServer {
  public:
    explicit McpServer(McpOptions options);
    ~McpServer();

    // One line from the client: the line to write back (one JSON-RPC
    // message, or an array for a batch), or none (a notification).
    std::optional<std::string> handleLine(std::string_view line);

    // Reads lines until the end of `in`, answering on `out`.
    void serve(std::istream& in, std::ostream& out);

  private:
    nlohmann::json handle(const nlohmann::json& message);
    nlohmann::json callTool(const std::string& name, const nlohmann::json& arguments);
    std::shared_ptr<TraceSession> session(const std::string& path, const nlohmann::json& arguments,
                                          std::string& error);

    McpOptions options_;
    nlohmann::json tools_;  // the tool list, made once: listed, and every call checked against it
    std::string version_;   // the protocol revision agreed at initialize
    std::shared_ptr<void> gui_;  // Qt's, for the pictures: made on the first
    // Open traces by path, the most recently used first.
    std::deque<std::pair<std::string, std::shared_ptr<TraceSession>>> open_;
};

int runMcp(int argc, char** argv);

}  // namespace gapscope::cli
