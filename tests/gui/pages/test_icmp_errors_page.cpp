// ICMP errors about a connection's datagrams in the Connections table and on
// the Statistics page: a capture built byte by byte (one GRUDP flow, a TTL
// exceeded about a client datagram and a port unreachable about a server
// one), analysed with the real pipeline.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeWidgetItem>

#include "grudp_flow.h"
#include "models/connections_model.h"
#include "models/direction_figures_model.h"
#include "models/packet_list_model.h"
#include "models/statistics_data.h"
#include "page_artifacts.h"
#include "pages/display_filter_bar.h"
#include "pages/packet_details_view.h"
#include "pages/packets_page.h"
#include "pages/statistics_page.h"
#include "process.h"
#include "session/ingest.h"
#include "store/store_reader.h"
#include "widgets/display_filter_edit.h"
#include "widgets/hex_view.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {
// The flow's 6 packets, then frame 7: TTL exceeded from 192.0.2.254 about
// client packet 0; frame 8: port unreachable from the client about server packet 3.
std::string icmpDatabase(const test::TempDir& dir) {
  const std::vector<Bytes> errors = {
      inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, head(grudpPacket(0, false), 28)))),
      inEthernet(ipv4(kClient, kServer, 1, icmp4Error(3, 3, grudpPacket(3, false))))};
  const std::string pcap = writeCapture(
      dir / "icmp.pcap", 1, false, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  const std::string db = dir / "icmp.sqlite";
  ingestCapture(pcap, db, DissectorOptions{});
  return db;
}
}  // namespace

TEST_CASE("the connections table counts ICMP errors per direction and the statistics page names the first") {
  const test::TempDir dir("gui-icmp");
  StoreReader reader(icmpDatabase(dir));
  ConnectionsModel model;
  QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};
  model.setConnections(reader.connectionRecords(), reader.settings(), reader.capture());
  REQUIRE(model.rowCount() == 1);
  const int column = model.columnOfId(QStringLiteral("icmp_errors"));
  REQUIRE(column >= 0);
  CHECK(model.index(0, column).data().toString() == "1 / 1");
  CHECK(model.index(0, model.columnOfId(QStringLiteral("packets"))).data().toString() == "3 / 3");

  StatisticsPage page;
  page.setData(loadStatistics(reader, model.record(0).summary.id));
  page.resize(1400, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  auto* figures = static_cast<DirectionFiguresModel*>(page.figuresTable()->model());
  const int row = figures->rowOfFigure(QStringLiteral("ICMP errors"));
  REQUIRE(row >= 0);
  CHECK(figures->index(row, DirectionFiguresModel::ClientToServer).data().toString() ==
        "1, first frame 7: TTL exceeded in transit from 192.0.2.254");
  CHECK(figures->index(row, DirectionFiguresModel::ServerToClient).data().toString() ==
        "1, first frame 8: port unreachable from 10.0.0.1");
  // The column is narrow: the tooltip holds the whole text.
  CHECK(figures->index(row, DirectionFiguresModel::ServerToClient)
            .data(Qt::ToolTipRole)
            .toString()
            .startsWith("1, first frame 8: port unreachable from 10.0.0.1\n"));
  page.figuresTable()->scrollTo(figures->index(row, 0), QAbstractItemView::PositionAtTop);
  CHECK(!test::savePagePng(page, QStringLiteral("gui-statistics-icmp-errors")).isEmpty());
}

TEST_CASE("the packets page dissects the GRUDP datagram a port unreachable quotes, as Wireshark does") {
  const test::TempDir dir("gui-icmp-packets");
  const std::string db = icmpDatabase(dir), pcap = dir / "icmp.pcap";
  PacketsPage page;
  page.open(QString::fromStdString(db), QString::fromStdString(pcap), DissectorOptions{});
  page.resize(1100, 900);
  page.show();
  REQUIRE(QTest::qWaitForWindowExposed(&page));
  REQUIRE(page.goToFrame(8));
  const QModelIndex row = page.list()->currentIndex();
  CHECK(row.siblingAtColumn(PacketListModel::Protocol).data().toString() == "ICMP");
  CHECK(row.siblingAtColumn(PacketListModel::Info).data().toString() ==
        "Destination unreachable (Port unreachable)");

  // Server packet 3 (seq 2) quoted whole: the ICMP layer holds its IP and UDP
  // layers; GRUDP's layer follows at the top, its seq's bytes in the quote.
  QTreeWidgetItem* udp = page.details()->itemOfField(QStringLiteral("udp"));
  REQUIRE(udp);
  REQUIRE(udp->parent());
  CHECK(udp->parent()->text(0) == "Internet Control Message Protocol");
  CHECK(udp->text(0) == "User Datagram Protocol, Src Port: 7777, Dst Port: 50000");
  // The replay of the frames before it gives the quoted datagram its stream:
  // the flow's, as tshark -V prints it under the quote.
  REQUIRE(QTest::qWaitFor(
      [&] { return page.details()->itemOfField(QStringLiteral("udp.stream")) != nullptr; }, 20000));
  QTreeWidgetItem* stream = page.details()->itemOfField(QStringLiteral("udp.stream"));
  CHECK(stream->text(0) == "[Stream index: 0]");
  CHECK(stream->parent()->text(0) == "User Datagram Protocol, Src Port: 7777, Dst Port: 50000");
  CHECK(stream->parent()->parent()->text(0) == "Internet Control Message Protocol");
  udp = page.details()->itemOfField(QStringLiteral("udp"));  // the tree was made again with it
  QTreeWidgetItem* seq = page.details()->itemOfField(QStringLiteral("grudp.seq"));
  REQUIRE(seq);
  CHECK(seq->text(0) == "Sequence number: 2");
  CHECK(seq->parent()->parent() == nullptr);  // under the GRUDP layer, a top-level item
  // Ethernet, IPv4, ICMP's 8 bytes, the quoted IPv4 and UDP headers, then the
  // seq at 8 in the GRUDP header (grudp-v1.md).
  const int seqOffset = 14 + 20 + 8 + 20 + 8 + 8;
  const std::vector<uint8_t>& bytes = page.bytesView()->bytes();
  REQUIRE(bytes.size() >= size_t(seqOffset + 4));
  CHECK((bytes[seqOffset] == 0 && bytes[seqOffset + 1] == 0 && bytes[seqOffset + 2] == 0 &&
         bytes[seqOffset + 3] == 2));
  page.details()->setCurrentItem(seq);
  CHECK(page.bytesView()->highlightOffset() == seqOffset);
  CHECK(page.bytesView()->highlightLength() == 4);
  for (int o = seqOffset; o < seqOffset + 4; ++o) CHECK(test::hexPixelHighlighted(*page.bytesView(), o));
  CHECK(!test::hexPixelHighlighted(*page.bytesView(), seqOffset - 1));
  CHECK(!test::savePagePng(page, QStringLiteral("packets-icmp-quoted")).isEmpty());

  // The filter bar's "grudp" reads the capture again and displays the flow
  // and the error whose quote holds GRUDP bytes (frame 7 quotes 28 bytes:
  // the IP and UDP headers only), as tshark -Y grudp.
  QSignalSpy finished(page.filterBar(), &DisplayFilterBar::finished);
  page.filterBar()->edit()->setText(QStringLiteral("grudp"));
  QTest::keyClick(page.filterBar()->edit(), Qt::Key_Return);
  REQUIRE((finished.count() > 0 || finished.wait(60000)));
  std::vector<quint64> shown;
  for (int r = 0; r < page.model()->rowCount(); ++r)
    shown.push_back(page.model()->index(r, PacketListModel::Number).data().toULongLong());
  CHECK(shown == std::vector<quint64>{1, 2, 3, 4, 5, 6, 8});
}
