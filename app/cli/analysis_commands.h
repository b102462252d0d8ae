#pragma once
// The analysis commands beyond gaps, timeline and kernels; one file each.

namespace gapscope::cli {

int runHealth(int argc, char** argv);    // trace health
int runMemcpy(int argc, char** argv);    // copies and memsets
int runOps(int argc, char** argv);       // op statistics
int runSteps(int argc, char** argv);     // steps with their breakdown
int runMemory(int argc, char** argv);    // memory per device
int runPipeline(int argc, char** argv);  // input pipeline and verdict
int runLaunch(int argc, char** argv);    // launch overhead
int runAdvice(int argc, char** argv);    // findings
int runDiff(int argc, char** argv);      // two runs compared, the regression gate
int runSummary(int argc, char** argv);
int runRanks(int argc, char** argv);   // the ranks of a job side by side, stragglers   // the
                                       // summary tables, in one document or CSV files
int runRender(int argc, char** argv);  // the exported picture, PNG or SVG, headless

}  // namespace gapscope::cli
