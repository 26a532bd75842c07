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
// The connection a person looks at first: the one of the worst problem that
// has one, else the first connection; 0 for none. The Timeline and Statistics
// pages open on it.
int64_t worstConnection(const CaptureOverview& overview);

}  // namespace rudp::gui

Q_DECLARE_METATYPE(rudp::gui::CaptureOverview)
