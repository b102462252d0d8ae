#pragma once
// What a trace's (decompressed) bytes are, decided from their first bytes,
// never from the file name: the loader picks the reader for it.

#include <string_view>

namespace gapscope {

enum class InputFormat {
    ChromeJson,    // Trace Event Format JSON: array or object form
    XSpace,        // TensorFlow/JAX profiler protobuf (*.xplane.pb)
    Unknown,       // anything else: handed to the JSON reader, which says what it found
    NsightSqlite,  // Nsight Systems' SQLite export (any SQLite 3 database is tried)
};

// The last of them (stored values are checked against it).
inline constexpr InputFormat kLastInputFormat = InputFormat::NsightSqlite;

const char* inputFormatName(InputFormat f);

// How many leading bytes detectInputFormat wants to see (fewer at the end of input).
inline constexpr size_t kFormatSniffBytes = 64;

InputFormat detectInputFormat(std::string_view head);

}  // namespace gapscope
