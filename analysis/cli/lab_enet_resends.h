// ENet's DISCONNECT resends in a capture, which the ENet lab counters leave
// out (tests/kcp_enet/kcp_enet_checks.h, enetDisconnectResends).
#pragma once
#include <cstdint>
#include <string>

#include "lua/dissector_files.h"

namespace rudp::cli {

// Copies beyond the first of `src`'s reliable DISCONNECT (enet.command 4
// with the ACKNOWLEDGE flag), decoded with the dissectors as `decode` does.
uint64_t enetDisconnectResends(const std::string& capture, const std::string& src,
                               const DissectorOptions& dissectors);

}  // namespace rudp::cli
