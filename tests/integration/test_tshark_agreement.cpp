// `rudpscope-cli decode` must print exactly what tshark prints with the same
// dissector files, for every test capture.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "packets/field_printer.h"
#include "process.h"
#include "tshark_compare.h"

using namespace rudp;
using namespace rudp::test;
namespace fs = std::filesystem;

namespace {
// The fields the issue names; allDecodeFields() holds them and more.
const std::vector<std::string> kBaseFields = {
    "frame.number", "frame.time_epoch", "ip.src",      "ip.dst",      "ipv6.src", "ipv6.dst",
    "udp.srcport",  "udp.dstport",      "tcp.srcport", "tcp.dstport", "tcp.seq"};

std::vector<std::string> allFields() {
  auto fields = allDecodeFields();
  for (const auto& b : kBaseFields) REQUIRE(std::find(fields.begin(), fields.end(), b) != fields.end());
  return fields;
}
}  // namespace

TEST_CASE("decode agrees with tshark on every committed test capture") {
  auto fields = allFields();
  REQUIRE(fields.size() > FieldPrinter::builtinFields().size() + 15);
  std::vector<std::string> caps;
  for (const auto& e : fs::directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "data" / "link")) {
    auto ext = e.path().extension();
    if (ext == ".pcap" || ext == ".pcapng") caps.push_back(e.path().string());
  }
  caps.push_back((fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap").string());
  std::sort(caps.begin(), caps.end());
  REQUIRE(caps.size() >= 12);
  for (const auto& c : caps) {
    if (c.find("trunc") != std::string::npos) continue;  // tshark exits non-zero on a cut file
    SECTION(fs::path(c).filename().string()) { compareWithTshark(c, fields); }
  }
}

TEST_CASE("decode agrees with tshark on simulated traffic from every vantage") {
  auto fields = allFields();
  TempDir dir("agree");
  const std::vector<std::vector<std::string>> variants = {
      {"--vantage", "client", "--loss", "0.05", "--burst", "3"},
      {"--vantage", "server", "--loss", "0.1", "--reorder", "0.05", "--jitter-ms", "15"},
      {"--vantage", "middle", "--seq-start", "4294967200", "--nsec"},
      {"--link", "raw", "--loss", "0.02"},
  };
  int i = 0;
  for (const auto& v : variants) {
    std::string cap = dir / ("sim" + std::to_string(i++) + ".pcap");
    std::vector<std::string> argv = {GRUDP_SIM,    "--out", cap,      "--connections",       "3",
                                     "--duration", "3",     "--seed", std::to_string(40 + i)};
    argv.insert(argv.end(), v.begin(), v.end());
    REQUIRE(run(argv).status == 0);
    compareWithTshark(cap, fields);
  }
}

// tshark's one pass counts frame.time_delta_displayed from the last frame the
// filter passed (0 until one has), and frame.time_delta from the frame before,
// passed or not.
TEST_CASE("decode -Y prints the frame time deltas tshark prints for the frames it selects") {
  const std::vector<std::string> fields = {"frame.number", "frame.time_relative", "frame.time_delta",
                                           "frame.time_delta_displayed"};
  const std::string sample = (fs::path(RUDPSCOPE_SOURCE_DIR) / "resources" / "sample.pcap").string();
  CHECK(compareWithTshark(sample, fields, {}, "grudp.type == 1") == 156);
  CHECK(compareWithTshark(sample, fields, {}, "frame.number > 1000 && grudp.flags.reliable") == 4311);
  CHECK(compareWithTshark(sample, fields, {}, "frame.time_delta_displayed >= 0.05 || frame.number == 1") ==
        379);
  // Each library lab capture's frames whose UDP length field exceeds 100,
  // counted from the files' bytes (Ethernet, IPv4 or IPv6, the UDP header)
  // by a reader of their own when the captures were committed.
  const std::map<std::string, size_t> kLongDatagrams = {
      {"enet_loss5/client.pcap", 413},
      {"enet_loss5/server.pcap", 414},
      {"kcp_fec_loss5/client.pcap", 413},
      {"kcp_fec_loss5/server.pcap", 408},
      {"kcp_lab_loss20_delay50/client.pcapng", 564},
      {"kcp_loss5/client.pcap", 471},
      {"kcp_loss5/server.pcap", 473},
      {"kcptun_crc_loss20/client.pcap", 586},
      {"kcptun_crc_loss20/server.pcap", 580},
      {"kcptun_crc_loss5/client.pcap", 334},
      {"kcptun_crc_loss5/server.pcap", 328},
      {"kcptun_crcfec_loss5/client.pcap", 524},
      {"kcptun_crcfec_loss5/server.pcap", 516},
      {"aioquic_frames/client.pcap", 127},
      {"aioquic_loss5/client.pcap", 191},
      {"quic_loss0/client.pcap", 182},
      {"quic_loss0/server.pcap", 182},
      {"quic_loss5/client.pcap", 361},
      {"quic_loss5/server.pcap", 374},
      {"raknet_lab_loss5_delay40/client.pcapng", 328},
      {"raknet_lab_outage/client.pcapng", 299},
      {"raknet_loss5/client.pcap", 218},
      {"raknet_loss5/server.pcap", 231},
      {"udt_lab_loss5_delay40/client.pcapng", 307},
      {"udt_loss5/client.pcap", 188},
      {"udt_loss5/server.pcap", 199},
  };
  const std::string labData = (fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "kcp_enet" / "data").string() + "/";
  size_t checked = 0;
  for (const std::string& cap : committedCaptures()) {
    if (cap.rfind(labData, 0) != 0) continue;
    INFO(cap);
    const auto expected = kLongDatagrams.find(cap.substr(labData.size()));
    REQUIRE(expected != kLongDatagrams.end());
    CHECK(compareWithTshark(cap, fields, {}, "udp.length > 100") == expected->second);
    ++checked;
  }
  CHECK(checked == kLongDatagrams.size());
}
