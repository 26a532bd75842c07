#include "bundled_sample.h"

#include "core/install_paths.h"

namespace rudp::gui {

QString bundledSamplePath() {
  return QString::fromStdString(installedOr("sample.pcap", RUDPSCOPE_SOURCE_SAMPLE));
}

}  // namespace rudp::gui
