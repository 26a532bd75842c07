// TCP: SYN retransmission, Karn and timestamp RTT, fast after one SACK,
// timeout, spurious at the sender, zero window, and holes at the receiver.
#include <catch2/catch.hpp>

#include "analyzers/tcp_analyzer.h"
#include "harness.h"

using namespace anatest;

namespace {
constexpr uint8_t SYN = 0x02, ACK = 0x10, PSH = 0x08;

struct Tcp {
  DecodedPacket p;
  Tcp(uint32_t seq, uint32_t ack, uint8_t flags, uint32_t len = 0, uint16_t window = 1000) {
    p.l4 = L4::TCP;
    p.tcp.seq = seq;
    p.tcp.ack = ack;
    p.tcp.flags = flags;
    p.tcp.window = window;
    p.payload_reported_len = len;
  }
  Tcp& ts(uint32_t val, uint32_t ecr) {
    p.tcp.options.has_timestamps = true;
    p.tcp.options.tsval = val;
    p.tcp.options.tsecr = ecr;
    return *this;
  }
  Tcp& sack(uint32_t l, uint32_t r) {
    p.tcp.options.sack_blocks[p.tcp.options.sack_block_count++] = {l, r};
    return *this;
  }
};

struct TcpFeed {
  Recorder r;
  AnalyzerConfig cfg;
  TcpAnalyzer a{cfg, &r};
  uint64_t frame = 0;
  uint64_t send(Direction d, double ms, const Tcp& t) {
    a.onPacket(++frame, int64_t(ms * 1e6), d, t.p, 60 + t.p.payload_reported_len);
    return frame;
  }
  // Handshake as a client-side capture sees it (RTT 50 ms), SYN sent twice.
  void handshake() {
    send(C2S, 0, Tcp(1000, 0, SYN));
    send(C2S, 1000, Tcp(1000, 0, SYN));
    send(S2C, 1050, Tcp(5000, 1001, SYN | ACK));
    send(C2S, 1050.1, Tcp(1001, 5001, ACK));
  }
};
}  // namespace

TEST_CASE("TCP at the sender: SYN retry, Karn RTT, fast after one SACK, timeout, spurious") {
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1100, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(C2S, 1110, Tcp(1101, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1120, Tcp(1201, 5001, ACK | PSH, 100));
  t.send(S2C, 1150, Tcp(5001, 1101, ACK));
  t.send(S2C, 1170, Tcp(5001, 1101, ACK).sack(1201, 1301));
  t.send(C2S, 1170.02, Tcp(1101, 5001, ACK | PSH, 100));  // fast: one SACK
  t.send(S2C, 1220, Tcp(5001, 1301, ACK));                // no Karn sample: covers a copy
  t.send(C2S, 1300, Tcp(1301, 5001, ACK | PSH, 100));     // lost
  t.send(C2S, 1500, Tcp(1301, 5001, ACK | PSH, 100));     // timeout
  t.send(S2C, 1550, Tcp(5001, 1401, ACK));
  t.send(C2S, 1600, Tcp(1401, 5001, ACK | PSH, 100));
  t.send(S2C, 1650, Tcp(5001, 1501, ACK));             // reached the sender...
  t.send(C2S, 1800, Tcp(1401, 5001, ACK | PSH, 100));  // ...so this copy is spurious
  t.send(C2S, 9000, Tcp(1500, 5001, ACK, 1));          // keepalive: not a retransmission
  t.send(S2C, 9050, Tcp(5001, 1501, ACK));
  auto m = t.a.finish();
  CHECK(m.vantage == Vantage::Client);
  CHECK(m.connect_attempts == 2);
  CHECK(m.handshake_ms == Approx(1050.1));
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 4);  // SYN, fast, timeout, spurious
  CHECK(cs.retransmissions_fast == 1);
  CHECK(cs.retransmissions_timeout == 2);
  CHECK(cs.retransmissions_spurious == 1);
  REQUIRE(t.r.retx.size() == 4);
  CHECK(t.r.retx[0].seq == 0);  // relative seq of the SYN
  CHECK(t.r.retx[0].since_previous_ms == Approx(1000));
  CHECK(t.r.retx[1].cause == RetxCause::Fast);
  CHECK(t.r.retx[2].cause == RetxCause::Timeout);
  CHECK(t.r.retx[2].since_previous_ms == Approx(200));
  CHECK(t.r.retx[3].cause == RetxCause::Spurious);
  // RTT: c2s samples 50 (ack 1101) and 50 (ack 1501); the acks of the SYN,
  // of 1301 (covers the copy of 1101) and of 1401 (covers 1301's copy) give none.
  CHECK(cs.rtt.samples == 2);
  CHECK(cs.rtt.min == Approx(50));
  CHECK(cs.rtt.max == Approx(50));
  REQUIRE(cs.stalls.size() == 2);  // the lost SYN (0 .. 1050) and 1300 .. 1550
  CHECK(cs.stalls[0].end_ns == int64_t(1050e6));
  CHECK(cs.stalls[0].retransmissions == 1);
  CHECK(cs.stalls[1].start_ns == int64_t(1300e6));
  CHECK(cs.stalls[1].end_ns == int64_t(1550e6));
  CHECK(cs.stalls[1].cause == StallCause::PeerSilent);  // the receiver had nothing to say
}

TEST_CASE("TCP timestamps give RTT samples, a zero window is a stall") {
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(100, 0));
  t.send(S2C, 40, Tcp(5000, 1001, SYN | ACK).ts(7000, 100));
  t.send(C2S, 40.2, Tcp(1001, 5001, ACK).ts(140, 7000));
  t.send(C2S, 50, Tcp(1001, 5001, ACK | PSH, 100).ts(150, 7000));
  t.send(S2C, 90, Tcp(5001, 1101, ACK).ts(7050, 150));
  t.send(C2S, 100, Tcp(1101, 5001, ACK | PSH, 100).ts(200, 7050));
  t.send(S2C, 141, Tcp(5001, 1201, ACK, 0, 0).ts(7101, 200));  // window closes
  t.send(S2C, 700, Tcp(5001, 1201, ACK, 0, 1000).ts(7660, 200));
  auto m = t.a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.rtt.samples == 3);  // SYN 40, 40, 41
  CHECK(cs.rtt.min == Approx(40));
  CHECK(cs.rtt.max == Approx(41));
  REQUIRE(cs.stalls.size() == 1);
  CHECK(cs.stalls[0].cause == StallCause::ZeroWindow);
  CHECK(cs.stalls[0].duration_ms == Approx(559));
  CHECK(cs.min_window == 0);
}

TEST_CASE("TCP at the receiver: a hole filled by a later-sent copy is a retransmission, else reordering") {
  TcpFeed t;
  // Server-side capture: client packets on arrival.
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(100, 0));
  t.send(S2C, 0.1, Tcp(5000, 1001, SYN | ACK).ts(7000, 100));
  t.send(C2S, 50, Tcp(1001, 5001, ACK).ts(150, 7000));
  t.send(C2S, 60, Tcp(1001, 5001, ACK | PSH, 100).ts(160, 7000));
  t.send(C2S, 80, Tcp(1201, 5001, ACK | PSH, 100).ts(180, 7000));  // 1101 missing
  t.send(S2C, 80.1, Tcp(5001, 1101, ACK).ts(7080, 160).sack(1201, 1301));
  t.send(C2S, 130, Tcp(1101, 5001, ACK | PSH, 100).ts(230, 7080));  // sent after 1201: a copy
  t.send(C2S, 150, Tcp(1401, 5001, ACK | PSH, 100).ts(240, 7080));  // 1301 missing
  t.send(C2S, 152, Tcp(1301, 5001, ACK | PSH, 100).ts(238, 7080));  // sent before 1401: reordered
  t.send(S2C, 152.1, Tcp(5001, 1501, ACK).ts(7152, 240));
  auto m = t.a.finish();
  CHECK(m.vantage == Vantage::Server);
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 1);
  CHECK(cs.retransmissions_inferred == 1);
  CHECK(cs.lost == 1);
  CHECK(cs.reordered == 1);
  // 1201 waited from 80 to 130 ms for 1101, 1401 from 150 to 152 for 1301.
  CHECK(cs.hol_observable);
  CHECK(cs.hol_blocked_packets == 2);
  CHECK(cs.hol_blocking_ms == Approx(52.0));
  CHECK(cs.hol_max_ms == Approx(50.0));
  REQUIRE(t.r.retx.size() == 1);
  CHECK(t.r.retx[0].seq == 101);
  CHECK(t.r.retx[0].original_frame == 0);
  CHECK(t.r.retx[0].cause == RetxCause::Fast);  // 50 ms after the SACK that showed the hole
}

TEST_CASE("TCP at the sender: a copy leaving with the SACK of a loss probe is fast, 200 ms late or not") {
  // Linux with Nagle on: the lost segment is the only one out, the tail loss
  // probe sends the waiting data ~200 ms later, the probe's SACK shows the
  // hole and the copy leaves with that ACK (TCPFastRetrans, RACK).
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1060, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 1110, Tcp(5001, 1101, ACK));             // RTT 50 ms: RTO 200 ms
  t.send(C2S, 1200, Tcp(1101, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1410, Tcp(1201, 5001, ACK | PSH, 100));  // the probe: new data
  t.send(S2C, 1460, Tcp(5001, 1101, ACK).sack(1201, 1301));
  t.send(C2S, 1460.03, Tcp(1101, 5001, ACK | PSH, 100));  // with the SACK: fast
  t.send(S2C, 1510, Tcp(5001, 1301, ACK));
  t.send(C2S, 1600, Tcp(1301, 5001, ACK | PSH, 100));  // lost, nothing after it
  t.send(C2S, 1900, Tcp(1301, 5001, ACK | PSH, 100));  // no ack came: the timer's copy
  t.send(S2C, 1950, Tcp(5001, 1401, ACK));
  auto m = t.a.finish();
  REQUIRE(t.r.retx.size() == 3);  // the SYN, then the two copies
  CHECK(t.r.retx[1].cause == RetxCause::Fast);
  CHECK(t.r.retx[1].since_previous_ms == Approx(260.03));  // past the 200 ms timer
  CHECK(t.r.retx[2].cause == RetxCause::Timeout);
  CHECK(m.dir[0].retransmissions_fast == 1);
  CHECK(m.dir[0].retransmissions_timeout == 2);
}

TEST_CASE("TCP at the receiver: a hole filled long after the SACK that showed it is a timeout copy") {
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN));
  t.send(S2C, 0.1, Tcp(5000, 1001, SYN | ACK));
  t.send(C2S, 50, Tcp(1001, 5001, ACK));
  t.send(C2S, 60, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(C2S, 93, Tcp(1201, 5001, ACK | PSH, 100));  // 1101 missing
  t.send(S2C, 93.1, Tcp(5001, 1101, ACK).sack(1201, 1301));
  t.send(C2S, 330, Tcp(1101, 5001, ACK | PSH, 100));  // the fast copy was lost too: the timer's
  t.send(S2C, 330.1, Tcp(5001, 1301, ACK));
  t.a.finish();
  REQUIRE(t.r.retx.size() == 1);
  CHECK(t.r.retx[0].cause == RetxCause::Timeout);
}

TEST_CASE("TCP vantage from IP TTLs when round trips are too short to tell the ends apart") {
  // A LAN capture at the client: its own packets leave with TTL 64, the
  // server's were routed once (63); RTTs of 0.05 ms say nothing.
  for (const auto& [cTtl, sTtl, want] :
       {std::tuple{64, 63, Vantage::Client}, std::tuple{127, 128, Vantage::Server},
        std::tuple{64, 64, Vantage::Unknown}, std::tuple{62, 61, Vantage::Unknown}}) {
    TcpFeed t;
    auto ip = [](Tcp x, int ttl) {
      x.p.l3 = L3::IPv4;
      x.p.ip_ttl = uint8_t(ttl);
      return x;
    };
    t.send(C2S, 0, ip(Tcp(1000, 0, SYN), cTtl));
    t.send(S2C, 0.05, ip(Tcp(5000, 1001, SYN | ACK), sTtl));
    t.send(C2S, 0.06, ip(Tcp(1001, 5001, ACK | PSH, 100), cTtl));
    t.send(S2C, 0.11, ip(Tcp(5001, 1101, ACK | PSH, 50), sTtl));
    t.send(C2S, 0.12, ip(Tcp(1101, 5051, ACK), cTtl));
    INFO("client TTL " << cTtl << ", server TTL " << sTtl);
    CHECK(t.a.finish().vantage == want);
  }
}

TEST_CASE("TCP at the sender: a segment sent before a delivered copy is lost without a SACK (RACK)") {
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1100, Tcp(1001, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1110, Tcp(1101, 5001, ACK | PSH, 100));
  t.send(S2C, 1160, Tcp(5001, 1001, ACK).sack(1101, 1201));
  t.send(C2S, 1160.01, Tcp(1201, 5001, ACK | PSH, 50));   // new data, lost
  t.send(C2S, 1160.02, Tcp(1001, 5001, ACK | PSH, 100));  // fast (the SACK)
  // Acks the copy and 1101, nothing above: 1201 was sent before the copy
  // that was delivered, so the sender's RACK calls it lost at once.
  t.send(S2C, 1210, Tcp(5001, 1201, ACK));
  t.send(C2S, 1210.01, Tcp(1201, 5001, ACK | PSH, 50));
  t.send(S2C, 1260, Tcp(5001, 1251, ACK));
  t.a.finish();
  REQUIRE(t.r.retx.size() == 3);  // the SYN, 1001, 1201
  CHECK(t.r.retx[1].cause == RetxCause::Fast);
  CHECK(t.r.retx[2].cause == RetxCause::Fast);
}

namespace {
// The sender-side scenario of the first test case, every packet numbered
// with its own IPv4 id (as Linux numbers a socket's packets).
struct Sent {
  Direction dir;
  double ms;
  Tcp tcp;
};
std::vector<Sent> senderScenario() {
  std::vector<Sent> v = {
      {C2S, 0, Tcp(1000, 0, SYN)},
      {C2S, 1000, Tcp(1000, 0, SYN)},
      {S2C, 1050, Tcp(5000, 1001, SYN | ACK)},
      {C2S, 1050.1, Tcp(1001, 5001, ACK)},
      {C2S, 1100, Tcp(1001, 5001, ACK | PSH, 100)},
      {C2S, 1110, Tcp(1101, 5001, ACK | PSH, 100)},  // lost
      {C2S, 1120, Tcp(1201, 5001, ACK | PSH, 100)},
      {S2C, 1150, Tcp(5001, 1101, ACK)},
      {S2C, 1170, Tcp(5001, 1101, ACK).sack(1201, 1301)},
      {C2S, 1170.02, Tcp(1101, 5001, ACK | PSH, 100)},
      {S2C, 1220, Tcp(5001, 1301, ACK)},
      {C2S, 1300, Tcp(1301, 5001, ACK | PSH, 100)},  // lost
      {C2S, 1500, Tcp(1301, 5001, ACK | PSH, 100)},
      {S2C, 1550, Tcp(5001, 1401, ACK)},
  };
  uint16_t id[2] = {0x100, 0x900};
  for (Sent& s : v) {
    s.tcp.p.l3 = L3::IPv4;
    s.tcp.p.ip_id = id[size_t(s.dir)]++;
  }
  return v;
}

// Everything but the packet and byte counts and network_duplicates.
void checkSameAnalysis(const DirectionMetrics& a, const DirectionMetrics& b) {
  CHECK(a.data_packets == b.data_packets);
  CHECK(a.retransmissions == b.retransmissions);
  CHECK(a.retransmissions_fast == b.retransmissions_fast);
  CHECK(a.retransmissions_timeout == b.retransmissions_timeout);
  CHECK(a.retransmissions_spurious == b.retransmissions_spurious);
  CHECK(a.lost == b.lost);
  CHECK(a.rtt.samples == b.rtt.samples);
  CHECK(a.rtt.min == b.rtt.min);
  CHECK(a.stalls.size() == b.stalls.size());
}
}  // namespace

TEST_CASE("TCP: every packet captured twice 40 us apart is a network duplicate, not a retransmission") {
  TcpFeed once, twice;
  for (const Sent& s : senderScenario()) {
    once.send(s.dir, s.ms, s.tcp);
    twice.send(s.dir, s.ms, s.tcp);
    twice.send(s.dir, s.ms + 0.04, s.tcp);  // the same packet seen on a second interface
  }
  const auto m1 = once.a.finish(), m2 = twice.a.finish();
  for (int d = 0; d < 2; ++d) {
    INFO("direction " << d);
    checkSameAnalysis(m1.dir[d], m2.dir[d]);
    CHECK(m1.dir[d].network_duplicates == 0);
    CHECK(m2.dir[d].network_duplicates == m1.dir[d].packets);
    CHECK(m2.dir[d].packets == 2 * m1.dir[d].packets);
  }
  CHECK(m1.dir[0].retransmissions == 3);  // SYN, fast, timeout: none of the 14 second copies
  CHECK(m1.dir[0].retransmissions_fast == 1);
  CHECK(m1.dir[0].retransmissions_timeout == 2);
  CHECK(once.r.retx.size() == twice.r.retx.size());
}

TEST_CASE(
    "TCP: a copy with a new IPv4 id or a late one is the sender's, and equal bare acks are duplicate acks") {
  TcpFeed t;
  Tcp data(1001, 5001, ACK | PSH, 100);
  data.p.l3 = L3::IPv4;
  data.p.ip_id = 7;
  t.send(C2S, 0, data);
  t.send(C2S, 2, data);  // the same id, but 2 ms later: not one packet seen twice
  data.p.ip_id = 8;
  t.send(C2S, 2.5, data);  // 0.5 ms later with a new id: sent again
  Tcp dupack(5001, 1001, ACK);
  dupack.p.l3 = L3::IPv6;  // no id: two bare acks alike are two acks
  t.send(S2C, 3, dupack);
  t.send(S2C, 3.1, dupack);
  const auto m = t.a.finish();
  CHECK(m.dir[0].network_duplicates == 0);
  CHECK(m.dir[0].retransmissions == 2);
  CHECK(m.dir[1].network_duplicates == 0);
  CHECK(m.dir[1].packets == 2);
}

TEST_CASE("TCP: a copy of acked bytes links the copies captured before it, never itself") {
  TcpFeed t;
  t.handshake();
  const uint64_t first = t.send(C2S, 1100, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 1150, Tcp(5001, 1101, ACK));
  const uint64_t second =
      t.send(C2S, 1400, Tcp(1001, 5001, ACK | PSH, 100));  // the ack did not reach the sender
  const uint64_t third = t.send(C2S, 1800, Tcp(1001, 5001, ACK | PSH, 100));
  // 20 more segments acked: the first one's copies are no longer remembered.
  for (uint32_t i = 0; i < 20; ++i) {
    t.send(C2S, 2000 + i, Tcp(1101 + i * 100, 5001, ACK | PSH, 100));
    t.send(S2C, 2050 + i, Tcp(5001, 1201 + i * 100, ACK));
  }
  const uint64_t late = t.send(C2S, 3000, Tcp(1001, 5001, ACK | PSH, 100));
  REQUIRE(t.r.retx.size() == 4);  // the SYN's, then three copies of 1001
  const auto& a = t.r.retx[1];
  CHECK(a.frame == second);
  CHECK(a.original_frame == first);
  CHECK(a.previous_frame == first);
  CHECK(a.since_previous_ms == Approx(300));
  CHECK(a.attempt == 2);
  const auto& b = t.r.retx[2];
  CHECK(b.frame == third);
  CHECK(b.original_frame == first);
  CHECK(b.previous_frame == second);
  CHECK(b.since_previous_ms == Approx(400));
  CHECK(b.attempt == 3);
  const auto& c = t.r.retx[3];
  CHECK(c.frame == late);
  CHECK(c.original_frame == 0);
  CHECK(c.previous_frame == 0);
  CHECK(c.since_previous_ms == -1);
}

TEST_CASE(
    "TCP mid-stream: a copy of bytes in flight before the capture, after three SACK dup acks, is fast") {
  // The shape of ppa-tcp_dupack.pcapng: the capture (at the receiver) starts
  // with the receiver acking 1000 and SACKing above it; the server's data
  // captured starts at 2000; the copy of 1000 comes 0.01 ms after the third
  // duplicate ack.
  TcpFeed t;
  auto ip = [](Tcp x, uint16_t id) {
    x.p.l3 = L3::IPv4;
    x.p.ip_id = id;
    return x;
  };
  t.send(C2S, 0, Tcp(700, 1000, ACK).sack(1500, 2000));
  t.send(S2C, 0.19, ip(Tcp(2000, 700, ACK, 100), 10));
  t.send(C2S, 0.20, Tcp(700, 1000, ACK).sack(1500, 2100));
  t.send(S2C, 0.29, ip(Tcp(2100, 700, ACK, 100), 11));
  t.send(C2S, 0.30, Tcp(700, 1000, ACK).sack(1500, 2200));
  t.send(S2C, 0.42, ip(Tcp(2200, 700, ACK, 100), 12));
  t.send(C2S, 0.43, Tcp(700, 1000, ACK).sack(1500, 2300));
  const uint64_t copy = t.send(S2C, 0.44, ip(Tcp(1000, 700, ACK, 100), 13));
  t.send(C2S, 0.45, Tcp(700, 1100, ACK).sack(1500, 2300));
  const auto m = t.a.finish();
  REQUIRE(t.r.retx.size() == 1);
  const auto& e = t.r.retx[0];
  CHECK(e.frame == copy);
  CHECK(e.cause == RetxCause::Fast);
  CHECK(e.seq == 1);  // tshark: relative to one below the first ack seen
  CHECK(e.original_frame == 0);
  CHECK(e.previous_frame == 0);
  CHECK(m.dir[1].retransmissions_inferred == 1);
  CHECK(m.dir[1].lost == 1);
  CHECK(m.dir[1].reordered == 0);
}

TEST_CASE("TCP mid-stream: an ack below the first captured byte, seen after it, opens the same hole") {
  TcpFeed t;
  auto ip = [](Tcp x, uint16_t id) {
    x.p.l3 = L3::IPv4;
    x.p.ip_id = id;
    return x;
  };
  t.send(S2C, 0, ip(Tcp(2000, 700, ACK, 100), 10));
  t.send(C2S, 0.1, Tcp(700, 1000, ACK).sack(2000, 2100));
  t.send(C2S, 0.2, Tcp(700, 1000, ACK).sack(2000, 2100));
  t.send(S2C, 0.25, ip(Tcp(1000, 700, ACK, 1000), 11));  // numbered after 2000: a copy
  t.send(C2S, 0.3, Tcp(700, 2100, ACK));
  const auto m = t.a.finish();
  REQUIRE(t.r.retx.size() == 1);
  CHECK(t.r.retx[0].cause == RetxCause::Fast);
  CHECK(t.r.retx[0].seq == uint32_t(1000 - 1999));  // below the first byte seen, as tshark wraps it
  CHECK(m.dir[1].lost == 1);
  CHECK(m.dir[1].reordered == 0);
}

TEST_CASE("TCP at the receiver: a copy of bytes it had acknowledged is spurious") {
  // Server-side capture: the server acked 1001-1100, the ack was lost on
  // its way, and the client's timer resent the segment.
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN));
  t.send(S2C, 0.1, Tcp(5000, 1001, SYN | ACK));
  t.send(C2S, 50, Tcp(1001, 5001, ACK));
  const uint64_t first = t.send(C2S, 60, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 60.1, Tcp(5001, 1101, ACK));
  const uint64_t copy = t.send(C2S, 310, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 310.1, Tcp(5001, 1101, ACK).sack(1001, 1101));  // D-SACK
  const auto m = t.a.finish();
  CHECK(m.vantage == Vantage::Server);
  REQUIRE(t.r.retx.size() == 1);
  CHECK(t.r.retx[0].frame == copy);
  CHECK(t.r.retx[0].original_frame == first);
  CHECK(t.r.retx[0].cause == RetxCause::Spurious);
  CHECK(m.dir[0].retransmissions_spurious == 1);
  CHECK(m.dir[0].duplicates == 1);
  CHECK(m.dir[0].lost == 0);
}

TEST_CASE("TCP on a LAN (same TTLs, round trips of 50 us): a copy leaving with a SACK is fast") {
  // Nagle on, as in the netns lab: the tail loss probe 200 ms after the lost
  // segment brings a SACK, and the copy leaves 0.03 ms after it.
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN));
  t.send(S2C, 0.05, Tcp(5000, 1001, SYN | ACK));
  t.send(C2S, 0.1, Tcp(1001, 5001, ACK));
  t.send(S2C, 10, Tcp(5001, 1001, ACK | PSH, 100));
  t.send(C2S, 10.05, Tcp(1001, 5101, ACK));
  t.send(C2S, 20, Tcp(1001, 5101, ACK | PSH, 100));
  t.send(S2C, 20.05, Tcp(5101, 1101, ACK));
  t.send(C2S, 30, Tcp(1101, 5101, ACK | PSH, 100));   // lost
  t.send(C2S, 240, Tcp(1201, 5101, ACK | PSH, 100));  // the probe
  t.send(S2C, 240.05, Tcp(5101, 1101, ACK).sack(1201, 1301));
  t.send(C2S, 240.08, Tcp(1101, 5101, ACK | PSH, 100));  // with the SACK
  t.send(S2C, 240.13, Tcp(5101, 1301, ACK));
  const auto m = t.a.finish();
  CHECK(m.vantage == Vantage::Unknown);
  REQUIRE(t.r.retx.size() == 1);
  CHECK(t.r.retx[0].cause == RetxCause::Fast);
  CHECK(m.dir[0].lost == 1);
}

TEST_CASE(
    "TCP at the sender: copies after a timeout, until the ack passes what was sent, are the timeout's") {
  // Linux after an RTO: the head's copy, then the other lost segments in
  // slow start (TCPSlowStartRetrans), not fast recovery; a loss after the
  // ack passed the recovery point is fast again.
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1060, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 1110, Tcp(5001, 1101, ACK));             // RTT 50 ms: RTO 200 ms
  t.send(C2S, 1200, Tcp(1101, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1210, Tcp(1201, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1220, Tcp(1301, 5001, ACK | PSH, 100));
  t.send(S2C, 1270, Tcp(5001, 1101, ACK).sack(1301, 1401));
  t.send(C2S, 1700, Tcp(1101, 5001, ACK | PSH, 100));  // the timer's copy of the head
  t.send(S2C, 1750, Tcp(5001, 1201, ACK).sack(1301, 1401));
  t.send(C2S, 1750.02, Tcp(1201, 5001, ACK | PSH, 100));  // slow start after the timeout
  t.send(S2C, 1800, Tcp(5001, 1401, ACK));
  t.send(C2S, 1810, Tcp(1401, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1820, Tcp(1501, 5001, ACK | PSH, 100));
  t.send(S2C, 1870, Tcp(5001, 1401, ACK).sack(1501, 1601));
  t.send(C2S, 1870.02, Tcp(1401, 5001, ACK | PSH, 100));  // fast again
  t.send(S2C, 1920, Tcp(5001, 1601, ACK));
  const auto m = t.a.finish();
  REQUIRE(t.r.retx.size() == 4);  // the SYN's, then 1101, 1201, 1401
  CHECK(t.r.retx[1].cause == RetxCause::Timeout);
  CHECK(t.r.retx[2].cause == RetxCause::Timeout);
  CHECK(t.r.retx[3].cause == RetxCause::Fast);
  CHECK(m.dir[0].retransmissions_fast == 1);
}

TEST_CASE("TCP at the sender: a fast copy that is lost too goes again with the next SACK, fast again") {
  // The netns lab's loss5-nagle run, frames 339-344: the copy of 1101 is lost
  // as well; the SACK of the next copy shows it missing and Linux's RACK
  // resends it 0.02 ms later (TCPFastRetrans counted both).
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1060, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(S2C, 1110, Tcp(5001, 1101, ACK));                // RTT 50 ms
  t.send(C2S, 1200, Tcp(1101, 5001, ACK | PSH, 100));     // lost
  t.send(C2S, 1200.01, Tcp(1201, 5001, ACK | PSH, 100));  // lost
  t.send(C2S, 1200.02, Tcp(1301, 5001, ACK | PSH, 100));
  t.send(S2C, 1250, Tcp(5001, 1101, ACK).sack(1301, 1401));
  t.send(C2S, 1250.03, Tcp(1101, 5001, ACK | PSH, 100));  // fast, lost again
  t.send(C2S, 1250.06, Tcp(1201, 5001, ACK | PSH, 100));  // fast
  t.send(S2C, 1300.08, Tcp(5001, 1101, ACK).sack(1201, 1401));
  t.send(C2S, 1300.10, Tcp(1101, 5001, ACK | PSH, 100));  // with that SACK: fast again
  t.send(S2C, 1350, Tcp(5001, 1401, ACK));
  const auto m = t.a.finish();
  REQUIRE(t.r.retx.size() == 4);  // the SYN's, then 1101, 1201, 1101
  CHECK(t.r.retx[3].attempt == 3);
  CHECK(t.r.retx[3].cause == RetxCause::Fast);
  CHECK(m.dir[0].retransmissions_fast == 3);
}

TEST_CASE("TCP: a SYN-ACK resent for the client's resent SYN within 1 ms is a retransmission, not a copy") {
  // The netns lab at the server: the SYN-ACK's timer copy, the client's
  // SYN copy, and the server's answer to it 0.25 ms after its own copy, with
  // the same TSval and no IPv4 id: only the SYN between tells them apart.
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(1, 0));
  t.send(S2C, 0.06, Tcp(5000, 1001, SYN | ACK).ts(70, 1));
  t.send(S2C, 1013.95, Tcp(5000, 1001, SYN | ACK).ts(1084, 1));
  t.send(C2S, 1014.19, Tcp(1000, 0, SYN).ts(1015, 0));
  t.send(S2C, 1014.20, Tcp(5000, 1001, SYN | ACK).ts(1084, 1));
  t.send(C2S, 1014.21, Tcp(1001, 5001, ACK).ts(1015, 1084));
  const auto m = t.a.finish();
  CHECK(m.dir[1].network_duplicates == 0);
  CHECK(m.dir[1].retransmissions == 2);
  CHECK(m.dir[0].retransmissions == 1);
}

TEST_CASE("TCP: both SYN-ACKs a server resends at once after the client's resent SYN are retransmissions") {
  // The netns lab at the client (drops at the endpoints' input): the first
  // SYN-ACK lost, then the server's timer and its answer to the resent SYN
  // 46 us apart, byte for byte alike (no IPv4 id, the same TSval); the
  // kernel counted both (TcpRetransSegs).
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(560233073, 0));
  t.send(S2C, 0.056, Tcp(5000, 1001, SYN | ACK).ts(2924017129, 560233073));
  t.send(C2S, 1028.544, Tcp(1000, 0, SYN).ts(560234102, 0));
  t.send(S2C, 1028.588, Tcp(5000, 1001, SYN | ACK).ts(2924018158, 560233073));
  t.send(S2C, 1028.634, Tcp(5000, 1001, SYN | ACK).ts(2924018158, 560233073));
  t.send(C2S, 1028.7, Tcp(1001, 5001, ACK).ts(560234103, 2924018158));
  const auto m = t.a.finish();
  CHECK(m.dir[1].network_duplicates == 0);
  CHECK(m.dir[1].retransmissions == 2);
  CHECK(m.dir[0].retransmissions == 1);
}

TEST_CASE("TCP at the receiver: a copy lost again is fast when it echoes the ack that showed the hole") {
  // The netns lab at the client (drops at its input, after the capture): a
  // segment and its first copy lost, the second copy sent as the ack that
  // showed the hole again reached the server, 12 us later at the client.
  // Only its TSecr says it answers that ack; one echoing an older ack does not.
  for (const bool echoesLatest : {true, false}) {
    TcpFeed t;
    auto atClient = [](Tcp x, bool fromServer) {
      x.p.l3 = L3::IPv4;
      x.p.ip_ttl = fromServer ? 63 : 64;
      return x;
    };
    t.send(C2S, 0, atClient(Tcp(1000, 0, SYN).ts(100, 0), false));
    t.send(S2C, 0.05, atClient(Tcp(5000, 1001, SYN | ACK).ts(900, 100), true));
    t.send(C2S, 0.06, atClient(Tcp(1001, 5001, ACK).ts(100, 900), false));
    t.send(S2C, 10, atClient(Tcp(5001, 1001, ACK | PSH, 97).ts(910, 100), true));  // lost
    t.send(S2C, 26, atClient(Tcp(5098, 1001, ACK | PSH, 130).ts(926, 100), true));
    t.send(C2S, 26.01, atClient(Tcp(1001, 5001, ACK).ts(126, 926).sack(5098, 5228), false));
    t.send(S2C, 26.03, atClient(Tcp(5001, 1001, ACK | PSH, 97).ts(926, 126), true));  // fast, lost
    t.send(S2C, 42, atClient(Tcp(5228, 1001, ACK | PSH, 138).ts(942, 126), true));
    t.send(C2S, 42.01, atClient(Tcp(1001, 5001, ACK).ts(142, 942).sack(5098, 5366), false));
    t.send(S2C, 42.022, atClient(Tcp(5001, 1001, ACK | PSH, 97).ts(942, echoesLatest ? 142 : 126), true));
    t.send(C2S, 42.03, atClient(Tcp(1001, 5366, ACK).ts(142, 942), false));
    const auto m = t.a.finish();
    INFO("the second copy echoes " << (echoesLatest ? "the latest ack" : "an older ack"));
    REQUIRE(m.vantage == Vantage::Client);
    CHECK(m.dir[1].retransmissions == 2);
    CHECK(m.dir[1].retransmissions_fast == (echoesLatest ? 2 : 1));
    CHECK(m.dir[1].retransmissions_timeout == (echoesLatest ? 0 : 1));
  }
}

TEST_CASE("TCP at the sender: a timer copy after a lost fast copy is a timeout, whatever ack it follows") {
  // The netns lab at the server: a segment and its fast copy lost; the
  // client acks every 33 ms with the same SACK block, which tells the sender
  // nothing new; the RTO (200 ms, not backed off after a fast copy) sends the
  // next copy 0.45 ms after one of those acks. The kernel counted a timeout.
  TcpFeed t;
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(100, 0));
  t.send(S2C, 0.05, Tcp(5000, 1001, SYN | ACK).ts(900, 100));
  t.send(C2S, 0.1, Tcp(1001, 5001, ACK).ts(100, 900));
  t.send(S2C, 10, Tcp(5001, 1001, ACK | PSH, 73).ts(910, 100));  // lost
  t.send(S2C, 26, Tcp(5074, 1001, ACK | PSH, 190).ts(926, 100));
  t.send(C2S, 26.05, Tcp(1001, 5001, ACK).ts(126, 910).sack(5074, 5264));
  t.send(S2C, 26.06, Tcp(5001, 1001, ACK | PSH, 73).ts(926, 126));  // fast, lost
  for (int k = 1; k <= 6; ++k)
    t.send(C2S, 26.05 + 33 * k, Tcp(1001, 5001, ACK).ts(126 + 33 * k, 910).sack(5074, 5264));
  t.send(S2C, 224.5, Tcp(5001, 1001, ACK | PSH, 73).ts(1124, 324));  // the timer's
  t.send(C2S, 224.55, Tcp(1001, 5264, ACK).ts(325, 1124));
  const auto m = t.a.finish();
  CHECK(m.dir[1].retransmissions == 2);
  CHECK(m.dir[1].retransmissions_fast == 1);
  CHECK(m.dir[1].retransmissions_timeout == 1);
}

TEST_CASE(
    "TCP head-of-line blocking at the receiver: each segment above a hole waits for the last repair below "
    "it") {
  TcpFeed t;
  // Server-side capture: the client's segments as they arrive.
  t.send(C2S, 0, Tcp(1000, 0, SYN).ts(100, 0));
  t.send(S2C, 0.1, Tcp(5000, 1001, SYN | ACK).ts(7000, 100));
  t.send(C2S, 50, Tcp(1001, 5001, ACK).ts(150, 7000));
  t.send(C2S, 100, Tcp(1001, 5001, ACK | PSH, 100).ts(200, 7000));
  // 1101 and 1301 lost; 1201, 1401, 1501 arrive above the holes.
  t.send(C2S, 120, Tcp(1201, 5001, ACK | PSH, 100).ts(220, 7000));
  t.send(C2S, 140, Tcp(1401, 5001, ACK | PSH, 100).ts(240, 7000));
  t.send(C2S, 160, Tcp(1501, 5001, ACK | PSH, 100).ts(260, 7000));
  t.send(S2C, 160.1, Tcp(5001, 1101, ACK).ts(7160, 260).sack(1201, 1301).sack(1401, 1601));
  t.send(C2S, 210, Tcp(1101, 5001, ACK | PSH, 100).ts(310, 7160));  // repairs 1101: 1201 delivered
  t.send(S2C, 210.1, Tcp(5001, 1301, ACK).ts(7210, 310).sack(1401, 1601));
  t.send(C2S, 400, Tcp(1301, 5001, ACK | PSH, 100).ts(500, 7210));  // repairs 1301: 1401, 1501 delivered
  t.send(S2C, 400.1, Tcp(5001, 1601, ACK).ts(7400, 500));
  t.send(C2S, 420, Tcp(1601, 5001, ACK | PSH, 100).ts(520, 7400));  // in order: no wait
  t.send(S2C, 420.1, Tcp(5001, 1701, ACK).ts(7420, 520));
  auto m = t.a.finish();
  REQUIRE(m.vantage == Vantage::Server);
  const auto& cs = m.dir[0];
  CHECK(cs.lost == 2);
  CHECK(cs.hol_observable);
  CHECK(cs.hol_blocked_packets == 3);
  // 1201: 120 -> 210 (90 ms); 1401: 140 -> 400 (260); 1501: 160 -> 400 (240).
  CHECK(cs.hol_blocking_ms == Approx(590.0));
  CHECK(cs.hol_max_ms == Approx(260.0));
  // The server's own data never waited, and the client's end sees no HOL.
  CHECK(m.dir[1].hol_blocked_packets == 0);
  CHECK_FALSE(m.dir[1].hol_observable);
}

TEST_CASE("TCP head-of-line blocking is not observable at the sender") {
  TcpFeed t;
  t.handshake();
  t.send(C2S, 1100, Tcp(1001, 5001, ACK | PSH, 100));
  t.send(C2S, 1110, Tcp(1101, 5001, ACK | PSH, 100));
  t.send(S2C, 1150, Tcp(5001, 1201, ACK));
  auto m = t.a.finish();
  REQUIRE(m.vantage == Vantage::Client);
  CHECK_FALSE(m.dir[0].hol_observable);
  CHECK(m.dir[0].hol_blocked_packets == 0);
  CHECK(m.dir[1].hol_observable);  // the server's data arrives here
}
