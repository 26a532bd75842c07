// ICMP errors about a connection's datagrams in the Connections table and on
// the Statistics page: a capture built byte by byte (one GRUDP flow, a TTL
// exceeded about a client datagram and a port unreachable about a server
// one), analysed with the real pipeline.
#include "catch_qt.h"

#include <QAbstractItemModelTester>
#include <QTableView>
#include <QTest>

#include "grudp_flow.h"
#include "models/connections_model.h"
#include "models/direction_figures_model.h"
#include "models/statistics_data.h"
#include "page_artifacts.h"
#include "pages/statistics_page.h"
#include "process.h"
#include "session/ingest.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {
// The flow's 6 packets, then frame 7: TTL exceeded from 192.0.2.254 about
// client packet 0; frame 8: port unreachable from the client about server packet 3.
std::string icmpDatabase(const test::TempDir& dir) {
  const Bytes quoted = grudpPacket(0, false);
  const std::vector<Bytes> errors = {
      inEthernet(
          ipv4({192, 0, 2, 254}, kClient, 1, icmp4Error(11, 0, Bytes(quoted.begin(), quoted.begin() + 28)))),
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
