// PacketFieldsView: a clicked frame's heading and fields, and the empty state.
#include "catch_qt.h"

#include <QTableView>
#include <QTest>

#include "models/packet_fields_model.h"
#include "page_artifacts.h"
#include "pages/packet_fields_view.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

TEST_CASE("the packet fields view shows one frame's stored fields") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  // A server→client DATA packet carrying acks: the sample's frame 24 (truth).
  const auto& packets = s.outageConnection()["directions"]["server_to_client"]["packets"];
  const nlohmann::json* data = nullptr;
  for (const auto& p : packets)
    if (!data && p["type"] == "DATA" && p["frame"].is_number() && p.contains("ack")) data = &p;
  REQUIRE(data);
  const uint64_t frame = (*data)["frame"];
  const std::optional<PacketRecord> packet = reader.packet(frame);
  REQUIRE(packet);

  PacketFieldsView view;
  view.showPacket(packet, s.capture);
  view.resize(420, 520);
  view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&view));
  CHECK(view.heading() ==
        QStringLiteral("Frame %1, connection %2, server → client").arg(frame).arg(packet->conn));
  const PacketFieldsModel& m = *view.model();
  CHECK(m.index(m.rowOfField("Seq"), 1).data().toString() == QString::number((*data)["seq"].get<uint32_t>()));
  CHECK(m.index(m.rowOfField("Ts echo"), 1).data().toString() ==
        QString::number((*data)["ack"]["ts_echo"].get<uint32_t>()));
  CHECK(!savePagePng(view, "packet_fields_view").isEmpty());

  view.table()->selectRow(m.rowOfField("Seq"));
  CHECK(view.selectionCsv() ==
        QStringLiteral("Field,Value\r\nSeq,%1\r\n").arg((*data)["seq"].get<uint32_t>()));

  view.showPacket(std::nullopt, s.capture);
  CHECK(view.model()->rowCount() == 0);
  CHECK(view.heading().startsWith("Click a mark"));
}
