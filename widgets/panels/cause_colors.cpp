#include "panels/cause_colors.h"

#include <QCoreApplication>

namespace gapscope::ui {

namespace {

QColor adjust(QColor c, bool dark) {
    return dark ? c.lighter(115) : c;
}

}  // namespace

QColor causeColor(GapCause cause, bool dark) {
    switch (cause) {
        case GapCause::Input:
            return adjust(QColor(0xE6, 0x9F, 0x00), dark);  // orange
        case GapCause::Synchronization:
            return adjust(QColor(0xD5, 0x5E, 0x00), dark);  // vermillion
        case GapCause::Communication:
            return adjust(QColor(0xCC, 0x79, 0xA7), dark);  // reddish purple
        case GapCause::Host:
            return adjust(QColor(0x56, 0xB4, 0xE9), dark);  // sky blue
        case GapCause::Other:
            break;
    }
    return adjust(QColor(0x99, 0x99, 0x99), dark);  // grey
}

QColor shortGapColor(bool dark) {
    return dark ? QColor(0x60, 0x60, 0x60) : QColor(0xCC, 0xCC, 0xCC);
}

QColor stepPartColor(StepPart part, bool dark) {
    switch (part) {
        case StepPart::Compute:
            return adjust(QColor(0x00, 0x9E, 0x73), dark);  // bluish green
        case StepPart::ExposedComm:
            return adjust(QColor(0x00, 0x72, 0xB2), dark);  // blue
        case StepPart::ExposedMemcpy:
            return adjust(QColor(0xF0, 0xE4, 0x42), dark);  // yellow
        case StepPart::IdleInput:
            return causeColor(GapCause::Input, dark);
        case StepPart::IdleSynchronization:
            return causeColor(GapCause::Synchronization, dark);
        case StepPart::IdleCommunication:
            return causeColor(GapCause::Communication, dark);
        case StepPart::IdleHost:
            return causeColor(GapCause::Host, dark);
        case StepPart::IdleOther:
            return causeColor(GapCause::Other, dark);
        case StepPart::IdleShort:
        case StepPart::Cpu:
            break;
    }
    return shortGapColor(dark);
}

QString causeLabel(GapCause cause) {
    switch (cause) {
        case GapCause::Input:
            return QCoreApplication::translate("Causes", "input");
        case GapCause::Synchronization:
            return QCoreApplication::translate("Causes", "synchronization");
        case GapCause::Communication:
            return QCoreApplication::translate("Causes", "communication");
        case GapCause::Host:
            return QCoreApplication::translate("Causes", "host");
        case GapCause::Other:
            break;
    }
    return QCoreApplication::translate("Causes", "other");
}

QString stepPartLabel(StepPart part) {
    switch (part) {
        case StepPart::Compute:
            return QCoreApplication::translate("Causes", "compute");
        case StepPart::ExposedComm:
            return QCoreApplication::translate("Causes", "exposed comm");
        case StepPart::ExposedMemcpy:
            return QCoreApplication::translate("Causes", "exposed memcpy");
        case StepPart::IdleShort:
            return QCoreApplication::translate("Causes", "short gaps");
        case StepPart::Cpu:
            return QCoreApplication::translate("Causes", "CPU");
        default:
            break;
    }
    return QCoreApplication::translate("Causes", "idle: ") +
           causeLabel(GapCause(static_cast<int>(part) - static_cast<int>(StepPart::IdleInput)));
}

}  // namespace gapscope::ui
