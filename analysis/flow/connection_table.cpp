#include "flow/connection_table.h"

#include "core/time_gap.h"
#include "flow/shared_endpoints.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace rudp {

uint64_t hashEndpoint(const Endpoint& e, uint64_t h) {
  auto mix = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  mix(e.ip.bytes.data(), e.ip.family == 6 ? 16 : 4);
  mix(&e.port, 2);
  return h;
}

std::string Endpoint::toString() const {
  if (ip.family == 6) return "[" + ip.toString() + "]:" + std::to_string(port);
  return ip.toString() + ":" + std::to_string(port);
}

// Contract connections with an id are keyed by (protocol, id, server endpoint)
// so a client that changes address (NAT rebinding) stays one connection.
// Everything else is keyed by the endpoint pair, lower endpoint first.
struct ConnectionTable::Key {
  int proto = -1;  // protocol index; -2 tcp, -3 udp
  bool has_id = false;
  uint64_t id = 0;
  Endpoint a, b;
  bool operator==(const Key&) const = default;
};

struct ConnectionTable::KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(k.proto + 7);
    const auto* id = reinterpret_cast<const uint8_t*>(&k.id);
    for (size_t i = 0; i < sizeof k.id; ++i) h = (h ^ id[i]) * 1099511628211ull;
    return static_cast<size_t>(hashEndpoint(k.b, hashEndpoint(k.a, h)));
  }
};

struct ConnectionTable::Index {
  std::unordered_map<Key, Connection*, KeyHash> map;
  // (protocol, endpoint pair) -> the latest connection with an id on that
  // pair: where the protocol's datagrams without segments go (KCP FEC parity).
  std::unordered_map<Key, Connection*, KeyHash> id_by_pair;
  // (endpoint pair) -> the latest connection of any protocol on that pair:
  // where the datagrams no dissector claimed go.
  std::unordered_map<Key, Connection*, KeyHash> contract_by_pair;
  // (protocol, id, the two addresses without ports) -> the connection: a
  // conversation that went on over a new port pair (a reconnect with the
  // same KCP conv, a NAT that remapped both ends).
  std::unordered_map<Key, Connection*, KeyHash> id_by_hosts;
  // (QUIC, the reader's connection, a client endpoint): every address a
  // QUIC client sent from.
  std::unordered_set<Key, KeyHash> quic_clients;
};

namespace {
constexpr int kTcp = -2, kUdp = -3, kAnyProtocol = -4, kQuic = -5;

bool lessEndpoint(const Endpoint& x, const Endpoint& y) {
  if (x.ip != y.ip) return x.ip < y.ip;
  return x.port < y.port;
}

Direction dirOf(const Connection& c, const Endpoint& src) {
  return c.client == src ? Direction::ClientToServer : Direction::ServerToClient;
}
}  // namespace

RoleEvidence guessRoles(const Endpoint& src, const Endpoint& dst, bool byAddress, uint32_t srcOpeners,
                        uint32_t dstOpeners) {
  constexpr uint16_t kWellKnownPorts = 1024;
  if ((src.port < kWellKnownPorts) != (dst.port < kWellKnownPorts))
    return {dst.port < kWellKnownPorts, "well-known port"};
  if (std::max(srcOpeners, dstOpeners) >= SharedEndpoints::kManyPeers && srcOpeners != dstOpeners)
    return {dstOpeners > srcOpeners, "many peers opened flows to it"};
  const bool srcPrivate = isPrivateAddress(src.ip), dstPrivate = isPrivateAddress(dst.ip);
  if (byAddress && srcPrivate != dstPrivate) return {srcPrivate, "private address behind NAT"};
  if (src.port != dst.port) return {src.port > dst.port, "higher port"};
  return {true, "sent first"};
}

// The key of a packet's address pair for `keyProto`, lower endpoint first.
ConnectionTable::Key ConnectionTable::pairKey(int keyProto, const DecodedPacket& p) {
  Key k{keyProto, false, 0, {p.src, p.sport}, {p.dst, p.dport}};
  if (lessEndpoint(k.b, k.a)) std::swap(k.a, k.b);
  return k;
}

ConnectionTable::Key ConnectionTable::hostsKey(int protoIndex, uint64_t id, const DecodedPacket& p) {
  Key k{protoIndex, true, id, {p.src, 0}, {p.dst, 0}};
  if (lessEndpoint(k.b, k.a)) std::swap(k.a, k.b);
  return k;
}

ConnectionTable::ConnectionTable() : index_(std::make_unique<Index>()) {}
ConnectionTable::~ConnectionTable() = default;

ConnectionTable::Hit ConnectionTable::create(const std::string& proto, int protoIndex, const Endpoint& client,
                                             const Endpoint& server, int64_t ts) {
  auto c = std::make_unique<Connection>();
  c->id = next_id_++;
  c->protocol = proto;
  c->proto_index = protoIndex;
  c->client = client;
  c->server = server;
  c->first_ts_ns = c->last_ts_ns = ts;
  conns_.push_back(std::move(c));
  return Hit{conns_.back().get(), Direction::ClientToServer};
}

RoleEvidence ConnectionTable::roles(const DecodedPacket& p) const {
  const Endpoint src{p.src, p.sport}, dst{p.dst, p.dport};
  const bool tcp = p.l4 == L4::TCP;
  if (!shared_) return guessRoles(src, dst, !tcp);
  return guessRoles(src, dst, !tcp, shared_->openers(src, tcp), shared_->openers(dst, tcp));
}

ConnectionTable::Hit ConnectionTable::byPair(int keyProto, const std::string& name, int protoIndex,
                                             const DecodedPacket& p, std::optional<RoleEvidence> handshake) {
  const Endpoint src{p.src, p.sport}, dst{p.dst, p.dport};
  const Key k = pairKey(keyProto, p);
  if (auto it = index_->map.find(k); it != index_->map.end()) return Hit{it->second, dirOf(*it->second, src)};
  const RoleEvidence ifNew = handshake ? *handshake : roles(p);
  Hit h = ifNew.src_is_client ? createOrAdopt(name, protoIndex, src, dst, p.ts_ns)
                              : createOrAdopt(name, protoIndex, dst, src, p.ts_ns);
  h.dir = ifNew.src_is_client ? Direction::ClientToServer : Direction::ServerToClient;
  h.conn->roles_from_handshake = handshake.has_value();
  h.conn->roles_reason = ifNew.reason;
  index_->map.emplace(k, h.conn);
  return h;
}

ConnectionTable::Hit ConnectionTable::contractPacket(int protoIndex, const std::string& protoName,
                                                     const Segment* first, const DecodedPacket& p) {
  const Hit h = contractHit(protoIndex, protoName, first, p);
  index_->contract_by_pair[pairKey(kAnyProtocol, p)] = h.conn;
  return h;
}

ConnectionTable::Hit ConnectionTable::contractHit(int protoIndex, const std::string& protoName,
                                                  const Segment* first, const DecodedPacket& p) {
  const Endpoint src{p.src, p.sport}, dst{p.dst, p.dport};
  const bool connect = first && first->role == SegmentRole::Connect;
  const bool accept = first && first->role == SegmentRole::Accept;
  const std::optional<RoleEvidence> handshake =
      connect || accept ? std::optional(RoleEvidence{connect, "handshake"}) : std::nullopt;
  const Key pair = pairKey(protoIndex, p);
  if (!first) {
    // Claimed but without segments (no connection id to go by): it belongs to
    // the protocol's connection on this address pair when there is one.
    if (auto it = index_->id_by_pair.find(pair); it != index_->id_by_pair.end()) {
      Connection* c = it->second;
      return Hit{c, c->client == src ? Direction::ClientToServer : Direction::ServerToClient};
    }
  }
  if (!first || !first->is(Segment::ConnId)) return byPair(protoIndex, protoName, protoIndex, p, handshake);

  const uint64_t id = first->conn_id;
  // The server endpoint is the stable one: find it on either side.
  if (auto it = index_->map.find(Key{protoIndex, true, id, dst, {}}); it != index_->map.end()) {
    Connection* c = it->second;
    if (!(c->client == src)) {
      c->client = src;
      ++c->rebindings;
      index_->id_by_hosts[hostsKey(protoIndex, id, p)] = c;
    }
    index_->id_by_pair[pair] = c;
    return Hit{c, Direction::ClientToServer};
  }
  if (auto it = index_->map.find(Key{protoIndex, true, id, src, {}}); it != index_->map.end()) {
    Connection* c = it->second;
    if (!(c->client == dst)) {
      c->client = dst;
      ++c->rebindings;
      index_->id_by_hosts[hostsKey(protoIndex, id, p)] = c;
    }
    index_->id_by_pair[pair] = c;
    return Hit{c, Direction::ServerToClient};
  }
  const RoleEvidence roles = handshake ? *handshake : this->roles(p);
  const bool srcIsClient = roles.src_is_client;
  const Key hosts = hostsKey(protoIndex, id, p);
  if (auto it = index_->id_by_hosts.find(hosts); it != index_->id_by_hosts.end()) {
    const Hit h = movePorts(*it->second, src, dst, srcIsClient);
    index_->id_by_pair[pair] = h.conn;
    return h;
  }
  Hit h = srcIsClient ? createOrAdopt(protoName, protoIndex, src, dst, p.ts_ns)
                      : createOrAdopt(protoName, protoIndex, dst, src, p.ts_ns);
  h.dir = srcIsClient ? Direction::ClientToServer : Direction::ServerToClient;
  h.conn->has_conn_id = true;
  h.conn->conn_id = id;
  h.conn->roles_from_handshake = handshake.has_value();
  h.conn->roles_reason = roles.reason;
  index_->map.emplace(Key{protoIndex, true, id, h.conn->server, {}}, h.conn);
  index_->id_by_pair[pair] = h.conn;
  index_->id_by_hosts[hosts] = h.conn;
  return h;
}

// A connection's id seen between the same two hosts on new ports: the client
// and the server keep their addresses (told apart by them, or by `srcIsClient`
// when both ends share one address, as on loopback) and take the new ports.
ConnectionTable::Hit ConnectionTable::movePorts(Connection& c, const Endpoint& src, const Endpoint& dst,
                                                bool srcIsClient) {
  const bool fromClient = src.ip != dst.ip ? src.ip == c.client.ip : srcIsClient;
  index_->map.erase(Key{c.proto_index, true, c.conn_id, c.server, {}});
  c.client = fromClient ? src : dst;
  c.server = fromClient ? dst : src;
  ++c.rebindings;
  index_->map.emplace(Key{c.proto_index, true, c.conn_id, c.server, {}}, &c);
  return Hit{&c, fromClient ? Direction::ClientToServer : Direction::ServerToClient};
}

ConnectionTable::Hit ConnectionTable::tcpPacket(const DecodedPacket& p) {
  const bool syn = p.tcp.flags & tcpflag::kSyn, ack = p.tcp.flags & tcpflag::kAck;
  return byPair(kTcp, "tcp", -1, p, syn ? std::optional(RoleEvidence{!ack, "SYN"}) : std::nullopt);
}

ConnectionTable::Hit ConnectionTable::udpPacket(const DecodedPacket& p) {
  const Endpoint src{p.src, p.sport};
  if (auto it = index_->contract_by_pair.find(pairKey(kAnyProtocol, p)); it != index_->contract_by_pair.end())
    return Hit{it->second, dirOf(*it->second, src), true};
  return byPair(kUdp, "udp", -1, p, std::nullopt);
}

ConnectionTable::Hit ConnectionTable::quicPacket(const DecodedPacket& p, bool fromClient,
                                                 uint64_t quicConnection) {
  // By the QUIC reader's connection, not the address pair: a migration stays
  // one connection, and a new connection on the same pair is a new one.
  const Key k{kQuic, true, quicConnection, {}, {}};
  const Direction dir = fromClient ? Direction::ClientToServer : Direction::ServerToClient;
  const Endpoint src{p.src, p.sport}, dst{p.dst, p.dport};
  if (auto it = index_->map.find(k); it != index_->map.end()) {
    // The client sent from an address it never used (NAT rebinding,
    // migration): the same connection. Its peer's packets to the old one
    // while it validates the new path move nothing. (The set is asked only
    // off the usual path: the current client address is always in it.)
    Connection* c = it->second;
    if (fromClient && !(c->client == src) &&
        index_->quic_clients.insert({kQuic, true, quicConnection, src, {}}).second) {
      c->client = src;
      ++c->rebindings;
    }
    return Hit{c, dir};
  }
  Hit h = fromClient ? create("quic", -1, src, dst, p.ts_ns) : create("quic", -1, dst, src, p.ts_ns);
  h.dir = dir;
  h.conn->roles_from_handshake = true;
  h.conn->roles_reason = "QUIC Initial";
  index_->map.emplace(k, h.conn);
  index_->quic_clients.insert({kQuic, true, quicConnection, h.conn->client, {}});
  return h;
}

ConnectionTable::Hit ConnectionTable::icmpError(const DecodedPacket& p) const {
  const OuterHeader& q = p.icmp.quoted;
  DecodedPacket quoted;  // its address pair, as a packet's
  quoted.src = q.src;
  quoted.dst = q.dst;
  quoted.sport = q.udp ? q.sport : p.icmp.quoted_tcp_sport;
  quoted.dport = q.udp ? q.dport : p.icmp.quoted_tcp_dport;
  const Endpoint src{q.src, quoted.sport};
  auto hit = [&](const auto& map, int keyProto) -> Hit {
    const auto it = map.find(pairKey(keyProto, quoted));
    return it == map.end() ? Hit{} : Hit{it->second, dirOf(*it->second, src)};
  };
  if (p.icmp.has_quoted_tcp) return hit(index_->map, kTcp);
  if (!q.udp) return {};
  const Hit h = hit(index_->contract_by_pair, kAnyProtocol);
  return h.conn ? h : hit(index_->map, kUdp);
}

// A protocol's first datagram on an address pair that already has a "udp"
// connection (datagrams no dissector claimed came first): that connection
// becomes the protocol's, its datagrams so far foreign ones.
ConnectionTable::Hit ConnectionTable::createOrAdopt(const std::string& proto, int protoIndex,
                                                    const Endpoint& client, const Endpoint& server,
                                                    int64_t ts) {
  Key udp{kUdp, false, 0, client, server};
  if (lessEndpoint(udp.b, udp.a)) std::swap(udp.a, udp.b);
  const auto it = protoIndex >= 0 ? index_->map.find(udp) : index_->map.end();
  if (it == index_->map.end()) return create(proto, protoIndex, client, server, ts);
  Connection* c = it->second;
  index_->map.erase(it);
  if (!(c->client == client)) std::swap(c->dir[0], c->dir[1]);
  c->protocol = proto;
  c->proto_index = protoIndex;
  c->client = client;
  c->server = server;
  for (DirectionStats& d : c->dir) d.foreign = d.packets;
  return Hit{c, Direction::ClientToServer};
}

void ConnectionTable::closeIdle(int64_t now_ns, int64_t idle_ns, size_t max_open,
                                std::vector<std::unique_ptr<Connection>>& closed) {
  // Past the cap: everything silent since before the `keep`-th most recent
  // activity closes as well (ties at the cut close only while needed).
  const size_t keep = max_open - max_open / 4;
  bool capped = conns_.size() > max_open;
  int64_t cutoff = INT64_MIN;
  size_t at_cutoff_to_close = 0;
  if (capped) {
    std::vector<int64_t> last;
    last.reserve(conns_.size());
    for (const auto& c : conns_) last.push_back(c->last_ts_ns);
    auto nth = last.end() - static_cast<std::ptrdiff_t>(keep);
    std::nth_element(last.begin(), nth, last.end());
    cutoff = *nth;
    const size_t below =
        static_cast<size_t>(std::count_if(last.begin(), last.end(), [&](int64_t t) { return t < cutoff; }));
    at_cutoff_to_close = conns_.size() - keep - below;
  }
  size_t n = 0;
  for (auto& c : conns_) {
    bool close = gapNs(now_ns, c->last_ts_ns) >= idle_ns || c->last_ts_ns < cutoff;
    if (!close && capped && c->last_ts_ns == cutoff && at_cutoff_to_close > 0) {
      --at_cutoff_to_close;
      close = true;
    }
    if (!close) continue;
    c->closed = true;
    closed.push_back(std::move(c));
    ++n;
  }
  if (n == 0) return;
  std::erase_if(conns_, [](const auto& c) { return !c; });
  std::erase_if(index_->map, [](const auto& kv) { return kv.second->closed; });
  std::erase_if(index_->id_by_pair, [](const auto& kv) { return kv.second->closed; });
  std::erase_if(index_->contract_by_pair, [](const auto& kv) { return kv.second->closed; });
  std::erase_if(index_->id_by_hosts, [](const auto& kv) { return kv.second->closed; });
}

void ConnectionTable::count(const Hit& h, const DecodedPacket& p, uint32_t segments, bool malformed) {
  DirectionStats& d = h.conn->dir[static_cast<int>(h.dir)];
  ++d.packets;
  d.bytes += p.origlen;
  d.payload_bytes += p.payload_reported_len;
  d.segments += segments;
  if (malformed) ++d.malformed;
  if (h.foreign) ++d.foreign;
  if (p.ts_ns < h.conn->first_ts_ns) h.conn->first_ts_ns = p.ts_ns;
  if (p.ts_ns > h.conn->last_ts_ns) h.conn->last_ts_ns = p.ts_ns;
}

}  // namespace rudp
