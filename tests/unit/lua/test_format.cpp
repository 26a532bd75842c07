// formatValue: exact expectations (checked against tshark 4.0.17) and a live
// comparison with tshark on a capture written here.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "capture_files.h"
#include "process.h"
#include "test_support.h"

using namespace rudp;
using namespace rudp::test;

namespace {

const std::vector<uint8_t> kFmt = {0x0a, 0x0b, 0xfe, 0xff, 0x80, 0x01, 0x02, 0x03, 0x41,
                                   0x09, 0x01, 0xff, 0x00, 0x42, 0x43, 0x44, 0xa5, 0x5a,
                                   0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};

// What tshark 4.0.17 printed for data/fmt.lua on kFmt (fields joined by ',').
const std::map<std::string, std::string> kExpected = {
    {"tfmt.u8d", "10"},
    {"tfmt.u8h", "0x0a"},
    {"tfmt.u8o", "10"},
    {"tfmt.u8dh", "10"},
    {"tfmt.u8hd", "0x0a"},
    {"tfmt.u16h", "0x0a0b"},
    {"tfmt.u24h", "0x0a0bfe"},
    {"tfmt.u32h", "0x0a0bfeff"},
    {"tfmt.u64h", "0x0a0bfeff80010203"},
    {"tfmt.u64d", "723952538440761859"},
    {"tfmt.u32o", "168558335"},
    {"tfmt.u32dh", "168558335"},
    {"tfmt.u32hd", "0x0a0bfeff"},
    {"tfmt.i8", "-2"},
    {"tfmt.i16", "-257"},
    {"tfmt.i24", "-65664"},
    {"tfmt.i32", "-16809983"},
    {"tfmt.i64", "-72198327197548279"},
    {"tfmt.ch", "'A','\\t','\\001','\\377','\\0','\\v'"},
    {"tfmt.bo", "1,0"},
    {"tfmt.bom", "0,1,0"},
    {"tfmt.by", "0a0bfeff"},
    {"tfmt.byc", "0a:0b:fe:ff"},
    {"tfmt.bys", "0a 0b fe ff"},
    {"tfmt.byd", "0a.0b.fe.ff"},
    {"tfmt.bydash", "0a-0b-fe-ff"},
    {"tfmt.e0", "<MISSING>"},
    {"tfmt.st", "A\\t\x01\xEF\xBF\xBD,CD,a\\b\\nc\\rd\\te"},
    {"tfmt.sbad", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\x01"},
    {"tfmt.no", "1,1"},
    {"tfmt.fn", "42,43"},
    {"tfmt.vs", "10"},
    {"tfmt.m", "10,10,0"},
    {"tfmt.mh", "0x0a"},
    {"tfmt.mh16", "0x0055"},
    {"tfmt.sm", "-6,5"},
    {"tfmt.ip", "10.11.254.255"},
    {"tfmt.dbl", "3.84141202447173e-226"},
    {"tfmt.fl", "1.27953e-28"},
    {"tfmt", "tfmt"},
};

// One Ethernet/IPv4/UDP frame carrying payload, in a pcap (testgen's writer).
void writePcap(const std::string& path, const std::vector<uint8_t>& payload, uint16_t sport, uint16_t dport) {
  const testgen::Ip4 src{10, 0, 0, 1}, dst{10, 0, 0, 2};
  const testgen::Bytes ip = testgen::ipv4(src, dst, 17, testgen::udp(src, dst, sport, dport, payload));
  testgen::PcapBuilder pcap(1, 65535);
  pcap.packet(1'700'000'000'000'000,
              testgen::ethernet({0, 0x11, 0x22, 0x33, 0x44, 0x55}, {0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb}, ip));
  testgen::writeFile(path, pcap.bytes());
}

}  // namespace

TEST_CASE("formatValue prints what tshark -T fields prints", "[lua][format]") {
  LuaHost h;
  h.loadScript(dataPath("fmt.lua"));
  h.finishLoading();
  DissectResult r;
  auto pkt = udpPacket(kFmt, 40000, 7000);
  h.dissectUdp(pkt, false, r);
  REQUIRE_FALSE(r.lua_error);
  for (const auto& [abbrev, text] : kExpected) {
    INFO(abbrev);
    CHECK(fieldText(h, r, abbrev) == text);
  }
}

TEST_CASE("formatValue agrees with the installed tshark", "[lua][format][tshark]") {
  const auto dir = std::filesystem::temp_directory_path() / ("rudp_lua_fmt_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string pcap = (dir / "fmt.pcap").string();
  writePcap(pcap, kFmt, 40000, 7000);
  std::vector<std::string> argv{
      TSHARK_EXECUTABLE, "-r", pcap, "-X", "lua_script:" + dataPath("fmt.lua"), "-T", "fields"};
  std::vector<std::string> names;
  for (const auto& e : kExpected) {
    names.push_back(e.first);
    argv.insert(argv.end(), {"-e", e.first});
  }
  const rudp::test::ProcessResult tshark = rudp::test::run(argv);
  std::filesystem::remove_all(dir);
  INFO(tshark.err);
  REQUIRE(tshark.status == 0);
  const std::string& out = tshark.out;
  std::string line = out.substr(0, out.find('\n'));
  std::vector<std::string> cols;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
  REQUIRE(cols.size() == names.size());

  LuaHost h;
  h.loadScript(dataPath("fmt.lua"));
  h.finishLoading();
  DissectResult r;
  auto pkt = udpPacket(kFmt, 40000, 7000);
  h.dissectUdp(pkt, false, r);
  for (size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(fieldText(h, r, names[i]) == cols[i]);
  }
}

TEST_CASE("ProtoField argument checks match Wireshark", "[lua][format]") {
  // base.NONE on an integer field and a display on an unmasked bool are load errors in 4.0.
  const auto dir = std::filesystem::temp_directory_path() / ("rudp_lua_pf_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto load = [&](const std::string& body) -> std::string {
    const std::string path = (dir / "pf.lua").string();
    std::ofstream(path) << body;
    LuaHost h;
    try {
      h.loadScript(path);
    } catch (const std::exception& e) { return e.what(); }
    return "";
  };
  CHECK(load("local f = ProtoField.uint8('x.a', 'a', base.NONE)\n") ==
        "pf.lua:1: bad argument #3 to 'uint8' (Base must be either base.DEC, base.HEX, base.OCT, "
        "base.DEC_HEX, base.HEX_DEC or base.UNIT_STRING)");
  CHECK(load("local f = ProtoField.int8('x.a', 'a', base.HEX)\n") ==
        "pf.lua:1: bad argument #3 to 'int8' (Base must be either base.DEC or base.UNIT_STRING)");
  CHECK(
      load("local f = ProtoField.bool('x.a', 'a', base.HEX)\n") ==
      "pf.lua:1: bad argument #3 to 'bool' (Fieldbase (fielddisplay) must be base.NONE if bitmask is zero.)");
  CHECK(load("local p = Proto('x', 'x')\nDissectorTable.get('udp.port'):add(1, p)\n") ==
        "pf.lua:2: bad argument #2 to 'add' (DissectorTable_add: a Protocol that does not have a dissector "
        "cannot be added to a table)");
  std::filesystem::remove_all(dir);
}
