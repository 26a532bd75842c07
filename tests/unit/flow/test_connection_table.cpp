#include <catch2/catch.hpp>

#include "flow/connection_table.h"
#include "flow/shared_endpoints.h"

#include <string>
#include <vector>

using namespace rudp;

namespace {
IpAddress v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  IpAddress ip;
  ip.family = 4;
  ip.bytes[0] = a;
  ip.bytes[1] = b;
  ip.bytes[2] = c;
  ip.bytes[3] = d;
  return ip;
}
DecodedPacket udp(IpAddress s, uint16_t sp, IpAddress d, uint16_t dp, int64_t ts) {
  DecodedPacket p;
  p.l3 = L3::IPv4;
  p.l4 = L4::UDP;
  p.src = s;
  p.sport = sp;
  p.dst = d;
  p.dport = dp;
  p.ts_ns = ts;
  p.origlen = 100;
  p.payload_reported_len = 58;
  return p;
}
Segment seg(uint64_t id, SegmentRole role) {
  Segment s;
  s.has = Segment::ConnId;
  s.conn_id = id;
  s.role = role;
  return s;
}
}  // namespace

TEST_CASE("a connection id keeps a rebinding client on one connection") {
  ConnectionTable t;
  const auto server = v4(10, 0, 0, 1), client = v4(10, 0, 1, 2), moved = v4(192, 168, 5, 9);
  Segment connect = seg(7, SegmentRole::Connect), data = seg(7, SegmentRole::Data);
  auto h1 = t.contractPacket(0, "grudp", &connect, udp(client, 40000, server, 7777, 1));
  auto h2 = t.contractPacket(0, "grudp", &data, udp(server, 7777, client, 40000, 2));
  auto h3 = t.contractPacket(0, "grudp", &data, udp(moved, 51000, server, 7777, 3));
  auto h4 = t.contractPacket(0, "grudp", &data, udp(server, 7777, moved, 51000, 4));
  REQUIRE(t.connections().size() == 1);
  CHECK(h1.conn == h3.conn);
  CHECK(h1.dir == Direction::ClientToServer);
  CHECK(h2.dir == Direction::ServerToClient);
  CHECK(h3.dir == Direction::ClientToServer);
  CHECK(h4.dir == Direction::ServerToClient);
  const Connection& c = *t.connections()[0];
  CHECK(c.rebindings == 1);
  CHECK(c.client.toString() == "192.168.5.9:51000");
  CHECK(c.server.toString() == "10.0.0.1:7777");
  CHECK(c.roles_from_handshake);
  CHECK(c.conn_id == 7);
}

TEST_CASE("an ACCEPT seen first makes its sender the server, even on a high port") {
  ConnectionTable t;
  Segment accept = seg(9, SegmentRole::Accept);
  auto h = t.contractPacket(0, "grudp", &accept, udp(v4(1, 1, 1, 1), 50000, v4(2, 2, 2, 2), 3000, 1));
  CHECK(h.dir == Direction::ServerToClient);
  CHECK(h.conn->server.toString() == "1.1.1.1:50000");
}

TEST_CASE("different connection ids to one server are different connections") {
  ConnectionTable t;
  Segment a = seg(1, SegmentRole::Data), b = seg(2, SegmentRole::Data);
  t.contractPacket(0, "grudp", &a, udp(v4(10, 0, 1, 1), 40000, v4(10, 0, 0, 1), 7777, 1));
  t.contractPacket(0, "grudp", &b, udp(v4(10, 0, 1, 1), 40000, v4(10, 0, 0, 1), 7777, 2));
  CHECK(t.connections().size() == 2);
}

TEST_CASE("TCP roles come from the SYN; counters add up per direction") {
  ConnectionTable t;
  auto syn = udp(v4(10, 0, 0, 2), 80, v4(10, 0, 0, 3), 55555, 1);  // odd ports on purpose
  syn.l4 = L4::TCP;
  syn.tcp.flags = 0x02;
  auto h = t.tcpPacket(syn);
  ConnectionTable::count(h, syn, 0, false);
  auto reply = syn;
  std::swap(reply.src, reply.dst);
  std::swap(reply.sport, reply.dport);
  reply.tcp.flags = 0x12;
  reply.ts_ns = 5;
  auto h2 = t.tcpPacket(reply);
  ConnectionTable::count(h2, reply, 0, true);
  CHECK(h.dir == Direction::ClientToServer);
  CHECK(h2.dir == Direction::ServerToClient);
  const Connection& c = *t.connections()[0];
  CHECK(c.client.toString() == "10.0.0.2:80");
  CHECK(c.dir[0].packets == 1);
  CHECK(c.dir[1].packets == 1);
  CHECK(c.dir[1].malformed == 1);
  CHECK(c.dir[0].bytes == 100);
  CHECK(c.last_ts_ns == 5);
}

TEST_CASE("a claimed datagram without segments joins its protocol's connection on the address pair") {
  ConnectionTable t;
  const auto server = v4(10, 0, 0, 1), client = v4(10, 0, 1, 2);
  // Before any connection with an id: keyed by the pair (as before).
  auto lone = t.contractPacket(1, "kcp", nullptr, udp(v4(10, 9, 9, 9), 4000, server, 29900, 1));
  Segment data = seg(0x1234, SegmentRole::Data);
  auto h1 = t.contractPacket(1, "kcp", &data, udp(client, 40000, server, 29900, 2));
  auto parity_c = t.contractPacket(1, "kcp", nullptr, udp(client, 40000, server, 29900, 3));  // FEC parity
  auto parity_s = t.contractPacket(1, "kcp", nullptr, udp(server, 29900, client, 40000, 4));
  auto other =
      t.contractPacket(2, "enet", nullptr, udp(client, 40000, server, 29900, 5));  // another protocol
  CHECK(t.connections().size() == 3);
  CHECK(lone.conn != h1.conn);
  CHECK(parity_c.conn == h1.conn);
  CHECK(parity_c.dir == Direction::ClientToServer);
  CHECK(parity_s.conn == h1.conn);
  CHECK(parity_s.dir == Direction::ServerToClient);
  CHECK(other.conn != h1.conn);
}

TEST_CASE("idle connections close; a later packet on the same key is a new connection") {
  ConnectionTable t;
  const auto server = v4(10, 0, 0, 1);
  Segment data = seg(7, SegmentRole::Data);
  auto count = [&](ConnectionTable::Hit h, const DecodedPacket& p) {
    ConnectionTable::count(h, p, 1, false);
  };
  auto p1 = udp(v4(10, 0, 1, 1), 40000, server, 7777, 0);
  count(t.contractPacket(0, "grudp", &data, p1), p1);
  auto p2 = udp(v4(10, 0, 1, 2), 40000, server, 7777, 50);
  count(t.udpPacket(p2), p2);
  std::vector<std::unique_ptr<Connection>> closed;
  t.closeIdle(99, 100, 100, closed);  // nothing has been silent for 100 ns yet
  CHECK(closed.empty());
  t.closeIdle(100, 100, 100, closed);
  REQUIRE(closed.size() == 1);
  CHECK(closed[0]->id == 1);
  CHECK(closed[0]->closed);
  CHECK(closed[0]->dir[0].packets == 1);
  REQUIRE(t.connections().size() == 1);
  CHECK(t.connections()[0]->id == 2);
  // The same connection id again: a new connection, id 3; NAT-pair lookups
  // of the closed one are gone too.
  auto p3 = udp(server, 7777, v4(10, 0, 1, 1), 40000, 200);
  auto h = t.contractPacket(0, "grudp", &data, p3);
  CHECK(h.conn->id == 3);
  CHECK(h.dir == Direction::ServerToClient);
  CHECK(t.contractPacket(0, "grudp", nullptr, p3).conn->id == 3);
  CHECK(t.created() == 3);
}

TEST_CASE("past the open-connection cap the longest-silent connections close first") {
  ConnectionTable t;
  const auto server = v4(10, 0, 0, 1);
  // 10 connections, the 5th was active last.
  for (int i = 0; i < 10; ++i) {
    auto p = udp(v4(10, 0, 1, uint8_t(i)), 40000, server, 7777, i == 4 ? 1000 : i);
    ConnectionTable::count(t.udpPacket(p), p, 0, false);
  }
  std::vector<std::unique_ptr<Connection>> closed;
  t.closeIdle(1000, 1'000'000, 8, closed);  // cap 8: keep the 6 most recent
  std::vector<int64_t> open, gone;
  for (const auto& c : t.connections()) open.push_back(c->id);
  for (const auto& c : closed) gone.push_back(c->id);
  CHECK(open == std::vector<int64_t>{5, 6, 7, 8, 9, 10});
  CHECK(gone == std::vector<int64_t>{1, 2, 3, 4});
  // Ties at the cut: only as many as needed close.
  ConnectionTable same;
  for (int i = 0; i < 10; ++i) {
    auto p = udp(v4(10, 0, 2, uint8_t(i)), 40000, server, 7777, 5);
    ConnectionTable::count(same.udpPacket(p), p, 0, false);
  }
  closed.clear();
  same.closeIdle(5, 1'000'000, 8, closed);
  CHECK(closed.size() == 4);
  CHECK(same.connections().size() == 6);
}

TEST_CASE("a conversation id between the same two hosts on a new port pair stays one connection") {
  ConnectionTable t;
  const auto a = v4(10, 0, 0, 1), b = v4(10, 0, 0, 2);
  const Segment data = seg(0x0a, SegmentRole::Data);
  auto h1 = t.contractPacket(1, "kcp", &data, udp(a, 47356, b, 8000, 1));
  // Both ports new (a reconnect with the same conv): the server's side is
  // the one with the server's address, whatever the ports say.
  auto h2 = t.contractPacket(1, "kcp", &data, udp(b, 52761, a, 8661, 2));
  auto h3 = t.contractPacket(1, "kcp", &data, udp(a, 8661, b, 52761, 3));
  REQUIRE(t.connections().size() == 1);
  CHECK(h2.conn == h1.conn);
  CHECK(h3.conn == h1.conn);
  CHECK(h2.dir == Direction::ServerToClient);
  CHECK(h3.dir == Direction::ClientToServer);
  const Connection& c = *t.connections()[0];
  CHECK(c.rebindings == 1);
  CHECK(c.client.toString() == "10.0.0.1:8661");
  CHECK(c.server.toString() == "10.0.0.2:52761");
  // Another conversation id between the same hosts is another connection.
  const Segment other = seg(0x0b, SegmentRole::Data);
  CHECK(t.contractPacket(1, "kcp", &other, udp(a, 8661, b, 52761, 4)).conn != h1.conn);
}

TEST_CASE("a conversation on loopback that moves to new ports keeps its roles by the port rule") {
  ConnectionTable t;
  const auto lo = v4(127, 0, 0, 1);
  const Segment data = seg(0x0a, SegmentRole::Data);
  auto h1 = t.contractPacket(1, "kcp", &data, udp(lo, 47356, lo, 8000, 1));
  auto h2 = t.contractPacket(1, "kcp", &data, udp(lo, 54548, lo, 47988, 2));
  REQUIRE(t.connections().size() == 1);
  CHECK(h2.conn == h1.conn);
  CHECK(h2.dir == Direction::ClientToServer);  // from the higher port, as for a new connection
  CHECK(t.connections()[0]->server.toString() == "127.0.0.1:47988");
}

TEST_CASE("datagrams no dissector claims on a protocol's address pair are its foreign datagrams") {
  ConnectionTable t;
  const auto a = v4(10, 0, 0, 1), b = v4(10, 0, 0, 2);
  const Segment data = seg(0x0a, SegmentRole::Data);
  // A heartbeat before the protocol's first datagram: a "udp" connection,
  // which the protocol then takes over.
  const auto early = udp(a, 47356, b, 8000, 1);
  ConnectionTable::count(t.udpPacket(early), early, 0, false);
  auto k = t.contractPacket(1, "kcp", &data, udp(a, 47356, b, 8000, 2));
  const auto late = udp(b, 8000, a, 47356, 3);
  const auto hb = t.udpPacket(late);
  ConnectionTable::count(hb, late, 0, false);
  REQUIRE(t.connections().size() == 1);
  CHECK(hb.conn == k.conn);
  CHECK(hb.foreign);
  CHECK(hb.dir == Direction::ServerToClient);
  const Connection& c = *t.connections()[0];
  CHECK(c.protocol == "kcp");
  CHECK(c.dir[0].foreign == 1);
  CHECK(c.dir[1].foreign == 1);
  // Another address pair's datagrams stay plain UDP.
  CHECK_FALSE(t.udpPacket(udp(a, 47357, b, 8000, 4)).foreign);
  CHECK(t.connections().size() == 2);
}

TEST_CASE("the endpoint three peers opened answered flows to is their server, on any port or address") {
  // A server-side capture: the server on a private address and a port above
  // its clients', where the NAT and port rules would both name it the client.
  const auto server = v4(10, 1, 1, 1);
  SharedEndpoints shared;
  std::vector<DecodedPacket> opens;
  for (uint8_t i = 0; i < 3; ++i) {
    const auto client = v4(203, 0, 113, uint8_t(2 + i));
    const uint16_t port = uint16_t(40001 + i);
    opens.push_back(udp(client, port, server, 50000, 10 * i));
    shared.add(opens.back());
    CHECK(shared.openers({server, 50000}, false) == i);  // counted when answered, not before
    shared.add(udp(server, 50000, client, port, 10 * i + 1));
    shared.add(udp(client, port, server, 50000, 10 * i + 2));  // a flow counts once
  }
  CHECK(shared.openers({server, 50000}, false) == 3);
  CHECK(shared.openers({server, 50000}, true) == 0);  // UDP and TCP apart
  CHECK(shared.openers({v4(203, 0, 113, 2), 40001}, false) == 0);

  ConnectionTable t;
  t.setSharedEndpoints(&shared);
  // The server's packet first: still the server.
  auto h = t.udpPacket(udp(server, 50000, v4(203, 0, 113, 3), 40002, 100));
  CHECK(h.dir == Direction::ServerToClient);
  CHECK(h.conn->server.toString() == "10.1.1.1:50000");
  CHECK(std::string(h.conn->roles_reason) == "many peers opened flows to it");

  ConnectionTable without;
  auto w = without.udpPacket(udp(server, 50000, v4(203, 0, 113, 3), 40002, 100));
  CHECK(w.conn->client.toString() == "10.1.1.1:50000");
  CHECK(std::string(w.conn->roles_reason) == "private address behind NAT");
}

TEST_CASE("datagrams one way only open nothing, and a well-known port outranks many peers") {
  const auto host = v4(192, 168, 2, 100), peer = v4(148, 153, 35, 205);
  SharedEndpoints shared;
  for (uint16_t port = 60001; port < 60006; ++port) shared.add(udp(peer, port, host, 32951, port));
  CHECK(shared.openers({host, 32951}, false) == 0);  // never answered: probes, not peers

  CHECK(std::string(guessRoles({peer, 53}, {host, 5000}, true, 0, 3).reason) == "well-known port");
  CHECK_FALSE(guessRoles({peer, 53}, {host, 5000}, true, 0, 3).src_is_client);
  // As many openers on both sides (three peers each): the next rules decide.
  CHECK(std::string(guessRoles({peer, 6000}, {host, 5000}, true, 3, 3).reason) ==
        "private address behind NAT");
  CHECK(guessRoles({host, 6000}, {peer, 5000}, true, 0, 2).reason !=
        std::string("many peers opened flows to it"));
}
