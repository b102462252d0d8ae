#pragma once
// C++ symbol names as people read them. Kernel names reach traces mangled
// by some producers (`_ZN7cutlass6KernelI…`); they are demangled at import
// with the C++ runtime's own demangler (libstdc++'s abi::__cxa_demangle).
// A table shows a function's short name (no return type, template
// arguments or parameters), the full name stays in tooltips, the Details
// panel and every export.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

// The demangled form of an Itanium-ABI mangled name ("_Z…"); nullopt for
// anything else, for a name the demangler refuses, and for one longer
// than kMaxMangledBytes (a hostile file's name costs bounded time).
inline constexpr size_t kMaxMangledBytes = 16 * 1024;
std::optional<std::string> demangleSymbol(std::string_view name);

// "void at::native::(anonymous namespace)::kernel<float, 4>(int, float*)"
// -> "at::native::kernel"; "nvjet_sm90_tst_…" stays as it is.
std::string shortSymbolName(std::string_view name);

// The shortest form of each name that tells it apart from the others of
// `names` (a table's, the Overview's top five): the short name; where two
// share it, with template arguments; then with parameters; then the whole
// name. Parallel to `names`; equal names stay equal.
std::vector<std::string> distinctShortNames(const std::vector<std::string_view>& names);

}  // namespace gapscope
