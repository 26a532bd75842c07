// Checks shared by the tests that build a capture and run rudpscope-cli on
// it: what `analyze --json` found and what `decode` printed.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"
#include "tshark_compare.h"

namespace rudp::test {

// `analyze --json` of `capture`, its database in `db` (default: beside the capture).
inline nlohmann::json analyzeJson(const std::string& capture, const std::string& db = {}) {
  const ProcessResult r =
      run({RUDPSCOPE_CLI, "analyze", capture, "--db", db.empty() ? capture + ".sqlite" : db, "--json", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

inline uint64_t packetsOf(const nlohmann::json& connection) {
  return connection["directions"]["client_to_server"]["packets"].get<uint64_t>() +
         connection["directions"]["server_to_client"]["packets"].get<uint64_t>();
}

// `decode`'s lines for `capture` with `fields`.
inline std::vector<std::string> decodeLines(const std::string& capture,
                                            const std::vector<std::string>& fields) {
  std::vector<std::string> argv = {RUDPSCOPE_CLI, "decode", capture};
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  const ProcessResult r = run(argv);
  INFO(r.err);
  CHECK(r.status == 0);
  return splitLines(r.out);
}

// `decode -V` of `capture`, checked to equal tshark -n -V's with the shipped dissectors.
inline std::string verboseAsTshark(const std::string& capture) {
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-V"};
  for (const auto& a : tsharkDissectorArgs()) ts.push_back(a);
  const ProcessResult t = run(ts), o = run({RUDPSCOPE_CLI, "decode", capture, "-V"});
  INFO(capture << "\n" << t.err << o.err);
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  const std::vector<std::string> want = splitLines(t.out), got = splitLines(o.out);
  const auto differ = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  const size_t at = size_t(differ.first - want.begin());
  INFO("first difference at line " << at + 1 << ":\n tshark: " << (at < want.size() ? want[at] : "(end)")
                                   << "\n decode: " << (at < got.size() ? got[at] : "(end)"));
  CHECK(o.out == t.out);
  return o.out;
}

// tshark and `decode` agree on each of the `frames` lines, and analyze finds
// one connection, of `protocol`, with `packets` packets.
inline void checkOneFlow(const std::string& capture, const std::vector<std::string>& fields, size_t frames,
                         const std::string& protocol, uint64_t packets) {
  INFO(capture);
  CHECK(compareWithTshark(capture, fields) == frames);
  const nlohmann::json j = analyzeJson(capture);
  REQUIRE(j["connections"].size() == 1);
  const nlohmann::json& c = j["connections"][0];
  CHECK(c["protocol"] == protocol);
  CHECK(packetsOf(c) == packets);
}

}  // namespace rudp::test
