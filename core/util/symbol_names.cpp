#include "util/symbol_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gapscope {

std::optional<std::string> demangleSymbol(std::string_view name) {
    if (name.size() < 3 || name.size() > kMaxMangledBytes || !name.starts_with("_Z"))
        return std::nullopt;
    const std::string terminated(name);  // the demangler reads a C string
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(terminated.c_str(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !out) return std::nullopt;
    return std::string(out.get());
}

namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)::";

}  // namespace

std::string shortSymbolName(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    int depth = 0;  // inside <> or ()
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (depth == 0 && name.compare(i, kAnonymous.size(), kAnonymous) == 0) {
            i += kAnonymous.size() - 1;
            continue;
        }
        if (depth == 0 && name.compare(i, 8, "operator") == 0) {
            // operator<, operator(), operator<<: the operator is the name.
            out.append(name.substr(i));
            break;
        }
        if (c == '<' || c == '(') {
            if (depth == 0 && !out.empty()) break;  // template arguments or parameters
            ++depth;
            continue;
        }
        if (c == '>' || c == ')') {
            if (depth > 0) --depth;
            continue;
        }
        if (depth > 0) continue;
        if (c == ' ') {  // a return type ("void ") before the qualified name
            out.clear();
            continue;
        }
        out.push_back(c);
    }
    return out.empty() ? std::string(name) : out;
}

}  // namespace gapscope
