#include "format/args_decoder.h"

#include "format/xspace/xspace_args.h"

namespace gapscope {

ArgsInFile argsInFile(InputFormat format) {
    switch (format) {
        case InputFormat::ChromeJson:
        case InputFormat::Unknown:
            return ArgsInFile::AsText;
        case InputFormat::XSpace:
            return ArgsInFile::Decoded;
        case InputFormat::NsightSqlite:
            return ArgsInFile::No;
    }
    return ArgsInFile::No;
}

std::shared_ptr<const ArgsDecoder> makeArgsDecoder(InputFormat format) {
    if (format == InputFormat::XSpace) return std::make_shared<xspace::XSpaceArgsDecoder>();
    return nullptr;
}

}  // namespace gapscope
