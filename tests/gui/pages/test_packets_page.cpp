// The Packets page over the GUI sample capture: the packet list model (under
// QAbstractItemModelTester, every row against tshark's columns), the details
// and bytes of a frame with the selected field's bytes highlighted, the
// Wireshark keys, marking and Export Specified Packets read back by tshark.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <functional>
#include <regex>

#include "core/error.h"
#include "models/packet_list_model.h"
#include "packets/conversation_replay.h"
#include "packets/frame_time.h"
#include "page_artifacts.h"
#include "pages/packet_details_view.h"
#include "pages/packets_page.h"
#include "process.h"
#include "sample_capture.h"
#include "session/ingest.h"
#include "widgets/hex_view.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {

std::vector<std::vector<std::string>> tsharkRows(const std::string& capture,
                                                 const std::vector<std::string>& fields,
                                                 const std::vector<std::string>& options = {}) {
  std::vector<std::string> argv = {TSHARK_EXECUTABLE,
                                   "-n",
                                   "-r",
                                   capture,
                                   "-T",
                                   "fields",
                                   "-X",
                                   "lua_script:" RUDPSCOPE_SOURCE_DIR "/dissectors/grudp.lua"};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  argv.insert(argv.end(), options.begin(), options.end());
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : splitLines(r.out)) {
    std::vector<std::string> cols = splitTabs(line);
    rows.push_back(std::move(cols));
  }
  return rows;
}

// A DATA packet with a seq in the truth: its frame and seq.
std::pair<uint64_t, uint32_t> dataPacket(const SampleCapture& s) {
  for (const auto& p : s.outageConnection()["directions"]["client_to_server"]["packets"])
    if (p["type"] == "DATA" && p["frame"].is_number() && p["frame"].get<uint64_t>() > 300)
      return {p["frame"].get<uint64_t>(), p["seq"].get<uint32_t>()};
  FAIL("no DATA packet in the truth");
  return {};
}

void openSample(PacketsPage& page) {
  const SampleCapture& s = sampleCapture();
  page.open(QString::fromStdString(s.db), QString::fromStdString(s.pcap), DissectorOptions{});
}

}  // namespace

TEST_CASE("the packet list model: every row as tshark shows it, pages bounded") {
  const SampleCapture& s = sampleCapture();
  PacketListModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.open(QString::fromStdString(s.db), QString::fromStdString(s.pcap), DissectorOptions{});
  CHECK(model.problem().isEmpty());
  const auto expected =
      tsharkRows(s.pcap, {"frame.number", "_ws.col.Time", "_ws.col.Source", "_ws.col.Destination",
                          "_ws.col.Protocol", "_ws.col.Length", "_ws.col.Info"});
  REQUIRE(model.rowCount() == int(expected.size()));
  REQUIRE(model.rowCount() > 2 * PacketListModel::kPageRows * int(PacketListModel::kMaxPages) / 8);
  size_t mismatches = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    for (int c = 0; c < PacketListModel::ColumnCount; ++c) {
      const std::string ours = model.index(row, c).data().toString().toStdString();
      if (ours == expected[row][c]) continue;
      if (++mismatches <= 5) CHECK(ours == expected[row][c]);
    }
  }
  CHECK(mismatches == 0);
  CHECK(model.cachedPages() <= PacketListModel::kMaxPages);
  CHECK(model.cachedPages() ==
        std::min<size_t>(PacketListModel::kMaxPages,
                         (model.rowCount() + PacketListModel::kPageRows - 1) / PacketListModel::kPageRows));
  // Time display formats change the Time column only.
  model.setTimeFormat(TimeFormat::DeltaCaptured);
  const auto deltas = tsharkRows(s.pcap, {"frame.time_delta"});
  for (int row : {0, 1, 500, model.rowCount() - 1}) {
    INFO("row " << row);
    CHECK(model.index(row, PacketListModel::Time).data().toString().toStdString() + "000" == deltas[row][0]);
  }
}

// A real TCP capture (Linux, WS=1024 both ways): Info as tshark prints it,
// its analysis notes included, Win scaled by the handshake's WS; rows with
// a "Bad TCP" note in Wireshark's colours.
TEST_CASE("the packet list over a TCP capture: Info as tshark shows it with the scaled window") {
  TempDir dir("gui-tcp");
  const std::string pcap = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/client.pcap";
  const std::string db = dir / "tcp.sqlite";
  ingestCapture(pcap, db, DissectorOptions{});
  PacketListModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
  REQUIRE(model.problem().isEmpty());
  const auto expected =
      tsharkRows(pcap, {"_ws.col.Protocol", "_ws.col.Info", "tcp.window_size_value", "tcp.window_size"}, {});
  REQUIRE(model.rowCount() == int(expected.size()));
  // tshark's TDS heuristic takes frame 483 for TDS and reassembles after it.
  const std::regex reassembled(R"( \[TCP segment of a reassembled PDU\]$)");
  const std::regex badNote(R"(^(\[TCP [^\]]*\] )*\[TCP (?!Window Update|Keep-Alive))");
  const QColor badBackground(0x12, 0x27, 0x2e);
  int compared = 0, scaled = 0, bad = 0, firstBad = -1;
  for (int row = 0; row < model.rowCount(); ++row) {
    const auto& t = expected[size_t(row)];
    const QModelIndex info = model.index(row, PacketListModel::Info);
    const bool tsharkBad = std::regex_search(t.at(1), badNote);
    INFO("row " << row << ": tshark " << t.at(1));
    CHECK((info.data(Qt::BackgroundRole).value<QBrush>().color() == badBackground) == tsharkBad);
    bad += tsharkBad;
    if (tsharkBad && firstBad < 0) firstBad = row;
    if (t.at(0) != "TCP") continue;
    CHECK(info.data().toString().toStdString() == std::regex_replace(t.at(1), reassembled, ""));
    ++compared;
    scaled += t.at(2) != t.at(3);
  }
  CHECK(compared == model.rowCount() - 1);  // frame 483 again
  CHECK(scaled == compared - 2);            // all but the SYN and the SYN-ACK
  CHECK(bad == 115);                        // tshark -Y with the "Bad TCP" rule: 115 frames
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
  page.resize(1300, 800);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  // The first Bad TCP row, seen: its background where no text is drawn.
  REQUIRE(page.goToFrame(uint64_t(firstBad + 1)));
  page.list()->clearSelection();
  QTest::qWait(50);
  const QRect cell = page.list()->visualRect(page.list()->model()->index(firstBad, PacketListModel::Length));
  const QImage image = page.list()->viewport()->grab().toImage();
  CHECK(image.pixelColor(cell.left() + 2, cell.center().y()) == badBackground);
  CHECK_FALSE(savePagePng(page, QStringLiteral("packets_tcp")).isEmpty());
}

// Settings' preference tcp.relative_sequence_numbers:FALSE, as Wireshark's.
TEST_CASE("the packet list with relative sequence numbers off shows tshark's raw ones") {
  TempDir dir("gui-tcp-raw");
  const std::string pcap = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const std::string db = dir / "tcp.sqlite";
  DissectorOptions raw;
  raw.prefs.emplace_back("tcp.relative_sequence_numbers", "FALSE");
  ingestCapture(pcap, db, raw);
  PacketListModel model;
  model.open(QString::fromStdString(db), QString::fromStdString(pcap), raw);
  REQUIRE(model.problem().isEmpty());
  const auto expected =
      tsharkRows(pcap, {"_ws.col.Protocol", "_ws.col.Info"}, {"-o", "tcp.relative_sequence_numbers:FALSE"});
  REQUIRE(model.rowCount() == int(expected.size()));
  const std::regex reassembled(R"( \[TCP segment of a reassembled PDU\]$)");
  int compared = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    const auto& t = expected[size_t(row)];
    if (t.at(0) != "TCP") continue;
    INFO("row " << row << ": tshark " << t.at(1));
    CHECK(model.index(row, PacketListModel::Info).data().toString().toStdString() ==
          std::regex_replace(t.at(1), reassembled, ""));
    ++compared;
  }
  CHECK(compared >= 1400);
}

namespace {

// The layer `name` starts ("Transmission Control Protocol, ..."): its lines as
// tshark -V prints them, from the first frame of `text`.
std::vector<std::string> layerLines(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  for (const std::string& line : splitLines(text)) {
    if (line.rfind(name, 0) == 0)
      out.push_back(line);
    else if (!out.empty() && line.rfind("    ", 0) == 0)
      out.push_back(line);
    else if (!out.empty())
      break;
  }
  return out;
}

// The same from the details pane: each item indented by its depth.
std::vector<std::string> layerLines(const PacketDetailsView& view, const QString& name) {
  std::vector<std::string> out;
  for (int i = 0; i < view.topLevelItemCount(); ++i) {
    QTreeWidgetItem* layer = view.topLevelItem(i);
    if (!layer->text(0).startsWith(name)) continue;
    std::function<void(QTreeWidgetItem*, int)> walk = [&](QTreeWidgetItem* item, int depth) {
      out.push_back(std::string(size_t(depth) * 4, ' ') + item->text(0).toStdString());
      for (int c = 0; c < item->childCount(); ++c) walk(item->child(c), depth + 1);
    };
    walk(layer, 0);
    break;
  }
  return out;
}

}  // namespace

// Rows are read alone, so the items Wireshark works out from the frames
// before (TCP's stream, times and SEQ/ACK analysis; UDP's stream and times)
// come from a replay of the capture in the background, then join the tree.
TEST_CASE("the packets page: a TCP or UDP frame's stream and SEQ/ACK items as tshark -V shows them") {
  TempDir dir("gui-tcp-details");
  const std::string tcp = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const std::string db = dir / "tcp.sqlite";
  ingestCapture(tcp, db, DissectorOptions{});
  // The last frame with an ack RTT (the replay reads the whole capture), then one before it (it starts
  // again).
  const auto rtts = tsharkRows(tcp, {"frame.number"}, {"-Y", "tcp.analysis.ack_rtt"});
  REQUIRE(rtts.size() > 100);
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(tcp), DissectorOptions{});
  page.resize(1300, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  for (const auto& row : {rtts.back(), rtts[rtts.size() / 2]}) {
    const uint64_t frame = std::stoull(row.at(0));
    INFO("frame " << frame);
    REQUIRE(page.goToFrame(frame));
    REQUIRE(QTest::qWaitFor(
        [&] { return page.details()->itemOfField(QStringLiteral("tcp.analysis.ack_rtt")) != nullptr; },
        20000));
    const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", tcp, "--disable-protocol", "tds", "-V", "-O",
                                 "tcp", "-Y", "frame.number == " + std::to_string(frame)});
    REQUIRE(t.status == 0);
    const std::vector<std::string> expected = layerLines(t.out, "Transmission Control Protocol");
    REQUIRE(expected.size() > 30);
    CHECK(layerLines(*page.details(), QStringLiteral("Transmission Control Protocol")) == expected);
    CHECK(std::find(expected.begin(), expected.end(), "    [SEQ/ACK analysis]") != expected.end());
  }
  // The picture: the TCP layer open at its SEQ/ACK analysis, the RTT selected.
  page.details()->collapseAll();
  QTreeWidgetItem* rtt = page.details()->itemOfField(QStringLiteral("tcp.analysis.ack_rtt"));
  page.details()->expandItem(rtt->parent()->parent());
  page.details()->expandItem(rtt->parent());
  page.details()->setCurrentItem(rtt);
  page.details()->scrollToItem(rtt, QAbstractItemView::PositionAtCenter);
  CHECK_FALSE(savePagePng(page, QStringLiteral("packets_tcp_seq_ack")).isEmpty());

  // A UDP frame of the sample: its stream index and times.
  const SampleCapture& s = sampleCapture();
  openSample(page);
  const uint64_t udpFrame = 4000;
  REQUIRE(page.goToFrame(udpFrame));
  REQUIRE(QTest::qWaitFor(
      [&] { return page.details()->itemOfField(QStringLiteral("udp.stream")) != nullptr; }, 20000));
  std::vector<std::string> ts = {TSHARK_EXECUTABLE,
                                 "-n",
                                 "-r",
                                 s.pcap,
                                 "-V",
                                 "-O",
                                 "udp",
                                 "-Y",
                                 "frame.number == " + std::to_string(udpFrame)};
  const ProcessResult t = run(ts);
  REQUIRE(t.status == 0);
  const std::vector<std::string> expected = layerLines(t.out, "User Datagram Protocol");
  CHECK(std::find(expected.begin(), expected.end(), "    [Timestamps]") != expected.end());
  CHECK(layerLines(*page.details(), QStringLiteral("User Datagram Protocol")) == expected);
}

// QUIC opened with the endpoint's key log (aioquic's frames scenario): the
// QUIC layer of a frame far from the handshake, a path challenge after the
// client's NAT rebinding, is the one tshark -V prints with the same key log.
TEST_CASE("the packets page: a QUIC frame opened with the key log shows tshark's QUIC layer") {
  TempDir dir("gui-quic-details");
  const std::string run_ = RUDPSCOPE_SOURCE_DIR "/tests/kcp_enet/data/aioquic_frames/";
  const std::string pcap = run_ + "client.pcap", db = dir / "quic.sqlite";
  DissectorOptions keyed;
  keyed.prefs.emplace_back("tls.keylog_file", run_ + "client.keylog");
  ingestCapture(pcap, db, keyed);
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(pcap), keyed);
  page.resize(1300, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  const uint64_t frame = 200;
  REQUIRE(page.goToFrame(frame));
  REQUIRE(QTest::qWaitFor(
      [&] { return page.details()->itemOfField(QStringLiteral("quic.frame_type")) != nullptr; }, 20000));
  const ProcessResult t =
      run({TSHARK_EXECUTABLE, "-n", "-r", pcap, "-o", "tls.keylog_file:" + run_ + "client.keylog", "-V", "-O",
           "quic", "-Y", "frame.number == " + std::to_string(frame)});
  REQUIRE(t.status == 0);
  const std::vector<std::string> expected = layerLines(t.out, "QUIC IETF");
  CHECK(std::find(expected.begin(), expected.end(), "    PATH_CHALLENGE") != expected.end());
  CHECK(layerLines(*page.details(), QStringLiteral("QUIC IETF")) == expected);
  // The picture: the path challenge's data selected.
  page.details()->collapseAll();
  QTreeWidgetItem* type = page.details()->itemOfField(QStringLiteral("quic.frame_type"));
  page.details()->expandItem(type->parent()->parent());
  page.details()->expandItem(type->parent());
  page.details()->setCurrentItem(type);
  CHECK_FALSE(savePagePng(page, QStringLiteral("packets_quic_path_challenge")).isEmpty());
}

// The replay on its own: cancelled and resumed, asked again, going back,
// past the end; and the details pane keeps what the user opened and selected
// when the items arrive.
TEST_CASE("the conversation replay and the details pane's update") {
  TempDir dir("gui-replay");
  const std::string tcp = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const std::string db = dir / "tcp.sqlite";
  ingestCapture(tcp, db, DissectorOptions{});
  const auto rtts =
      tsharkRows(tcp, {"frame.number", "tcp.stream", "tcp.analysis.ack_rtt"}, {"-Y", "tcp.analysis.ack_rtt"});
  REQUIRE(rtts.size() > 100);
  const uint64_t late = std::stoull(rtts.back().at(0)), early = std::stoull(rtts.front().at(0));
  // Cancelled after 4096 frames of the sample, then resumed: frame 5000's UDP streams.
  const SampleCapture& s = sampleCapture();
  ConversationReplay sample(s.pcap);
  int asked = 0;
  CHECK_FALSE(sample.factsOf(5000, [&](double) { return ++asked < 2; }));
  CHECK(asked == 2);
  const auto udp = sample.factsOf(5000, [](double) { return true; });
  REQUIRE(udp);
  REQUIRE(udp->udp.count == 1);
  CHECK(std::to_string(udp->udp.header[0].index) ==
        tsharkRows(s.pcap, {"udp.stream"}, {"-Y", "frame.number == 5000"}).at(0).at(0));

  ConversationReplay replay(tcp);
  auto facts = replay.factsOf(late, [](double) { return true; });
  REQUIRE(facts);
  REQUIRE(facts->tcp);
  CHECK(facts->frame == late);
  CHECK(std::to_string(facts->tcp->stream) == rtts.back().at(1));
  CHECK(formatSeconds(facts->tcp->ack_rtt_ns, 9) == rtts.back().at(2));
  CHECK(replay.factsOf(late, [](double) { return false; })->frame == late);  // asked again: no reading
  const auto back = replay.factsOf(early, [](double) { return true; });      // going back
  REQUIRE((back && back->tcp));
  CHECK(formatSeconds(back->tcp->ack_rtt_ns, 9) == rtts.front().at(2));
  CHECK_THROWS_AS(replay.factsOf(10'000'000, [](double) { return true; }), CaptureError);

  PacketListModel model;
  model.open(QString::fromStdString(db), QString::fromStdString(tcp), DissectorOptions{});
  PacketDetailsView view;
  const int row = model.rowOfFrame(late);
  view.showFrame(model.dissect(row));
  QTreeWidgetItem* tcpLayer = view.itemOfField(QStringLiteral("tcp"));
  QTreeWidgetItem* flags = view.itemOfField(QStringLiteral("tcp.flags"));
  REQUIRE((tcpLayer && flags));
  view.expandItem(tcpLayer);
  view.expandItem(flags);
  view.setCurrentItem(flags);
  CHECK(view.itemOfField(QStringLiteral("tcp.analysis.ack_rtt")) == nullptr);
  view.updateFrame(model.dissect(row, &*facts));
  REQUIRE(view.itemOfField(QStringLiteral("tcp.analysis.ack_rtt")));
  CHECK(view.itemOfField(QStringLiteral("tcp"))->isExpanded());
  CHECK(view.itemOfField(QStringLiteral("tcp.flags"))->isExpanded());
  CHECK(view.currentItem() == view.itemOfField(QStringLiteral("tcp.flags")));
  CHECK_FALSE(view.topLevelItem(0)->isExpanded());  // the Frame layer stays closed
}

// Going back in the list: the replay starts from its nearest checkpoint, not
// from the first frame, and gives the same items (tshark's, for TCP; the
// first frame's replay's, for UDP, whose checkpoints thin out past 16).
TEST_CASE("the conversation replay goes back from its checkpoints with the same items") {
  const std::string tcp = RUDPSCOPE_SOURCE_DIR "/tests/netns/data/loss5-nodelay/server.pcap";
  const auto rtts =
      tsharkRows(tcp, {"frame.number", "tcp.stream", "tcp.analysis.ack_rtt"}, {"-Y", "tcp.analysis.ack_rtt"});
  REQUIRE(rtts.size() > 100);
  const uint64_t every = 100, last = std::stoull(rtts.back().at(0));
  ConversationReplay replay(tcp, every);
  REQUIRE(replay.factsOf(last, [](double) { return true; }));
  CHECK(replay.framesRead() == last);
  size_t steps = 0;
  for (auto row = rtts.rbegin(); row != rtts.rend(); ++row) {  // up the list
    const uint64_t frame = std::stoull(row->at(0)), before = replay.framesRead();
    const auto facts = replay.factsOf(frame, [](double) { return true; });
    INFO("frame " << frame);
    REQUIRE((facts && facts->tcp));
    CHECK(std::to_string(facts->tcp->stream) == row->at(1));
    CHECK(formatSeconds(facts->tcp->ack_rtt_ns, 9) == row->at(2));
    CHECK(replay.framesRead() - before < every);  // from the checkpoint at or below it
    ++steps;
  }
  CHECK(steps == rtts.size());

  const SampleCapture& s = sampleCapture();
  ConversationReplay sample(s.pcap, 256);
  REQUIRE(sample.factsOf(5311, [](double) { return true; }));  // 20 checkpoints' worth: thinned to 512
  for (const uint64_t frame : {5000u, 3000u, 1000u, 300u}) {
    ConversationReplay fresh(s.pcap);
    const uint64_t before = sample.framesRead();
    const auto a = sample.factsOf(frame, [](double) { return true; });
    const auto b = fresh.factsOf(frame, [](double) { return true; });
    INFO("frame " << frame);
    REQUIRE((a && b && a->udp.count == 1 && b->udp.count == 1));
    CHECK(a->udp.header[0].index == b->udp.header[0].index);
    CHECK(a->udp.header[0].first_ns == b->udp.header[0].first_ns);
    CHECK(a->udp.header[0].previous_ns == b->udp.header[0].previous_ns);
    CHECK(sample.framesRead() - before < 512);
  }
}

TEST_CASE("the packets page: a frame's details and bytes, the selected field's bytes highlighted") {
  const SampleCapture& s = sampleCapture();
  const auto [frame, seq] = dataPacket(s);
  PacketsPage page;
  openSample(page);
  page.resize(1100, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  REQUIRE(page.goToFrame(frame));
  CHECK(page.currentFrame() == frame);

  QTreeWidgetItem* seqItem = page.details()->itemOfField(QStringLiteral("grudp.seq"));
  REQUIRE(seqItem);
  CHECK(seqItem->text(0) == QStringLiteral("Sequence number: %1").arg(seq));
  CHECK(page.details()->topLevelItem(0)->text(0).startsWith(QStringLiteral("Frame %1: ").arg(frame)));
  // The frame's own bytes: Ethernet, IPv4 (its header length), UDP, then the
  // GRUDP header, whose seq is at offset 8 (grudp-v1.md).
  const std::vector<uint8_t>& bytes = page.bytesView()->bytes();
  REQUIRE(bytes.size() > 60);
  REQUIRE((bytes[12] == 0x08 && bytes[13] == 0x00));
  const uint32_t seqOffset = 14 + (bytes[14] & 0x0f) * 4 + 8 + 8;
  const uint32_t onWire = uint32_t(bytes[seqOffset]) << 24 | uint32_t(bytes[seqOffset + 1]) << 16 |
                          uint32_t(bytes[seqOffset + 2]) << 8 | bytes[seqOffset + 3];
  CHECK(onWire == seq);

  page.details()->setCurrentItem(seqItem);
  CHECK(page.bytesView()->highlightOffset() == seqOffset);
  CHECK(page.bytesView()->highlightLength() == 4);
  // In the picture: the seq's bytes on the highlight colour, the byte before not.
  for (uint32_t o = seqOffset; o < seqOffset + 4; ++o) CHECK(hexPixelHighlighted(*page.bytesView(), int(o)));
  CHECK(!hexPixelHighlighted(*page.bytesView(), int(seqOffset) - 1));
  CHECK(!savePagePng(page, "packets-page").isEmpty());

  // A click on a byte selects the innermost item holding it.
  page.details()->setCurrentItem(page.details()->topLevelItem(0));
  QTest::mouseClick(page.bytesView()->viewport(), Qt::LeftButton, {},
                    page.bytesView()->hexRect(int(seqOffset) + 2).center());
  CHECK(page.details()->currentItem() == seqItem);
  CHECK(page.details()->copyText() == QString::number(seq));
}

TEST_CASE(
    "the packets page keys: Ctrl+G, Ctrl+Up/Down, Ctrl+Home/End, and a frame that is not there says so") {
  PacketsPage page;
  openSample(page);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  const int rows = page.model()->rowCount();
  QTest::keyClick(&page, Qt::Key_G, Qt::ControlModifier);
  auto* go = page.findChild<QLineEdit*>(QStringLiteral("packets.goto"));
  REQUIRE(go);
  CHECK(go->hasFocus());
  QTest::keyClicks(go, QStringLiteral("1234"));
  QTest::keyClick(go, Qt::Key_Return);
  CHECK(page.currentFrame() == 1234);
  QTest::keyClick(page.list(), Qt::Key_Down, Qt::ControlModifier);
  CHECK(page.currentFrame() == 1235);
  QTest::keyClick(page.list(), Qt::Key_Up, Qt::ControlModifier);
  QTest::keyClick(page.list(), Qt::Key_Up, Qt::ControlModifier);
  CHECK(page.currentFrame() == 1233);
  QTest::keyClick(page.list(), Qt::Key_End, Qt::ControlModifier);
  CHECK(page.currentFrame() == quint64(rows));
  QTest::keyClick(page.list(), Qt::Key_Home, Qt::ControlModifier);
  CHECK(page.currentFrame() == 1);
  // The visible row is the current one.
  CHECK(page.list()->rowAt(page.list()->visualRect(page.list()->currentIndex()).center().y()) == 0);

  go->setText(QString::number(rows + 1));
  QTest::keyClick(go, Qt::Key_Return);
  CHECK(page.currentFrame() == 1);
  CHECK(page.message() ==
        QStringLiteral("There is no packet %1: the capture has packets 1 to %2.").arg(rows + 1).arg(rows));
  go->setText(QStringLiteral("twelve"));
  QTest::keyClick(go, Qt::Key_Return);
  CHECK(page.message() == QStringLiteral("“twelve” is not a packet number."));
}

TEST_CASE("marked frames (Ctrl+M) exported as pcapng are exactly those frames, read back by tshark") {
  const SampleCapture& s = sampleCapture();
  PacketsPage page;
  openSample(page);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  for (quint64 frame : {3, 10, 500}) {
    REQUIRE(page.goToFrame(frame));
    QTest::keyClick(page.list(), Qt::Key_M, Qt::ControlModifier);
  }
  CHECK(page.model()->markedFrames() == std::set<uint64_t>{3, 10, 500});
  CHECK(page.model()->index(9, 0).data(Qt::BackgroundRole).value<QBrush>().color() == Qt::black);
  CHECK(!page.model()->index(8, 0).data(Qt::BackgroundRole).isValid());
  REQUIRE(page.goToFrame(1));
  QTest::keyClick(page.list(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
  CHECK(page.currentFrame() == 3);
  QTest::keyClick(page.list(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
  CHECK(page.currentFrame() == 10);
  QTest::keyClick(page.list(), Qt::Key_B, Qt::ControlModifier | Qt::ShiftModifier);
  CHECK(page.currentFrame() == 3);

  TempDir dir("packets-export");
  const std::vector<std::string> fields = {"frame.time_epoch", "frame.len", "frame.cap_len", "grudp.seq"};
  const auto original = tsharkRows(s.pcap, fields);
  QSignalSpy finished(&page, &PacketsPage::exportFinished);
  page.exportFrames(QString::fromStdString(dir / "marked.pcapng"), true);
  REQUIRE(finished.wait(30000));
  CHECK(finished.at(0).at(1).toBool());
  CHECK(finished.at(0).at(0).toString().startsWith(QStringLiteral("Exported 3 packets to ")));
  const auto marked = tsharkRows(dir / "marked.pcapng", fields);
  REQUIRE(marked.size() == 3);
  CHECK(marked[0] == original[2]);
  CHECK(marked[1] == original[9]);
  CHECK(marked[2] == original[499]);

  page.exportFrames(QString::fromStdString(dir / "all.pcapng"), false);
  REQUIRE(finished.wait(60000));
  CHECK(tsharkRows(dir / "all.pcapng", fields) == original);

  page.exportFrames(QString::fromStdString(dir / "no-such-dir/x.pcapng"), true);
  REQUIRE(finished.wait(30000));
  CHECK_FALSE(finished.last().at(1).toBool());
  CHECK(page.message().contains(QStringLiteral("no-such-dir")));
}
