// "Open in Wireshark" from the Connections page's context menu and the
// Timeline page, with a fake `wireshark` first on PATH that records its
// arguments; and the message when there is no wireshark at all.
#include <QAction>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "jobs/wireshark_launcher.h"
#include "main_window.h"
#include "pages/connections_page.h"
#include "pages/timeline_page.h"
#include "store/store_reader.h"
#include "widgets/message_banner.h"
#include "widgets/timeline_view.h"
#include "wireshark/frame_selection.h"
#include "wireshark_gui_env.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;
using gui::WiresharkLauncher;

namespace {

struct Fixture {
  TempDir dir{"ws-open"}, home{"ws-open-home"};
  ScopedEnv homeEnv{"HOME", QByteArray::fromStdString(home.path.string())};
  ScopedEnv pathEnv;
  std::string argsFile = dir / "wireshark-args.txt";
  std::string capture;
  MainWindow window;

  explicit Fixture(const QByteArray& path) : pathEnv("PATH", path) {
    useTemporarySettings();
    capture = makeSimCapture(dir, "sim.pcap",
                             {"--connections", "3", "--duration", "3", "--seed", "5", "--loss", "0.05"});
    window.resize(1200, 800);
    window.show();
    REQUIRE(openAndWait(window, QString::fromStdString(capture)));
  }

  const ConnectionRecord& connection(size_t i) const {
    return window.session().overview()->connections.at(i);
  }
};

}  // namespace

TEST_CASE("Open in Wireshark on a connection hands wireshark exactly its packets") {
  TempDir bin("ws-open-bin");
  Fixture f(pathWith(bin));
  writeFakeWireshark(bin, f.argsFile);
  const ConnectionSummary& conn = f.connection(1).summary;

  QSignalSpy launched(f.window.wiresharkLauncher(), &WiresharkLauncher::launched);
  f.window.showPage(MainWindow::ConnectionsIndex);
  gui::ConnectionsPage* page = f.window.connectionsPage();
  page->selectConnection(conn.id);
  const QRect row = page->table()->visualRect(page->table()->currentIndex());
  emit page->table()->customContextMenuRequested(row.center());
  auto* action = page->findChild<QAction*>(QStringLiteral("connections.openInWireshark"));
  REQUIRE(action);
  action->trigger();
  REQUIRE(launched.wait(60000));

  CHECK(launched[0][0].toString() == QString::fromStdString(bin / "wireshark"));
  const QStringList args = launched[0][1].toStringList();
  REQUIRE(args.size() == 16);  // -r FILE, --disable-protocol raknet and udt, -X for each of 5 dissectors
  CHECK(args == expectedArguments(args[1]));
  REQUIRE(QTest::qWaitFor([&] { return !recordedArguments(f.argsFile).isEmpty(); }, 10000));
  CHECK(recordedArguments(f.argsFile) == args);

  const std::string pcapng = args[1].toStdString();
  const auto written = tsharkFields(pcapng, frameFacts());
  const auto original = tsharkFields(f.capture, frameFacts(), addressFilter(conn));
  CHECK(written.size() == packetCount(conn));
  CHECK(written == original);
  CHECK(f.window.banner()->kind() == gui::MessageBanner::Kind::Information);
  CHECK(f.window.banner()->text() == QStringLiteral("Wireshark opens %1 packets of connection #%2 (%3).")
                                         .arg(QLocale().toString(qulonglong(packetCount(conn))))
                                         .arg(conn.id)
                                         .arg(args[1]));
  std::filesystem::remove(pcapng);
}

TEST_CASE("Open in Wireshark on the Timeline opens the packets in view, the marked one selected") {
  TempDir bin("ws-open-bin");
  Fixture f(pathWith(bin));
  writeFakeWireshark(bin, f.argsFile);
  const ConnectionSummary& conn = f.connection(0).summary;
  std::vector<PacketRecord> packets;
  {
    StoreReader reader(f.window.session().dbPath().toStdString());
    PacketQuery q;
    q.conn = conn.id;
    packets = reader.packets(q);
  }
  REQUIRE(packets.size() == packetCount(conn));
  const PacketRecord& marked = packets.at(packets.size() / 2);

  QSignalSpy shown(f.window.timelinePage(), &gui::TimelinePage::timelineShown);
  f.window.showOnTimeline(conn.id, Direction::ClientToServer, marked.ts_ns - 300'000'000,
                          marked.ts_ns + 300'000'000, marked.frame);
  REQUIRE(shown.wait(60000));
  gui::TimelineView* view = f.window.timelinePage()->view();
  const TimeRange inView{view->rangeStart(), view->rangeEnd()};
  std::vector<uint64_t> expected;
  for (const PacketRecord& p : packets)
    if (inView.contains(p.ts_ns)) expected.push_back(p.frame);
  REQUIRE(expected.size() < packets.size());  // a part of the connection, not all of it

  QSignalSpy launched(f.window.wiresharkLauncher(), &WiresharkLauncher::launched);
  auto* button = f.window.timelinePage()->findChild<QToolButton*>(QStringLiteral("timeline.openInWireshark"));
  REQUIRE(button);
  REQUIRE(button->isEnabled());
  QTest::mouseClick(button, Qt::LeftButton);
  REQUIRE(launched.wait(60000));

  const QStringList args = launched[0][1].toStringList();
  const uint64_t position = wireshark::renumbered(expected, marked.frame);
  REQUIRE(position != 0);
  CHECK(args == expectedArguments(args[1]) + QStringList{"-g", QString::number(position)});
  const auto written = tsharkFields(args[1].toStdString(), {"frame.time_epoch", "frame.len"});
  const auto all = tsharkFields(f.capture, {"frame.time_epoch", "frame.len"});
  std::vector<std::string> picked;
  for (uint64_t frame : expected) picked.push_back(all.at(frame - 1));
  CHECK(written == picked);
  CHECK(written.at(position - 1) == all.at(marked.frame - 1));
  std::filesystem::remove(args[1].toStdString());
}

TEST_CASE("Open in Wireshark without wireshark installed says so in the window") {
  TempDir empty("ws-open-nobin");
  Fixture f(QByteArray::fromStdString(empty.path.string()));
  QSignalSpy launched(f.window.wiresharkLauncher(), &WiresharkLauncher::launched);
  f.window.openInWireshark(f.connection(0).summary.id);
  CHECK(f.window.banner()->kind() == gui::MessageBanner::Kind::Error);
  CHECK(f.window.banner()->text() ==
        QStringLiteral(
            "Wireshark is not installed: no “wireshark” program on PATH. Install it (Debian: apt install "
            "wireshark) to open packets in it."));
  f.window.wiresharkLauncher()->waitForDone();
  CHECK(launched.isEmpty());
}
