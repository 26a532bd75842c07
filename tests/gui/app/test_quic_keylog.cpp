// A QUIC capture of the real quic-go (tests/kcp_enet/data/quic_loss5) in the
// window: without a key log the Summary says the connection is encrypted and
// what to give; the key log chosen in Settings re-analyses it, and the
// connection's losses are then the in-flight packets the peer's capture
// lacks (45 from the client, tests/kcp_enet/test_quic_analysis.cpp), and
// the Packets page's Protocol and Info columns are tshark's.
#include <QAbstractItemModel>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <filesystem>
#include <map>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
#include "models/packet_list_model.h"
#include "pages/packets_page.h"
#include "settings_dialog.h"

using namespace rudp;
using namespace rudp::test;
using gui::MainWindow;

namespace {

const std::string kRun = RUDPSCOPE_SOURCE_DIR "/tests/kcp_enet/data/quic_loss5/";

QStringList problemTexts(const MainWindow& window) {
  auto* problems = window.findChild<QTreeView*>(QStringLiteral("summary.problems"));
  REQUIRE(problems);
  QStringList out;
  for (int r = 0; r < problems->model()->rowCount(); ++r)
    out << problems->model()->index(r, 1).data().toString();
  return out;
}

const ConnectionRecord& quicConnection(const MainWindow& window) {
  for (const ConnectionRecord& c : window.session().overview()->connections)
    if (c.summary.protocol == "quic") return c;
  FAIL("no quic connection");
  throw;
}

}  // namespace

TEST_CASE("a QUIC capture says it is encrypted until the key log chosen in Settings decrypts it") {
  useTemporarySettings();
  TempDir dir("app-quic");
  const std::string capture = dir / "client.pcap";
  std::filesystem::copy_file(kRun + "client.pcap", capture);
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  REQUIRE(openAndWait(window, QString::fromStdString(capture)));

  CHECK(quicConnection(window).metrics.encrypted);
  const QStringList before = problemTexts(window);
  CHECK(before.filter(QStringLiteral("QUIC, encrypted: give the key log to analyse it")).size() == 1);
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-quic-encrypted.png"))));

  QSignalSpy shown(&window, &MainWindow::captureShown);
  QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
  auto* dialog = window.findChild<gui::SettingsDialog*>();
  REQUIRE(dialog);
  auto* keylog = dialog->findChild<QLineEdit*>(QStringLiteral("settings.keylog"));
  REQUIRE(keylog);
  CHECK(keylog->text().isEmpty());
  keylog->setText(QString::fromStdString(kRun + "client.keylog"));
  CHECK(dialog->grab().save(QString::fromStdString(artifactPath("app-quic-settings.png"))));
  dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
  REQUIRE(shown.wait(60000));

  const ConnectionRecord& c = quicConnection(window);
  CHECK_FALSE(c.metrics.encrypted);
  CHECK(c.metrics.dir[0].lost == 45);
  CHECK(problemTexts(window).filter(QStringLiteral("QUIC, encrypted")).isEmpty());
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-quic-decrypted.png"))));

  // `tshark -r client.pcap -o tls.keylog_file:client.keylog -T fields -e
  // _ws.col.Protocol -e _ws.col.Info`: frames 1-9 and the first after the
  // key update; frame 4 holds a Handshake and a 1-RTT packet, the last shown.
  const std::map<int, QString> tsharkInfo = {
      {1, "Initial, DCID=ff0d87cf75b4f29111f599f64a7839f194fe0ada, SCID=ba272536, PKN: 0, CRYPTO, CRYPTO"},
      {2,
       "Initial, DCID=ff0d87cf75b4f29111f599f64a7839f194fe0ada, SCID=ba272536, PKN: 1, PADDING, CRYPTO, "
       "CRYPTO"},
      {3, "Initial, DCID=ba272536, SCID=2a3b70c0, PKN: 0, ACK, PADDING, CRYPTO"},
      {4, "Protected Payload (KP0), DCID=ba272536, PKN: 2, NCI, NCI, NCI"},
      {5, "Protected Payload (KP0), DCID=38bb2ab3, PKN: 4, ACK, RC, NCI, NCI, NCI"},
      {6, "Protected Payload (KP0), DCID=38bb2ab3, PKN: 5, STREAM(0)"},
      {7, "Protected Payload (KP0), DCID=38bb2ab3, PKN: 6, DG"},
      {8, "Handshake, DCID=38bb2ab3, SCID=ba272536, PKN: 7, CRYPTO"},
      {9, "Handshake, DCID=38bb2ab3, SCID=ba272536, PKN: 8, CRYPTO"},
      {175, "Protected Payload (KP1), DCID=38bb2ab3, PKN: 106, DG"}};
  gui::PacketsPage* packets = window.packetsPage();
  window.resultPages()->setCurrentWidget(packets);
  for (const auto& [frame, info] : tsharkInfo) {
    INFO("frame " << frame);
    const QModelIndex row = packets->model()->index(frame - 1, gui::PacketListModel::Protocol);
    CHECK(row.data().toString() == QStringLiteral("QUIC"));
    CHECK(row.siblingAtColumn(gui::PacketListModel::Info).data().toString() == info);
  }
  REQUIRE(packets->goToFrame(5));
  CHECK(window.grab().save(QString::fromStdString(artifactPath("app-quic-packets.png"))));
  MainWindow later;  // kept in QSettings
  CHECK(later.preferences().keylog_file == QString::fromStdString(kRun + "client.keylog"));
}
