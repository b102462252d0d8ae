#include "mcp_server.h"

#include <filesystem>
#include <iostream>
#include <sstream>

#include "cache/index_cache.h"
#include "io/file_stamp.h"
#include "load_args.h"
#include "mcp_tools.h"
#include "report/analysis_render.h"
#ifdef GAPSCOPE_HAVE_RENDER
#include "render_picture.h"
#endif

namespace gapscope::cli {

namespace {

using nlohmann::json;

// The protocol revisions this server speaks, the newest first: a client
// asking for one of them gets it, any other gets the newest.
constexpr const char* kProtocolVersions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

// A line longer than this is refused, not kept (a client's mistake, or worse).
constexpr size_t kMaxLineBytes = 16u << 20;
// Arrays and objects nested deeper than this are refused.
constexpr int kMaxDepth = 64;

const nlohmann::json kNull;
const nlohmann::json kEmpty = nlohmann::json::object();

json rpcError(const json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json rpcResult(const json& id, json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json toolError(const std::string& message) {
    return {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}};
}

std::string dumped(const json& value) {
    // Text from a trace may hold bytes that are not UTF-8: replaced, never thrown.
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What a path is now: a file's size, modification time and head and tail,
// a folder's files' names, sizes and times (the first 10000 below it).
std::string stampText(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        const FileStamp s = stampOfPath(path);
        return s.valid ? std::to_string(s.size) + ":" + std::to_string(s.mtimeNs) + ":" +
                             std::to_string(s.headTailHash)
                       : std::string();
    }
    uint64_t hash = 0, files = 0;
    for (auto it = fs::recursive_directory_iterator(
             path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator() && files < 10000; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const auto size = it->file_size(ec);
        const auto time = it->last_write_time(ec).time_since_epoch().count();
        hash = hash * 1000003u ^ std::hash<std::string>()(it->path().string()) ^
               (static_cast<uint64_t>(size) * 31u) ^ static_cast<uint64_t>(time);
        ++files;
    }
    return "folder:" + std::to_string(files) + ":" + std::to_string(hash);
}

json toolAnswer(const std::string& summary, json document) {
    json content = json::array();
    content.push_back({{"type", "text"}, {"text", summary}});
    content.push_back({{"type", "text"}, {"text", dumped(document)}});
    return {{"content", std::move(content)},
            {"structuredContent", std::move(document)},
            {"isError", false}};
}

constexpr const char* kInstructions =
    "Gapscope reads GPU/CPU profiles of ML jobs (PyTorch profiler, TensorFlow, JAX, Nsight "
    "Systems) and answers where and why the GPU is idle. Start with `account` (busy share and "
    "idle time by cause) or `advice` (findings, most important first), then `gaps`, `steps`, "
    "`kernels`, `ops`, `efficiency`, `critical-path`; `diff` compares two runs. Times are "
    "absolute integer nanoseconds; long tables are paged (offset, limit).";

}  // namespace

#ifdef GAPSCOPE_HAVE_RENDER
constexpr bool kCanRender = true;
#else
constexpr bool kCanRender = false;
#endif

McpServer::McpServer(McpOptions options)
    : options_(std::move(options)), tools_(mcp::toolList(kCanRender)) {}
McpServer::~McpServer() = default;

std::shared_ptr<TraceSession> McpServer::session(const std::string& path, const json& arguments,
                                                 std::string& error) {
    LoadArgs args;
    args.path = path;
    args.paths = {path};
    if (arguments.contains("run")) {
        if (!arguments["run"].is_string()) {
            error = "run takes the name of a profile run";
            return nullptr;
        }
        args.options.run = arguments["run"].get<std::string>();
    }
    if (arguments.contains("process")) {
        const json& p = arguments["process"];
        if (!p.is_number_integer() || (p.is_number_unsigned() && p.get<uint64_t>() > INT64_MAX) ||
            p.get<int64_t>() <= 0) {
            error = "process takes a process id";
            return nullptr;
        }
        args.process = p.get<int64_t>();
    }
    // The same path, run and part, and the file as it was: a trace written
    // again since (the agent profiled once more) is read again.
    std::error_code ec;
    std::string where = std::filesystem::weakly_canonical(path, ec).string();
    if (ec || where.empty()) where = path;
    const std::string key = where + "\n" + args.options.run + "\n" +
                            (args.process ? std::to_string(*args.process) : "") + "\n" +
                            stampText(path);
    for (auto it = open_.begin(); it != open_.end(); ++it)
        if (it->first == key) {
            auto found = *it;
            open_.erase(it);
            open_.push_front(found);
            return found.second;
        }
    if (!options_.cacheDir.empty()) {
        args.cache = std::make_unique<IndexCache>(options_.cacheDir);
        args.options.cache = args.cache.get();
    }
    const OpenedTrace opened = openTrace(args, true);
    if (!opened.trace) {
        error = "gapscope: " + opened.error;
        return nullptr;
    }
    auto made = std::make_shared<TraceSession>(opened.trace, path, opened.cacheNote, opened.notes);
    open_.emplace_front(key, made);
    while (open_.size() > std::max<size_t>(1, options_.openTraces))
        open_.pop_back();
    return made;
}

json McpServer::callTool(const std::string& name, const json& arguments) {
    std::string error;
    const std::string readsNoFiles = name + ": this server reads no files";
    // An argument the tool does not take is refused, as the CLI refuses an
    // option: a misspelt one, or a step for an analysis of the whole trace.
    const json& tools = tools_;
    const auto tool =
        std::find_if(tools.begin(), tools.end(), [&](const json& t) { return t["name"] == name; });
    if (tool == tools.end()) return nullptr;  // (the caller's protocol error)
    const json& known = (*tool)["inputSchema"]["properties"];
    for (const auto& [key, value] : arguments.items())
        if (!known.contains(key)) {
            std::string names;
            for (const auto& [k, v] : known.items())
                names += (names.empty() ? "" : ", ") + k;
            return toolError(name + ": no argument '" + key + "' (it takes " + names + ")");
        }
    if (name == "open_trace") {
        if (!arguments.contains("path") || !arguments["path"].is_string())
            return toolError("path (a trace file or folder) is required");
        const std::string path = arguments["path"].get<std::string>();
        if (!options_.readFiles) return toolError(readsNoFiles);
        const std::shared_ptr<TraceSession> s = session(path, arguments, error);
        if (!s) return toolError(error);
        const Analysis& info = *analysisRegistry().find("info");
        std::optional<CommandLine> line = commandLineOf(info, {pathToken(path)}, error);
        std::optional<AnalysisResult> result = line ? s->compute(info, *line, error) : std::nullopt;
        if (!result) return toolError(error);
        json document = mcp::pagedJson(s->trace(), info, *result, {});
        std::string summary = mcp::summaryText(s->trace(), info, *result, document);
        for (const std::string& note : s->notes())
            summary += "Note: " + note + "\n";
        return toolAnswer(summary, std::move(document));
    }
    if (name == "render") {
#ifdef GAPSCOPE_HAVE_RENDER
        if (!arguments.contains("trace") || !arguments["trace"].is_string())
            return toolError("trace (a path) is required");
        const std::string path = arguments["trace"].get<std::string>();
        const Analysis& account = *analysisRegistry().find("account");  // its range and step
        const std::optional<std::vector<std::string>> tokens =
            mcp::optionTokens(account, arguments, error);
        if (!tokens) return toolError(error);
        std::vector<std::string> argv = *tokens;
        argv.push_back(pathToken(path));
        std::optional<CommandLine> line = commandLineOf(account, argv, error);
        if (!line) return toolError(error);
        if (!options_.readFiles) return toolError(readsNoFiles);
        const std::shared_ptr<TraceSession> s = session(path, arguments, error);
        if (!s) return toolError(error);
        error = stepWindowError(line->args, s->trace());
        if (!error.empty()) return toolError(error);
        PictureRequest r;
        r.range = line->args.range;
        r.minGapNs = line->args.minGapNs.value_or(kDefaultGapThresholdNs);
        r.tracePath = path;
        auto integer = [&](const char* key, int lo, int hi, int& out) {
            if (!arguments.contains(key) || arguments[key].is_null()) return true;
            if (!arguments[key].is_number_integer()) return false;
            const auto v = arguments[key].get<int64_t>();
            if (v < lo || v > hi) return false;
            out = static_cast<int>(v);
            return true;
        };
        r.width = 1200;
        if (!integer("width", 400, 4000, r.width) || !integer("height", 100, 4000, r.height))
            return toolError("width takes 400 to 4000 pixels, height 100 to 4000");
        // Without a height, at most 1600 pixels of tracks: what agents'
        // models take as one image.
        r.maxTracksHeight = 1600;
        if (arguments.contains("tracks")) {
            if (!arguments["tracks"].is_string())
                return toolError("tracks takes gpu, cpu, all or a regular expression");
            r.tracks = arguments["tracks"].get<std::string>();
        }
        if (arguments.contains("dark")) {
            if (!arguments["dark"].is_boolean()) return toolError("dark takes true or false");
            r.dark = arguments["dark"].get<bool>();
        }
        if (!gui_) gui_ = offscreenGui("gapscope-cli mcp");
        const Picture picture = renderTracePicture(s->shared(), r);
        if (picture.bytes.empty()) return toolError("render: " + picture.error);
        const TimeNs from = r.range ? r.range->start : s->trace().spanStart;
        const TimeNs to = r.range ? r.range->end : s->trace().spanEnd;
        std::string text = "The timeline of " + std::filesystem::path(path).filename().string() +
                           " from " + std::to_string(from) + " to " + std::to_string(to) +
                           " ns (absolute), GPU idle gaps shaded by cause.";
        for (const std::string& w : picture.warnings)
            text += "\nNote: " + w;
        json content = json::array();
        content.push_back({{"type", "text"}, {"text", text}});
        content.push_back(
            {{"type", "image"}, {"data", mcp::base64(picture.bytes)}, {"mimeType", "image/png"}});
        return {{"content", std::move(content)}, {"isError", false}};
#else
        return toolError("render: this build draws no pictures (built without Qt GUI)");
#endif
    }
    const Analysis* a = mcp::analysisTool(name);
    if (!a) return nullptr;
    const std::optional<std::vector<std::string>> tokens = mcp::optionTokens(*a, arguments, error);
    if (!tokens) return toolError(name + ": " + error);
    const std::optional<std::vector<std::string>> paths = mcp::inputPaths(*a, arguments, error);
    if (!paths) return toolError(name + ": " + error);
    const std::optional<mcp::Paging> paging = mcp::pagingOf(*a, arguments, error);
    if (!paging) return toolError(name + ": " + error);
    std::vector<std::string> argv = *tokens;
    for (const std::string& p : *paths)
        argv.push_back(pathToken(p));
    if (options_.cacheDir.empty())
        argv.push_back("--no-cache");
    else
        argv.insert(argv.end(), {"--cache-dir", options_.cacheDir});
    std::optional<CommandLine> line = commandLineOf(*a, argv, error);
    if (!line) return toolError(error);
    if (!options_.readFiles) return toolError(readsNoFiles);
    if (a->readsOneTrace()) {
        const std::shared_ptr<TraceSession> s = session(paths->front(), arguments, error);
        if (!s) return toolError(error);
        const std::optional<AnalysisResult> result = s->compute(*a, *line, error);
        if (!result) return toolError(error);
        json document = mcp::pagedJson(s->trace(), *a, *result, *paging);
        const std::string summary = mcp::summaryText(s->trace(), *a, *result, document);
        return toolAnswer(summary, std::move(document));
    }
    std::ostringstream log;
    const ComparisonOutcome outcome = a->input == AnalysisInput::TwoRuns
                                          ? computeTwoRuns(*a, *line, log)
                                          : computeRankJob(*a, *line, 0, log);
    if (!outcome.result) return toolError(log.str());
    json document = mcp::pagedJson(outcome.subject, *a, *outcome.result, *paging);
    std::string summary = mcp::summaryText(outcome.subject, *a, *outcome.result, document);
    if (a->gate) {
        std::string verdict;
        const int status = a->gate(*outcome.result, verdict);
        document["gate_status"] = status;
        summary += "Gate: exit status " + std::to_string(status) + "\n" + verdict;
    }
    if (!log.str().empty()) summary += log.str();
    return toolAnswer(summary, std::move(document));
}

json McpServer::handle(const json& m) {
    if (!m.is_object() || !m.contains("jsonrpc") || m["jsonrpc"] != "2.0")
        return rpcError(nullptr, -32600, "Invalid Request: a JSON-RPC 2.0 object");
    const bool notification = !m.contains("id");
    const json& id = notification ? kNull : m["id"];
    if (!notification && !id.is_string() && !id.is_number_integer() && !id.is_number_unsigned())
        return rpcError(nullptr, -32600, "Invalid Request: id is a string or an integer");
    if (!m.contains("method")) {
        // A response to us (none is asked for), or nothing at all.
        if (m.contains("result") || m.contains("error")) return nullptr;
        return rpcError(id, -32600, "Invalid Request: no method");
    }
    if (!m["method"].is_string())
        return notification ? json() : rpcError(id, -32600, "Invalid Request: method");
    const std::string method = m["method"].get<std::string>();
    // Notifications (initialized, cancelled, progress) are never answered.
    if (notification) return nullptr;
    if (m.contains("params") && !m["params"].is_object() && !m["params"].is_null())
        return rpcError(id, -32602, "Invalid params: an object");
    const json& params = m.contains("params") && m["params"].is_object() ? m["params"] : kEmpty;
    if (method == "initialize") {
        std::string version = kProtocolVersions[0];
        if (params.contains("protocolVersion") && params["protocolVersion"].is_string())
            for (const char* v : kProtocolVersions)
                if (params["protocolVersion"] == v) version = v;
        version_ = version;
        return rpcResult(
            id, {{"protocolVersion", version},
                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                 {"serverInfo",
                  {{"name", "gapscope"}, {"title", "Gapscope"}, {"version", GAPSCOPE_VERSION}}},
                 {"instructions", kInstructions}});
    }
    if (method == "ping") return rpcResult(id, json::object());
    if (method == "tools/list") return rpcResult(id, {{"tools", tools_}});
    if (method == "tools/call") {
        if (!params.contains("name") || !params["name"].is_string())
            return rpcError(id, -32602, "Invalid params: name");
        if (params.contains("arguments") && !params["arguments"].is_object() &&
            !params["arguments"].is_null())
            return rpcError(id, -32602, "Invalid params: arguments is an object");
        const json& arguments = params.contains("arguments") && params["arguments"].is_object()
                                    ? params["arguments"]
                                    : kEmpty;
        const std::string name = params["name"].get<std::string>();
        try {
            json result = callTool(name, arguments);
            if (result.is_null()) return rpcError(id, -32602, "Unknown tool: " + name);
            return rpcResult(id, std::move(result));
        } catch (const std::exception& e) {  // never the server's end
            return rpcResult(id, toolError(name + ": " + e.what()));
        }
    }
    return rpcError(id, -32601, "Method not found: " + method);
}

std::optional<std::string> McpServer::handleLine(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    if (line.empty()) return std::nullopt;
    if (line.size() > kMaxLineBytes)
        return dumped(rpcError(nullptr, -32600, "Invalid Request: a message over 16 MiB"));
    // Nothing nested deeper than a protocol message needs: a value copied
    // or written recursively must not exhaust the stack.
    bool tooDeep = false;
    const json message = json::parse(
        line.begin(), line.end(),
        [&](int depth, json::parse_event_t event, json&) {
            if ((event == json::parse_event_t::object_start ||
                 event == json::parse_event_t::array_start) &&
                depth > kMaxDepth) {
                tooDeep = true;
                return false;
            }
            return true;
        },
        false);
    if (message.is_discarded()) return dumped(rpcError(nullptr, -32700, "Parse error"));
    if (tooDeep)
        return dumped(rpcError(nullptr, -32600,
                               "Invalid Request: nested deeper than " + std::to_string(kMaxDepth)));
    if (message.is_array()) {
        // Batches are 2025-03-26's (and JSON-RPC's); 2025-06-18 has none.
        if (version_ == kProtocolVersions[0] || message.empty())
            return dumped(rpcError(nullptr, -32600, "Invalid Request: no batches"));
        json answers = json::array();
        for (const json& m : message) {
            if (m.is_object() && m.contains("method") && m["method"] == "initialize") {
                answers.push_back(rpcError(
                    m.contains("id") && (m["id"].is_string() || m["id"].is_number_integer())
                        ? m["id"]
                        : json(),
                    -32600, "Invalid Request: initialize in a batch"));
                continue;
            }
            if (json a = handle(m); !a.is_null()) answers.push_back(std::move(a));
        }
        if (answers.empty()) return std::nullopt;
        return dumped(answers);
    }
    const json answer = handle(message);
    if (answer.is_null()) return std::nullopt;
    return dumped(answer);
}

void McpServer::serve(std::istream& in, std::ostream& out) {
    // Lines read a byte at a time from the stream's buffer: one longer than
    // the limit is not kept past it, only answered as too long.
    std::streambuf* buffer = in.rdbuf();
    std::string line;
    bool tooLong = false;
    auto answer = [&] {
        const std::optional<std::string> a =
            tooLong ? std::optional(dumped(
                          rpcError(nullptr, -32600, "Invalid Request: a message over 16 MiB")))
                    : handleLine(line);
        if (a) {
            out << *a << '\n';
            out.flush();
        }
        line.clear();
        tooLong = false;
    };
    for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
        if (c == '\n') {
            answer();
        } else if (line.size() < kMaxLineBytes) {
            line.push_back(static_cast<char>(c));
        } else {
            tooLong = true;
        }
    }
    if (!line.empty() || tooLong) answer();
}

int runMcp(int argc, char** argv) {
    McpOptions options;
    options.cacheDir = IndexCache::defaultDir();
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout
                << "Usage: gapscope-cli mcp [--no-cache] [--cache-dir DIR]\n"
                   "  Serves the Model Context Protocol on stdin and stdout (JSON-RPC 2.0, one\n"
                   "  message per line), for coding agents: every analysis as a tool (the CLI's\n"
                   "  JSON, long tables paged, and a summary), open_trace, diff of two runs,\n"
                   "  ranks of a job, and render (a PNG of a range). It opens no network\n"
                   "  port; an agent starts it as a command (docs/agents.md).\n"
                   "  --no-cache          parse traces even if the index cache has them\n"
                   "  --cache-dir DIR     index cache folder (default $XDG_CACHE_HOME/gapscope)\n";
            return 0;
        }
        if (arg == "--no-cache") {
            options.cacheDir.clear();
        } else if (arg == "--cache-dir" && i + 1 < argc) {
            options.cacheDir = argv[++i];
        } else {
            std::cerr << "gapscope-cli mcp: unknown option '" << arg << "'\n";
            return 1;
        }
    }
    // Only protocol messages on stdout: the loads' notes go to stderr.
    std::ios::sync_with_stdio(false);
    McpServer server(options);
    server.serve(std::cin, std::cout);
    return 0;
}

}  // namespace gapscope::cli
