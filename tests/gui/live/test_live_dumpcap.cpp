// The window captures as a member of the wireshark group without privileges
// of its own, as the README sets capture up: the real binary run as that
// user reads dumpcap's pcapng from a pipe, and what it captured opens; the
// live bar says dumpcap counts its drops when it stops.
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "capture_user.h"
#include "jobs/live_frame.h"
#include "pages/live_capture_bar.h"
#include "udp_traffic.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

TEST_CASE("a wireshark-group user captures in the window through dumpcap, and the capture opens") {
  TempDir dir("gui-live-dumpcap");
  openToCaptureUser(dir);  // the user's HOME and output folder
  const std::string out = dir / "user.pcapng";
  requireCaptureSetup();
  Background gui(
      as(CaptureWay::Dumpcap,
         {"env", "HOME=" + dir.path.string(), "XDG_RUNTIME_DIR=" + dir.path.string(),
          "QT_QPA_PLATFORM=offscreen", RUDPSCOPE_GUI, "--capture", "lo", "--capture-filter", "udp port 47151",
          "--capture-output", out, "--capture-duration", "3", "--quit-after-load"}));
  for (int i = 0; i < 200 && !fs::exists(out); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(fs::exists(out));  // the file appears once dumpcap captures
  sendUdp(47151, 300, 200, 2000);
  const ProcessResult r = gui.wait();
  INFO(r.err);
  CHECK(r.status == 0);  // captured, stopped, opened and shown
  struct stat st {};
  REQUIRE(::stat(out.c_str(), &st) == 0);
  CHECK(st.st_uid != 0);  // written by the user, not by a privileged process
  const ProcessResult frames = run({TSHARK_EXECUTABLE, "-r", out, "-T", "fields", "-e", "frame.number"});
  CHECK(splitLines(frames.out).size() == 300);
}

TEST_CASE("while dumpcap captures, the bar says its drops are counted at the end, never '0 dropped'") {
  gui::LiveCaptureBar bar;
  bar.resize(900, 60);
  bar.start(QStringLiteral("lo"), QStringLiteral("udp"), QStringLiteral("/tmp/x.pcapng"));
  gui::LiveFrame frame;
  frame.packets = 1200;
  frame.counters.bytes = 150000;
  frame.counters.drops_counted = false;
  bar.setFrame(frame, 240);
  CHECK(bar.factsText().contains(QStringLiteral("drops counted at the end")));
  CHECK_FALSE(bar.factsText().contains(QStringLiteral("dropped")));
  CHECK(gui::liveStatusText(frame, 240).contains(QStringLiteral("drops counted at the end")));
  bar.grab().save(QString::fromStdString(artifactPath("gui-live-dumpcap-bar.png")));
  frame.counters.drops_counted = true;
  frame.counters.kernel_drops = 3;
  frame.counters.interface_drops = 1;
  bar.setFrame(frame, 240);
  CHECK(bar.factsText().contains(QStringLiteral("4 dropped")));
}
