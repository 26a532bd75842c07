// PacketFieldsModel: a stored packet's fields equal what the simulator sent.
#include "catch_qt.h"

#include <QAbstractItemModelTester>

#include "models/packet_fields_model.h"
#include "sample_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using namespace rudp::test;

namespace {
struct Shown {
  PacketFieldsModel model;
  QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};

  QString text(const char* field) const {
    const int row = model.rowOfField(QString::fromUtf8(field));
    return row < 0 ? QStringLiteral("<absent>")
                   : model.index(row, PacketFieldsModel::Value).data().toString();
  }
  QVariant raw(const char* field) const {
    const int row = model.rowOfField(QString::fromUtf8(field));
    return row < 0 ? QVariant() : model.index(row, PacketFieldsModel::Value).data(PacketFieldsModel::RawRole);
  }
};

const char* const kTypes[] = {"DATA", "ACK", "CONNECT", "ACCEPT", "DISCONNECT", "PING", "PONG"};

// The first captured packet of `type` in that direction of the outage connection.
const nlohmann::json& firstOfType(Direction d, int type) {
  for (const auto& p : sampleCapture().outageConnection()["directions"][truthDirection(d)]["packets"])
    if (p["type"] == kTypes[type] && p["frame"].is_number()) return p;
  FAIL("no packet of type " << type);
  throw;
}

QString expectedRole(int type) {
  static const char* const roles[] = {"data", "ack", "connect", "accept", "disconnect", "ping", "pong"};
  return QString::fromLatin1(roles[type]);
}

QString expectedReliability(int flags) {
  if (flags & 1) return "reliable";
  return flags & 2 ? "unsequenced" : "unreliable";
}
}  // namespace

TEST_CASE("a stored packet shows the header the simulator sent") {
  const SampleCapture& s = sampleCapture();
  StoreReader reader(s.db);
  int64_t outageConn = 0;
  for (const ConnectionSummary& c : reader.connections())
    if (c.client == s.outageConnection()["client"]) outageConn = c.id;
  REQUIRE(outageConn != 0);

  // DATA, a pure ACK, PING and PONG, both directions; DATA with acks.
  for (auto [dir, type] : {std::pair{Direction::ClientToServer, 0},
                           {Direction::ServerToClient, 0},
                           {Direction::ServerToClient, 1},
                           {Direction::ClientToServer, 5},
                           {Direction::ServerToClient, 6},
                           {Direction::ClientToServer, 2},
                           {Direction::ServerToClient, 3}}) {
    const nlohmann::json& t = firstOfType(dir, type);
    INFO("type " << type << " frame " << t["frame"]);
    const std::optional<PacketRecord> p = reader.packet(t["frame"].get<uint64_t>());
    REQUIRE(p);
    Shown shown;
    shown.model.setPacket(p, s.capture);
    CHECK(shown.text("Frame") == QString::number(t["frame"].get<uint64_t>()));
    CHECK(std::abs(shown.raw("Time (s)").toDouble() - s.relativeSeconds(t["capture_ns"])) <=
          1e-6);  // µs pcap
    CHECK(shown.text("Connection") == QString::number(outageConn));
    CHECK(shown.text("Direction") ==
          (dir == Direction::ClientToServer ? "client → server" : "server → client"));
    CHECK(shown.raw("Length (bytes)").toUInt() == 14 + 20 + 8 + 32 + t["length"].get<uint32_t>());
    CHECK(shown.text("Status") == "ok");
    CHECK(shown.text("Kind") == QString::number(type));
    CHECK(shown.text("Role") == expectedRole(type));
    CHECK(shown.text("Reliability") == expectedReliability(t["flags"]));
    if (type != 1)  // a pure ACK's seq is not a number of its own; the store may leave it out
      CHECK(shown.text("Seq") == QString::number(t["seq"].get<uint32_t>()));
    CHECK(shown.text("Ts") == QString::number(t["ts"].get<uint32_t>()));
    CHECK(shown.text("Channel") == QString::number(t["channel"].get<uint32_t>()));
    CHECK(shown.text("Payload length") == QString::number(t["length"].get<uint32_t>()));
    CHECK(shown.text("Flags") == "<absent>");  // TCP only
    if (t.contains("ack")) {
      const auto& a = t["ack"];
      CHECK(shown.text("Ack") == QString::number(a["ack"].get<uint32_t>()));
      CHECK(shown.raw("Ack bits").toLongLong() == a["ack_bits"].get<int64_t>());
      CHECK(shown.text("Ack bits")
                .startsWith(
                    QStringLiteral("0x%1 (…").arg(a["ack_bits"].get<uint32_t>(), 8, 16, QLatin1Char('0'))));
      CHECK(shown.text("Ts echo") == QString::number(a["ts_echo"].get<uint32_t>()));
    } else {
      CHECK(shown.text("Ack") == "<absent>");
      CHECK(shown.text("Ack bits") == "<absent>");
    }
  }
}

TEST_CASE("no packet: no rows") {
  Shown shown;
  shown.model.setPacket(std::nullopt, {});
  CHECK(shown.model.rowCount() == 0);
}

TEST_CASE("ack bits read as hex and bits up to the highest set one") {
  PacketRecord p;
  p.frame = 7;
  p.ack = 100;
  p.ack_bits = 0xb;
  p.flags = 0x12;
  p.status = 2 | 4;
  CaptureInfo c;
  Shown shown;
  shown.model.setPacket(p, c);
  CHECK(shown.text("Ack bits") == "0x0000000b (…1011)");
  CHECK(shown.text("Flags") == "0x12 (SYN, ACK)");
  CHECK(shown.text("Status") == "malformed, dissector error");
  CHECK(shown.text("Seq") == "<absent>");
}
