// The analysis of one lab cell's capture against what the endpoints, the
// router's nftables and the delay relay counted, as the existing labs check
// it (tests/netns/tcp_lab_checks.h, tests/kcp_enet/kcp_enet_checks.h,
// tests/endpoint/compare_capture.py). The capture sits at the client: for
// client->server it is the sender's capture (every copy sent, the dropped
// ones included), for server->client the receiver's (the drops are missing).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/lab_cell.h"

namespace rudp::cli {

struct LabCheckResult {
  bool pass = true;
  nlohmann::json checks = nlohmann::json::array();  // {what, analysis, counter, tolerance, ok}
  std::vector<std::string> failures;                // "what: analysis X, counter Y"
  nlohmann::json figures = nlohmann::json::object();
};

// What the cell's counters folder holds (client.json, server.json, nft.json,
// relay.json, nstat-client.json), read into one object keyed by file stem.
nlohmann::json readLabCounters(const std::string& countersDir);

// `connections`: the capture's connections as `analyze --json` prints them.
// `enetDisconnectResends`: only read for ENet (lab_enet_resends.h).
LabCheckResult checkLabCell(const LabCell& cell, const nlohmann::json& counters,
                            const nlohmann::json& connections, uint64_t enetDisconnectResends);

// The analysis protocol name of a stack's connection ("tcp", "grudp", ...).
std::string labProtocol(const std::string& stack);

}  // namespace rudp::cli
