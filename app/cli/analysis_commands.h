#pragma once
// The commands that are not one registered analysis; one file each.

namespace gapscope::cli {

int runDiff(int argc, char** argv);     // two runs compared, the regression gate
int runSummary(int argc, char** argv);  // the summary tables, in one document or CSV files
int runRanks(int argc, char** argv);    // the ranks of a job side by side, stragglers
int runRender(int argc, char** argv);   // the exported picture, PNG or SVG, headless

}  // namespace gapscope::cli
