// What the application tests share: QSettings kept in a temporary folder (the
// tests never touch the user's settings), captures made by grudp-sim, the
// bundled sample copied beside its database, and waiting for the window.
#pragma once
#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"

namespace rudp::gui {
class MainWindow;
}

namespace rudp::test {

// Points QSettings at a fresh folder for this test process and clears it.
void useTemporarySettings();

// grudp-sim with `args` (beyond --out) into dir/name; returns the path.
std::string makeSimCapture(const TempDir& dir, const std::string& name, const std::vector<std::string>& args);

// resources/sample.pcap copied into `dir` (its database goes beside it).
std::string copySample(const TempDir& dir);
// resources/sample.truth.json.
const nlohmann::json& sampleTruth();
// Truth times are ns since simulation start; the capture's times are ns since
// the epoch.
int64_t truthToCaptureNs(int64_t truthNs);

// Opens `path` in `window` and waits (event loop running) until the summary
// is on screen; false on timeout.
bool openAndWait(gui::MainWindow& window, const QString& path, int timeoutMs = 60000);

// The text of the QLabel called `name` inside `root`.
QString labelText(const QObject& root, const QString& name);

// A capture's facts read with libpcap, independently of the analysis
// (records up to a cut, for a truncated file).
struct PcapFacts {
  uint64_t packets = 0;
  int64_t first_ns = 0, last_ns = 0;
  int link_type = 0;
};
PcapFacts readPcap(const std::string& path);

std::string artifactPath(const std::string& fileName);

}  // namespace rudp::test
