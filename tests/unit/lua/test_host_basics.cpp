// Value semantics of the Lua host: masks, shifts, signs, strings, columns, order.
#include <catch2/catch.hpp>

#include "test_support.h"

using namespace rudp;
using namespace rudp::test;

namespace {
const std::vector<uint8_t> kBasics = {0xa5, 0x5a, 0x0b, 0xfe, 0xff, 0x01, 0x02, 0x03, 0x04, 0x11,
                                      0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x41, 0x42};
}

TEST_CASE("masks, shifts, signs and explicit values", "[lua]") {
  LuaHost h;
  h.loadScript(dataPath("basics.lua"));
  h.finishLoading();
  DissectResult r;
  auto pkt = udpPacket(kBasics, 40000, 5000, 7);
  h.dissectUdp(pkt, true, r);
  REQUIRE_FALSE(r.lua_error);
  REQUIRE(r.proto == 0);
  CHECK(fieldText(h, r, "tbasic.nib_hi") == "10,10,0");
  CHECK(fieldText(h, r, "tbasic.nib_lo") == "0x05");
  CHECK(fieldText(h, r, "tbasic.mid") == "0x0055");
  CHECK(fieldText(h, r, "tbasic.flag") == "1,0,1");
  CHECK(fieldText(h, r, "tbasic.plain_bool") == "1");
  CHECK(fieldText(h, r, "tbasic.s4") == "-6,5");
  CHECK(fieldText(h, r, "tbasic.s8") == "-2");
  CHECK(fieldText(h, r, "tbasic.s16le") == "-2");
  CHECK(fieldText(h, r, "tbasic.u32le") == "67305985");
  CHECK(fieldText(h, r, "tbasic.u64") == "0x1122334455667788");
  CHECK(fieldText(h, r, "tbasic.str") == "AB");
  CHECK(fieldText(h, r, "tbasic.raw") == "a5:5a:0b");
  CHECK(fieldText(h, r, "tbasic.marker") == "1");
  CHECK(fieldText(h, r, "tbasic.fnum") == "7");
  CHECK(fieldText(h, r, "tbasic.newf") == "258");
  CHECK(fieldText(h, r, "tbasic") == "basics");
  CHECK(r.protocol_col == "TBASIC");
  CHECK(r.info_col == "[n=165 le=67305985");
  CHECK_FALSE(r.malformed);

  // Raw values: masked and shifted, signed as two's complement.
  const int s4 = h.fieldByAbbrev("tbasic.s4");
  std::vector<uint64_t> got;
  for (const auto& v : r.values)
    if (v.field == s4) got.push_back(v.u);
  CHECK(got == std::vector<uint64_t>{static_cast<uint64_t>(-6), 5});
}

TEST_CASE("columns are only built when asked for", "[lua]") {
  LuaHost h;
  h.loadScript(dataPath("basics.lua"));
  h.finishLoading();
  DissectResult r;
  auto pkt = udpPacket(kBasics, 40000, 5000);
  h.dissectUdp(pkt, false, r);
  CHECK(r.protocol_col.empty());
  CHECK(r.info_col.empty());
  CHECK(fieldText(h, r, "tbasic.nib_hi") == "10,10,0");
}

TEST_CASE("UDP columns stay when the dissector sets none", "[lua]") {
  LuaHost h;
  h.loadScript(dataPath("raise.lua"));
  h.finishLoading();
  DissectResult r;
  std::vector<uint8_t> payload = {0x01, 0x02};
  auto pkt = udpPacket(payload, 40000, 5001);
  h.dissectUdp(pkt, true, r);
  CHECK(r.protocol_col == "UDP");
  CHECK(r.info_col == "40000 \xE2\x86\x92 5001 Len=2");
}

TEST_CASE("values come out in tree order", "[lua]") {
  LuaHost h;
  h.loadScript(dataPath("order.lua"));
  h.finishLoading();
  DissectResult r;
  std::vector<uint8_t> payload = {0x01, 0x02};
  auto pkt = udpPacket(payload, 40000, 5004);
  h.dissectUdp(pkt, false, r);
  std::vector<std::string> seq;
  for (const auto& v : r.values) seq.push_back(h.fields()[v.field].abbrev + "=" + h.formatValue(v, r));
  CHECK(seq ==
        std::vector<std::string>{"torder=torder", "torder.a=1", "torder.b=1", "torder=torder", "torder.a=2"});
}

TEST_CASE("a dissector returning 0 falls through to the heuristics, keeping its items", "[lua]") {
  LuaHost h;
  h.loadScript(dataPath("notmine.lua"));
  h.finishLoading();
  DissectResult r;
  std::vector<uint8_t> hi = {'H', 'I', '!'};
  auto pkt = udpPacket(hi, 40000, 6000);
  h.dissectUdp(pkt, false, r);
  CHECK(r.proto == 0);
  CHECK(fieldText(h, r, "tnotmine.seen") == "72");
  CHECK(fieldText(h, r, "tnotmine.heur") == "HI");

  std::vector<uint8_t> other = {'N', 'O'};
  auto pkt2 = udpPacket(other, 40000, 6000);
  h.dissectUdp(pkt2, false, r);
  CHECK(r.proto == -1);
  CHECK(fieldText(h, r, "tnotmine.seen") == "78");
}
