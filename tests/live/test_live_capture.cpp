// rudpscope-cli capture on loopback with real traffic, each case both ways a
// capture runs (capture_user.h): as root, through libpcap in the process,
// and as a wireshark-group user without privileges, through dumpcap.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "capture_user.h"
#include "cli_checks.h"
#include "db_compare.h"
#include "process.h"
#include "udp_traffic.h"

using namespace rudp::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The capture creates its file once the interface is capturing with its filter.
void waitUntilCapturing(const std::string& file) {
  for (int i = 0; i < 200 && !fs::exists(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(fs::exists(file));
}

// Whether a dumpcap with `filter` on its command line still runs.
bool dumpcapRunning(const std::string& filter) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find("dumpcap ") != std::string::npos && cmdline.find(filter) != std::string::npos)
      return true;
  }
  return false;
}

uint64_t tsharkFrames(const std::string& file) {
  ProcessResult r = run({TSHARK_EXECUTABLE, "-r", file, "-T", "fields", "-e", "frame.number"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  return splitLines(r.out).size();
}

}  // namespace

TEST_CASE("SIGTERM ends a capture with every packet in a complete file, analysed as analyze analyses it") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("capturing as " << wayName(way));
  TempDir dir("live-term");
  openToCaptureUser(dir);
  const std::string file = dir / "term.pcapng", db = dir / "live.sqlite";
  Background capture(as(
      way, {RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp port 47101", "-w", file, "--db", db, "--json"}));
  waitUntilCapturing(file);
  sendUdp(47101, 500, 120, 500);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessResult r = capture.stop(SIGTERM);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["capture"]["packets"] == 500);
  CHECK(summary["capture"]["live"]["interface"] == "lo");
  CHECK(summary["capture"]["live"]["filter"] == "udp port 47101");
  CHECK(summary["capture"]["live"]["kernel_drops"] == 0);
  CHECK(r.err.find("rudpscope-cli: captured 500 packets to " + file +
                   " (0 dropped by the kernel, 0 by the interface)\n") != std::string::npos);
  CHECK(summary["connections"].size() == 1);
  // Plain UDP has no handshake: which end is the "client" follows the ports.
  const json& dirs = summary["connections"][0]["directions"];
  CHECK(dirs["client_to_server"]["packets"].get<int>() + dirs["server_to_client"]["packets"].get<int>() ==
        500);
  CHECK(tsharkFrames(file) == 500);

  REQUIRE(run({RUDPSCOPE_CLI, "analyze", file, "--db", dir / "fresh.sqlite", "-q"}).status == 0);
  const auto rows = requireSameTables(db, dir / "fresh.sqlite", {"live_capture"});
  CHECK(rows.at("packets") == 500);
}

TEST_CASE("after SIGKILL the file holds every packet flushed before it") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("capturing as " << wayName(way));
  TempDir dir("live-kill");
  openToCaptureUser(dir);
  const std::string file = dir / "kill.pcapng";
  Background capture(
      as(way, {RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp port 47102", "-w", file, "-q"}));
  waitUntilCapturing(file);
  sendUdp(47102, 300, 100, 500);
  // The capture flushes at least every 100 ms while packets flow, and when
  // the interface falls idle.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(capture.stop(SIGKILL).status == 128 + SIGKILL);
  CHECK(tsharkFrames(file) == 300);
  // dumpcap does not outlive it, though nothing more comes on the quiet filter.
  for (int i = 0; i < 60 && dumpcapRunning("udp port 47102"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(dumpcapRunning("udp port 47102"));
  ProcessResult r = run({RUDPSCOPE_CLI, "analyze", file, "--db", dir / "after.sqlite", "--json", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(json::parse(r.out)["capture"]["packets"] == 300);
  CHECK(r.err.empty());
}

TEST_CASE("a capture given a duration stops by itself") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("capturing as " << wayName(way));
  TempDir dir("live-duration");
  openToCaptureUser(dir);
  const std::string file = dir / "d.pcapng";
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = run(as(way, {RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp port 47103", "-w", file,
                                 "--duration", "1.5", "--json"}));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(took >= 1.5);
  CHECK(took < 5.0);
  CHECK(json::parse(r.out)["capture"]["packets"] == 0);
  CHECK(tsharkFrames(file) == 0);
}

TEST_CASE("a bad filter, a missing interface and no permission each get one clear line") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("capturing as " << wayName(way));
  TempDir dir("live-errors");
  openToCaptureUser(dir);
  const std::string file = dir / "e.pcapng";
  requireOneLineError(run(as(way, {RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp porrt 5", "-w", file})),
                      "bad capture filter 'udp porrt 5': can't parse filter expression: syntax error");
  requireOneLineError(run(as(way, {RUDPSCOPE_CLI, "capture", "-i", "nosuch0", "-w", file})),
                      "no interface 'nosuch0' to capture on (rudpscope-cli interfaces lists them)");
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("without privileges the line says how to capture through dumpcap, never setcap on rudpscope") {
  requireCaptureSetup();
  TempDir dir("live-denied");
  openToCaptureUser(dir);
  const std::string file = dir / "e.pcapng";
  // Not in the wireshark group: dumpcap is not this user's to run.
  requireOneLineError(
      run({"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", RUDPSCOPE_CLI, "capture", "-i",
           "lo", "-w", file}),
      "no permission to run /usr/bin/dumpcap (it captures for members of the wireshark group): "
      "sudo usermod -aG wireshark nobody, then log in again");
  // In the group, but dumpcap has no capabilities (it was installed without them).
  fs::create_directories(dir.path / "bin");
  fs::copy_file("/usr/bin/dumpcap", dir.path / "bin" / "dumpcap");
  fs::permissions(dir.path / "bin" / "dumpcap", fs::perms(0755));
  const std::string hint =
      "let dumpcap capture for the wireshark group once with: sudo dpkg-reconfigure wireshark-common (answer "
      "Yes), and join it: sudo usermod -aG wireshark rudpscope-test, then log in again";
  requireOneLineError(run(as(CaptureWay::Dumpcap, {"env", "PATH=" + (dir / "bin"), RUDPSCOPE_CLI, "capture",
                                                   "-i", "lo", "-w", file})),
                      "no permission to capture on 'lo': " + hint);
  // No dumpcap at all.
  requireOneLineError(run(as(CaptureWay::Dumpcap, {"env", "PATH=" + (dir / "nothing"), RUDPSCOPE_CLI,
                                                   "capture", "-i", "lo", "-w", file})),
                      "capturing without root needs dumpcap, which is not installed: sudo apt install "
                      "wireshark-common, then " +
                          hint);
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("interfaces lists loopback with its address") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("listing as " << wayName(way));
  ProcessResult r = run(as(way, {RUDPSCOPE_CLI, "interfaces", "--json"}));
  REQUIRE(r.status == 0);
  bool found = false;
  for (const json& i : json::parse(r.out))
    if (i["name"] == "lo") {
      found = true;
      CHECK(i["loopback"] == true);
      CHECK(i["addresses"][0] == "127.0.0.1");
    }
  CHECK(found);
}

TEST_CASE("a ring buffer keeps the newest files, each with the database analyze gives it") {
  requireCaptureSetup();
  const CaptureWay way = GENERATE(CaptureWay::Root, CaptureWay::Dumpcap);
  INFO("capturing as " << wayName(way));
  TempDir dir("live-ring");
  openToCaptureUser(dir);
  Background capture(as(way, {RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp port 47104", "-w",
                              dir / "ring.pcapng", "--ring", "3:1", "-q"}));
  for (int i = 0; i < 200 && fs::is_empty(dir.path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  // 1000-byte datagrams: 1076 bytes per packet block, so 930 fill a 1 MB file.
  sendUdp(47104, 3000, 1000, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessResult r = capture.stop(SIGTERM);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir.path))
    if (e.path().extension() == ".pcapng") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 3);
  CHECK(files[0].find("ring_00002_") != std::string::npos);  // the first file went, with its database
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator{}) == 6);
  const uint64_t expected[3] = {930, 930, 3000 - 3 * 930};
  for (size_t i = 0; i < files.size(); ++i) {
    CHECK(tsharkFrames(files[i]) == expected[i]);
    const std::string fresh = dir / ("fresh" + std::to_string(i) + ".sqlite");
    REQUIRE(run({RUDPSCOPE_CLI, "analyze", files[i], "--db", fresh, "-q"}).status == 0);
    CHECK(requireSameTables(files[i] + ".rudpscope.sqlite", fresh, {"live_capture"}).at("packets") ==
          expected[i]);
  }
}
