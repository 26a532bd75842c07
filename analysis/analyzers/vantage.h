// Where the capture was taken, read from the traffic.
//
// What is observable: an ack-echo RTT sample is capture(ack) - capture(data
// copy). For data sent by the endpoint at the capture point this spans the
// whole round trip (path both ways + the peer's ack delay); for data sent by
// the remote endpoint it spans only the local endpoint's ack delay, which has
// no path in it; in the middle both directions see part of the path.
//
// Rule: let m_cs and m_sc be the smallest samples for client->server and
// server->client data. The capture is at the client when m_sc <= max(2 ms,
// m_cs / 4) and m_cs > 2 ms (the client acks server data "at once" while its
// own data takes a round trip); symmetrically at the server; in the middle
// when both are above that bound; unknown without samples in both
// directions or when the whole round trip is under 2 ms (loopback, LAN).
// A capture point within a quarter of the path from one end is reported as
// that end. The smallest sample is used because ack delays vary from zero to
// a tick while the path delay is a floor.
#pragma once
#include "analyzers/events.h"

namespace rudp::ana {

// Round trips shorter than this cannot place the capture (ack delays alone
// are that long): loopback, a LAN, veth.
constexpr double kShortRoundTripMs = 2.0;

Vantage detectVantage(bool has_cs, double min_cs_ms, bool has_sc, double min_sc_ms);

// What a sample for data in `dir` measures at vantage `v`.
RttSpan spanFor(Vantage v, Direction dir);

// True when the capture is at the sender of `dir` (what it sends is captured
// before any loss, and acks captured are acks it received).
inline bool atSender(Vantage v, Direction dir) {
  return (v == Vantage::Client && dir == Direction::ClientToServer) ||
         (v == Vantage::Server && dir == Direction::ServerToClient);
}
inline bool atReceiver(Vantage v, Direction dir) {
  return (v == Vantage::Server && dir == Direction::ClientToServer) ||
         (v == Vantage::Client && dir == Direction::ServerToClient);
}

}  // namespace rudp::ana
