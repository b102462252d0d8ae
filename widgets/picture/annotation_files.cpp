#include "picture/annotation_files.h"

#include <QStandardPaths>

namespace gapscope::ui {

std::string annotationFallbackDir() {
    return (QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
            QStringLiteral("/Gapscope/gapscope/annotations"))
        .toStdString();
}

namespace {
FolderCheck folderCheck = folderWritable;
}

void setFolderCheck(FolderCheck check) {
    folderCheck = check ? check : folderWritable;
}

SidecarLocation sidecarLocation(const std::string& tracePath) {
    return locateSidecar(tracePath, annotationFallbackDir(), folderCheck);
}

}  // namespace gapscope::ui
