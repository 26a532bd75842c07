// grudp-endpoint on real loopback sockets: what each end counts about its
// own sends must be exactly what the other end received (loopback loses
// nothing, so every difference is the impairment's doing).
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <catch2/catch.hpp>

#include "endpoint_process.hpp"
#include "process.h"

using nlohmann::json;
using namespace grudp_ep_test;

namespace {

const char* kTypes[] = {"DATA", "ACK",  "CONNECT",       "ACCEPT",          "DISCONNECT",
                        "PING", "PONG", "data_reliable", "data_unreliable", "data_unsequenced"};

uint64_t u(const json& j) { return j.get<uint64_t>(); }

// One direction of one connection: `tx` is the sender's record, `rx` the receiver's.
void check_direction(const json& tx, const json& rx) {
  const json& drops = tx["impairment"]["drops"];
  const json& dups = tx["impairment"]["duplicates"];
  CHECK(u(tx["send_errors"]) == 0);
  for (const char* t : kTypes) {
    INFO("type " << t);
    // Written to the socket = emitted - dropped + duplicated, and all of it arrived.
    CHECK(u(tx["sent_wire"][t]) == u(tx["sent"][t]) - u(drops["by_type"][t]) + u(dups[t]));
    CHECK(u(rx["received"][t]) == u(tx["sent_wire"][t]));
  }
  CHECK(u(drops["total"]) == u(drops["originals"]) + u(drops["retransmissions"]));
  CHECK(u(drops["total"]) == u(drops["reliable"]) + u(drops["unreliable"]));
  CHECK(u(tx["sent"]["total"]) == u(tx["originals"]["total"]) + u(tx["retransmissions"]["total"]));
  // Unreliable DATA is never resent: the originals not dropped are the ones received.
  for (const char* t : {"data_unreliable", "data_unsequenced"})
    CHECK(u(rx["received"][t]) - u(dups[t]) == u(tx["originals"][t]) - u(drops["by_type"][t]));
  CHECK(u(rx["delivered"]["unsequenced"]) ==
        u(tx["originals"]["data_unsequenced"]) - u(drops["by_type"]["data_unsequenced"]));
  // Every reliable message arrives (retransmitted as often as needed).
  CHECK(u(rx["delivered"]["reliable"]) == u(tx["originals"]["data_reliable"]));
  CHECK_FALSE(tx["gave_up"].get<bool>());
}

void check_pair(const PairResult& r, size_t clients) {
  REQUIRE(r.client["connections"].size() == clients);
  REQUIRE(r.server["connections"].size() == clients);
  for (const json& c : r.client["connections"]) {
    const json& s = connection(r.server, u(c["conn_id"]));
    INFO("conn_id " << c["conn_id"]);
    CHECK(c["state"] == "closed");
    CHECK(s["state"] == "closed");
    CHECK(s["peer"] == c["local"]);
    {
      INFO("client -> server");
      check_direction(c, s);
    }
    {
      INFO("server -> client");
      check_direction(s, c);
    }
  }
}

std::vector<int> rtts(const json& conn) {
  std::vector<int> v;
  for (const json& s : conn["rtt_samples"]) v.push_back(s["rtt_ms"].get<int>());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("three clients with 5 % loss and 20 ms delay each way: drops, arrivals and RTT agree") {
  rudp::test::TempDir dir("grudp-endpoint");
  const std::vector<std::string> impair = {"--loss", "5", "--delay-ms", "20", "--seed", "7"};
  std::vector<std::string> client = impair;
  client.insert(client.end(), {"--clients", "3", "--duration", "3"});
  const PairResult r = run_pair(dir.path.string(), impair, client);
  check_pair(r, 3);

  // 5 % of about 280 + 550 datagrams (41 +- 6.3): drops happened, of both kinds of copy.
  const json& ct = r.client["totals"];
  const json& st = r.server["totals"];
  CHECK(u(ct["impairment"]["drops"]["total"]) + u(st["impairment"]["drops"]["total"]) >= 20);
  CHECK(u(ct["retransmissions"]["total"]) + u(st["retransmissions"]["total"]) >= 10);

  // RTT = 20 ms out + the peer's ack delay + 20 ms back. The delay is added
  // after ts is stamped, so no sample is below 40 ms (39 with ms truncation
  // of both clocks). The peer acks within 1.1 of its ticks (pure ACK rule):
  // server 60 Hz -> 18.3 ms, client 30 Hz -> 36.7 ms; the median must sit
  // inside that (a lost ack makes single samples longer). Where in that
  // range depends on the fixed phase between the two ends' tick schedules.
  for (const auto& [report, ack_delay] : {std::pair{&r.client, 18.4}, std::pair{&r.server, 36.7}}) {
    for (const json& c : (*report)["connections"]) {
      const std::vector<int> v = rtts(c);
      INFO((*report)["role"] << " conn " << c["conn_id"] << " samples " << v.size());
      REQUIRE(v.size() >= 40);
      CHECK(v.front() >= 39);
      CHECK(v[v.size() / 2] <= 40 + ack_delay + 2);
    }
  }
}

TEST_CASE("duplication and reordering have exactly the effect they count") {
  rudp::test::TempDir dir("grudp-endpoint");
  const std::vector<std::string> impair = {"--duplicate", "10", "--reorder", "10", "--seed", "3"};
  std::vector<std::string> client = impair;
  client.insert(client.end(), {"--clients", "2", "--duration", "2"});
  const PairResult r = run_pair(dir.path.string(), impair, client);
  check_pair(r, 2);
  for (const json& c : r.client["connections"]) {
    const json& s = connection(r.server, u(c["conn_id"]));
    for (const auto& [tx, rx] : {std::pair{&c, &s}, std::pair{&s, &c}}) {
      INFO((*tx)["local"] << " -> " << (*rx)["local"]);
      const json& im = (*tx)["impairment"];
      // Nothing was lost or late enough for a retransmission: every extra
      // copy the receiver saw is an injected duplicate, every late arrival
      // a held packet that the next one overtook.
      REQUIRE(u((*tx)["retransmissions"]["total"]) == 0);
      CHECK(u((*rx)["received_duplicates"]) == u(im["duplicates"]["total"]));
      CHECK(u((*rx)["received_out_of_order"]) == u(im["reordered"]));
      // About 10 % of the seq-consuming packets each (binomial, n >= 60: 3 sigma).
      const double n = double(u((*tx)["sent"]["total"]) - u((*tx)["sent"]["ACK"]));
      CHECK(double(u(im["duplicates"]["total"])) >= 0.1 * n - 3 * std::sqrt(0.09 * n));
      CHECK(double(u(im["reordered"])) >= 0.1 * n - 3 * std::sqrt(0.09 * n) - 5);
      CHECK(double(u(im["reordered"])) <= 0.1 * n + 3 * std::sqrt(0.09 * n));
    }
  }
}

TEST_CASE("SIGINT: the client says DISCONNECT, waits for its ack and writes its counters") {
  rudp::test::TempDir dir("grudp-endpoint");
  const std::string port = std::to_string(free_udp_port());
  rudp::test::Background server({GRUDP_ENDPOINT_EXE, "server", "--port", port, "--exit-after-clients",
                                 "--drain-ms", "300", "--json", dir / "server.json"});
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  rudp::test::Background client({GRUDP_ENDPOINT_EXE, "client", "--server", "127.0.0.1:" + port, "--duration",
                                 "60", "--linger-ms", "300", "--json", dir / "client.json"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const auto t0 = std::chrono::steady_clock::now();
  const rudp::test::ProcessResult cr = client.stop(SIGINT);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const rudp::test::ProcessResult sr = server.wait();
  INFO(cr.err << sr.err);
  REQUIRE(cr.status == 0);
  REQUIRE(sr.status == 0);
  CHECK(took < 2.0);
  const json c = read_json(dir / "client.json");
  const json s = read_json(dir / "server.json");
  const json& cc = c["connections"][0];
  CHECK(cc["state"] == "closed");
  CHECK(u(cc["sent"]["DISCONNECT"]) == 1);
  CHECK(u(connection(s, u(cc["conn_id"]))["received"]["DISCONNECT"]) == 1);
  CHECK(connection(s, u(cc["conn_id"]))["state"] == "closed");
}

TEST_CASE("bad options and unusable addresses: one line on stderr, exit 2") {
  const int busy_fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::bind(busy_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(busy_fd, reinterpret_cast<sockaddr*>(&a), &len);
  const std::string busy = std::to_string(ntohs(a.sin_port));
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"server", "--port", busy}, "cannot bind UDP port " + busy + ": Address already in use"},
      {{"client", "--server", "localhost:7777"}, "--server: 'localhost' is not an IPv4 address"},
      {{"client", "--server", "127.0.0.1:99999"}, "--server: bad port '99999'"},
      {{"client", "--server", "127.0.0.1:7777", "--loss", "120"},
       "--loss: Value 120 not in range 0.000000 to 99.000000"},
      {{"server", "--port", "7777", "--bogus"}, "The following argument was not expected: --bogus"},
      {{"client"}, "--server is required"},
      {{}, "A subcommand is required"},
      {{"server", "--port", "7777", "--reliable", "0.7", "--unsequenced", "0.5"},
       "--reliable + --unsequenced must not exceed 1"}};
  for (const auto& [args, message] : cases) {
    std::vector<std::string> argv = {GRUDP_ENDPOINT_EXE};
    argv.insert(argv.end(), args.begin(), args.end());
    const rudp::test::ProcessResult r = rudp::test::run(argv);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.err == "grudp-endpoint: " + message + "\n");
    CHECK(r.out.empty());
  }
  ::close(busy_fd);
}
