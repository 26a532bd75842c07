// The sample capture shipped with rudpscope (a stall, retransmissions and
// losses on three GRUDP connections), for Help > Open Sample Capture.
#pragma once
#include <QString>

namespace rudp::gui {

// Installed: <exe>/../share/rudpscope/sample.pcap; in the build tree, the
// source tree's resources/sample.pcap (rudp::installedOr, as for the dissectors).
QString bundledSamplePath();

}  // namespace rudp::gui
