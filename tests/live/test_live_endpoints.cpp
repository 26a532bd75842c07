// Live capture of the GRUDP reference endpoints with loss and delay on
// loopback: the live analysis equals the endpoints' own counters (packets,
// retransmissions and losses exact, RTT within 2 ms; compare_capture.py) and
// equals a fresh analyze of the file it wrote.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "db_compare.h"
#include "process.h"

using namespace rudp::test;
namespace fs = std::filesystem;

TEST_CASE("live analysis of GRUDP endpoints with 5 % loss and 20 ms delay equals their counters") {
  TempDir dir("live-endpoints");
  const std::string file = dir / "game.pcapng", db = dir / "live.sqlite", port = "47120";
  Background capture({RUDPSCOPE_CLI, "capture", "-i", "lo", "-f", "udp port " + port, "-w", file, "--db", db,
                      "--json", "-q"});
  for (int i = 0; i < 200 && !fs::exists(file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(fs::exists(file));
  // Delay on the server's sends only: the client's RTT samples then span
  // exactly what the capture sees (tests/endpoint/README.md).
  Background server({GRUDP_ENDPOINT, "server", "--port", port, "--exit-after-clients", "--loss", "5",
                     "--delay-ms", "20", "--seed", "11", "--json", dir / "server.json", "--quiet"});
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ProcessResult client =
      run({GRUDP_ENDPOINT, "client", "--server", "127.0.0.1:" + port, "--clients", "3", "--duration", "4",
           "--loss", "5", "--seed", "12", "--json", dir / "client.json", "--quiet"});
  REQUIRE(client.status == 0);
  REQUIRE(server.wait().status == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ProcessResult live = capture.stop(SIGTERM);
  INFO(live.err);
  REQUIRE(live.status == 0);
  std::ofstream(dir / "live.json") << live.out;

  ProcessResult agree =
      run({"python3", COMPARE_CAPTURE, dir / "live.json", dir / "client.json", dir / "server.json"});
  INFO(agree.out << agree.err);
  CHECK(agree.status == 0);

  REQUIRE(run({RUDPSCOPE_CLI, "analyze", file, "--db", dir / "fresh.sqlite", "-q"}).status == 0);
  const auto rows = requireSameTables(db, dir / "fresh.sqlite", {"live_capture"});
  CHECK(rows.at("connections") == 3);
  CHECK(rows.at("retransmissions") >= 3);
}
