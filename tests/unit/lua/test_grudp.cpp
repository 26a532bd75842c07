// dissectors/grudp.lua through the host: fields, malformed input, port preference, heuristic.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "test_support.h"

using namespace rudp;
using namespace rudp::test;

TEST_CASE("grudp decodes every header field", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  GrudpHeader g;
  g.flags = 0x19;
  g.seq = 1201;
  g.ack = 877;
  g.ack_bits = 0xffff0000;
  g.ts = 1000;
  g.ts_echo = 900;
  g.channel = 3;
  auto d = grudp(g, {'h', 'e', 'l', 'l', 'o'});
  DissectResult r;
  auto pkt = udpPacket(d);
  h.dissectUdp(pkt, true, r);
  REQUIRE_FALSE(r.lua_error);
  CHECK(r.proto == 0);
  CHECK(fieldText(h, r, "grudp.magic") == "0x5255");
  CHECK(fieldText(h, r, "grudp.version") == "1");
  CHECK(fieldText(h, r, "grudp.type") == "0");
  CHECK(fieldText(h, r, "grudp.flags") == "0x19");
  CHECK(fieldText(h, r, "grudp.flags.reliable") == "1");
  CHECK(fieldText(h, r, "grudp.flags.unsequenced") == "0");
  CHECK(fieldText(h, r, "grudp.flags.ack") == "1");
  CHECK(fieldText(h, r, "grudp.flags.echo") == "1");
  CHECK(fieldText(h, r, "grudp.conn_id") == "0xdeadbeef");
  CHECK(fieldText(h, r, "grudp.seq") == "1201");
  CHECK(fieldText(h, r, "grudp.ack") == "877");
  CHECK(fieldText(h, r, "grudp.ack_bits") == "0xffff0000");
  CHECK(fieldText(h, r, "grudp.ts") == "1000");
  CHECK(fieldText(h, r, "grudp.ts_echo") == "900");
  CHECK(fieldText(h, r, "grudp.length") == "5");
  CHECK(fieldText(h, r, "grudp.channel") == "3");
  CHECK(fieldText(h, r, "grudp.window") == "32");
  CHECK(fieldText(h, r, "grudp.payload") == "68656c6c6f");
  CHECK(r.protocol_col == "GRUDP");
  CHECK(r.info_col == "DATA seq=1201 ack=877 [R]");
  CHECK_FALSE(r.malformed);
}

TEST_CASE("grudp fragments and info column", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  GrudpHeader g;
  g.flags = 0x05;
  g.seq = 7;
  auto d = grudp(g, {0x00, 0x2a, 0x01, 0x03, 'a'});
  DissectResult r;
  auto pkt = udpPacket(d);
  h.dissectUdp(pkt, true, r);
  CHECK(fieldText(h, r, "grudp.frag.msg_id") == "42");
  CHECK(fieldText(h, r, "grudp.frag.index") == "1");
  CHECK(fieldText(h, r, "grudp.frag.count") == "3");
  CHECK(r.info_col == "DATA seq=7 [RF] frag=2/3");
}

namespace {
// The Info column as the dissector's header comment documents it, built
// here independently of the script.
std::string expectedGrudpInfo(const GrudpHeader& g, int fragIndex, int fragCount) {
  static const char* const names[] = {"DATA", "ACK", "CONNECT", "ACCEPT", "DISCONNECT", "PING", "PONG"};
  std::string info = g.type <= 6 ? names[g.type] : "TYPE" + std::to_string(g.type);
  info += " seq=" + std::to_string(g.seq);
  if (g.flags & 0x08) info += " ack=" + std::to_string(g.ack);
  if (g.flags & 0x07) {
    info += " [";
    if (g.flags & 0x01) info += 'R';
    if (g.flags & 0x02) info += 'U';
    if (g.flags & 0x04) info += 'F';
    info += ']';
  }
  if (fragCount >= 0) info += " frag=" + std::to_string(fragIndex + 1) + "/" + std::to_string(fragCount);
  return info;
}
}  // namespace

TEST_CASE("grudp Info for every type and flag combination and the largest numbers", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  int checked = 0;
  for (uint8_t type : {0, 1, 2, 3, 4, 5, 6, 7, 15}) {
    for (unsigned flags = 0; flags < 0x20; ++flags) {
      for (uint32_t number : {0u, 877u, 4294967295u}) {
        GrudpHeader g;
        g.type = type;
        g.flags = static_cast<uint8_t>(flags);
        g.seq = number;
        g.ack = number ^ 0x5a5a5a5au;
        const uint8_t index = static_cast<uint8_t>(number & 0xff);
        const std::vector<uint8_t> payload =
            (flags & 0x04) ? std::vector<uint8_t>{0, 42, index, 3, 'x'} : std::vector<uint8_t>{'x'};
        DissectResult r;
        const auto datagram = grudp(g, payload);  // the packet points into it
        auto pkt = udpPacket(datagram);
        h.dissectUdp(pkt, true, r);
        REQUIRE_FALSE(r.lua_error);
        INFO("type " << int(type) << " flags " << flags << " seq " << number);
        CHECK(r.info_col == expectedGrudpInfo(g, index, (flags & 0x04) ? 3 : -1));
        ++checked;
      }
    }
  }
  CHECK(checked == 9 * 32 * 3);
}

TEST_CASE("grudp marks malformed datagrams without Lua errors", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  DissectResult r;
  SECTION("short") {
    std::vector<uint8_t> d = {0x52, 0x55, 0x10, 0x01, 0, 0};
    auto pkt = udpPacket(d);
    h.dissectUdp(pkt, true, r);
    CHECK(fieldText(h, r, "grudp.magic") == "0x5255");
    CHECK(fieldText(h, r, "grudp.flags") == "0x01");
    CHECK(fieldText(h, r, "grudp.seq").empty());
    CHECK(r.info_col == "GRUDP malformed: 6 bytes, shorter than the header");
  }
  SECTION("length mismatch") {
    GrudpHeader g;
    g.length = 9;
    auto d = grudp(g, {'x', 'y'});
    auto pkt = udpPacket(d);
    h.dissectUdp(pkt, true, r);
    CHECK(fieldText(h, r, "grudp.payload") == "7879");
    CHECK(r.info_col == "GRUDP malformed: length mismatch");
  }
  SECTION("bad magic, version and reserved flags") {
    GrudpHeader g;
    g.magic = 0x1234;
    g.version = 2;
    g.flags = 0x20;
    auto d = grudp(g);
    auto pkt = udpPacket(d);
    h.dissectUdp(pkt, true, r);
    CHECK(fieldText(h, r, "grudp.version") == "2");
    CHECK(r.info_col == "GRUDP malformed: bad magic");
  }
  CHECK(r.malformed);
  CHECK_FALSE(r.lua_error);
  CHECK(r.proto == 0);
}

TEST_CASE("the grudp.port preference moves the port registration", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.setPreference("grudp.port", "9999");
  h.finishLoading();
  GrudpHeader g;
  g.type = 1;
  g.length = 5;  // not heuristic-valid: only the port table could claim it
  auto d = grudp(g);
  DissectResult r;
  auto on_new = udpPacket(d, 40000, 9999);
  h.dissectUdp(on_new, false, r);
  CHECK(r.proto == 0);
  auto on_old = udpPacket(d, 40000, 7777);
  h.dissectUdp(on_old, false, r);
  CHECK(r.proto == -1);
  CHECK(r.values.empty());
}

TEST_CASE("unknown or invalid preferences are errors", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  SECTION("unknown") {
    h.setPreference("grudp.nope", "1");
    CHECK_THROWS_AS(h.finishLoading(), DissectorError);
  }
  SECTION("invalid") {
    h.setPreference("grudp.port", "seven");
    CHECK_THROWS_AS(h.finishLoading(), DissectorError);
  }
}

TEST_CASE("the grudp heuristic accepts valid headers on any port", "[lua][grudp]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  DissectResult r;
  GrudpHeader g;
  auto good = grudp(g, {1, 2, 3});
  auto pkt = udpPacket(good, 40000, 5555);
  h.dissectUdp(pkt, false, r);
  CHECK(r.proto == 0);
  CHECK(fieldText(h, r, "grudp.length") == "3");

  auto reject = [&](std::vector<uint8_t> d) {
    auto p = udpPacket(d, 40000, 5555);
    h.dissectUdp(p, false, r);
    return r.proto == -1 && r.values.empty();
  };
  GrudpHeader bad = g;
  bad.length = 2;
  CHECK(reject(grudp(bad, {1, 2, 3})));  // length disagrees
  bad = g;
  bad.type = 7;
  CHECK(reject(grudp(bad)));  // reserved type
  bad = g;
  bad.version = 2;
  CHECK(reject(grudp(bad)));  // version
  bad = g;
  bad.flags = 0x40;
  CHECK(reject(grudp(bad)));  // reserved flags
  bad = g;
  bad.magic = 0x5256;
  CHECK(reject(grudp(bad)));          // magic
  CHECK(reject({0x52, 0x55, 0x10}));  // short
}
