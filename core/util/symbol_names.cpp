#include "util/symbol_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <set>

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

namespace {

// Where a name's qualified part begins (after a return type) and where its
// parameters begin: the first "(" outside template arguments.
std::pair<size_t, size_t> qualifiedPart(std::string_view name) {
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (name.compare(i, kAnonymous.size() - 2, kAnonymous.substr(0, kAnonymous.size() - 2)) ==
            0) {
            i += kAnonymous.size() - 3;  // "(anonymous namespace)" is no parameter list
            continue;
        }
        if (depth == 0 && name.compare(i, 8, "operator") == 0) break;  // its own brackets
        if (c == '<') ++depth;
        if (c == '>' && depth > 0) --depth;
        if (depth != 0) continue;
        if (c == ' ') start = i + 1;
        if (c == '(' && i > start) return {start, i};
    }
    return {start, name.size()};
}

// The forms of a name from the shortest: 0 short, 1 with template
// arguments, 2 with parameters, 3 whole.
std::string formOf(std::string_view name, int level) {
    if (level == 0) return shortSymbolName(name);
    if (level == 3) return std::string(name);
    const auto [start, params] = qualifiedPart(name);
    return std::string(level == 1 ? name.substr(start, params - start) : name.substr(start));
}

}  // namespace

std::vector<std::string> distinctShortNames(const std::vector<std::string_view>& names) {
    std::vector<std::string> out(names.size());
    std::vector<int> level(names.size(), 0);
    for (size_t i = 0; i < names.size(); ++i)
        out[i] = formOf(names[i], 0);
    for (int round = 0; round < 3; ++round) {
        // Names whose form another, different name shares go one form longer.
        std::map<std::string, std::set<std::string_view>> holders;
        for (size_t i = 0; i < names.size(); ++i)
            holders[out[i]].insert(names[i]);
        bool changed = false;
        for (size_t i = 0; i < names.size(); ++i) {
            if (holders[out[i]].size() < 2 || level[i] >= 3) continue;
            out[i] = formOf(names[i], ++level[i]);
            changed = true;
        }
        if (!changed) break;
    }
    return out;
}

}  // namespace gapscope
