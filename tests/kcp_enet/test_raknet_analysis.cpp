// RakNet 4 analysed through the two-level contract (packets acked by ranges,
// messages resent under new numbers), checked against the two captures of a
// lab run of the real library: the truth is what Wireshark's built-in raknet
// dissector reads from the sender's capture (every copy the sender sent) and
// from the receiver's (every datagram that arrived; loss is in a router
// between them). The wheel exposes no RakNet statistics, so these captures
// are the record of every datagram the router passed or dropped.
#include <algorithm>
#include <cmath>
#include <set>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {

// One encapsulated message of a datagram, as the built-in dissector reads it.
struct Part {
  uint32_t reliability = 0;
  int64_t reliable = -1;  // its reliable message number (reliability 2, 3, 4, 6, 7)
  int64_t order = -1;     // its ordering index (reliability 1, 3, 4, 7) and channel
  uint32_t channel = 0;
  int64_t split_id = -1;  // -1 when it is not split
  uint32_t split_count = 0;
};

struct Datagram {
  uint64_t frame = 0;
  double time = 0;  // frame.time_epoch
  std::string src;
  bool numbered = false;
  uint32_t number = 0;
  std::vector<uint32_t> reliable;  // reliable message numbers, one per copy
  std::vector<int64_t> split;      // per message: its split id, -1 when not split
  std::vector<Part> parts;
  bool ack = false;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // of an ACK
};

// The messages of a datagram from the per-message columns tshark aggregates
// (each field lists only the messages that carry it, in order).
std::vector<Part> partsOf(const std::vector<std::string>& cols) {
  std::vector<Part> out;
  auto list = [&](size_t i) {
    return cols.size() <= i || cols[i].empty() ? std::vector<std::string>{} : split(cols[i], ';');
  };
  const auto rel = list(9), flags = list(10), ids = list(11), counts = list(12), numbers = list(4),
             orders = list(13), channels = list(14);
  size_t s = 0, r = 0, o = 0;
  for (size_t i = 0; i < rel.size(); ++i) {
    Part p;
    p.reliability = uint32_t(num(rel[i]));
    const uint32_t x = p.reliability;
    if (x == 2 || x == 3 || x == 4 || x == 6 || x == 7) p.reliable = int64_t(num(numbers.at(r++)));
    if (x == 1 || x == 3 || x == 4 || x == 7) {
      p.order = int64_t(num(orders.at(o)));
      p.channel = uint32_t(num(channels.at(o++)));
    }
    if (flags.at(i) == "1") {
      p.split_id = int64_t(num(ids.at(s)));
      p.split_count = uint32_t(num(counts.at(s++)));
    }
    out.push_back(p);
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
                      "raknet.split.id",
                      "-e",
                      "raknet.split.count",
                      "-e",
                      "raknet.ordering.index",
                      "-e",
                      "raknet.ordering.channel"});
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
    d.parts = partsOf(cols);
    for (const Part& p : d.parts)
      if (p.reliable >= 0) {
        d.reliable.push_back(uint32_t(p.reliable));
        d.split.push_back(p.split_id);
      }
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

struct Delivery {
  double response_ms = 0;
  uint32_t number = 0;  // the datagram whose ack delivered the message (its last fragment)
};

// Response time of every reliable message from `sender`: its first captured
// copy (a split message: its first fragment's) to the first ack from `acker`
// of a datagram carrying a copy of it (a split message: of its last missing
// fragment). The datagram that carried that copy is the one that arrived.
std::vector<Delivery> deliveries(const std::vector<Datagram>& capture, const std::string& sender,
                                 const std::string& acker) {
  struct Message {
    double first = 0;
    uint32_t need = 1, got = 0;
  };
  std::map<std::string, Message> messages;            // "r<number>" or "s<split id>"
  std::map<uint32_t, std::string> messageOf;          // reliable number -> its message
  std::map<uint32_t, std::vector<uint32_t>> carried;  // datagram number -> reliable numbers
  std::set<uint32_t> acked, delivered;
  std::vector<Delivery> out;
  for (const auto& d : capture) {
    if (d.src == sender && d.numbered && !carried.count(d.number)) {
      auto& list = carried[d.number];
      for (const Part& p : d.parts) {
        if (p.reliable < 0) continue;
        const auto rel = uint32_t(p.reliable);
        list.push_back(rel);
        if (messageOf.count(rel)) continue;
        const std::string key =
            p.split_id >= 0 ? "s" + std::to_string(p.split_id) : "r" + std::to_string(rel);
        messageOf[rel] = key;
        if (!messages.count(key))
          messages[key] = {d.time, p.split_id >= 0 ? std::max(1u, p.split_count) : 1u, 0};
      }
    }
    if (d.src != acker || !d.ack) continue;
    for (const auto& [lo, hi] : d.ranges)
      for (uint32_t x = lo; x <= hi; ++x) {
        if (!carried.count(x) || !acked.insert(x).second) continue;
        for (uint32_t rel : carried[x]) {
          if (!delivered.insert(rel).second) continue;
          Message& m = messages[messageOf[rel]];
          if (++m.got == m.need) out.push_back({(d.time - m.first) * 1000.0, x});
        }
      }
  }
  return out;
}

// The gaps between `sender`'s datagrams that carry a first copy or an
// unreliable message (one carrying only resends is not part of its tick).
std::vector<double> tickGaps(const std::vector<Datagram>& capture, const std::string& sender) {
  std::set<uint32_t> numbers, seen;
  std::vector<double> gaps;
  double last = -1;
  for (const auto& d : capture) {
    if (d.src != sender || !d.numbered || !numbers.insert(d.number).second) continue;
    bool ticks = false;
    for (const Part& p : d.parts) ticks |= p.reliable < 0 || seen.insert(uint32_t(p.reliable)).second;
    if (!ticks) continue;
    if (last >= 0) gaps.push_back((d.time - last) * 1000.0);
    last = d.time;
  }
  return gaps;
}

// A gap percentile as the analyzer reports it: the upper edge of the
// 0.5 ms bin of the nearest-rank gap, at most the largest gap.
double gapBinEdge(const std::vector<double>& gaps, double q) {
  const double g = nearestRank(gaps, q);
  const double edge = std::max(1.0, std::ceil(g / 0.5 - 1e-9)) * 0.5;
  return std::min(edge, *std::max_element(gaps.begin(), gaps.end()));
}

struct Hol {
  uint64_t blocked = 0;
  double total_ms = 0, max_ms = 0;
};

// Head-of-line blocking of `sender`'s reliable ordered messages (reliability
// 3) where this capture saw them: per channel, an ordering index whose
// fragments have all arrived waits until every earlier index has too.
Hol holAt(const std::vector<Datagram>& capture, const std::string& sender) {
  struct Waiting {
    uint32_t fragments = 0, need = 1;
    double arrival = 0;
  };
  struct Channel {
    int64_t next = -1;
    double delivered = 0;
    std::map<int64_t, Waiting> waiting;
  };
  std::map<uint32_t, Channel> channels;
  std::set<uint32_t> numbers, seen;
  Hol hol;
  for (const auto& d : capture) {
    if (d.src != sender || !d.numbered || !numbers.insert(d.number).second) continue;
    for (const Part& p : d.parts) {
      if (p.reliability != 3 || !seen.insert(uint32_t(p.reliable)).second) continue;
      Channel& ch = channels[p.channel];
      if (ch.next < 0) ch.next = p.order;
      if (p.order < ch.next) continue;
      Waiting& w = ch.waiting[p.order];
      w.need = p.split_id >= 0 ? std::max(1u, p.split_count) : 1u;
      ++w.fragments;
      w.arrival = std::max(w.arrival, d.time);
      while (!ch.waiting.empty() && ch.waiting.begin()->first == ch.next &&
             ch.waiting.begin()->second.fragments >= ch.waiting.begin()->second.need) {
        const double arrived = ch.waiting.begin()->second.arrival;
        if (ch.delivered > arrived) {
          const double wait = (ch.delivered - arrived) * 1000.0;
          ++hol.blocked;
          hol.total_ms += wait;
          hol.max_ms = std::max(hol.max_ms, wait);
        }
        ch.delivered = std::max(ch.delivered, arrived);
        ch.waiting.erase(ch.waiting.begin());
        ++ch.next;
      }
    }
  }
  return hol;
}

void checkResponse(const json& dir, const std::vector<Delivery>& truth) {
  std::vector<double> ms;
  for (const auto& t : truth) ms.push_back(t.response_ms);
  checkPercentiles(dir["response_ms"], ms);
}

void checkSpacing(const json& dir, const std::vector<double>& gaps, double tickHz) {
  REQUIRE(gaps.size() >= 8);
  CHECK(dir["gap_samples"] == gaps.size());
  checkMs(dir["gap_p50"], gapBinEdge(gaps, 0.50));
  checkMs(dir["gap_p95"], gapBinEdge(gaps, 0.95));
  checkMs(dir["gap_p99"], gapBinEdge(gaps, 0.99));
  checkMs(dir["gap_max"], *std::max_element(gaps.begin(), gaps.end()));
  CHECK(dir["tick_hz"].get<double>() == tickHz);
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

TEST_CASE(
    "RakNet 4: response times, packet spacing and head-of-line blocking as Wireshark's reading of the "
    "captures gives them",
    "[raknet]") {
  // The lab logs cannot give these exactly: the apps stamp CLOCK_MONOTONIC
  // around RakNet's 10 ms update thread and a 1 ms poll, not the wire. The
  // capture is the record of the wire; the truth here is computed from what
  // the built-in raknet dissector reads in it, with the rules stated above
  // each helper. Ticks: the workload sends the client's inputs at 30 Hz, the
  // server's snapshots at 20 Hz.
  struct Run {
    const char* name;
    uint64_t blocked;  // server-to-client ordered messages the client saw wait
  };
  for (const Run& run : {Run{"raknet_lab_loss5_delay40", 0}, Run{"raknet_lab_outage", 3}}) {
    DYNAMIC_SECTION(run.name) {
      const std::string dir = dataDir(run.name);
      const std::string clientIp = "10.79.1.2", serverIp = "10.79.2.2";
      const auto client = builtinRead(dir + "/client.pcapng");
      const json conn = connection(analyze(dir + "/client.pcapng"), "raknet4");
      const json cs = conn["directions"]["client_to_server"], sc = conn["directions"]["server_to_client"];
      checkResponse(cs, deliveries(client, clientIp, serverIp));
      checkResponse(sc, deliveries(client, serverIp, clientIp));
      checkSpacing(cs, tickGaps(client, clientIp), 30);
      checkSpacing(sc, tickGaps(client, serverIp), 20);
      // Waits are seen where the server's messages arrive: at the client.
      CHECK(sc["hol_observable"] == 1);
      const Hol hol = holAt(client, serverIp);
      CHECK(hol.blocked == run.blocked);
      CHECK(sc["hol_blocked_packets"] == hol.blocked);
      checkMs(sc["hol_blocking_ms"], hol.total_ms);
      checkMs(sc["hol_max_ms"], hol.max_ms);
    }
  }
}

TEST_CASE("RakNet 4: the copy whose ack ends a message's response time is one that reached the receiver",
          "[raknet]") {
  // The two captures of one run: the client's acks tell which copy arrived;
  // the server's capture shows which did.
  const std::string dir = dataDir("raknet_loss5");
  const auto client = builtinRead(dir + "/client.pcap");
  const auto server = builtinRead(dir + "/server.pcap");
  const auto arrived = numbersFrom(server, kClientIp);
  const auto truth = deliveries(client, kClientIp, kServerIp);
  REQUIRE(truth.size() == 266);  // reliable messages the server acknowledged, a split one counted once
  for (const auto& t : truth) CHECK(arrived.count(t.number));
  checkResponse(direction(analyze(dir + "/client.pcap"), "client_to_server"), truth);
}

TEST_CASE("RakNet 4: payload bytes are every message's body, whose length the wire gives in bits",
          "[raknet]") {
  // The truth is the datagrams' own sizes: a numbered datagram is 4 header
  // bytes then messages, each a header whose size its reliability and split
  // flag give, then its body.
  const std::string dir = dataDir("raknet_loss5");
  const auto r = run({TSHARK_EXECUTABLE, "-n", "-r", dir + "/client.pcap", "-Y", "raknet.packet_number", "-T",
                      "fields", "-E", "aggregator=;", "-e", "ip.src", "-e", "udp.length", "-e",
                      "raknet.message.reliability", "-e", "raknet.message.has_split_packet"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  uint64_t bodies = 0;
  for (const auto& line : splitLines(r.out)) {
    const auto cols = split(line, '\t');
    if (cols.at(0) != kClientIp) continue;
    int64_t body = int64_t(num(cols.at(1))) - 8 - 4;
    const auto rel = split(cols.at(2), ';'), splits = split(cols.at(3), ';');
    for (size_t i = 0; i < rel.size(); ++i) {
      const auto x = num(rel[i]);
      body -= 3;                                  // flags, length
      if (x == 2 || x == 3 || x == 4) body -= 3;  // reliable number
      if (x == 1 || x == 4) body -= 3;            // sequencing index
      if (x == 1 || x == 3 || x == 4) body -= 4;  // ordering index, channel
      if (splits.at(i) == "1") body -= 10;        // split count, id, index
    }
    REQUIRE(body >= 0);
    bodies += uint64_t(body);
  }
  rudp::test::TempDir tmp("raknet-bytes");
  const std::string capture = tmp / "client.pcap";
  fs::copy_file(dir + "/client.pcap", capture);
  const auto cmp = run({RUDPSCOPE_CLI, "compare", capture, "--json", "-q"});
  INFO(cmp.err);
  REQUIRE(cmp.status == 0);
  const json out = json::parse(cmp.out);
  size_t found = 0;
  for (const json& row : out.at("connections")) {
    if (row.at("protocol") != "raknet4" || row.at("dir") != "c2s") continue;
    ++found;
    CHECK(row.at("payload_bytes") == bodies);
  }
  CHECK(found == 1);
}
