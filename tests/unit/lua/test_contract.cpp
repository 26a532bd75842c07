// The rudpscope.contract block.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
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

namespace {

// Loads a dissector whose contract block is `return { CONTRACT }` and whose
// fields are `FIELDS` (Lua declaring the ProtoFields named in `p.fields`), and
// returns the load error, or "no error".
std::string contractLoadError(const std::string& contract, const std::string& fields) {
  // One file per process: ctest runs the test cases in parallel.
  const std::string path = std::filesystem::temp_directory_path() /
                           ("rudpscope_contract_case_" + std::to_string(::getpid()) + ".lua");
  {
    std::ofstream f(path);
    f << "--[==[ rudpscope.contract\nreturn { " << contract << " }\n]==]\n"
      << "local p = Proto(\"tc\", \"Contract test\")\n"
      << fields << "\n"
      << "function p.dissector(tvb, pinfo, tree) end\n";
  }
  std::string error = "no error";
  try {
    LuaHost h;
    h.loadScript(path);
  } catch (const DissectorError& e) { error = e.what(); }
  std::filesystem::remove(path);
  return error;
}

const std::string kV1Fields =
    "local seq = ProtoField.uint32(\"tc.seq\", \"Seq\")\n"
    "local kind = ProtoField.uint8(\"tc.kind\", \"Kind\")\n"
    "local name = ProtoField.string(\"tc.name\", \"Name\")\n"
    "p.fields = { seq, kind, name }";

}  // namespace

TEST_CASE("contract numbers out of range are errors, not undefined behaviour", "[lua][contract]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"seq = { field = \"tc.seq\", bits = 1e300 }", "'seq.bits' must be a whole number from 8 to 32"},
      {"seq = { field = \"tc.seq\", bits = 16.5 }", "'seq.bits' must be a whole number from 8 to 32"},
      {"ts = { field = \"tc.seq\", bits = -1 }", "'ts.bits' must be a whole number from 8 to 32"},
      {"ts = { field = \"tc.seq\", unit_ms = 0 }", "'ts.unit_ms' must be above 0 and at most 1e6"},
      {"version = 3", "'version' must be 1 or 2"},
      {"version = 1.5", "'version' must be 1 or 2"},
      {"retx = { fast_acks = 1.5 }", "'retx.fast_acks' must be a whole number from 0 to 255"},
      {"retx = { fast_acks = 256 }", "'retx.fast_acks' must be a whole number from 0 to 255"},
  };
  for (const auto& [entry, message] : cases) {
    INFO(entry);
    CHECK_THAT(contractLoadError("proto = \"tc\", " + entry, kV1Fields), Catch::Contains(message));
  }
}

TEST_CASE("a version 2 contract's mistakes are load errors that say what is valid", "[lua][contract]") {
  const std::string fields =
      "local num = ProtoField.uint24(\"tc.num\", \"Number\")\n"
      "local num2 = ProtoField.uint24(\"tc.num2\", \"Number 2\")\n"
      "local name = ProtoField.string(\"tc.name\", \"Name\")\n"
      "local msg = ProtoField.none(\"tc.msg\", \"Message\")\n"
      "p.fields = { num, num2, name, msg }";
  const std::string good_acks = "acks = { first = \"tc.num\" }, ";
  const std::string good_msg = "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" } }";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"packet = { number = \"tc.num\" }, " + good_acks, "'message' is required in version 2"},
      {"packet = { number = \"tc.name\" }, " + good_acks + good_msg,
       "'packet.number' must be an integer field (ProtoField.uint8 .. uint64, int8 .. int64), not "
       "'tc.name'"},
      {"packet = { number = \"tc.num\" }, acks = { style = \"bitmap\", first = \"tc.num2\" }, " + good_msg,
       "unknown acks.style 'bitmap' (valid: ranges)"},
      {"packet = { number = \"tc.num2\" }, " + good_acks + good_msg,
       "'packet.number' is read once per datagram and 'message.id' once per record or message: they cannot "
       "name the same field"},
      {"packet = { number = \"tc.num\" }, " + good_acks +
           "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" }, class = { field = "
           "\"tc.num2\", "
           "values = { [0] = \"semi-reliable\" } } }",
       "unknown message class 'semi-reliable' (valid: unreliable, unreliable sequenced, reliable, reliable "
       "ordered, reliable sequenced)"},
      {"packet = { number = \"tc.num\" }, " + good_acks +
           "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" }, sequence = 1 }",
       "unknown key 'sequence' in message"},
      {"packet = { number = \"tc.num\" }, seq = \"tc.num\", " + good_acks + good_msg,
       "unknown key 'seq' in a version 2 contract"},
      {"packet = { number = \"tc.num\" }, " + good_acks +
           "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" }, length = { field = \"tc.num2\", "
           "unit = \"nibbles\" } }",
       "unknown message.length.unit 'nibbles' (valid: bytes, bits)"},
      {"packet = { number = \"tc.num\" }, " + good_acks +
           "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" }, length = { unit = \"bits\" } }",
       "'message.length' = {field=, unit=} needs field="},
      {"packet = { number = \"tc.num\" }, " + good_acks +
           "message = { segment = \"tc.msg\", id = { field = \"tc.num2\" }, length = { field = \"tc.num2\", "
           "bytes = 1 } }",
       "unknown key 'bytes' in length"},
  };
  for (const auto& [entry, message] : cases) {
    INFO(entry);
    CHECK_THAT(contractLoadError("version = 2, proto = \"tc\", " + entry, fields), Catch::Contains(message));
  }
}

TEST_CASE("a version 1 contract refuses a string field as seq", "[lua][contract]") {
  CHECK_THAT(
      contractLoadError("proto = \"tc\", seq = \"tc.name\"", kV1Fields),
      Catch::Contains("'seq' must be an integer field (ProtoField.uint8 .. uint64, int8 .. int64), not "
                      "'tc.name'"));
}

TEST_CASE("kind.absent gives a role to segments without the kind field, and must name a role",
          "[lua][contract]") {
  CHECK_THAT(
      contractLoadError("proto = \"tc\", kind = { field = \"tc.kind\", absent = \"payload\" }", kV1Fields),
      Catch::Contains("unknown role 'payload' in kind (valid: data, data reliable, data unreliable, data "
                      "unsequenced, ack, connect, accept, disconnect, ping, pong, other)"));
  CHECK_THAT(contractLoadError("proto = \"tc\", kind = { field = \"tc.kind\", absent = 1 }", kV1Fields),
             Catch::Contains("'kind.absent' must be a role name"));
  CHECK_THAT(contractLoadError("proto = \"tc\", kind = { field = \"tc.kind\", roles = { [2] = \"acks\" } }",
                               kV1Fields),
             Catch::Contains("unknown role 'acks' in kind (valid: "));
  CHECK(contractLoadError("proto = \"tc\", seq = \"tc.seq\", kind = { field = \"tc.kind\", roles = { [2] = "
                          "\"ack\" }, absent = \"data reliable\" }",
                          kV1Fields) == "no error");
}
