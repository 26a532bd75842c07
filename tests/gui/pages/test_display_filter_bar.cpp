// The Packets page's display filter bar on the GUI sample capture: a bad
// filter turns red with its message and column and applies nothing; a good
// one is green; a filter over stored columns is answered from the database,
// one over dissector fields reads the capture again; both display exactly
// the frames tshark -Y selects, and Export Specified Packets writes exactly
// the displayed frames (read back by tshark). Renders the page to PNG.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeWidgetItem>

#include "models/packet_list_model.h"
#include "packets/frame_filter_scan.h"
#include "page_artifacts.h"
#include "pages/display_filter_bar.h"
#include "pages/packet_details_view.h"
#include "pages/packets_page.h"
#include "process.h"
#include "sample_capture.h"
#include "session/ingest.h"
#include "widgets/display_filter_edit.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {

// The frames tshark -Y passes, with the shipped GRUDP dissector.
std::vector<uint64_t> tsharkFrames(const std::string& capture, const std::string& filter) {
  const ProcessResult r = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-X",
                               "lua_script:" RUDPSCOPE_SOURCE_DIR "/dissectors/grudp.lua", "-Y", filter, "-T",
                               "fields", "-e", "frame.number"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<uint64_t> frames;
  for (const std::string& line : splitLines(r.out)) frames.push_back(std::stoull(line));
  return frames;
}

std::vector<uint64_t> displayed(const PacketListModel& model) {
  std::vector<uint64_t> frames;
  for (int row = 0; row < model.rowCount(); ++row)
    frames.push_back(model.index(row, PacketListModel::Number).data().toULongLong());
  return frames;
}

struct FilterPage {
  PacketsPage page;
  DisplayFilterBar* bar = page.filterBar();
  DisplayFilterEdit* edit = bar->edit();
  FilterPage() : FilterPage(sampleCapture().db, sampleCapture().pcap) {}
  FilterPage(const std::string& db, const std::string& pcap) {
    page.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
    page.resize(1200, 800);
    page.show();
    REQUIRE(QTest::qWaitForWindowExposed(&page));
  }
  // Types `filter` and presses Enter; waits for it to finish.
  void apply(const QString& filter) {
    QSignalSpy finished(bar, &DisplayFilterBar::finished);
    edit->clear();
    QTest::keyClicks(edit, filter);
    REQUIRE(edit->isValid());
    QTest::keyClick(edit, Qt::Key_Return);
    REQUIRE((finished.count() > 0 || finished.wait(60000)));
  }
};

}  // namespace

TEST_CASE("a bad display filter is red with its message and column, and applies nothing") {
  FilterPage f;
  const int rows = f.page.model()->rowCount();
  QTest::keyClick(&f.page, Qt::Key_Slash, Qt::ControlModifier);
  CHECK(f.edit->hasFocus());
  QTest::keyClicks(f.edit, QStringLiteral("grudp.seq >= 10 && udp.port == "));
  CHECK_FALSE(f.edit->isValid());
  CHECK(f.edit->palette().color(QPalette::Base) == QColor(0xff, 0xaf, 0xaf));
  CHECK(f.bar->status() == QStringLiteral("Column 32: Unexpected end of filter expression."));
  CHECK_FALSE(f.bar->findChild<QToolButton*>(QStringLiteral("packets.applyFilter"))->isEnabled());
  QTest::keyClick(f.edit, Qt::Key_Return);
  CHECK(f.page.model()->rowCount() == rows);
  CHECK_FALSE(f.page.model()->isFiltered());
  savePagePng(f.page, QStringLiteral("packets-filter-invalid"));

  f.edit->setText(QStringLiteral("grudp.sek == 1"));
  CHECK(f.bar->status() == QStringLiteral("Column 1: \"grudp.sek\" is neither a field nor a protocol name."));
  f.edit->setText(QStringLiteral("grudp.type == DATTA"));
  CHECK(f.bar->status() ==
        QStringLiteral("Column 15: \"DATTA\" cannot be found among the possible values for grudp.type."));
  f.edit->setText(QStringLiteral("grudp.type == DATA"));
  CHECK(f.edit->isValid());
  CHECK(f.edit->palette().color(QPalette::Base) == QColor(0xaf, 0xff, 0xaf));
}

TEST_CASE(
    "display filters show exactly tshark's frames: stored columns from the database, fields read again") {
  const SampleCapture& s = sampleCapture();
  FilterPage f;
  PacketListModel* model = f.page.model();
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);

  const std::string stored = "frame.len > 100 && frame.number in {200..3000} && !(frame.time_relative < 2.5)";
  f.apply(QString::fromStdString(stored));
  CHECK(f.bar->status().contains(QStringLiteral("answered from the database")));
  const std::vector<uint64_t> expectStored = tsharkFrames(s.pcap, stored);
  REQUIRE(expectStored.size() > 100);
  CHECK(displayed(*model) == expectStored);
  CHECK(f.bar->status().startsWith(
      QStringLiteral("Displayed: %1 of %2 packets").arg(expectStored.size()).arg(model->frameCount())));

  const std::string fields = "grudp.type == DATA && grudp.flags.reliable && !(grudp.seq in {100..200})";
  f.apply(QString::fromStdString(fields));
  CHECK(f.bar->status().contains(QStringLiteral("packets read again")));
  const std::vector<uint64_t> expectFields = tsharkFrames(s.pcap, fields);
  REQUIRE(expectFields.size() > 100);
  REQUIRE(expectFields.size() < model->frameCount());
  CHECK(displayed(*model) == expectFields);
  CHECK(f.edit->recentFilters().mid(0, 2) ==
        QStringList{QString::fromStdString(fields), QString::fromStdString(stored)});
  // Follow UDP Stream's filter: the stream index and times need the frames before.
  const std::string stream = "udp.stream == 1 && udp.time_delta > 0.02";
  f.apply(QString::fromStdString(stream));
  CHECK(f.bar->status().contains(QStringLiteral("packets read again")));
  const std::vector<uint64_t> expectStream = tsharkFrames(s.pcap, stream);
  REQUIRE(expectStream.size() > 10);
  CHECK(displayed(*model) == expectStream);
  f.apply(QString::fromStdString(fields));
  savePagePng(f.page, QStringLiteral("packets-filter-applied"));

  // Ctrl+G to a frame the filter hides says so; Ctrl+End is the last displayed.
  const uint64_t hidden =
      expectFields.front() + 1 == expectFields[1] ? expectFields[1] + 1 : expectFields.front() + 1;
  CHECK_FALSE(f.page.goToFrame(hidden));
  CHECK(f.page.message() ==
        QStringLiteral("Packet %1 is not displayed: the display filter hides it.").arg(hidden));
  QTest::keyClick(f.page.list(), Qt::Key_End, Qt::ControlModifier);
  CHECK(f.page.currentFrame() == expectFields.back());

  // Export Specified Packets: the displayed frames, read back by tshark.
  TempDir dir("filter-export");
  QSignalSpy exported(&f.page, &PacketsPage::exportFinished);
  f.page.exportFrames(QString::fromStdString(dir / "displayed.pcapng"), false);
  REQUIRE(exported.wait(30000));
  CHECK(exported.at(0).at(1).toBool());
  const ProcessResult back = run(
      {TSHARK_EXECUTABLE, "-n", "-r", dir / "displayed.pcapng", "-T", "fields", "-e", "frame.time_epoch"});
  const ProcessResult original = run({TSHARK_EXECUTABLE, "-n", "-r", s.pcap, "-X",
                                      "lua_script:" RUDPSCOPE_SOURCE_DIR "/dissectors/grudp.lua", "-Y",
                                      fields, "-T", "fields", "-e", "frame.time_epoch"});
  CHECK(splitLines(back.out).size() == expectFields.size());
  CHECK(back.out == original.out);

  // An empty filter displays every frame again.
  QSignalSpy finished(f.bar, &DisplayFilterBar::finished);
  f.edit->clear();
  QTest::keyClick(f.edit, Qt::Key_Return);
  CHECK_FALSE(model->isFiltered());
  CHECK(uint64_t(model->rowCount()) == model->frameCount());
}

TEST_CASE(
    "Apply as Column shows a field's values as tshark prints them; Apply as Filter displays its frames") {
  const SampleCapture& s = sampleCapture();
  FilterPage f;
  PacketListModel* model = f.page.model();
  f.page.addFieldColumn(QStringLiteral("grudp.seq"));
  f.page.addFieldColumn(QStringLiteral("grudp.flags.reliable"));
  REQUIRE(model->columnCount() == PacketListModel::ColumnCount + 2);
  CHECK(model->headerData(PacketListModel::ColumnCount, Qt::Horizontal).toString() ==
        QStringLiteral("grudp.seq"));
  const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", s.pcap, "-X",
                               "lua_script:" RUDPSCOPE_SOURCE_DIR "/dissectors/grudp.lua", "-T", "fields",
                               "-e", "grudp.seq", "-e", "grudp.flags.reliable"});
  const std::vector<std::string> lines = splitLines(t.out);
  REQUIRE(lines.size() == size_t(model->rowCount()));
  for (int row : {0, 1, 7, 300, 4000, model->rowCount() - 1}) {
    const std::vector<std::string> cols = splitTabs(lines[size_t(row)]);
    INFO("row " << row);
    CHECK(model->index(row, PacketListModel::ColumnCount).data().toString().toStdString() == cols.at(0));
    CHECK(model->index(row, PacketListModel::ColumnCount + 1).data().toString().toStdString() == cols.at(1));
  }
  CHECK(f.page.message().isEmpty());
  f.page.addFieldColumn(QStringLiteral("grudp.nosuch"));
  CHECK(f.page.message().startsWith(QStringLiteral("Apply as Column: unknown field 'grudp.nosuch'")));
  CHECK(model->columnCount() == PacketListModel::ColumnCount + 2);
  // A row alone does not know the frame before it: the Time column's formats do.
  f.page.addFieldColumn(QStringLiteral("frame.time_delta"));
  CHECK(f.page.message().startsWith(
      QStringLiteral("Apply as Column: 'frame.time_delta' depends on the frames before it")));
  CHECK(f.page.message().contains(QStringLiteral("View > Time Display Format")));
  CHECK(model->columnCount() == PacketListModel::ColumnCount + 2);

  // Apply as Filter on the selected frame's Type item.
  REQUIRE(f.page.goToFrame(5));
  QTreeWidgetItem* type = f.page.details()->itemOfField(QStringLiteral("grudp.type"));
  REQUIRE(type);
  f.page.details()->setCurrentItem(type);
  CHECK(f.page.details()->filterText() == QStringLiteral("grudp.type == 0"));
  QSignalSpy finished(f.bar, &DisplayFilterBar::finished);
  emit f.page.details()->applyAsFilter(f.page.details()->filterText());
  REQUIRE(finished.wait(60000));
  CHECK(displayed(*model) == tsharkFrames(s.pcap, "grudp.type == 0"));
  CHECK(f.page.currentFrame() == 5);  // still selected: the filter displays it

  // Kept for the next capture, until removed.
  PacketsPage next;
  next.open(QString::fromStdString(s.db), QString::fromStdString(s.pcap), DissectorOptions{});
  CHECK(next.model()->fieldColumns() ==
        QStringList{QStringLiteral("grudp.seq"), QStringLiteral("grudp.flags.reliable")});
  f.page.removeFieldColumn(PacketListModel::ColumnCount + 1);
  f.page.removeFieldColumn(PacketListModel::ColumnCount);
  CHECK(model->columnCount() == PacketListModel::ColumnCount);
  PacketsPage after;
  after.open(QString::fromStdString(s.db), QString::fromStdString(s.pcap), DissectorOptions{});
  CHECK(after.model()->columnCount() == PacketListModel::ColumnCount);
}

// Wireshark's TCP analysis fields: the capture read again in order gives
// each frame the notes the frames before it make.
TEST_CASE("filters over Wireshark's TCP analysis fields display tshark's frames") {
  TempDir dir("filter-tcp-notes");
  const std::string pcap = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const std::string db = dir / "tcp.sqlite";
  ingestCapture(pcap, db, DissectorOptions{});
  FilterPage f(db, pcap);
  const std::string badTcp =
      "tcp.analysis.flags && !tcp.analysis.window_update && !tcp.analysis.keep_alive && "
      "!tcp.analysis.keep_alive_ack";
  // The stream fields too (tcp.stream and the SEQ/ACK analysis need the frames before).
  for (const std::string& filter :
       {std::string("tcp.analysis.retransmission || tcp.analysis.duplicate_ack_num >= 2"),
        std::string("tcp.stream == 0 && tcp.analysis.ack_rtt > 0.05"), badTcp}) {
    INFO(filter);
    f.apply(QString::fromStdString(filter));
    CHECK(f.bar->status().contains(QStringLiteral("packets read again")));
    const std::vector<uint64_t> expected = tsharkFrames(pcap, filter);
    CHECK(displayed(*f.page.model()) == expected);
  }
  CHECK(f.page.model()->rowCount() == 102);  // tshark's count of Bad TCP frames
  savePagePng(f.page, QStringLiteral("packets-filter-bad-tcp"));

  // Apply as Column: relative numbers and notes of rows read alone, from
  // what the database keeps (where each direction starts, the notes).
  f.apply(QString());
  PacketListModel* model = f.page.model();
  for (const char* field :
       {"tcp.seq", "tcp.ack", "tcp.analysis.duplicate_ack_num", "tcp.analysis.retransmission"})
    f.page.addFieldColumn(QString::fromLatin1(field));
  REQUIRE(model->columnCount() == PacketListModel::ColumnCount + 4);
  const ProcessResult t =
      run({TSHARK_EXECUTABLE, "-n", "-r", pcap, "-T", "fields", "-e", "tcp.seq", "-e", "tcp.ack", "-e",
           "tcp.analysis.duplicate_ack_num", "-e", "tcp.analysis.retransmission"});
  const std::vector<std::string> lines = splitLines(t.out);
  REQUIRE(lines.size() == size_t(model->rowCount()));
  int notes = 0;
  for (int row = 0; row < model->rowCount(); ++row) {
    const std::vector<std::string> cols = splitTabs(lines[size_t(row)]);
    INFO("row " << row << ": tshark " << lines[size_t(row)]);
    for (int c = 0; c < 4; ++c)
      CHECK(model->index(row, PacketListModel::ColumnCount + c).data().toString().toStdString() ==
            cols.at(c));
    notes += !cols.at(2).empty() || !cols.at(3).empty();
  }
  CHECK(notes >= 40);
}

TEST_CASE(
    "a filter that reads the capture again fills the list as it goes, with progress, and Cancel stops it") {
  TempDir dir("filter-cancel");
  const std::string pcap = dir / "big.pcap", db = dir / "big.sqlite";
  const ProcessResult sim = run({GRUDP_SIM, "--out", pcap, "--truth", dir / "big.json", "--connections", "32",
                                 "--duration", "60", "--seed", "3", "--loss", "0.01"});
  REQUIRE(sim.status == 0);
  const CaptureInfo info = ingestCapture(pcap, db, DissectorOptions{}).capture;
  REQUIRE(info.packet_count > 150000);
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  DisplayFilterBar* bar = page.filterBar();
  auto* progress = bar->findChild<QProgressBar*>(QStringLiteral("packets.filterProgress"));
  auto* cancel = bar->findChild<QToolButton*>(QStringLiteral("packets.cancelFilter"));
  REQUIRE(progress);
  REQUIRE(cancel);
  CHECK_FALSE(progress->isVisible());

  const QString filter = QStringLiteral("grudp.flags.reliable && grudp.seq > 0");
  QSignalSpy inserted(page.model(), &QAbstractItemModel::rowsInserted);
  QSignalSpy finished(bar, &DisplayFilterBar::finished);
  bar->apply(filter);
  REQUIRE(inserted.wait(30000));  // the first frames passed, the rest still being read
  CHECK(progress->isVisible());
  CHECK(cancel->isVisible());
  CHECK(bar->isRunning());
  QTest::mouseClick(cancel, Qt::LeftButton);
  REQUIRE((finished.count() > 0 || finished.wait(30000)));
  const int shown = page.model()->rowCount();
  CHECK(bar->status() ==
        QStringLiteral("Filter cancelled: %1 packets displayed from the part read").arg(shown));
  CHECK_FALSE(progress->isVisible());
  CHECK_FALSE(bar->isRunning());

  // What it displayed is the start of what the whole filter passes.
  std::vector<uint64_t> expected;
  scanFramesPassing(pcap, DissectorOptions{}, filter.toStdString(), [&](FrameScanStep&& step) {
    expected.insert(expected.end(), step.passed.begin(), step.passed.end());
  });
  REQUIRE(shown > 0);
  REQUIRE(size_t(shown) < expected.size());
  CHECK(displayed(*page.model()) == std::vector<uint64_t>(expected.begin(), expected.begin() + shown));
}
