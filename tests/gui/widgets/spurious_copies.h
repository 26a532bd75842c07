// The simulator never sends a copy of data it already has an ack for, so
// spurious retransmissions are added to one of its captures here: at each
// requested time, a copy (fresh ts, same seq, flags and payload) of the
// client's latest reliable DATA packet sent at least `ackedAfterMs` earlier,
// which the server has acknowledged by then on a loss-free link.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config.hpp"

namespace rudp::test {

struct InsertedCopy {
  int64_t t_ns = 0;    // simulation time of the copy
  uint64_t frame = 0;  // its frame number in the new capture
  uint32_t seq = 0;
};

std::vector<InsertedCopy> insertSpuriousCopies(const std::string& in, const std::string& out,
                                               const grudp_sim::SimConfig& config,
                                               const std::vector<int64_t>& atNs, double ackedAfterMs = 300);

}  // namespace rudp::test
