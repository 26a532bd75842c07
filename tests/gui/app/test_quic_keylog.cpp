// A QUIC capture of the real quic-go (tests/kcp_enet/data/quic_loss5) in the
// window: without a key log the Summary says the connection is encrypted and
// what to give; the key log chosen in Settings re-analyses it, and the
// connection's losses are then the in-flight packets the peer's capture
// lacks (45 from the client, tests/kcp_enet/test_quic_analysis.cpp).
#include <QAbstractItemModel>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <filesystem>

#include "../models/catch_qt.h"
#include "app_fixture.h"
#include "jobs/capture_session.h"
#include "main_window.h"
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
  MainWindow later;  // kept in QSettings
  CHECK(later.preferences().keylog_file == QString::fromStdString(kRun + "client.keylog"));
}
