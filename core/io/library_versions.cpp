#include "io/library_versions.h"

#include <zlib.h>
#include <zstd.h>

#include <nlohmann/detail/abi_macros.hpp>  // the version macros, not the parser
#ifdef GAPSCOPE_HAVE_ISAL
#include <isa-l.h>
#endif

namespace gapscope {

namespace {
// "3.11.2"; appended piece by piece (GCC 12's -O3 -Wrestrict misfires on
// chains of string +).
std::string dotted(int major, int minor, int patch) {
    std::string v = std::to_string(major);
    v.append(".").append(std::to_string(minor)).append(".").append(std::to_string(patch));
    return v;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> libraryVersions() {
    std::vector<std::pair<std::string, std::string>> v;
    v.emplace_back("zstd", ZSTD_versionString());
    v.emplace_back("zlib", zlibVersion());
#ifdef GAPSCOPE_HAVE_ISAL
    v.emplace_back("ISA-L", dotted(ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION, ISAL_PATCH_VERSION));
#endif
    v.emplace_back("nlohmann/json", dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                           NLOHMANN_JSON_VERSION_PATCH));
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
