// raknet.lua (protocol raknet4) against Wireshark's built-in RakNet
// dissector, field for field, on captures of the real RakNet 4 library
// (lab.sh --proto raknet); and the ENet heuristic leaving another
// protocol's flow alone.
#include "capture_files.h"
#include "kcp_enet_checks.h"
#include "tshark_compare.h"

using namespace kcpenet;
namespace tg = rudp::testgen;

namespace {

// Every field of Wireshark 4.0's raknet dissector except the expert items,
// the FT_NONE subtree markers and the reassembly ones (raknet.lua shows split
// messages fragment by fragment).
const std::vector<std::string> kFields = {"offline.message.id",
                                          "client.guid",
                                          "timestamp",
                                          "offline_message.data_id",
                                          "MTU",
                                          "proto_ver",
                                          "server_id",
                                          "ip.version",
                                          "ip.v4_address",
                                          "ip.v6_address",
                                          "port",
                                          "use_encryption",
                                          "server.public_key",
                                          "cookie",
                                          "client.wrote_challenge",
                                          "client.challenge",
                                          "client.address",
                                          "server.address",
                                          "server.answer",
                                          "server_id_str_len",
                                          "server_id_str",
                                          "packet.type",
                                          "packet.is_for_connected",
                                          "packet.is_ACK",
                                          "packet.has_B_and_AS",
                                          "packet.is_NAK",
                                          "packet.is_pair",
                                          "packet.is_continuous_send",
                                          "packet.needs_B_and_AS",
                                          "AS",
                                          "NACK.record_count",
                                          "range.packet_number",
                                          "range.max_equals_to_min",
                                          "range.packet_number.min",
                                          "range.packet_number.max",
                                          "packet_number",
                                          "message.flags",
                                          "message.reliability",
                                          "message.has_split_packet",
                                          "payload.length",
                                          "reliable.number",
                                          "sequencing.index",
                                          "ordering.index",
                                          "ordering.channel",
                                          "split.count",
                                          "split.id",
                                          "split.index",
                                          "system.message.id",
                                          "client.proof",
                                          "use_client_key",
                                          "client.identity",
                                          "password",
                                          "system.index",
                                          "internal.address"};

std::vector<std::string> linesOf(std::vector<std::string> argv, const std::string& prefix) {
  for (const auto& f : kFields) argv.insert(argv.end(), {"-e", prefix + f});
  const auto r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out);
}

size_t count(const std::vector<std::string>& lines, size_t column, const std::string& value) {
  size_t n = 0;
  for (const auto& l : lines) n += split(l, '\t').at(column) == value;
  return n;
}

size_t column(const std::string& field) {
  return size_t(std::find(kFields.begin(), kFields.end(), field) - kFields.begin());
}

}  // namespace

TEST_CASE("raknet4 decodes every field as Wireshark's built-in raknet does, on the RakNet 4 lab captures",
          "[raknet]") {
  for (const char* side : {"client", "server"}) {
    SECTION(side) {
      const std::string cap = dataDir("raknet_loss5") + "/" + side + ".pcap";
      const auto builtin = linesOf({TSHARK_EXECUTABLE, "-n", "-r", cap, "-T", "fields"}, "raknet.");
      const auto ours = linesOf({RUDPSCOPE_CLI, "decode", cap}, "raknet4.");
      REQUIRE(builtin.size() == 1022);
      REQUIRE(ours.size() == builtin.size());
      size_t mismatches = 0;
      for (size_t i = 0; i < builtin.size(); ++i) {
        if (ours[i] == builtin[i]) continue;
        if (++mismatches <= 5) {
          INFO("frame " << i + 1 << "\n built-in: " << builtin[i] << "\n raknet4:  " << ours[i]);
          CHECK(ours[i] == builtin[i]);
        }
      }
      CHECK(mismatches == 0);
      // What the run holds (the built-in dissector's counts): the offline
      // handshake, 23 NAKs, and a Connection Request the router dropped
      // once: the client sent it twice, the server got one.
      CHECK(count(builtin, column("packet.is_NAK"), "1") == 23);
      CHECK(count(builtin, column("offline.message.id"), "0x05") == 1);
      CHECK(count(builtin, column("system.message.id"), "0x09") == (std::string(side) == "client" ? 2u : 1u));
    }
  }
}

TEST_CASE("the ENet heuristic does not take one datagram of a flow another protocol's datagrams dominate",
          "[raknet]") {
  rudp::test::TempDir dir("enet-heur");
  const tg::Ip4 a = {10, 0, 0, 1}, b = {10, 0, 0, 2};
  auto frame = [&](uint16_t sport, uint16_t dport, const tg::Bytes& payload) {
    return tg::ethernet(tg::Mac{2, 0, 0, 0, 0, 2}, tg::Mac{2, 0, 0, 0, 0, 1},
                        tg::ipv4(a, b, 17, tg::udp(a, b, sport, dport, payload)));
  };
  // Another protocol's datagrams that no dissector claims (as RakNet's were
  // before raknet.lua: the ENet heuristic then took a RakNet flow from one
  // NAK that happened to parse), and an ENet PING with a sent time that
  // parses completely as ENet.
  auto other = [](uint8_t n) { return tg::Bytes{0x17, 0x03, 0x03, 0x00, 0x02, n, 0x5a}; };
  const tg::Bytes enetPing = {0x80, 0x00, 0x12, 0x34, 0x85, 0xff, 0x00, 0x01};
  tg::PcapBuilder pcap(1);
  int64_t t = 1'000'000;
  for (uint8_t n = 0; n < 5; ++n) pcap.packet(t += 1000, frame(40000, 19132, other(n)));
  pcap.packet(t += 1000, frame(40000, 19132, enetPing));  // frame 6: in the other flow
  pcap.packet(t += 1000, frame(40001, 17091, other(9)));  // frame 7: one stray datagram
  pcap.packet(t += 1000, frame(40001, 17091, enetPing));  // frame 8: ENet's own flow
  const std::string cap = dir / "mixed.pcap";
  tg::writeFile(cap, pcap.bytes());

  const std::vector<std::string> fields = {"-e", "frame.number", "-e", "enet.cmd", "-e", "udp.length"};
  std::vector<std::string> ours = {RUDPSCOPE_CLI, "decode", cap};
  ours.insert(ours.end(), fields.begin(), fields.end());
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", cap, "-T", "fields"};
  for (const auto& arg : rudp::test::tsharkDissectorArgs()) ts.push_back(arg);
  ts.insert(ts.end(), fields.begin(), fields.end());
  const auto r = run(ours);
  const auto t2 = run(ts);
  REQUIRE(r.status == 0);
  REQUIRE(t2.status == 0);
  const std::vector<std::string> expected = {"1\t\t15", "2\t\t15", "3\t\t15", "4\t\t15",
                                             "5\t\t15", "6\t\t16", "7\t\t15", "8\t5\t16"};
  CHECK(splitLines(r.out) == expected);
  CHECK(splitLines(t2.out) == expected);
}
