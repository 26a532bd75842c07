// Test helpers: running grudp-endpoint pairs on loopback and reading their
// JSON reports.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace grudp_ep_test {

// A UDP port that was free a moment ago (bound to port 0, then released).
int free_udp_port();

nlohmann::json read_json(const std::string& path);

// The connection of `report` with this conn_id (fails the test if absent).
const nlohmann::json& connection(const nlohmann::json& report, uint64_t conn_id);

// What a server + client pair produced.
struct PairResult {
  int server_status = -1, client_status = -1;
  std::string server_err, client_err;
  nlohmann::json server, client;
};

// Runs `grudp-endpoint server --port P --exit-after-clients` and a client
// process against it, each with its extra arguments and a JSON report in `dir`.
PairResult run_pair(const std::string& dir, const std::vector<std::string>& server_args,
                    const std::vector<std::string>& client_args);

}  // namespace grudp_ep_test
