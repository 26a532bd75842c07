// RakNet 4 analysed through the two-level contract (packets acked by ranges,
// messages resent under new numbers), checked against the two captures of a
// lab run of the real library: the truth is what Wireshark's built-in raknet
// dissector reads from the sender's capture (every copy the sender sent) and
// from the receiver's (every datagram that arrived; loss is in a router
// between them). The wheel exposes no RakNet statistics, so these captures
// are the record of every datagram the router passed or dropped.
#include <algorithm>
#include <set>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {

struct Datagram {
  uint64_t frame = 0;
  double time = 0;  // frame.time_epoch
  std::string src;
  bool numbered = false;
  uint32_t number = 0;
  std::vector<uint32_t> reliable;  // reliable message numbers, one per copy
  std::vector<int64_t> split;      // per message: its split id, -1 when not split
  bool ack = false;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // of an ACK
};

// Per reliable message of a datagram (those that carry a reliable number:
// reliability 2, 3, 4, 6, 7), its split id, -1 when it is not split.
std::vector<int64_t> splitIdsOfReliable(const std::string& reliabilities, const std::string& hasSplit,
                                        const std::string& splitIds) {
  std::vector<int64_t> out;
  if (reliabilities.empty()) return out;
  const auto rel = split(reliabilities, ';'), flags = split(hasSplit, ';');
  const auto ids = splitIds.empty() ? std::vector<std::string>{} : split(splitIds, ';');
  size_t nextId = 0;
  for (size_t i = 0; i < rel.size(); ++i) {
    const bool isSplit = flags.at(i) == "1";
    const int64_t id = isSplit ? int64_t(num(ids.at(nextId++))) : -1;
    const uint64_t r = num(rel[i]);
    if (r == 2 || r == 3 || r == 4 || r == 6 || r == 7) out.push_back(id);
  }
  return out;
}

std::vector<Datagram> builtinRead(const std::string& capture) {
  const auto r = run({TSHARK_EXECUTABLE,
                      "-n",
                      "-r",
                      capture,
                      "-T",
                      "fields",
                      "-E",
                      "aggregator=;",
                      "-e",
                      "frame.number",
                      "-e",
                      "frame.time_epoch",
                      "-e",
                      "ip.src",
                      "-e",
                      "raknet.packet_number",
                      "-e",
                      "raknet.reliable.number",
                      "-e",
                      "raknet.packet.is_ACK",
                      "-e",
                      "raknet.range.max_equals_to_min",
                      "-e",
                      "raknet.range.packet_number.min",
                      "-e",
                      "raknet.range.packet_number.max",
                      "-e",
                      "raknet.message.reliability",
                      "-e",
                      "raknet.message.has_split_packet",
                      "-e",
                      "raknet.split.id"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<Datagram> out;
  for (const auto& line : splitLines(r.out)) {
    const auto cols = split(line, '\t');
    auto col = [&](size_t i) { return i < cols.size() ? cols[i] : std::string(); };
    Datagram d;
    d.frame = num(col(0));
    d.time = std::stod(col(1));
    d.src = col(2);
    d.numbered = !col(3).empty();
    if (d.numbered) d.number = uint32_t(num(col(3)));
    if (!col(4).empty())
      for (const auto& n : split(col(4), ';')) d.reliable.push_back(uint32_t(num(n)));
    d.ack = col(5) == "1";
    if (d.ack) {
      // A record's max is only there when max_equals_to_min is 0.
      const auto singles = split(col(6), ';'), mins = split(col(7), ';');
      const auto maxs = col(8).empty() ? std::vector<std::string>{} : split(col(8), ';');
      size_t m = 0;
      for (size_t i = 0; i < singles.size(); ++i) {
        const auto lo = uint32_t(num(mins.at(i)));
        d.ranges.emplace_back(lo, singles[i] == "1" ? lo : uint32_t(num(maxs.at(m++))));
      }
    }
    d.split = splitIdsOfReliable(col(9), col(10), col(11));
    out.push_back(d);
  }
  return out;
}

std::set<uint32_t> numbersFrom(const std::vector<Datagram>& capture, const std::string& src) {
  std::set<uint32_t> out;
  for (const auto& d : capture)
    if (d.src == src && d.numbered) out.insert(d.number);
  return out;
}

// Message resends from `src` in frames [first, last]: each copy of a
// reliable message number already sent, except that the fragments of one
// split message count as one message (its k-th copy of any fragment is one
// resend, however many fragments went again).
uint64_t resends(const std::vector<Datagram>& capture, const std::string& src, uint64_t first = 0,
                 uint64_t last = UINT64_MAX) {
  std::map<uint32_t, int> copies;
  std::map<int64_t, int> splitCopies;  // split id -> most copies of one fragment so far
  uint64_t n = 0;
  for (const auto& d : capture) {
    if (d.src != src) continue;
    for (size_t i = 0; i < d.reliable.size(); ++i) {
      const int k = ++copies[d.reliable[i]];
      const int64_t splitId = i < d.split.size() ? d.split[i] : -1;
      bool counts = k > 1;
      if (splitId >= 0) {
        counts = k > splitCopies[splitId];
        splitCopies[splitId] = std::max(splitCopies[splitId], k);
        counts = counts && k > 1;
      }
      n += counts && d.frame >= first && d.frame <= last;
    }
  }
  return n;
}

// ACK datagrams from `acker` that acknowledge at least one packet of `sent`
// no earlier ACK did: each gives one RTT sample.
uint64_t ackingDatagrams(const std::vector<Datagram>& capture, const std::string& acker,
                         const std::set<uint32_t>& sent) {
  std::set<uint32_t> acked;
  uint64_t n = 0;
  for (const auto& d : capture) {
    if (d.src != acker || !d.ack) continue;
    bool fresh = false;
    for (const auto& [lo, hi] : d.ranges)
      for (uint32_t x = lo; x <= hi; ++x) fresh |= sent.count(x) && acked.insert(x).second;
    n += fresh;
  }
  return n;
}

json direction(const json& analysis, const char* dir) {
  return connection(analysis, "raknet4")["directions"][dir];
}

}  // namespace

TEST_CASE("RakNet 4: message resends, datagrams lost and RTT against the lab run's two captures",
          "[raknet]") {
  const std::string dir = dataDir("raknet_loss5");
  const auto client = builtinRead(dir + "/client.pcap");
  const auto server = builtinRead(dir + "/server.pcap");
  const auto atClient = analyze(dir + "/client.pcap");
  const auto atServer = analyze(dir + "/server.pcap");

  // What the senders sent, and what arrived.
  const auto c2sSent = numbersFrom(client, kClientIp), c2sArrived = numbersFrom(server, kClientIp);
  const auto s2cSent = numbersFrom(server, kServerIp), s2cArrived = numbersFrom(client, kServerIp);
  REQUIRE(c2sSent.size() == 287);
  REQUIRE(s2cSent.size() == 252);
  auto lostOf = [](const std::set<uint32_t>& sent, const std::set<uint32_t>& arrived, uint32_t from) {
    uint64_t n = 0;
    for (uint32_t x : sent) n += x >= from && !arrived.count(x);
    return n;
  };
  CHECK(lostOf(c2sSent, c2sArrived, 0) == 11);
  CHECK(lostOf(s2cSent, s2cArrived, 0) == 14);

  SECTION("at each sender, every message resend the sender made") {
    CHECK(resends(client, kClientIp) == 22);
    CHECK(direction(atClient, "client_to_server")["retransmissions"] == resends(client, kClientIp));
    CHECK(direction(atServer, "server_to_client")["retransmissions"] == resends(server, kServerIp));
    // The client's first Connection Request was dropped: it resent it after
    // RakNet's 2 s timeout, one stall with its one resend.
    const json stalls = direction(atClient, "client_to_server")["stalls"];
    REQUIRE(stalls.size() == 1);
    CHECK(stalls[0]["retransmissions"] == 1);
    CHECK(stalls[0]["cause"] == "retransmission_timeout");
    CHECK(stalls[0]["duration_ms"].get<double>() > 2000.0);
  }
  SECTION("at each receiver, every datagram lost before it (after the first number it captured)") {
    // The server never captured c2s packet 0 (that Connection Request), so
    // nothing told it a number came before 1.
    CHECK(direction(atServer, "client_to_server")["lost"] ==
          lostOf(c2sSent, c2sArrived, *c2sArrived.begin()));
    CHECK(direction(atClient, "server_to_client")["lost"] ==
          lostOf(s2cSent, s2cArrived, *s2cArrived.begin()));
    CHECK(*c2sArrived.begin() == 1);
  }
  SECTION("at the receiver, a resend is one whose earlier copy had arrived") {
    // Each resend the server captured had its previous copy captured (and
    // acked) there: spurious, as the receiver already had the message.
    const json cs = direction(atServer, "client_to_server");
    CHECK(cs["retransmissions"] == resends(server, kClientIp));
    CHECK(cs["retransmissions_spurious"] == cs["retransmissions"]);
  }
  SECTION("one RTT sample per ack datagram that newly acknowledges a packet") {
    CHECK(direction(atClient, "client_to_server")["rtt_ms"]["samples"] ==
          ackingDatagrams(client, kServerIp, numbersFrom(client, kClientIp)));
    CHECK(direction(atServer, "server_to_client")["rtt_ms"]["samples"] ==
          ackingDatagrams(server, kClientIp, numbersFrom(server, kServerIp)));
    // No path delay in this run: both sides' acks come a RakNet update (10 ms)
    // after the data, so the capture cannot be placed.
    CHECK(connection(atClient, "raknet4")["vantage"] == "unknown");
  }
}

TEST_CASE("RakNet 4 through a 40 ms path: the capture is placed at the client from the acks' timing",
          "[raknet]") {
  // tests/lab/lab_cell.sh --stack raknet --loss 5 --delay 40 --seconds 15 --seed 4: the client's own
  // capture, the router's counters (nft.json) and the relay's (relay.json).
  const std::string dir = dataDir("raknet_lab_loss5_delay40");
  const auto client = builtinRead(dir + "/client.pcapng");
  const json nft = readJson(dir + "/nft.json");
  const json a = analyze(dir + "/client.pcapng");
  const json conn = connection(a, "raknet4");
  const json cs = conn["directions"]["client_to_server"], sc = conn["directions"]["server_to_client"];
  const std::string client_ip = "10.79.1.2";
  // Acks of the client's data come a round trip later, the client's acks of
  // the server's a RakNet update later: the capture is at the client.
  CHECK(conn["vantage"] == "client");
  CHECK(cs["rtt_ms"]["span"] == "round_trip");
  CHECK(sc["rtt_ms"]["span"] == "receiver_delay");
  CHECK(cs["rtt_ms"]["min"].get<double>() >= 80.0);  // 2 x the one-way delay
  CHECK(cs["rtt_ms"]["min"].get<double>() <= 82.0);
  // Every datagram each way, as the router counted them.
  CHECK(cs["packets"] == nft["seen_c2s"]);
  CHECK(sc["packets"].get<uint64_t>() == nft["seen_s2c"].get<uint64_t>() - nft["drop_s2c"].get<uint64_t>());
  // Every resend the client made; the server's datagrams lost on the way,
  // from the gaps in their numbers (at most the router's drops, which also
  // count ACK-only datagrams, which have no number).
  CHECK(cs["retransmissions"] == resends(client, client_ip));
  CHECK(resends(client, client_ip) == 39);
  CHECK(sc["lost"].get<uint64_t>() >= 1);
  CHECK(sc["lost"].get<uint64_t>() <= nft["drop_s2c"].get<uint64_t>());
  // RakNet carries no sender timestamp: no jitter, not 0.
  CHECK(cs["jitter_ms"].is_null());
  CHECK(sc["jitter_ms"].is_null());
}

TEST_CASE(
    "RakNet 4 through a 1.5 s outage: one stall with its resends, the fragments of a split message as one",
    "[raknet]") {
  // tests/lab/lab_cell.sh --stack raknet --loss 5 --delay 40 --seconds 15 --seed 4 --outage 6:1.5: the
  // client's capture; outage.json: the epoch times the router's drop-all rules went in and came out.
  const std::string dir = dataDir("raknet_lab_outage");
  const auto client = builtinRead(dir + "/client.pcapng");
  const json outage = readJson(dir + "/outage.json");
  const json conn = connection(analyze(dir + "/client.pcapng"), "raknet4");
  const json cs = conn["directions"]["client_to_server"];
  const std::string client_ip = "10.79.1.2";
  // Every message resend the client made; a blob's three fragments sent
  // again together are one resend (253 copies of reliable numbers).
  CHECK(cs["retransmissions"] == resends(client, client_ip));
  CHECK(resends(client, client_ip) == 251);
  // The outage is one stall, found from the capture alone: it starts with
  // the first data the client sent into it and ends with the first ack that
  // came back after it (the rules' times carry nft's own latency, tens of ms).
  const json stalls = cs["stalls"];
  REQUIRE(stalls.size() == 1);
  const json& st = stalls[0];
  CHECK(st["cause"] == "retransmission_timeout");
  const double start = st["start"].get<double>(), end = st["end"].get<double>();
  const double outStart = outage["start"].get<double>(), outEnd = outage["end"].get<double>();
  CHECK(start >= outStart);
  CHECK(start - outStart < 0.034);  // a 30 Hz input follows within a tick
  CHECK(end > outEnd - 0.1);
  CHECK(end < outEnd + 0.1);
  // Its resends are the client's resends between its first and last frame.
  CHECK(st["retransmissions"] == resends(client, client_ip, st["first_frame"], st["last_frame"]));
  CHECK(st["retransmissions"] == 208);
  CHECK(cs["stalls"].size() == 1);
  CHECK(conn["directions"]["server_to_client"]["stalls"].empty());
}
