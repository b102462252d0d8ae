#pragma once
// Writes that never leave a half-written file and never touch anything the
// user did not ask to replace: the bytes go to a temporary file in the same
// folder, are flushed to disk, then renamed over the target (or linked into
// place, which fails if the target exists, when overwriting is not allowed).

#include <string>
#include <string_view>

namespace gapscope {

enum class Overwrite { No, Yes };

// Returns "" on success, else what went wrong (errno text).
std::string writeFileAtomically(const std::string& path, std::string_view bytes,
                                Overwrite overwrite);

}  // namespace gapscope
