#include "report/output_format.h"

#include <string>

#include "util/ascii_text.h"

namespace gapscope {

std::optional<OutputFormat> parseOutputFormat(std::string_view name) {
    if (name == "table" || name == "text") return OutputFormat::Text;
    if (name == "csv") return OutputFormat::Csv;
    if (name == "md" || name == "markdown") return OutputFormat::Markdown;
    if (name == "html") return OutputFormat::Html;
    if (name == "json") return OutputFormat::Json;
    return std::nullopt;
}

std::optional<OutputFormat> outputFormatForPath(std::string_view path) {
    const size_t dot = path.rfind('.');
    if (dot == std::string_view::npos) return std::nullopt;
    std::string ext(path.substr(dot + 1));
    for (char& c : ext)
        c = lowerAscii(c);
    if (ext == "txt") return OutputFormat::Text;
    if (ext == "htm") return OutputFormat::Html;
    if (ext == "markdown") return OutputFormat::Markdown;
    if (ext == "table" || ext == "text") return std::nullopt;
    return parseOutputFormat(ext);
}

}  // namespace gapscope
