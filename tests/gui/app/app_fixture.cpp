#include "app_fixture.h"

#include <pcap/pcap.h>

#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "jobs/capture_session.h"
#include "main_window.h"

namespace rudp::test {

void useTemporarySettings() {
  static QTemporaryDir dir;
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
  QSettings().clear();
}

std::string makeSimCapture(const TempDir& dir, const std::string& name,
                           const std::vector<std::string>& args) {
  std::vector<std::string> argv = {GRUDP_SIM, "--out", dir / name};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return dir / name;
}

std::string copySample(const TempDir& dir) {
  const std::string to = dir / "sample.pcap";
  std::filesystem::copy_file(RUDPSCOPE_SOURCE_DIR "/resources/sample.pcap", to,
                             std::filesystem::copy_options::overwrite_existing);
  return to;
}

const nlohmann::json& sampleTruth() {
  static const nlohmann::json truth = [] {
    std::ifstream f(RUDPSCOPE_SOURCE_DIR "/resources/sample.truth.json");
    return nlohmann::json::parse(f);
  }();
  return truth;
}

int64_t truthToCaptureNs(int64_t truthNs) {
  return sampleTruth()["time_base"]["pcap_epoch_s"].get<int64_t>() * 1'000'000'000 + truthNs;
}

bool openAndWait(gui::MainWindow& window, const QString& path, int timeoutMs) {
  QSignalSpy shown(&window, &gui::MainWindow::captureShown);
  window.openCapture(path);
  // Stop early when the open fails: the caller checks the banner.
  (void)QTest::qWaitFor(
      [&] {
        const auto state = window.session().state();
        return !shown.isEmpty() || state == gui::CaptureSession::State::Failed ||
               state == gui::CaptureSession::State::Empty;
      },
      timeoutMs);
  return !shown.isEmpty();
}

QString labelText(const QObject& root, const QString& name) {
  const auto* label = root.findChild<QLabel*>(name);
  if (!label) FAIL("no label " << name.toStdString());
  return label->text();
}

PcapFacts readPcap(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline(path.c_str(), err);
  REQUIRE(p);
  PcapFacts f;
  f.link_type = pcap_datalink(p);
  pcap_pkthdr* h;
  const u_char* data;
  while (pcap_next_ex(p, &h, &data) == 1) {
    const int64_t ns = int64_t(h->ts.tv_sec) * 1'000'000'000 + int64_t(h->ts.tv_usec) * 1000;
    if (f.packets++ == 0) f.first_ns = ns;
    f.last_ns = ns;
  }
  pcap_close(p);
  return f;
}

std::string artifactPath(const std::string& fileName) {
  std::filesystem::create_directories(RUDPSCOPE_TEST_ARTIFACTS);
  return std::string(RUDPSCOPE_TEST_ARTIFACTS) + "/" + fileName;
}

}  // namespace rudp::test
