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
      {"version = 3", "'version' must be 1 or 2"},
      {"version = 1.5", "'version' must be 1 or 2"},
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

TEST_CASE("a version 2 contract's mistakes are load errors that say what is valid", "[lua][contract]") {
  const std::string good_acks = "acks = { first = \"tv2.num\" }, ";
  const std::string good_msg = "message = { segment = \"tv2.msg\", id = { field = \"tv2.num2\" } }";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"packet = { number = \"tv2.num\" }, " + good_acks, "'message' is required in version 2"},
      {"packet = { number = \"tv2.name\" }, " + good_acks + good_msg,
       "'packet.number' must be an integer field (ProtoField.uint8 .. uint64, int8 .. int64), not "
       "'tv2.name'"},
      {"packet = { number = \"tv2.num\" }, acks = { style = \"bitmap\", first = \"tv2.num2\" }, " + good_msg,
       "unknown acks.style 'bitmap' (valid: ranges)"},
      {"packet = { number = \"tv2.num2\" }, " + good_acks + good_msg,
       "'packet.number' is read once per datagram and 'message.id' once per record or message: they cannot "
       "name the same field"},
      {"packet = { number = \"tv2.num\" }, " + good_acks +
           "message = { segment = \"tv2.msg\", id = { field = \"tv2.num2\" }, class = { field = "
           "\"tv2.num2\", "
           "values = { [0] = \"semi-reliable\" } } }",
       "unknown message class 'semi-reliable' (valid: unreliable, unreliable sequenced, reliable, reliable "
       "ordered, reliable sequenced)"},
      {"packet = { number = \"tv2.num\" }, " + good_acks +
           "message = { segment = \"tv2.msg\", id = { field = \"tv2.num2\" }, sequence = 1 }",
       "unknown key 'sequence' in message"},
      {"packet = { number = \"tv2.num\" }, seq = \"tv2.num\", " + good_acks + good_msg,
       "unknown key 'seq' in a version 2 contract"},
  };
  for (const auto& [entry, message] : cases) {
    INFO(entry);
    const std::string path = std::filesystem::temp_directory_path() / "rudpscope_badv2.lua";
    {
      std::ofstream f(path);
      f << "--[==[ rudpscope.contract\nreturn { version = 2, proto = \"tv2\", " << entry << " }\n]==]\n"
        << "local p = Proto(\"tv2\", \"Version 2 test\")\n"
        << "local num = ProtoField.uint24(\"tv2.num\", \"Number\")\n"
        << "local num2 = ProtoField.uint24(\"tv2.num2\", \"Number 2\")\n"
        << "local name = ProtoField.string(\"tv2.name\", \"Name\")\n"
        << "local msg = ProtoField.none(\"tv2.msg\", \"Message\")\n"
        << "p.fields = { num, num2, name, msg }\n"
        << "function p.dissector(tvb, pinfo, tree) tree:add(num, tvb(0, 3)) end\n";
    }
    LuaHost h;
    try {
      h.loadScript(path);
      FAIL("no error");
    } catch (const DissectorError& e) { CHECK(std::string(e.what()).find(message) != std::string::npos); }
    std::filesystem::remove(path);
  }
}

TEST_CASE("a version 1 contract refuses a string field as seq", "[lua][contract]") {
  const std::string path = std::filesystem::temp_directory_path() / "rudpscope_strseq.lua";
  {
    std::ofstream f(path);
    f << "--[==[ rudpscope.contract\nreturn { proto = \"tstr\", seq = \"tstr.name\" }\n]==]\n"
      << "local p = Proto(\"tstr\", \"String seq test\")\n"
      << "local name = ProtoField.string(\"tstr.name\", \"Name\")\n"
      << "p.fields = { name }\n"
      << "function p.dissector(tvb, pinfo, tree) tree:add(name, tvb(0, 3)) end\n";
  }
  LuaHost h;
  CHECK_THROWS_WITH(h.loadScript(path), Catch::Contains("'seq' must be an integer field (ProtoField.uint8 .. "
                                                        "uint64, int8 .. int64), not 'tstr.name'"));
  std::filesystem::remove(path);
}
