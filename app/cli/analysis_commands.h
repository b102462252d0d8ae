#pragma once
// The commands that are not one registered analysis; one file each.

namespace gapscope::cli {

int runSummary(int argc, char** argv);  // the summary tables, in one document or CSV files
int runRender(int argc, char** argv);   // the exported picture, PNG or SVG, headless

}  // namespace gapscope::cli
