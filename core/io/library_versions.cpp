#include "io/library_versions.h"

#include <zlib.h>
#include <zstd.h>

#include <nlohmann/detail/abi_macros.hpp>  // the version macros, not the parser
#ifdef GAPSCOPE_HAVE_ISAL
#include <isa-l.h>
#endif

namespace gapscope {

std::vector<std::pair<std::string, std::string>> libraryVersions() {
    std::vector<std::pair<std::string, std::string>> v;
    v.emplace_back("zstd", ZSTD_versionString());
    v.emplace_back("zlib", zlibVersion());
#ifdef GAPSCOPE_HAVE_ISAL
    v.emplace_back("ISA-L", std::to_string(ISAL_MAJOR_VERSION) + "." +
                                std::to_string(ISAL_MINOR_VERSION) + "." +
                                std::to_string(ISAL_PATCH_VERSION));
#endif
    v.emplace_back("nlohmann/json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                        std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                        std::to_string(NLOHMANN_JSON_VERSION_PATCH));
    return v;
}

std::string libraryVersionsLine() {
    std::string line;
    for (const auto& [name, version] : libraryVersions()) {
        if (!line.empty()) line.append(", ");
        line.append(name).append(" ").append(version);
    }
    return line;
}

}  // namespace gapscope
