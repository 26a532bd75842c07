// Capture > Start's dialog: Ctrl+E opens it; the capture filter is checked as
// it is typed (red with libpcap's reason, green when valid; Start follows);
// loopback is listed with its address; the file is named as the CLI names it.
#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include "../models/catch_qt.h"
#include "app_actions.h"
#include "app_fixture.h"
#include "capture/capture_filter.h"
#include "capture_dialog.h"
#include "main_window.h"

using namespace rudp;
using namespace rudp::test;
using gui::CaptureDialog;
using gui::MainWindow;

namespace {

// The colour the line edit is painted with, a few pixels in from its left.
QColor fieldColour(QLineEdit* edit) {
  const QImage image = edit->grab().toImage();
  return image.pixelColor(image.width() - 8, image.height() / 2);  // past the text
}

}  // namespace

TEST_CASE("Ctrl+E opens the capture dialog, which checks the filter as it is typed") {
  useTemporarySettings();
  MainWindow window;
  window.show();
  REQUIRE(QTest::qWaitForWindowActive(&window));
  QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
  auto* dialog = window.findChild<CaptureDialog*>();
  REQUIRE(dialog);
  REQUIRE(QTest::qWaitForWindowExposed(dialog));

  dialog->selectInterface("lo");
  const QTreeWidgetItem* lo = dialog->interfaceList()->currentItem();
  REQUIRE(lo);
  CHECK(lo->text(0) == "lo");
  CHECK(lo->text(1).split(", ").contains("127.0.0.1"));
  CHECK(lo->text(2).split(", ").contains("loopback"));
  const QString file = QFileInfo(dialog->fileEdit()->text()).fileName();
  CHECK(QRegularExpression("^capture-lo-\\d{8}-\\d{6}\\.pcapng$").match(file).hasMatch());

  QLineEdit* filter = dialog->filterEdit();
  CHECK(filter->text() == "udp or tcp");  // the default, as the CLI's
  CHECK(dialog->filterError().isEmpty());
  filter->clear();
  QTest::keyClicks(filter, "udp port");
  const std::string expected = captureFilterError("udp port");
  REQUIRE(!expected.empty());
  CHECK(dialog->filterError() == QString::fromStdString(expected));
  CHECK(dialog->filterMessage()->text() == QString::fromStdString(expected));
  CHECK(fieldColour(filter) == QColor("#ffafaf"));
  CHECK_FALSE(dialog->startButton()->isEnabled());
  dialog->grab().save(QString::fromStdString(artifactPath("gui-capture-dialog-bad-filter.png")));

  QTest::keyClicks(filter, " 7777");
  CHECK(dialog->filterError().isEmpty());
  CHECK(dialog->filterMessage()->text() == "Valid filter.");
  CHECK(fieldColour(filter) == QColor("#afffaf"));
  CHECK(dialog->startButton()->isEnabled());
  dialog->grab().save(QString::fromStdString(artifactPath("gui-capture-dialog-good-filter.png")));

  QTest::keyClick(dialog, Qt::Key_W, Qt::AltModifier);  // the file row's label has its buddy
  CHECK(dialog->fileEdit()->hasFocus());

  const LiveOptions o = dialog->options();
  CHECK(o.interface == "lo");
  CHECK(o.filter == "udp port 7777");
  CHECK(o.output == QFileInfo(dialog->fileEdit()->text()).absoluteFilePath().toStdString());
  CHECK(o.duration_s == 0);
  CHECK(o.ring_files == 0);

  // More options: a ring of 5 files of 20 MB, as --ring 5:20.
  auto* ring = dialog->findChild<QCheckBox*>("capture.ring");
  auto* files = dialog->findChild<QSpinBox*>("capture.ringFiles");
  auto* megabytes = dialog->findChild<QSpinBox*>("capture.ringMegabytes");
  REQUIRE((ring && files && megabytes));
  CHECK_FALSE(files->isEnabled());
  for (auto* button : dialog->findChildren<QToolButton*>())
    if (button->text() == "More options") button->click();
  REQUIRE(ring->isVisible());
  ring->setChecked(true);
  CHECK(files->isEnabled());
  files->setValue(5);
  megabytes->setValue(20);
  const LiveOptions r = dialog->options();
  CHECK(r.ring_files == 5);
  CHECK(r.ring_file_bytes == 20'000'000);
  dialog->grab().save(QString::fromStdString(artifactPath("gui-capture-dialog-more-options.png")));
  dialog->reject();
}

TEST_CASE("while capturing Ctrl+E belongs to Stop, otherwise to Start") {
  useTemporarySettings();
  MainWindow window;
  gui::AppActions& a = window.actions();
  const QKeySequence ctrlE(Qt::CTRL | Qt::Key_E);
  CHECK(a.startCapture->shortcuts().contains(ctrlE));
  CHECK(a.startCapture->isEnabled());
  CHECK(a.stopCapture->shortcut().isEmpty());
  CHECK_FALSE(a.stopCapture->isEnabled());
  a.setCapturing(true);
  CHECK(a.stopCapture->shortcut() == ctrlE);
  CHECK(a.startCapture->shortcuts().isEmpty());
  CHECK_FALSE(a.startCapture->isEnabled());
  CHECK_FALSE(a.open->isEnabled());
}
