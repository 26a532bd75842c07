// rudpscope-cli decode prints exactly what tshark prints, with every shipped
// dissector loaded, on the committed KCP and ENet lab captures: every field
// of every dissector, through the heuristics and through the port
// preferences (kcp.ports / enet.ports).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "capture/capture_reader.h"
#include "tshark_compare.h"

using namespace rudp::test;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> captures() {
  std::vector<std::string> caps;
  for (const auto& e :
       fs::recursive_directory_iterator(fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "kcp_enet" / "data"))
    if (e.path().extension() == ".pcap" || e.path().extension() == ".pcapng")
      caps.push_back(e.path().string());
  std::sort(caps.begin(), caps.end());
  return caps;
}

// The capture's records, as the capture reader counts them.
size_t records(const std::string& capture) {
  auto reader = rudp::CaptureReader::open(capture);
  size_t n = 0;
  for (rudp::RawPacket raw; reader->next(raw);) ++n;
  return n;
}
}  // namespace

TEST_CASE("decode agrees with tshark on the KCP and ENet lab captures") {
  const auto fields = allDecodeFields();
  // Both new dissectors are among the shipped ones.
  REQUIRE(std::find(fields.begin(), fields.end(), "kcp.conv") != fields.end());
  REQUIRE(std::find(fields.begin(), fields.end(), "enet.data.seq") != fields.end());
  const auto caps = captures();
  REQUIRE(caps.size() >= 4);
  for (const auto& c : caps) {
    SECTION(fs::path(c).parent_path().filename().string() + "/" + fs::path(c).filename().string()) {
      const size_t frames = records(c);  // every frame compared
      SECTION("heuristics") { CHECK(compareWithTshark(c, fields, {}) == frames); }
      SECTION("port preferences") {
        CHECK(compareWithTshark(c, fields, {"kcp.ports:29900-29901,40124", "enet.ports:17091,40123"}) ==
              frames);
      }
    }
  }
}
