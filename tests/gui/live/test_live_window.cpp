// A real capture on loopback in the window (offscreen), while the test talks
// GRUDP over real sockets: the Connections rows and the Timeline grow while
// it runs (at least 5 updates a second, measured), the timeline follows the
// live edge until the user zooms away, a retransmission mark on it is hit at
// its place; Stop (Ctrl+E) opens the written file as File > Open would (its
// database reused) with what `rudpscope-cli analyze` finds in it.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "../models/catch_qt.h"
#include "app_actions.h"
#include "app_fixture.h"
#include "grudp_talk.h"
#include "jobs/capture_session.h"
#include "live_capture_controller.h"
#include "main_window.h"
#include "models/connections_model.h"
#include "pages/connections_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"
#include "store/store_reader.h"
#include "widgets/timeline_layout.h"
#include "widgets/timeline_view.h"

using namespace rudp;
using namespace rudp::test;
using gui::LiveCaptureController;
using gui::MainWindow;
using json = nlohmann::json;

namespace {

constexpr Direction kC2S = Direction::ClientToServer;

size_t rttPoints(const gui::TimelineView& view) { return view.data() ? view.data()->of(kC2S).rtt.size() : 0; }

void savePng(QWidget& w, const std::string& name) {
  w.grab().save(QString::fromStdString(artifactPath(name)));
}

}  // namespace

TEST_CASE("a loopback capture updates the window while it runs and Stop opens its file") {
  useTemporarySettings();
  TempDir dir("gui-live");
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  REQUIRE(QTest::qWaitForWindowActive(&window));
  LiveCaptureController& live = *window.liveCapture();
  gui::TimelineView& view = *window.timelinePage()->view();
  const gui::ConnectionsModel& rows = *window.connectionsPage()->model();

  const uint16_t port = freeUdpPort();
  LiveOptions o;
  o.interface = "lo";
  o.filter = "udp port " + std::to_string(port);  // other tests may use loopback meanwhile
  o.output = dir / "live.pcapng";
  QSignalSpy started(&live, &LiveCaptureController::started);
  window.startCapture(o);
  REQUIRE(started.wait(10000));
  CHECK(window.resultPages()->currentWidget() == window.connectionsPage());
  CHECK(window.windowTitle() == "Capturing on lo — rudpscope");

  std::atomic<bool> stopTalk{false};
  GrudpTalkCounts sent;
  std::thread talker([&] { sent = talkGrudp({port, 400, 20, 10, &stopTalk}); });  // ~4.5 s
  struct Join {
    std::thread& t;
    std::atomic<bool>& stop;
    ~Join() {
      stop = true;
      if (t.joinable()) t.join();
    }
  } join{talker, stopTalk};

  // While it runs: a row, and the timeline's RTT line growing at the live edge.
  REQUIRE(QTest::qWaitFor([&] { return rttPoints(view) >= 40; }, 10000));
  CHECK(rows.rowCount() == 1);
  const size_t early = rttPoints(view);
  const int64_t earlyEnd = view.fullEnd();
  const int earlyFrames = live.stats().frames;
  QElapsedTimer clock;
  clock.start();
  window.showPage(MainWindow::TimelineIndex);
  QTest::qWait(2000);
  const double updatesPerSecond = (live.stats().frames - earlyFrames) * 1000.0 / double(clock.elapsed());
  WARN("updates/s " << updatesPerSecond << ", longest build " << live.stats().maxBuildMs
                    << " ms, longest apply " << live.stats().maxApplyMs << " ms, longest gap "
                    << live.stats().maxIntervalMs << " ms, looks without news "
                    << live.stats().looksWithoutNews << ", ticks while looking "
                    << live.stats().ticksWhileLooking);
  CHECK(updatesPerSecond >= 5);
  CHECK(rttPoints(view) > early);
  CHECK(view.fullEnd() > earlyEnd);
  CHECK(view.rangeEnd() == view.fullEnd());  // following the live edge
  savePng(window, "gui-live-timeline.png");
  window.showPage(MainWindow::ConnectionsIndex);
  QTest::qWait(200);
  savePng(window, "gui-live-connections.png");
  window.showPage(MainWindow::TimelineIndex);

  // Zoomed away from the edge: the view stays where the user put it.
  const int64_t zoomStart = view.fullStart(), zoomEnd = view.fullStart() + 200'000'000;
  view.zoomTo(zoomStart, zoomEnd);
  const int framesBefore = live.stats().frames;
  REQUIRE(QTest::qWaitFor([&] { return live.stats().frames >= framesBefore + 3; }, 5000));
  CHECK(view.rangeStart() == zoomStart);
  CHECK(view.rangeEnd() == zoomEnd);

  talker.join();
  const uint64_t total = sent.clientPackets + sent.serverPackets;
  REQUIRE(sent.retransmissions == 20);
  // Everything sent is on screen: the row's packets, its retransmissions and
  // the timeline's marks.
  REQUIRE(QTest::qWaitFor(
      [&] {
        return rows.rowCount() == 1 && rows.record(0).summary.dir[0].packets == sent.clientPackets &&
               rows.record(0).summary.dir[1].packets == sent.serverPackets;
      },
      10000));
  CHECK(live.lastFrame()->packets == total);
  CHECK(rows.record(0).metrics.dir[0].retransmissions == sent.retransmissions);
  const std::shared_ptr<const gui::TimelineData> liveData = view.data();
  REQUIRE(liveData);
  const gui::DirectionTimeline& liveC2S = liveData->of(kC2S);
  CHECK(liveC2S.retransmissions.size() == sent.retransmissions);
  // No sequence series while live: the lane's title says when it comes.
  CHECK(liveData->sequence_after_stop);
  CHECK(liveC2S.seqSent.size() == 0);

  // A retransmission mark is where it should be on screen.
  const gui::RetxMark& mark = liveC2S.retransmissions.front();
  view.zoomTo(mark.ts_ns - 50'000'000, mark.ts_ns + 50'000'000);
  const auto g = gui::TimelineGeometry::compute(view.scene(), view.size());
  const auto hit = view.hitTest(QPoint(int(view.xForTime(mark.ts_ns)), int(g.rows.retx)));
  REQUIRE(hit);
  const bool retransmissionHit = hit->kind == gui::HitKind::RetransmissionTimeout ||
                                 hit->kind == gui::HitKind::RetransmissionFast ||
                                 hit->kind == gui::HitKind::RetransmissionSpurious;
  CHECK(retransmissionHit);
  CHECK(hit->frame == mark.frame);

  // Stop (Ctrl+E): the file opens as File > Open would, reusing the database.
  QSignalSpy shown(&window, &MainWindow::captureShown);
  QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
  REQUIRE(shown.wait(30000));
  CHECK(window.session().capturePath() == QString::fromStdString(o.output));
  CHECK(window.session().outcome().reused);
  CHECK(window.resultPages()->currentWidget() == static_cast<QWidget*>(window.summaryPage()));
  CHECK(window.actions().startCapture->isEnabled());
  CHECK(labelText(window, "status.packets") == QStringLiteral("Packets: %1").arg(total));

  const ProcessResult cli = run({RUDPSCOPE_CLI, "analyze", o.output, "--db", dir / "cli.sqlite", "--json"});
  INFO(cli.err);
  REQUIRE(cli.status == 0);
  const json out = json::parse(cli.out);
  REQUIRE(out["connections"].size() == 1);
  REQUIRE(rows.rowCount() == 1);
  const json& c = out["connections"][0];
  CHECK(c["protocol"] == "grudp");
  CHECK(c["directions"]["client_to_server"]["packets"].get<uint64_t>() ==
        rows.record(0).summary.dir[0].packets);
  CHECK(c["directions"]["server_to_client"]["packets"].get<uint64_t>() ==
        rows.record(0).summary.dir[1].packets);
  CHECK(c["directions"]["client_to_server"]["packets"].get<uint64_t>() == sent.clientPackets);
  CHECK(c["directions"]["client_to_server"]["retransmissions"].get<uint64_t>() == sent.retransmissions);

  // What the live timeline showed is what the finished analysis stored.
  StoreReader reader(window.session().dbPath().toStdString());
  const gui::TimelineData stored = gui::loadTimelineData(reader, rows.record(0).summary.id);
  CHECK_FALSE(stored.sequence_after_stop);
  CHECK(stored.of(kC2S).seqSent.size() == sent.clientPackets);
  CHECK(stored.of(kC2S).rtt.size() == liveC2S.rtt.size());
  CHECK(stored.of(kC2S).retransmissions.size() == liveC2S.retransmissions.size());
}

TEST_CASE("a ring capture in the window keeps its newest files and Stop opens the newest") {
  useTemporarySettings();
  TempDir dir("gui-live-ring");
  MainWindow window;
  window.show();
  REQUIRE(QTest::qWaitForWindowActive(&window));
  LiveCaptureController& live = *window.liveCapture();
  const uint16_t port = freeUdpPort();
  LiveOptions o;
  o.interface = "lo";
  o.filter = "udp port " + std::to_string(port);
  o.output = dir / "ring.pcapng";
  o.ring_files = 2;
  o.ring_file_bytes = 20'000;
  QSignalSpy started(&live, &LiveCaptureController::started);
  window.startCapture(o);
  REQUIRE(started.wait(10000));
  GrudpTalkCounts sent;
  std::atomic<bool> talked{false};
  std::thread talker([&] {
    sent = talkGrudp({port, 300, 0, 2, nullptr});
    talked = true;
  });
  const bool done = QTest::qWaitFor([&] { return talked.load(); }, 30000);  // the window keeps updating
  talker.join();
  REQUIRE(done);
  QTest::qWait(300);
  QSignalSpy shown(&window, &MainWindow::captureShown);
  QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
  REQUIRE(shown.wait(30000));

  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    if (e.path().extension() == ".pcapng") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  INFO("sent " << sent.clientPackets + sent.serverPackets << " packets");
  REQUIRE(files.size() == 2);
  CHECK(files[0].find("ring_0000") != std::string::npos);
  CHECK(window.session().capturePath() == QString::fromStdString(files[1]));
  CHECK(window.session().outcome().reused);
  const ProcessResult tshark = run({TSHARK_EXECUTABLE, "-r", files[1], "-T", "fields", "-e", "frame.number"});
  REQUIRE(tshark.status == 0);
  StoreReader reader(window.session().dbPath().toStdString());
  CHECK(reader.capture().packet_count == splitLines(tshark.out).size());
}
