// libFuzzer target for `gapscope-cli mcp`'s message handling (app/cli/
// mcp_server.h): each line of the input is one message from a client, as
// on stdin. Every answer must be one JSON-RPC 2.0 message (or a batch of
// them) on one line; tool calls have their arguments checked and stop
// before reading a file (the target aborts otherwise).

#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "mcp_server.h"

namespace {

bool isMessage(const nlohmann::json& m) {
    return m.is_object() && m.value("jsonrpc", "") == "2.0" && m.contains("id") &&
           (m.contains("result") != m.contains("error"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    gapscope::cli::McpOptions options;
    options.readFiles = false;
    gapscope::cli::McpServer server(options);
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    while (!rest.empty()) {
        const size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        const auto answer = server.handleLine(line);
        if (!answer) continue;
        if (answer->find('\n') != std::string::npos) std::abort();  // one message per line
        const auto parsed = nlohmann::json::parse(*answer, nullptr, false);
        if (parsed.is_discarded()) std::abort();
        if (parsed.is_array()) {
            if (parsed.empty()) std::abort();
            for (const auto& m : parsed)
                if (!isMessage(m)) std::abort();
        } else if (!isMessage(parsed)) {
            std::abort();
        }
    }
    return 0;
}
