// The rudpscope.contract block.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "test_support.h"

using namespace rudp;
using namespace rudp::test;

TEST_CASE("the grudp contract resolves to field ids", "[lua][contract]") {
  LuaHost h;
  h.loadScript(grudpPath());
  h.finishLoading();
  REQUIRE(h.protocols().size() == 1);
  const ProtoInfo& p = h.protocols()[0];
  CHECK(p.name == "grudp");
  CHECK(p.script == "grudp.lua");
  REQUIRE(p.has_contract);
  const Contract& c = p.contract;
  CHECK(c.version == 1);
  CHECK(c.proto == "grudp");
  CHECK(c.proto_index == 0);
  CHECK(c.segment == -1);
  CHECK(c.conn_id == h.fieldByAbbrev("grudp.conn_id"));
  CHECK(c.kind == h.fieldByAbbrev("grudp.type"));
  REQUIRE(c.kinds.size() == 7);
  CHECK(c.kinds.at(0).role == SegmentRole::Data);
  CHECK(c.kinds.at(0).consumes_seq);
  CHECK(c.kinds.at(1).role == SegmentRole::Ack);
  CHECK_FALSE(c.kinds.at(1).consumes_seq);
  CHECK(c.kinds.at(2).role == SegmentRole::Connect);
  CHECK(c.kinds.at(3).role == SegmentRole::Accept);
  CHECK(c.kinds.at(4).role == SegmentRole::Disconnect);
  CHECK(c.kinds.at(5).role == SegmentRole::Ping);
  CHECK(c.kinds.at(6).role == SegmentRole::Pong);
  CHECK(c.seq == h.fieldByAbbrev("grudp.seq"));
  CHECK(c.seq_bits == 32);
  CHECK(c.reliable == h.fieldByAbbrev("grudp.flags.reliable"));
  CHECK(c.unsequenced == h.fieldByAbbrev("grudp.flags.unsequenced"));
  CHECK(c.ack_style == AckStyle::HighestBitmap);
  CHECK(c.ack == h.fieldByAbbrev("grudp.ack"));
  CHECK(c.ack_bitmap == h.fieldByAbbrev("grudp.ack_bits"));
  CHECK(c.ack_valid == h.fieldByAbbrev("grudp.flags.ack"));
  CHECK(c.una == -1);
  CHECK(c.ts == h.fieldByAbbrev("grudp.ts"));
  CHECK(c.ts_echo == h.fieldByAbbrev("grudp.ts_echo"));
  CHECK(c.ts_echo_valid == h.fieldByAbbrev("grudp.flags.echo"));
  CHECK(c.ts_unit_ms == 1.0);
  CHECK(c.channel == h.fieldByAbbrev("grudp.channel"));
  CHECK(c.length == h.fieldByAbbrev("grudp.length"));
  CHECK(c.window == h.fieldByAbbrev("grudp.window"));
  CHECK(h.fieldByAbbrev("grudp") >= 0);  // the protocol item itself
  CHECK(h.fieldByAbbrev("grudp.nope") == -1);
}

TEST_CASE("a contract naming an unknown field is an error naming the file", "[lua][contract]") {
  LuaHost h;
  try {
    h.loadScript(dataPath("bad_contract.lua"));
    FAIL("no error");
  } catch (const DissectorError& e) {
    CHECK(std::string(e.what()) ==
          "bad_contract.lua: rudpscope.contract: unknown field 'tbadc.sequence' for 'seq'");
  }
}

TEST_CASE("contract numbers out of range are errors, not undefined behaviour", "[lua][contract]") {
  // Written to a temporary file: each case is one contract block.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"seq = { field = \"tbadn.seq\", bits = 1e300 }", "'seq.bits' must be a whole number from 8 to 32"},
      {"seq = { field = \"tbadn.seq\", bits = 16.5 }", "'seq.bits' must be a whole number from 8 to 32"},
      {"ts = { field = \"tbadn.seq\", bits = -1 }", "'ts.bits' must be a whole number from 8 to 32"},
      {"ts = { field = \"tbadn.seq\", unit_ms = 0 }", "'ts.unit_ms' must be above 0 and at most 1e6"},
      {"version = 2", "'version' must be a whole number from 1 to 1"},
      {"retx = { fast_acks = 1.5 }", "'retx.fast_acks' must be a whole number from 0 to 255"},
      {"retx = { fast_acks = 256 }", "'retx.fast_acks' must be a whole number from 0 to 255"},
  };
  for (const auto& [entry, message] : cases) {
    INFO(entry);
    const std::string path = std::filesystem::temp_directory_path() / "rudpscope_badnum.lua";
    {
      std::ofstream f(path);
      f << "--[==[ rudpscope.contract\nreturn { proto = \"tbadn\", " << entry << " }\n]==]\n"
        << "local p = Proto(\"tbadn\", \"Bad number test\")\n"
        << "local seq = ProtoField.uint32(\"tbadn.seq\", \"Seq\")\n"
        << "p.fields = { seq }\n"
        << "function p.dissector(tvb, pinfo, tree) tree:add(seq, tvb(0, 4)) end\n";
    }
    LuaHost h;
    try {
      h.loadScript(path);
      FAIL("no error");
    } catch (const DissectorError& e) { CHECK(std::string(e.what()).find(message) != std::string::npos); }
    std::filesystem::remove(path);
  }
}
