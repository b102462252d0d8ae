#include "report/annotations.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/atomic_file.h"
#include "util/fast_hash.h"

namespace gapscope {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* annotationKindName(Annotation::Kind kind) {
    switch (kind) {
        case Annotation::Kind::Marker:
            return "marker";
        case Annotation::Kind::Range:
            return "range";
        case Annotation::Kind::Slice:
            return "slice";
    }
    return "?";
}

std::string sidecarPathFor(const std::string& tracePath) {
    return tracePath + ".gapscope.json";
}

namespace {

bool validColor(const std::string& c) {
    if (c.size() != 7 || c[0] != '#') return false;
    for (size_t i = 1; i < 7; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(c[i]))) return false;
    return true;
}

// One annotation from JSON, or the reason it is not one.
std::string parseAnnotation(const json& j, Annotation& a) {
    if (!j.is_object()) return "not an object";
    const auto kind = j.find("kind");
    if (kind == j.end() || !kind->is_string()) return "\"kind\" is missing or not text";
    if (*kind == "marker")
        a.kind = Annotation::Kind::Marker;
    else if (*kind == "range")
        a.kind = Annotation::Kind::Range;
    else if (*kind == "slice")
        a.kind = Annotation::Kind::Slice;
    else
        return "unknown kind \"" + kind->get<std::string>() + "\"";
    const auto id = j.find("id");
    if (id == j.end() || !id->is_number_unsigned()) return "\"id\" is not a whole number";
    a.id = id->get<uint64_t>();
    for (const char* key : {"start_ns", "end_ns"}) {
        const auto v = j.find(key);
        if (v == j.end() || !v->is_number_integer())
            return std::string("\"") + key + "\" is not integer ns";
    }
    a.start = j["start_ns"].get<TimeNs>();
    a.end = j["end_ns"].get<TimeNs>();
    // Far beyond any trace (±146 years): a hostile value that would
    // overflow a span or a pixel position later.
    constexpr TimeNs kFarthest = TimeNs{1} << 62;
    if (a.start < -kFarthest || a.end > kFarthest) return "start_ns or end_ns is out of range";
    if (a.end < a.start) return "end_ns is before start_ns";
    if (a.kind == Annotation::Kind::Marker && a.end != a.start)
        return "a marker has end_ns != start_ns";
    for (auto [key, field] : {std::pair{"text", &a.text},
                              {"color", &a.color},
                              {"track", &a.track},
                              {"slice", &a.slice}}) {
        const auto v = j.find(key);
        if (v == j.end()) continue;
        if (!v->is_string()) return std::string("\"") + key + "\" is not text";
        *field = v->get<std::string>();
    }
    if (a.text.size() > kMaxAnnotationText) return "the text is longer than 64 KiB";
    if (!validColor(a.color)) return "\"color\" is not #rrggbb";
    if (a.kind == Annotation::Kind::Slice && a.slice.empty()) return "a slice note names no slice";
    if (a.kind != Annotation::Kind::Slice) {
        // Only a slice note is on a track and a slice (and only it writes them).
        a.track.clear();
        a.slice.clear();
    }
    return {};
}

}  // namespace

SidecarRead readSidecar(const std::string& path) {
    SidecarRead r;
    std::error_code ec;
    if (!fs::exists(path, ec)) return r;  // Missing
    r.status = SidecarStatus::Unreadable;
    const auto size = fs::file_size(path, ec);
    if (ec) {
        r.error = path + ": " + ec.message();
        return r;
    }
    if (size > kMaxSidecarBytes) {
        r.error =
            path + ": " + std::to_string(size) + " bytes, more than a sidecar may hold (64 MiB)";
        return r;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        r.error = path + ": cannot be opened";
        return r;
    }
    std::stringstream bytes;
    bytes << in.rdbuf();
    json doc;
    try {
        doc = json::parse(bytes.str());
    } catch (const json::parse_error& e) {
        r.error = path + ": byte " + std::to_string(e.byte) + ": not JSON";
        return r;
    } catch (const json::exception& e) {
        // A number out of range (1e999) and the like: nlohmann/json's own words.
        r.error = path + ": not JSON we can read (" + e.what() + ")";
        return r;
    }
    // (Not doc.value("format", ""): it throws when "format" is not text.)
    const auto format = doc.is_object() ? doc.find("format") : doc.end();
    if (!doc.is_object() || format == doc.end() || *format != "gapscope-annotations") {
        r.error =
            path + ": not a Gapscope annotations file (no \"format\": \"gapscope-annotations\")";
        return r;
    }
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer()) {
        r.error = path + ": \"version\" is missing or not a whole number";
        return r;
    }
    if (version->get<int64_t>() > kSidecarVersion) {
        r.status = SidecarStatus::Newer;
        r.error = path + ": version " + std::to_string(version->get<int64_t>()) +
                  " is newer than this Gapscope reads (" + std::to_string(kSidecarVersion) +
                  "); it is kept as it is";
        return r;
    }
    const auto list = doc.find("annotations");
    if (list == doc.end() || !list->is_array()) {
        r.error = path + ": \"annotations\" is missing or not a list";
        return r;
    }
    for (size_t i = 0; i < list->size(); ++i) {
        Annotation a;
        const std::string why = parseAnnotation((*list)[i], a);
        if (!why.empty()) {
            r.annotations.clear();
            r.error = path + ": annotation " + std::to_string(i + 1) + ": " + why;
            return r;
        }
        r.annotations.push_back(std::move(a));
    }
    r.status = SidecarStatus::Loaded;
    return r;
}

std::string serializeAnnotations(const std::vector<Annotation>& annotations,
                                 const std::string& traceName) {
    json list = json::array();
    for (const Annotation& a : annotations) {
        json j = {{"id", a.id},          {"kind", annotationKindName(a.kind)},
                  {"start_ns", a.start}, {"end_ns", a.end},
                  {"text", a.text},      {"color", a.color}};
        if (a.kind == Annotation::Kind::Slice) {
            j["track"] = a.track;
            j["slice"] = a.slice;
        }
        list.push_back(std::move(j));
    }
    const json doc = {{"format", "gapscope-annotations"},
                      {"version", kSidecarVersion},
                      {"trace", traceName},
                      {"annotations", list}};
    // Text that is not UTF-8 is written with replacement characters, not refused.
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string writeSidecar(const std::string& path, const std::vector<Annotation>& annotations,
                         const std::string& traceName) {
    return writeFileAtomically(path, serializeAnnotations(annotations, traceName), Overwrite::Yes);
}

SidecarLocation locateSidecar(const std::string& tracePath, const std::string& fallbackDir,
                              const std::function<bool(const std::string& folder)>& canWrite) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(tracePath, ec);
    const fs::path folder = absolute.parent_path();
    const std::string beside = sidecarPathFor(tracePath);
    if (canWrite(folder.string())) return {beside, beside, false};
    const std::string key = absolute.string();
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx",
                  static_cast<unsigned long long>(fastHash(key.data(), key.size())));
    const fs::path name = std::string(hash) + "-" + absolute.filename().string() + ".gapscope.json";
    const std::string path = (fs::path(fallbackDir) / name).string();
    const bool started = fs::exists(path, ec);
    return {path, started || !fs::exists(beside, ec) ? path : beside, true};
}

bool folderWritable(const std::string& folder) {
    if (::access(folder.c_str(), W_OK) != 0) return false;
    std::string probe = (fs::path(folder) / ".gapscope-probe-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return false;
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

}  // namespace gapscope
