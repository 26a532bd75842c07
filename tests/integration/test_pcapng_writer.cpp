// Frames written by exportFrames (capture/pcapng_writer.h) read back with
// tshark: the same times, lengths, bytes and link type as the originals.
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>

#include "capture/frame_export.h"
#include "core/error.h"
#include "wireshark/frame_selection.h"
#include "wireshark_env.h"

using namespace rudp::test;
namespace ws = rudp::wireshark;

namespace {

// One entry per frame: its -T fields line, or its -x hex block.
std::vector<std::string> perFrame(const std::string& capture, const std::vector<std::string>& how) {
  TempDir home("pcapng-home");  // no personal plugins: both sides decode alike
  std::vector<std::string> argv = {TSHARK_EXECUTABLE, "-r", capture};
  argv.insert(argv.end(), how.begin(), how.end());
  const auto r = runWithEnv({{"HOME", home.path.string()}}, argv);
  INFO(r.err);
  REQUIRE(r.status == 0);
  if (how.front() != "-x") return splitLines(r.out);
  std::vector<std::string> blocks;
  for (size_t start = 0; start < r.out.size();) {
    size_t end = r.out.find("\n\n", start);
    if (end == std::string::npos) end = r.out.size();
    blocks.push_back(r.out.substr(start, end - start));
    start = end + 2;
  }
  return blocks;
}

const std::vector<std::string> kTimes = {"-T", "fields",        "-e", "frame.time_epoch", "-e", "frame.len",
                                         "-e", "frame.cap_len", "-e", "frame.encap_type"};

std::vector<std::string> pick(const std::vector<std::string>& all, const std::vector<uint64_t>& frames) {
  std::vector<std::string> out;
  for (uint64_t f : frames) out.push_back(all.at(f - 1));
  return out;
}

void requireSameFrames(const std::string& original, const std::vector<uint64_t>& frames) {
  TempDir dir("pcapng-out");
  const std::string out = dir / "chosen.pcapng";
  const auto result = rudp::exportFrames(original, frames, out);
  CHECK(result.written == frames.size());
  CHECK(result.missing.empty());
  CHECK(!std::filesystem::exists(out + ".part"));
  const auto fields = perFrame(out, kTimes);
  CHECK(fields.size() == frames.size());
  CHECK(fields == pick(perFrame(original, kTimes), frames));
  CHECK(perFrame(out, {"-x"}) == pick(perFrame(original, {"-x"}), frames));
  const auto info = run({"capinfos", "-c", "-M", out});
  CHECK(info.out.find("Number of packets:   " + std::to_string(frames.size()) + "\n") != std::string::npos);
}

std::string source(const std::string& rel) { return std::string(RUDPSCOPE_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("chosen frames of committed captures are written exactly") {
  SECTION("sample.pcap, Ethernet, microseconds") {
    requireSameFrames(source("resources/sample.pcap"), ws::parseFrameList("1-5,40,41,100-102"));
  }
  SECTION("eth_nsec.pcapng, nanoseconds") {
    requireSameFrames(source("tests/data/link/eth_nsec.pcapng"), ws::parseFrameList("1,3"));
  }
  SECTION("raw.pcap, DLT_RAW becomes LINKTYPE_RAW") {
    requireSameFrames(source("tests/data/link/raw.pcap"), ws::parseFrameList("1-2"));
  }
  SECTION("sll2.pcap") { requireSameFrames(source("tests/data/link/sll2.pcap"), ws::parseFrameList("2")); }
}

TEST_CASE("frames past the end of the capture are reported, not invented") {
  TempDir dir("pcapng-out");
  const std::string cap = source("tests/data/link/eth.pcap");
  const auto count = perFrame(cap, kTimes).size();
  const auto result = rudp::exportFrames(cap, {1, count, count + 1, count + 7}, dir / "x.pcapng");
  CHECK(result.written == 2);
  CHECK(result.missing == std::vector<uint64_t>{count + 1, count + 7});
  CHECK(perFrame(dir / "x.pcapng", kTimes).size() == 2);
}

TEST_CASE("no frames named exports every frame and a cancelled export leaves nothing") {
  TempDir dir("pcapng-out");
  const std::string cap = source("tests/data/link/eth.pcap");
  const auto original = perFrame(cap, kTimes);
  const auto all = rudp::exportFrames(cap, {}, dir / "all.pcapng");
  CHECK(all.written == original.size());
  CHECK(all.missing.empty());
  CHECK(perFrame(dir / "all.pcapng", kTimes) == original);
  const std::atomic<bool> cancel{true};
  CHECK_THROWS_AS(rudp::exportFrames(cap, {}, dir / "cancelled.pcapng", &cancel), rudp::Cancelled);
  CHECK_FALSE(std::filesystem::exists(dir / "cancelled.pcapng"));
  CHECK_FALSE(std::filesystem::exists(dir / "cancelled.pcapng.part"));
}

TEST_CASE("frame lists parse as Wireshark's ranges do") {
  CHECK(ws::parseFrameList("5,1-3,2") == std::vector<uint64_t>{1, 2, 3, 5});
  CHECK(ws::parseFrameList("7") == std::vector<uint64_t>{7});
  for (const char* bad : {"", "0", "3-1", "a", "1-", "-4", "1,,2", "2-x"}) {
    INFO(bad);
    CHECK_THROWS_AS(ws::parseFrameList(bad), rudp::Error);
  }
  CHECK(ws::renumbered({3, 9, 12}, 9) == 2);
  CHECK(ws::renumbered({3, 9, 12}, 10) == 0);
}

TEST_CASE("a pcapng that cannot be written is one clear error and leaves nothing") {
  TempDir dir("pcapng-out");
  const std::string out = dir / "missing-folder/x.pcapng";
  CHECK_THROWS_WITH(rudp::exportFrames(source("resources/sample.pcap"), {1}, out),
                    "cannot create '" + out + ".part': No such file or directory");
}

TEST_CASE("rudpscope-cli wireshark open writes the frames and prints the wireshark command") {
  TempDir dir("pcapng-cli"), home("pcapng-cli-home"), bin("pcapng-cli-bin");
  const std::string out = dir / "chosen.pcapng";
  const std::string dissectors = source("dissectors");
  const auto r = wiresharkCli(
      {{"HOME", home.path.string()}},
      {"open", source("resources/sample.pcap"), "--frames", "3-5,10", "-g", "4", "-w", out, "--dry-run"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "wireshark -r " + out + " --disable-protocol raknet --disable-protocol udt -X lua_script:" +
                     dissectors + "/enet.lua -X lua_script:" + dissectors +
                     "/grudp.lua -X lua_script:" + dissectors + "/kcp.lua -X lua_script:" + dissectors +
                     "/raknet.lua -X lua_script:" + dissectors + "/udt.lua -g 2\n");
  CHECK(r.err == "rudpscope-cli: 4 frames written to " + out + "\n");
  CHECK(perFrame(out, kTimes) == pick(perFrame(source("resources/sample.pcap"), kTimes), {3, 4, 5, 10}));

  const auto missing = wiresharkCli({{"HOME", home.path.string()}, {"PATH", bin.path.string()}},
                                    {"open", source("resources/sample.pcap"), "--frames", "1", "-w", out});
  CHECK(missing.status == 2);
  CHECK(splitLines(missing.err).back() ==
        "rudpscope-cli: Wireshark is not installed (no `wireshark` on PATH); the frames are in " + out);
}
