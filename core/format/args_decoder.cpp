#include "format/args_decoder.h"

#include "format/nsight/nsight_args_decoder.h"
#include "format/xspace/xspace_args.h"

namespace gapscope {

ArgsInFile argsInFile(InputFormat format) {
    switch (format) {
        case InputFormat::ChromeJson:
        case InputFormat::Unknown:
            return ArgsInFile::AsText;
        case InputFormat::XSpace:
        case InputFormat::NsightSqlite:
            return ArgsInFile::Decoded;
    }
    return ArgsInFile::No;
}

std::shared_ptr<const ArgsDecoder> makeArgsDecoder(InputFormat format) {
    if (format == InputFormat::XSpace) return std::make_shared<xspace::XSpaceArgsDecoder>();
    if (format == InputFormat::NsightSqlite) return std::make_shared<nsight::NsightArgsDecoder>();
    return nullptr;
}

bool ArgsDecoder::decodeReference(uint64_t, uint32_t, int, std::string& json,
                                  std::string& error) const {
    json.clear();
    error = "this format's args are not references";
    return false;
}

}  // namespace gapscope
