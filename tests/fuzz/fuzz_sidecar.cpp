// libFuzzer target for annotation sidecars (report/annotations.h): the
// bytes are written as a sidecar file and read as the viewer and
// `gapscope-cli render` read one. A sidecar that loads is written again and
// read again, which must give the same annotations and the same text (the
// target aborts otherwise): what a person saves is what they get back.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "report/annotations.h"
#include "scratch_folder.h"

namespace {

using namespace gapscope;

std::string writeBytes(const std::string& path, const uint8_t* data, size_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
    return path;
}

bool validUtf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();  // the strict handler throws on bad UTF-8
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

// Equal, except that text which is not UTF-8 was written with replacement characters.
bool sameAfterWriting(const Annotation& read, const Annotation& back) {
    for (auto [a, b] : {std::pair{&read.text, &back.text},
                        {&read.track, &back.track},
                        {&read.slice, &back.slice}})
        if (validUtf8(*a) && *a != *b) return false;
    if (read.kind != Annotation::Kind::Slice && (!back.track.empty() || !back.slice.empty()))
        return false;  // only a slice note keeps a track and a slice
    return read.kind == back.kind && read.id == back.id && read.start == back.start &&
           read.end == back.end && read.color == back.color;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const fuzz::ScratchFolder scratch("sidecar");
    const std::string path = writeBytes(scratch.path() + "/t.gapscope.json", data, size);
    const SidecarRead read = readSidecar(path);
    if (read.status != SidecarStatus::Loaded) {
        // Unreadable or newer: an error that names the file, and no annotations.
        if (read.error.rfind(path + ": ", 0) != 0 || !read.annotations.empty()) std::abort();
        return 0;
    }
    const std::string again = scratch.path() + "/again.gapscope.json";
    if (!writeSidecar(again, read.annotations, "t").empty()) std::abort();
    const SidecarRead back = readSidecar(again);
    if (back.status != SidecarStatus::Loaded || back.annotations.size() != read.annotations.size())
        std::abort();
    for (size_t i = 0; i < read.annotations.size(); ++i)
        if (!sameAfterWriting(read.annotations[i], back.annotations[i])) std::abort();
    // Once written, a sidecar reads back exactly, and writes the same text.
    if (!writeSidecar(again, back.annotations, "t").empty()) std::abort();
    const SidecarRead third = readSidecar(again);
    if (third.annotations != back.annotations ||
        serializeAnnotations(third.annotations, "t") != serializeAnnotations(back.annotations, "t"))
        std::abort();
    return 0;
}
