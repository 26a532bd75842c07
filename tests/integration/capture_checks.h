// Checks shared by the tests that build a capture and run rudpscope-cli on
// it: what `analyze --json` found and what `decode` printed.
#pragma once
#include <catch2/catch.hpp>

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
