// UDT4 analysed through contract version 1 (one seq space resent under the
// same numbers, cumulative ACKs, NAK loss lists), checked against two lab
// runs of the real library (libudt 4.11): what UDT itself counted (perfmon,
// in client.json / server.json) and what the captures hold, read by
// Wireshark's built-in udt dissector with the loss lists parsed here from
// the raw bytes (the built-in one shows them only as text).
//
// udt_loss5: tests/kcp_enet/lab.sh --proto udt --loss 5 --duration 8 (both
// ends captured, no path delay). udt_lab_loss5_delay40: tests/lab/lab_cell.sh
// --stack udt --loss 5 --delay 40 --seconds 10 (captured at the client).
// In both runs one NAK was lost and UDT 4.11 resent the seq it named only
// when its timer fired, and the timer fires only after 300 ms of silence
// from the peer, whose own data kept it quiet: a 6 s stall, then every
// unacknowledged packet resent at once.
#include <algorithm>

#include "kcp_enet_checks.h"

using namespace kcpenet;

namespace {

struct UdtPacket {
  uint64_t frame = 0;
  double t = 0;
  std::string src;
  bool data = false;
  uint32_t seq = 0, ts = 0;
  int type = -1;                                      // control type
  uint32_t ack = 0;                                   // a full ACK's next expected seq
  std::vector<std::pair<uint32_t, uint32_t>> losses;  // a NAK's entries
};

std::vector<std::pair<uint32_t, uint32_t>> lossList(const std::string& payloadHex) {
  std::vector<uint32_t> words;
  for (size_t i = 32; i + 8 <= payloadHex.size(); i += 8)  // after the 16-byte header
    words.push_back(uint32_t(std::stoul(payloadHex.substr(i, 8), nullptr, 16)));
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (size_t i = 0; i < words.size(); ++i) {
    if ((words[i] & 0x80000000u) && i + 1 < words.size()) {
      out.emplace_back(words[i] & 0x7fffffffu, words[i + 1] & 0x7fffffffu);
      ++i;
    } else {
      out.emplace_back(words[i], words[i]);
    }
  }
  return out;
}

std::vector<UdtPacket> builtinRead(const std::string& capture) {
  const auto r = run({TSHARK_EXECUTABLE,
                      "-n",
                      "-r",
                      capture,
                      "-d",
                      "udp.port==19000,udt",
                      "-T",
                      "fields",
                      "-e",
                      "frame.number",
                      "-e",
                      "frame.time_relative",
                      "-e",
                      "ip.src",
                      "-e",
                      "udt.iscontrol",
                      "-e",
                      "udt.type",
                      "-e",
                      "udt.seqno",
                      "-e",
                      "udt.ack_seqno",
                      "-e",
                      "udp.payload",
                      "-e",
                      "udt.timestamp"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<UdtPacket> out;
  for (const auto& line : splitLines(r.out)) {
    auto cols = split(line, '\t');
    cols.resize(9);
    UdtPacket p;
    p.frame = num(cols[0]);
    p.t = std::stod(cols[1]);
    p.src = cols[2];
    p.data = cols[3] == "0";
    if (p.data) p.seq = uint32_t(num(cols[5]));
    p.ts = uint32_t(num(cols[8]));
    if (!p.data) p.type = int(num(cols[4]));
    if (p.type == 2 && !cols[6].empty()) p.ack = uint32_t(num(cols[6]));
    if (p.type == 3) p.losses = lossList(cols[7]);
    out.push_back(p);
  }
  return out;
}

// The copies `sender` sent of seqs it had sent before, and of those the ones
// a NAK from the peer had named since the previous copy (NAK-driven), read
// at the sender. At a receiver (`atSender` = the sender's capture) a copy is
// a resend when an earlier one was captured there or its first captured copy
// came after a higher seq (the original was lost before it); its cause is
// the one the sender's capture shows for that copy (seq and timestamp).
struct Resends {
  uint64_t all = 0, nak_driven = 0, first_captured_late = 0;
  std::map<std::pair<uint32_t, uint32_t>, bool> cause;  // (seq, ts) -> NAK-driven
};
Resends resends(const std::vector<UdtPacket>& capture, const std::string& sender,
                const Resends* atSender = nullptr) {
  std::map<uint32_t, double> previous, named;
  uint32_t highest = 0;
  bool any = false;
  Resends r;
  for (const auto& p : capture) {
    if (p.src != sender && p.type == 3)
      for (const auto& [first, last] : p.losses)
        for (uint32_t q = first; q <= last; ++q) named[q] = p.t;
    if (p.src != sender || !p.data) continue;
    const auto prev = previous.find(p.seq);
    const bool late = prev == previous.end() && any && p.seq < highest;
    if (prev != previous.end() || late) {
      ++r.all;
      r.first_captured_late += late;
      bool nak = false;
      if (atSender) {
        const auto c = atSender->cause.find({p.seq, p.ts});
        REQUIRE(c != atSender->cause.end());
        nak = c->second;
      } else {
        const auto n = named.find(p.seq);
        nak = n != named.end() && n->second > prev->second;
      }
      r.nak_driven += nak;
      r.cause[{p.seq, p.ts}] = nak;
    }
    previous[p.seq] = p.t;
    highest = any ? std::max(highest, p.seq) : p.seq;
    any = true;
  }
  return r;
}

uint64_t controls(const std::vector<UdtPacket>& capture, const std::string& src, int type) {
  return uint64_t(std::count_if(capture.begin(), capture.end(),
                                [&](const UdtPacket& p) { return p.src == src && p.type == type; }));
}

// The longest time the receiver's ACKs did not advance while the sender had
// data out: from the later of the last advance and the first copy of the seq
// the ACKs then waited for, to the next advance.
double longestAckStallMs(const std::vector<UdtPacket>& capture, const std::string& sender) {
  std::map<uint32_t, double> firstCopy;
  bool any = false;
  uint32_t point = 0;
  double since = 0, longest = 0;
  for (const auto& p : capture) {
    if (p.src == sender && p.data) firstCopy.emplace(p.seq, p.t);
    if (p.src == sender || p.type != 2 || p.ack == 0) continue;
    if (any && p.ack > point) {
      const auto sent = firstCopy.find(point);
      const double from = sent == firstCopy.end() ? since : std::max(since, sent->second);
      longest = std::max(longest, p.t - from);
    }
    if (!any || p.ack > point) {
      point = p.ack;
      since = p.t;
      any = true;
    }
  }
  return longest * 1000;
}

json directions(const json& analysis) { return connection(analysis, "udt4")["directions"]; }

}  // namespace

TEST_CASE("UDT4: resends, their causes and the receivers' losses against UDT's own counters", "[udt]") {
  const std::string dir = dataDir("udt_loss5");
  const auto client = builtinRead(dir + "/client.pcap");
  const auto server = builtinRead(dir + "/server.pcap");
  const json cLib = readJson(dir + "/client.json")["perfmon"],
             sLib = readJson(dir + "/server.json")["perfmon"];
  const json atClient = directions(analyze(dir + "/client.pcap"));
  const json atServer = directions(analyze(dir + "/server.pcap"));
  const json cs = atClient["client_to_server"], sc = atServer["server_to_client"];

  SECTION("at each sender, every resend UDT made, NAK-driven or on its timer") {
    const Resends c = resends(client, kClientIp), s = resends(server, kServerIp);
    CHECK(c.all == 411);
    CHECK(cs["retransmissions"] == cLib["pktRetransTotal"]);
    CHECK(sc["retransmissions"] == sLib["pktRetransTotal"]);
    CHECK(cs["retransmissions"] == c.all);
    CHECK(sc["retransmissions"] == s.all);
    CHECK(cs["retransmissions_fast"] == c.nak_driven);
    CHECK(sc["retransmissions_fast"] == s.nak_driven);
    CHECK(c.nak_driven == 30);
    CHECK(cs["retransmissions_timeout"].get<uint64_t>() == c.all - c.nak_driven);
    CHECK(cs["retransmissions_spurious"] == 0);
    // Every data packet each sender sent (originals and copies) is in its capture.
    CHECK(cs["data_packets"] == cLib["pktSentTotal"]);
    CHECK(sc["data_packets"] == sLib["pktSentTotal"]);
  }
  SECTION("the NAKs each end sent and received are in the captures") {
    CHECK(controls(server, kServerIp, 3) == sLib["pktSentNAKTotal"].get<uint64_t>());
    CHECK(controls(client, kServerIp, 3) == cLib["pktRecvNAKTotal"].get<uint64_t>());
    CHECK(controls(client, kClientIp, 3) == cLib["pktSentNAKTotal"].get<uint64_t>());
    CHECK(controls(server, kClientIp, 3) == sLib["pktRecvNAKTotal"].get<uint64_t>());
  }
  SECTION("at each receiver, the packets whose first copy was lost before it") {
    const json csAtServer = atServer["client_to_server"], scAtClient = atClient["server_to_client"];
    const Resends cSent = resends(client, kClientIp), sSent = resends(server, kServerIp);
    const Resends c = resends(server, kClientIp, &cSent), s = resends(client, kServerIp, &sSent);
    CHECK(csAtServer["retransmissions_inferred"] == c.first_captured_late);
    CHECK(scAtClient["retransmissions_inferred"] == s.first_captured_late);
    // UDT's receiver counts each seq missing when a later one arrives: the server's count is exactly the
    // first copies it never captured. The client's library counted 8 against the 7 gaps in its capture
    // (13 against 12 in the 40 ms run): one loss UDT counts that no data packet shows, not explained yet.
    CHECK(csAtServer["retransmissions_inferred"] == sLib["pktRcvLossTotal"]);
    CHECK(s.first_captured_late == 7);
    CHECK(cLib["pktRcvLossTotal"] == 8);
    CHECK(csAtServer["retransmissions"] == c.all);
    CHECK(csAtServer["retransmissions_fast"] == c.nak_driven);
    CHECK(scAtClient["retransmissions"] == s.all);
    CHECK(scAtClient["retransmissions_fast"] == s.nak_driven);
  }
  SECTION("the lost NAK: one stall of the client's data, as long as the ACKs waited") {
    const json stalls = cs["stalls"];
    REQUIRE(stalls.size() == 1);
    CHECK(stalls[0]["cause"] == "retransmission_timeout");
    CHECK(stalls[0]["duration_ms"].get<double>() ==
          Approx(longestAckStallMs(client, kClientIp)).margin(0.001));
    CHECK(stalls[0]["duration_ms"].get<double>() > 6000.0);
  }
  SECTION("no path delay: the capture cannot be placed") {
    CHECK(connection(analyze(dir + "/client.pcap"), "udt4")["vantage"] == "unknown");
  }
}

TEST_CASE("UDT4 through a 40 ms path: placed at the client, RTT as UDT measured it, the stall exact",
          "[udt]") {
  const std::string dir = dataDir("udt_lab_loss5_delay40");
  const auto client = builtinRead(dir + "/client.pcapng");
  const json lib = readJson(dir + "/client.json")["perfmon"], nft = readJson(dir + "/nft.json");
  const json conn = connection(analyze(dir + "/client.pcapng"), "udt4");
  const json cs = conn["directions"]["client_to_server"], sc = conn["directions"]["server_to_client"];
  const std::string clientIp = "10.79.1.2";
  CHECK(conn["vantage"] == "client");
  CHECK(cs["rtt_ms"]["span"] == "round_trip");
  CHECK(sc["rtt_ms"]["span"] == "receiver_delay");
  // UDT's smoothed RTT (ACK to ACK2 at the receiver, folded into each ACK)
  // against the capture's median data-to-ACK time.
  CHECK(std::abs(cs["rtt_ms"]["p50"].get<double>() - lib["msRTT"].get<double>()) < 1.0);
  CHECK(cs["rtt_ms"]["min"].get<double>() >= 80.0);
  CHECK(cs["packets"] == nft["seen_c2s"]);
  CHECK(sc["packets"].get<uint64_t>() == nft["seen_s2c"].get<uint64_t>() - nft["drop_s2c"].get<uint64_t>());
  const Resends r = resends(client, clientIp);
  CHECK(cs["retransmissions"] == lib["pktRetransTotal"]);
  CHECK(cs["retransmissions"] == r.all);
  CHECK(cs["retransmissions_fast"] == r.nak_driven);
  CHECK(r.nak_driven == 34);
  CHECK(cs["data_packets"] == lib["pktSentTotal"]);
  const json stalls = cs["stalls"];
  REQUIRE(stalls.size() == 1);
  CHECK(stalls[0]["duration_ms"].get<double>() == Approx(longestAckStallMs(client, clientIp)).margin(0.001));
}

namespace {

// Response time of every seq `sender` sent: its first captured copy to the
// first ACK from the peer whose next expected seq is above it. A seq whose
// first captured copy came after a higher one is left out (its original was
// lost before the capture: its first send time is unknown).
std::vector<double> responseMs(const std::vector<UdtPacket>& capture, const std::string& sender) {
  std::map<uint32_t, double> first;
  std::set<uint32_t> late;
  uint32_t highest = 0;
  bool any = false;
  std::vector<double> out;
  for (const auto& p : capture) {
    if (p.src == sender && p.data) {
      if (!first.count(p.seq) && any && p.seq < highest) late.insert(p.seq);
      first.emplace(p.seq, p.t);
      highest = any ? std::max(highest, p.seq) : p.seq;
      any = true;
    }
    if (p.src == sender || p.type != 2 || p.ack == 0) continue;
    for (auto it = first.begin(); it != first.end() && it->first < p.ack; it = first.erase(it))
      if (!late.count(it->first)) out.push_back((p.t - it->second) * 1000.0);
  }
  return out;
}

struct Hol {
  uint64_t blocked = 0;
  double total_ms = 0, max_ms = 0;
};

// Head-of-line blocking where `sender`'s data arrives: every seq is one
// in-order message, delivered when it and every earlier seq that ever
// arrived have arrived.
Hol holAt(const std::vector<UdtPacket>& capture, const std::string& sender) {
  std::map<uint32_t, double> arrival;
  for (const auto& p : capture)
    if (p.src == sender && p.data) arrival.emplace(p.seq, p.t);
  Hol hol;
  double delivered = 0;
  for (const auto& [seq, t] : arrival) {
    if (delivered > t) {
      const double wait = (delivered - t) * 1000.0;
      ++hol.blocked;
      hol.total_ms += wait;
      hol.max_ms = std::max(hol.max_ms, wait);
    }
    delivered = std::max(delivered, t);
  }
  return hol;
}

}  // namespace

TEST_CASE("UDT4: response times and head-of-line blocking as Wireshark's reading of the captures gives them",
          "[udt]") {
  // As for RakNet, the apps' logs cannot give these to the microsecond (the
  // receiving app polls); the captures are the record of the wire.
  SECTION("at each sender of the two-capture run") {
    const std::string dir = dataDir("udt_loss5");
    const json atClient = directions(analyze(dir + "/client.pcap"));
    const json atServer = directions(analyze(dir + "/server.pcap"));
    checkPercentiles(atClient["client_to_server"]["response_ms"],
                     responseMs(builtinRead(dir + "/client.pcap"), kClientIp));
    checkPercentiles(atServer["server_to_client"]["response_ms"],
                     responseMs(builtinRead(dir + "/server.pcap"), kServerIp));
  }
  SECTION("at the client of the 40 ms run: its data's and the server's") {
    const std::string dir = dataDir("udt_lab_loss5_delay40");
    const std::string clientIp = "10.79.1.2", serverIp = "10.79.2.2";
    const auto client = builtinRead(dir + "/client.pcapng");
    const json d = directions(analyze(dir + "/client.pcapng"));
    checkPercentiles(d["client_to_server"]["response_ms"], responseMs(client, clientIp));
    checkPercentiles(d["server_to_client"]["response_ms"], responseMs(client, serverIp));
    // The server's data arrives here: its waits are observable, and exact.
    const json sc = d["server_to_client"];
    CHECK(sc["hol_observable"] == 1);
    const Hol hol = holAt(client, serverIp);
    CHECK(sc["hol_blocked_packets"] == hol.blocked);
    checkMs(sc["hol_blocking_ms"], hol.total_ms);
    checkMs(sc["hol_max_ms"], hol.max_ms);
  }
}
