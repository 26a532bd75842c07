// "Create Dissector from This Flow…": a Lua dissector written from what the
// analysis inferred of a flow no dissector claims (report/inferred_dissector.h),
// saved where the user says and opened in the system's editor; the window
// then analyses again with it (MainWindow::addDissectorScript).
#pragma once
#include <QString>

#include "store/records.h"

class QWidget;

namespace rudp::gui {

// Writes the dissector of `r` to `path`; an empty string, or the one-line
// reason it could not.
QString writeInferredDissector(const ConnectionRecord& r, const QString& capturePath, const QString& path);

// Asks where to save it (beside the capture by default), writes it, opens it
// in the system's editor; the path written, or empty when cancelled or failed
// (a message box said why).
QString createDissectorFromFlow(QWidget* parent, const ConnectionRecord& r, const QString& capturePath);

}  // namespace rudp::gui
