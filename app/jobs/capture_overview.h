// Everything the Summary and Connections pages and the status bar show about
// an analysed capture, read in one query on a worker thread.
#pragma once
#include <QMetaType>
#include <vector>

#include "report/problems.h"
#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::gui {

struct CaptureOverview {
  rudp::CaptureInfo capture;
  rudp::AnalysisSettings settings;
  std::vector<rudp::ConnectionRecord> connections;
  std::vector<rudp::Problem> problems;                       // worst first
  rudp::ana::Vantage vantage = rudp::ana::Vantage::Unknown;  // most connections'
  size_t vantageConnections = 0;                             // how many connections have that vantage
};
CaptureOverview loadCaptureOverview(rudp::StoreReader& reader);

}  // namespace rudp::gui

Q_DECLARE_METATYPE(rudp::gui::CaptureOverview)
