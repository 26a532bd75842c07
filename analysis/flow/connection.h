// A connection as the analysis sees it: roles, endpoints and counters.
#pragma once
#include <cstdint>
#include <string>

#include "core/packet.h"

namespace rudp {

enum class Direction : uint8_t { ClientToServer = 0, ServerToClient = 1 };

struct Endpoint {
  IpAddress ip;
  uint16_t port = 0;
  bool operator==(const Endpoint&) const = default;
  auto operator<=>(const Endpoint&) const = default;
  std::string toString() const;  // "10.0.0.1:7777", "[::1]:7777"
};

// FNV-1a over the endpoint's address bytes and port, continuing from `h`.
uint64_t hashEndpoint(const Endpoint& e, uint64_t h = 1469598103934665603ull);

struct DirectionStats {
  uint64_t packets = 0;        // datagrams / TCP segments
  uint64_t bytes = 0;          // bytes on the wire (frame length)
  uint64_t payload_bytes = 0;  // transport payload bytes
  uint64_t segments = 0;       // contract segments (several per datagram for KCP/ENet)
  uint64_t malformed = 0;      // datagrams the dissector marked malformed or failed on
  uint64_t foreign = 0;        // datagrams on the socket no dissector claimed (heartbeats, probes)
  uint64_t icmp_errors = 0;    // ICMP errors quoting a datagram of this direction (not counted in packets)
};

// How a new connection's client and server were told apart.
struct RoleEvidence {
  bool src_is_client = true;  // the packet that created it came from the client
  const char* reason = "";    // "SYN", "handshake", "well-known port", ... (stored)
};

// The roles of a flow seen without a handshake, from its first packet: the
// side on a well-known port (below 1024) is the server; else the side many
// peers opened flows to (`srcOpeners`, `dstOpeners`: SharedEndpoints counts,
// kManyPeers or more on one side only); else, of a private and a public
// address, the private one is the client behind its NAT (with `byAddress`:
// UDP, where servers often sit on high ports); else the server is on the
// lower port, and with equal ports the first sender is the client.
RoleEvidence guessRoles(const Endpoint& src, const Endpoint& dst, bool byAddress, uint32_t srcOpeners = 0,
                        uint32_t dstOpeners = 0);

struct Connection {
  int64_t id = 0;        // 1-based, in order of first appearance
  std::string protocol;  // dissector filter name, "tcp" or "udp"
  int proto_index = -1;  // LuaHost::protocols() index, -1 for tcp/udp
  Endpoint client, server;
  bool roles_from_handshake = false;  // CONNECT/ACCEPT or SYN seen
  const char* roles_reason = "";      // RoleEvidence::reason
  bool has_conn_id = false;
  uint64_t conn_id = 0;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  uint32_t rebindings = 0;  // address/port changes under one connection id (NAT, reconnects)
  bool closed = false;      // closed by ConnectionTable::closeIdle (no more packets)
  DirectionStats dir[2];
};

}  // namespace rudp
