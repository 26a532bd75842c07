#include "dissector_from_flow.h"

#include <QDesktopServices>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QUrl>

#include "report/inferred_dissector.h"

namespace rudp::gui {

QString writeInferredDissector(const ConnectionRecord& r, const QString& capturePath, const QString& path) {
  if (!report::hasInferredCounter(r))
    return QObject::tr(
        "no sequence counter was found in this flow's payloads: nothing to write a dissector from");
  const std::string text = report::inferredDissector(r, QFileInfo(capturePath).fileName().toStdString());
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.flush())
    return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
  return {};
}

QString createDissectorFromFlow(QWidget* parent, const ConnectionRecord& r, const QString& capturePath) {
  const QString name =
      QString::fromStdString(report::inferredProtocolName(r.summary)) + QStringLiteral(".lua");
  QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Create Dissector from This Flow"),
                                              QFileInfo(capturePath).dir().filePath(name),
                                              QObject::tr("Lua dissectors (*.lua)"));
  if (path.isEmpty()) return {};
  if (const QString error = writeInferredDissector(r, capturePath, path); !error.isEmpty()) {
    QMessageBox::warning(parent, QObject::tr("Create Dissector"), error);
    return {};
  }
  QDesktopServices::openUrl(QUrl::fromLocalFile(path));
  return path;
}

}  // namespace rudp::gui
