// Checks shared by the tests that run rudpscope-cli.
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "process.h"

namespace rudp::test {

// Bad input gets exactly one line on stderr, "rudpscope-cli: ...", naming
// the problem, and exit status 2 (not a crash, not an internal error).
inline void requireOneLineError(const ProcessResult& r, const std::string& mustContain) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  const auto lines = splitLines(r.err);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("rudpscope-cli: ", 0) == 0);
  CHECK(lines[0].find(mustContain) != std::string::npos);
}

}  // namespace rudp::test
