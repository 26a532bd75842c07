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
