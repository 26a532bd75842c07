#include "bundled_sample.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace rudp::gui {

QString bundledSamplePath() {
  QString installed = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                      QStringLiteral("/../share/rudpscope/sample.pcap"));
  if (QFileInfo::exists(installed)) return installed;
  return QStringLiteral(RUDPSCOPE_SOURCE_SAMPLE);
}

}  // namespace rudp::gui
