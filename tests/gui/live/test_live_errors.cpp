// A capture that cannot start says why in one line and leaves the window as
// it was: a missing interface (in the window's banner), and no permission
// (the real binary run as nobody, outside the wireshark group: its one line
// says how to join it; never setcap on rudpscope).
#include <QSignalSpy>
#include <QTest>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_actions.h"
#include "app_fixture.h"
#include "live_capture_controller.h"
#include "main_window.h"
#include "widgets/message_banner.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

TEST_CASE("a capture on a missing interface is one error in the banner, and the window carries on") {
  useTemporarySettings();
  TempDir dir("gui-live-missing");
  MainWindow window;
  window.show();
  REQUIRE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy notShown(&window, &MainWindow::captureNotShown);
  LiveOptions o;
  o.interface = "nosuchif0";
  o.output = dir / "never.pcapng";
  window.startCapture(o);
  REQUIRE(notShown.wait(10000));
  const QString text = window.banner()->text();
  CHECK(text == notShown.first().first().toString());
  CHECK(text.startsWith("Capture failed: no interface 'nosuchif0'"));
  CHECK_FALSE(text.contains('\n'));
  CHECK(window.banner()->kind() == gui::MessageBanner::Kind::Error);
  CHECK_FALSE(window.liveCapture()->capturing());
  CHECK(window.actions().startCapture->isEnabled());
  CHECK(window.actions().open->isEnabled());
  CHECK_FALSE(std::filesystem::exists(o.output));
  window.grab().save(QString::fromStdString(artifactPath("gui-live-missing-interface.png")));

  // The window still opens captures.
  const std::string pcap = copySample(dir);
  REQUIRE(openAndWait(window, QString::fromStdString(pcap)));
}

TEST_CASE("without capture permission the app says how to get it through dumpcap, in one line") {
  TempDir dir("gui-live-nobody");
  std::filesystem::permissions(dir.path, std::filesystem::perms::all);  // nobody's HOME
  const std::string out = dir / "nobody.pcapng";
  const ProcessResult r =
      run({"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "env",
           "HOME=" + dir.path.string(), "XDG_RUNTIME_DIR=" + dir.path.string(), "QT_QPA_PLATFORM=offscreen",
           RUDPSCOPE_GUI, "--capture", "lo", "--capture-output", out, "--quit-after-load"});
  INFO(r.err);
  CHECK(r.status == 1);
  std::vector<std::string> ours;
  for (const std::string& line : splitLines(r.err))
    if (line.rfind("rudpscope: ", 0) == 0) ours.push_back(line);
  REQUIRE(ours.size() == 1);
  CHECK(ours[0] ==
        "rudpscope: Capture failed: no permission to run /usr/bin/dumpcap (it captures for members of the "
        "wireshark group): sudo usermod -aG wireshark nobody, then log in again");
  CHECK_FALSE(std::filesystem::exists(out));
}
