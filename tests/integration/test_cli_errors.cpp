// Bad input: one clear line on stderr and a non-zero exit; a cut-off capture
// keeps every packet before the cut.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_checks.h"
#include "process.h"

using namespace rudp::test;

namespace {
const std::string kCli = RUDPSCOPE_CLI;

std::string makeSim(const TempDir& dir, const std::string& name, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv = {GRUDP_SIM, "--out",  dir / name, "--connections", "2", "--duration",
                                   "2",       "--seed", "7"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv);
  REQUIRE(r.status == 0);
  return dir / name;
}
}  // namespace

TEST_CASE("a missing capture is one clear error") {
  for (const char* cmd : {"analyze", "decode"}) {
    std::vector<std::string> argv = {kCli, cmd, "/nonexistent/game.pcap"};
    if (std::string(cmd) == "decode") {
      argv.push_back("-e");
      argv.push_back("frame.number");
    }
    requireOneLineError(run(argv), "/nonexistent/game.pcap");
  }
}

TEST_CASE("a file that is no capture is one clear error") {
  TempDir dir("notcap");
  std::ofstream(dir / "notes.pcap") << "these are my notes, not a capture\n";
  requireOneLineError(run({kCli, "analyze", dir / "notes.pcap", "--db", dir / "x.sqlite"}), "notes.pcap");
  CHECK_FALSE(std::filesystem::exists(dir / "x.sqlite"));
}

TEST_CASE("a broken or unreadable dissector is one clear error naming the file") {
  TempDir dir("baddis");
  std::string cap = makeSim(dir, "s.pcap");
  std::ofstream(dir / "broken.lua") << "local p = Proto(\"brk\", \"Broken\")\nlocal x = = 3\n";
  auto r = run({kCli, "analyze", cap, "--db", dir / "x.sqlite", "-X", "lua_script:" + (dir / "broken.lua")});
  requireOneLineError(r, "broken.lua:2");
  requireOneLineError(
      run({kCli, "decode", cap, "-e", "frame.number", "-X", "lua_script:" + (dir / "missing.lua")}),
      "missing.lua");
  requireOneLineError(run({kCli, "decode", cap, "-e", "no.such.field"}), "no.such.field");
}

TEST_CASE("a capture cut off mid-packet keeps every packet before the cut") {
  TempDir dir("trunc");
  std::string cap = makeSim(dir, "s.pcap");
  auto full = run({kCli, "decode", cap, "-e", "frame.number", "-e", "grudp.seq"});
  REQUIRE(full.status == 0);
  auto lines = splitLines(full.out);
  REQUIRE(lines.size() > 20);
  // Cut the file 10 bytes into the last packet's data.
  auto size = std::filesystem::file_size(cap);
  std::filesystem::copy_file(cap, dir / "cut.pcap");
  std::filesystem::resize_file(dir / "cut.pcap", size - 30);
  auto cut = run({kCli, "decode", dir / "cut.pcap", "-e", "frame.number", "-e", "grudp.seq"});
  CHECK(cut.status == 0);
  auto cutLines = splitLines(cut.out);
  REQUIRE(cutLines.size() == lines.size() - 1);
  for (size_t i = 0; i < cutLines.size(); ++i) CHECK(cutLines[i] == lines[i]);
  CHECK(cut.err.find("warning") != std::string::npos);

  auto ana = run({kCli, "analyze", dir / "cut.pcap", "--db", dir / "cut.sqlite", "--json"});
  CHECK(ana.status == 0);
  CHECK(ana.out.find("\"packets\": " + std::to_string(lines.size() - 1)) != std::string::npos);
  CHECK(ana.out.find("\"truncated\": true") != std::string::npos);
}

TEST_CASE("response-time limits that are not three rising numbers are one clear error") {
  TempDir dir("limits");
  const std::string cap = makeSim(dir, "g.pcap");
  for (const char* limits : {"300,250,150", "150,150,300"}) {
    requireOneLineError(run({kCli, "analyze", cap, "--db", dir / "x.sqlite", "--rtt-limits", limits}),
                        "--rtt-limits takes three rising limits in ms");
    CHECK_FALSE(std::filesystem::exists(dir / "x.sqlite"));
  }
  for (const char* limits : {"150,250", "150,-5,300", "a,b,c"}) {
    const ProcessResult r = run({kCli, "analyze", cap, "--db", dir / "x.sqlite", "--rtt-limits", limits});
    CHECK(r.status != 0);
    CHECK(r.err.find("--rtt-limits") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "x.sqlite"));
  }
}
