// Maps packets to connections and keeps per-direction counters.
//
// Memory is bounded by the connections open at once, not by every connection
// a capture ever held: closeIdle() hands over connections silent for a while
// (and, past a cap on open connections, the longest-silent ones) and forgets
// them. A later packet with the same key starts a new connection (a new id).
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "flow/connection.h"
#include "flow/segment.h"

namespace rudp {

class SharedEndpoints;

class ConnectionTable {
 public:
  ConnectionTable();
  ~ConnectionTable();

  struct Hit {
    Connection* conn = nullptr;
    Direction dir = Direction::ClientToServer;
    bool foreign = false;  // a datagram no dissector claimed, on a protocol's socket
  };

  // A datagram a Lua dissector with a contract claimed. `first` is its first
  // segment (carrying the connection id and role when the contract has them).
  Hit contractPacket(int protoIndex, const std::string& protoName, const Segment* first,
                     const DecodedPacket& p);
  Hit tcpPacket(const DecodedPacket& p);
  // UDP no dissector claimed: on the address pair of a protocol's connection
  // it is a foreign datagram of that connection (one connection per socket),
  // else a "udp" connection of its own.
  Hit udpPacket(const DecodedPacket& p);
  // A QUIC datagram (decode/quic_session.h) of the reader's connection
  // `quicConnection`: a "quic" connection whose client sent the first Initial.
  Hit quicPacket(const DecodedPacket& p, bool fromClient, uint64_t quicConnection);
  // An ICMP error (p.has_icmp_error): the connection of the datagram it
  // quotes and that datagram's direction; conn null when there is none.
  // Creates nothing.
  Hit icmpError(const DecodedPacket& p) const;

  // Endpoints many peers opened flows to (learnt before the first packet):
  // the servers of flows without a handshake. Kept by the caller.
  void setSharedEndpoints(const SharedEndpoints* shared) { shared_ = shared; }

  // Counts one packet on the connection.
  static void count(const Hit& h, const DecodedPacket& p, uint32_t segments, bool malformed);

  // The open connections, in order of id.
  const std::vector<std::unique_ptr<Connection>>& connections() const { return conns_; }
  // Connections created so far (open and closed); the next id is this + 1.
  int64_t created() const { return next_id_ - 1; }

  // Closes the connections silent for at least `idle_ns` of capture time
  // before `now_ns`; then, while more than `max_open` remain open, the
  // longest-silent ones until a quarter of the cap is free (a port scan or a
  // flood of fake connection ids must not hold one connection each). Closed
  // connections are moved to `closed` in order of id.
  void closeIdle(int64_t now_ns, int64_t idle_ns, size_t max_open,
                 std::vector<std::unique_ptr<Connection>>& closed);

 private:
  struct Key;
  struct KeyHash;
  struct Index;
  static Key pairKey(int keyProto, const DecodedPacket& p);
  static Key hostsKey(int protoIndex, uint64_t id, const DecodedPacket& p);
  Hit movePorts(Connection& c, const Endpoint& src, const Endpoint& dst, bool srcIsClient);
  RoleEvidence roles(const DecodedPacket& p) const;  // of a flow without a handshake
  // `handshake`: the roles a handshake showed; else roles(p) for a new connection.
  Hit byPair(int keyProto, const std::string& name, int protoIndex, const DecodedPacket& p,
             std::optional<RoleEvidence> handshake);
  Hit create(const std::string& proto, int protoIndex, const Endpoint& client, const Endpoint& server,
             int64_t ts);
  Hit createOrAdopt(const std::string& proto, int protoIndex, const Endpoint& client, const Endpoint& server,
                    int64_t ts);
  Hit contractHit(int protoIndex, const std::string& protoName, const Segment* first, const DecodedPacket& p);
  std::vector<std::unique_ptr<Connection>> conns_;
  std::unique_ptr<Index> index_;
  const SharedEndpoints* shared_ = nullptr;
  int64_t next_id_ = 1;
};

}  // namespace rudp
