// Errors: Lua errors per packet, range and size errors, missing APIs, limits.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "test_support.h"

using namespace rudp;
using namespace rudp::test;

namespace {
struct Loaded {
  LuaHost h;
  explicit Loaded(const char* file) {
    h.loadScript(dataPath(file));
    h.finishLoading();
  }
  DissectResult run(std::vector<uint8_t> payload, uint16_t port) {
    DissectResult r;
    auto pkt = udpPacket(payload, 40000, port);
    h.dissectUdp(pkt, false, r);
    return r;
  }
};
}  // namespace

TEST_CASE("a raising dissector marks only its packet", "[lua]") {
  Loaded l("raise.lua");
  DissectResult r = l.run({0xEE, 1}, 5001);
  CHECK(r.lua_error);
  CHECK(r.error == "raise.lua:8: boom on purpose");
  CHECK(r.proto == 0);                                 // an error consumes the packet, as in Wireshark
  CHECK(fieldText(l.h, r, "traise.first") == "0xee");  // added before the error
  CHECK_FALSE(r.malformed);

  r = l.run({0x01, 2}, 5001);
  CHECK_FALSE(r.lua_error);
  CHECK(r.error.empty());
  CHECK(fieldText(l.h, r, "traise.first") == "0x01");
}

TEST_CASE("range and integer-size errors use Wireshark's messages", "[lua]") {
  Loaded l("raise.lua");
  DissectResult r = l.run({0xEF, 1}, 5001);
  CHECK(r.lua_error);
  CHECK(r.malformed);
  CHECK(r.error == "raise.lua:11: Range is out of bounds");
  r = l.run({0xF0, 1, 2, 3, 4, 5}, 5001);
  CHECK(r.lua_error);
  CHECK(r.error == "raise.lua:14: TvbRange:uint() does not handle 5 byte integers");
}

TEST_CASE("an unimplemented API fails at load time naming it, the file and the line", "[lua]") {
  LuaHost h;
  try {
    h.loadScript(dataPath("missing_load.lua"));
    FAIL("no error");
  } catch (const DissectorError& e) {
    CHECK(std::string(e.what()) ==
          "missing_load.lua:4: 'TcpConversation' is not implemented by rudpscope's Lua host");
  }
}

TEST_CASE("an unimplemented API fails at run time on that packet only", "[lua]") {
  Loaded l("missing_run.lua");
  DissectResult r = l.run({1}, 5002);
  CHECK(r.lua_error);
  CHECK(r.error == "missing_run.lua:8: 'Tvb.foo' is not implemented by rudpscope's Lua host");
  r = l.run({2}, 5002);
  CHECK(r.error == "missing_run.lua:10: 'Listener' is not implemented by rudpscope's Lua host");
  r = l.run({3}, 5002);
  CHECK_FALSE(r.lua_error);
  CHECK(fieldText(l.h, r, "tmissrun.b") == "3");
}

TEST_CASE("the instruction limit stops an endless dissector", "[lua]") {
  Loaded l("loop.lua");
  l.h.setLimits(2'000'000, 256u << 20);
  DissectResult r = l.run({1}, 5003);
  CHECK(r.lua_error);
  CHECK(r.error == "loop.lua: dissector exceeded the instruction limit");
  CHECK(fieldText(l.h, r, "tloop.b") == "1");
  r = l.run({2}, 5003);
  CHECK_FALSE(r.lua_error);
}

TEST_CASE("load errors name the file", "[lua]") {
  LuaHost h;
  CHECK_THROWS_WITH(h.loadScript(dataPath("no_such_file.lua")), Catch::Contains("no_such_file.lua"));
}

TEST_CASE("garbage payloads never crash the GRUDP dissector", "[lua]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  DissectResult r;
  uint32_t x = 12345;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> p(static_cast<size_t>(i % 80));
    for (auto& b : p) {
      x = x * 1103515245 + 12345;
      b = static_cast<uint8_t>(x >> 16);
    }
    if (i % 3 == 0 && p.size() >= 4) {
      p[0] = 0x52;
      p[1] = 0x55;
      p[2] = 0x10;
    }
    auto pkt = udpPacket(p, 40000, 7777);
    h.dissectUdp(pkt, i % 2 == 0, r);
    CHECK_FALSE(r.lua_error);
    if (!p.empty()) CHECK(r.proto == 0);  // an empty payload is "not mine" (0 bytes consumed)
  }
}

TEST_CASE("ProtoField types the host lacks fail at load naming them, not as a call of nil", "[lua]") {
  for (const std::string type : {"ipv6", "guid", "absolute_time", "relative_time", "eui64", "oid"}) {
    INFO(type);
    const std::string path = std::filesystem::temp_directory_path() / "rudpscope_missing_field.lua";
    std::ofstream(path) << "local p = Proto(\"tmissf\", \"Missing field type\")\n"
                        << "local f = ProtoField." << type << "(\"tmissf.x\", \"X\")\n";
    LuaHost h;
    try {
      h.loadScript(path);
      FAIL("no error");
    } catch (const DissectorError& e) {
      CHECK(std::string(e.what()) == "rudpscope_missing_field.lua:2: 'ProtoField." + type +
                                         "' is not implemented by rudpscope's Lua host");
    }
    std::filesystem::remove(path);
  }
}
