#pragma once
// JSON text written by readers that compose args (XSpace stats, Nsight
// Systems columns) rather than find them as JSON in the file.

#include <string>
#include <string_view>

namespace gapscope {

// JSON string text: quotes, escapes, invalid UTF-8 replaced by U+FFFD.
void appendJsonString(std::string& out, std::string_view text);

}  // namespace gapscope
