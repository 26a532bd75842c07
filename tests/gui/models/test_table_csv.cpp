// tableToCsv / parseCsv: RFC 4180 quoting, and a round trip of the
// connections table cell by cell.
#include "catch_qt.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>

#include "models/connections_model.h"
#include "models/table_csv.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

TEST_CASE("CSV fields are quoted exactly where RFC 4180 needs it") {
  CHECK(csvField("plain 1.5") == "plain 1.5");
  CHECK(csvField("a,b") == "\"a,b\"");
  CHECK(csvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csvField("two\nlines") == "\"two\nlines\"");
  CHECK(csvField("cr\r") == "\"cr\r\"");
  CHECK(csvField("") == "");

  QStandardItemModel m(2, 3);
  m.setHorizontalHeaderLabels({"Name", "RTT\n(ms)", "Note"});
  const QStringList row0{"a,b", "12.5", "say \"hi\""}, row1{"", "7", "x\ny"};
  for (int c = 0; c < 3; ++c) {
    m.setItem(0, c, new QStandardItem(row0[c]));
    m.setItem(1, c, new QStandardItem(row1[c]));
  }
  const QString csv = tableToCsv(m);
  CHECK(csv == "Name,RTT (ms),Note\r\n\"a,b\",12.5,\"say \"\"hi\"\"\"\r\n,7,\"x\ny\"\r\n");
  CHECK(parseCsv(csv) == QList<QStringList>{{"Name", "RTT (ms)", "Note"}, row0, row1});
  CHECK(tableToCsv(m, {{2, 0}, {1}}) == "Note,Name\r\n\"x\ny\",\r\n");
  CHECK(parseCsv("a,\nb,c") == QList<QStringList>{{"a", ""}, {"b", "c"}});
  CHECK(parseCsv("a,") == QList<QStringList>{{"a", ""}});
}

TEST_CASE("the connections table round-trips through CSV cell by cell") {
  StoreReader reader(sampleCapture().db);
  ConnectionsModel model;
  model.setConnections(reader.connectionRecords(), reader.settings(), reader.capture());
  const QList<QStringList> parsed = parseCsv(tableToCsv(model));
  REQUIRE(parsed.size() == model.rowCount() + 1);
  for (int c = 0; c < model.columnCount(); ++c)
    CHECK(parsed[0][c] == model.headerData(c, Qt::Horizontal).toString().replace('\n', ' '));
  for (int r = 0; r < model.rowCount(); ++r) {
    REQUIRE(parsed[r + 1].size() == model.columnCount());
    for (int c = 0; c < model.columnCount(); ++c)
      CHECK(parsed[r + 1][c] == model.index(r, c).data().toString());
  }
}

TEST_CASE("visible columns follow the view: hidden ones left out, moved ones in visual order") {
  QStandardItemModel m(1, 4);
  QTableView view;
  view.setModel(&m);
  view.horizontalHeader()->hideSection(1);
  view.horizontalHeader()->moveSection(3, 0);
  CHECK(visibleColumns(*view.horizontalHeader()) == QList<int>{3, 0, 2});
}
