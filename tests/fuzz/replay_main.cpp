// Replays a fuzz target's corpus without libFuzzer: each file named on the
// command line, or found under a folder named there, goes through
// LLVMFuzzerTestOneInput once. Linked with each target in the sanitizer
// builds (gcc has no libFuzzer), so that the corpora in tests/fuzz/corpus run
// as CTest tests and the targets keep compiling.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> inputs(const char* arg) {
    std::vector<std::filesystem::path> files;
    const std::filesystem::path root(arg);
    if (std::filesystem::is_directory(root)) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(root))
            if (e.is_regular_file()) files.push_back(e.path());
    } else {
        files.push_back(root);
    }
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
        return 2;
    }
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<std::filesystem::path> files = inputs(argv[i]);
        if (files.empty()) {
            std::fprintf(stderr, "%s: no inputs (a moved corpus?)\n", argv[i]);
            return 1;
        }
        std::sort(files.begin(), files.end());
        for (const auto& path : files) {
            std::ifstream in(path, std::ios::binary);
            if (!in) {
                std::fprintf(stderr, "%s: cannot be read\n", path.c_str());
                return 1;
            }
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            std::printf("%s (%zu bytes)\n", path.c_str(), bytes.size());
            std::fflush(stdout);
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    return 0;
}
