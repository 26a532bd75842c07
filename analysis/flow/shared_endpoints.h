// Endpoints that many peers open flows to: the servers of flows seen without
// a handshake ("the side on a shared port that talks to many peers"). A flow
// counts once answered: datagrams one way only (probes, multicast, a NAT's
// hole punching) say nothing about who serves whom.
//
// Learnt from the capture's first packets before the analysis starts, so a
// flow's roles are known at its first packet and never change afterwards.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "flow/connection.h"

namespace rudp {

class SharedEndpoints {
 public:
  // Peers that must have opened a flow to an endpoint (sent its first packet
  // to it) for the endpoint to count as a server. Three, not two: a client
  // caught mid-conversation with two servers may have been spoken to first.
  static constexpr uint32_t kManyPeers = 3;
  // A UDP datagram or TCP segment (others are ignored).
  void add(const DecodedPacket& p);
  // The peers that opened an answered UDP (or TCP) flow to `e`, counted up
  // to kManyPeers.
  uint32_t openers(const Endpoint& e, bool tcp) const;
  bool empty() const { return openers_[0].empty() && openers_[1].empty(); }

 private:
  struct Hash {
    size_t operator()(const Endpoint& e) const;
  };
  struct PairHash {
    size_t operator()(const std::pair<Endpoint, Endpoint>& p) const;
  };
  struct Flow {
    bool opened_by_lower = false;  // the lower endpoint sent the first packet
    bool answered = false;
  };
  // [0] UDP, [1] TCP: the flows seen, by (lower, higher) endpoint, and the
  // openers of the answered ones per endpoint.
  std::unordered_map<std::pair<Endpoint, Endpoint>, Flow, PairHash> flows_[2];
  std::unordered_map<Endpoint, uint32_t, Hash> openers_[2];
};

}  // namespace rudp
