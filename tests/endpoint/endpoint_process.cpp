#include "endpoint_process.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <catch2/catch.hpp>

#include "process.h"

namespace grudp_ep_test {

int free_udp_port() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  INFO("reading " << path);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

const nlohmann::json& connection(const nlohmann::json& report, uint64_t conn_id) {
  for (const auto& c : report.at("connections"))
    if (c.at("conn_id").get<uint64_t>() == conn_id) return c;
  FAIL("no connection " << conn_id << " in the " << report.at("role") << " report");
  throw std::logic_error("unreachable");
}

PairResult run_pair(const std::string& dir, const std::vector<std::string>& server_args,
                    const std::vector<std::string>& client_args) {
  const std::string port = std::to_string(free_udp_port());
  std::vector<std::string> s = {
      GRUDP_ENDPOINT_EXE, "server", "--port", port, "--exit-after-clients", "--json", dir + "/server.json"};
  s.insert(s.end(), server_args.begin(), server_args.end());
  std::vector<std::string> c = {GRUDP_ENDPOINT_EXE,  "client", "--server",
                                "127.0.0.1:" + port, "--json", dir + "/client.json"};
  c.insert(c.end(), client_args.begin(), client_args.end());
  rudp::test::Background server(s);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // bound before the first CONNECT
  const rudp::test::ProcessResult cr = rudp::test::run(c);
  const rudp::test::ProcessResult sr = server.wait();
  PairResult r;
  r.client_status = cr.status;
  r.client_err = cr.err;
  r.server_status = sr.status;
  r.server_err = sr.err;
  INFO("client stderr: " << cr.err << "\nserver stderr: " << sr.err);
  REQUIRE(cr.status == 0);
  REQUIRE(sr.status == 0);
  r.client = read_json(dir + "/client.json");
  r.server = read_json(dir + "/server.json");
  return r;
}

}  // namespace grudp_ep_test
