#pragma once
// The commands that are not one registered analysis; one file each.

namespace gapscope::cli {

int runRender(int argc, char** argv);  // the exported picture, PNG or SVG, headless

}  // namespace gapscope::cli
