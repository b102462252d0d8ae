// libFuzzer target for the args extracted while an event is read: they
// must be those extracted from the event's args text afterwards, and the
// event cut short must ask for more bytes (tests/fuzz/args_agreement.h).
//
// The first input byte picks how the rest is used: as a whole event, or as
// the args object of an event whose ph (X, M, C, a [memory] instant) comes
// first, which is the case the reader extracts in one pass.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "args_agreement.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const char* const kHeads[] = {
        "", "{\"ph\":\"X\",\"args\":", "{\"ph\":\"M\",\"name\":\"thread_name\",\"args\":",
        "{\"ph\":\"C\",\"args\":", "{\"ph\":\"i\",\"name\":\"[memory]\",\"args\":"};
    const std::string head = kHeads[data[0] % 5];
    std::string text = head + std::string(reinterpret_cast<const char*>(data + 1), size - 1);
    if (!head.empty()) text += "}";
    if (text.empty() || text[0] != '{') return 0;
    const gapscope::test::ArgsCheck check = gapscope::test::checkArgsAgreement(text + ",{}");
    if (!check.problem.empty()) {
        std::fprintf(stderr, "args disagree for %s\n%s\n", text.c_str(), check.problem.c_str());
        std::abort();
    }
    return 0;
}
