#pragma once
// Where the viewer and `gapscope-cli render` find a trace's annotations:
// the sidecar beside the trace, or, where that folder cannot be written,
// the one in the user's data folder (docs/annotations.md).

#include <string>

#include "report/annotations.h"

namespace gapscope::ui {

// $XDG_DATA_HOME/Gapscope/gapscope/annotations (QStandardPaths' data folder
// of the viewer, whichever program asks).
std::string annotationFallbackDir();
SidecarLocation sidecarLocation(const std::string& tracePath);

// How a folder is found writable (default: folderWritable, which tries).
// For tests: root writes into a read-only folder, so they pretend instead.
using FolderCheck = bool (*)(const std::string& folder);
void setFolderCheck(FolderCheck check);

}  // namespace gapscope::ui
