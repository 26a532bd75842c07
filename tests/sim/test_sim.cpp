// Checks grudp-sim against its own invariants, with exact expectations, and
// re-reads every pcap with libpcap to validate the frames.
#include <pcap/pcap.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "simulator.hpp"
#include "wire.hpp"

using namespace grudp_sim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Frame {
  int64_t ns;
  Addr src, dst;
  Header h;
  std::vector<uint8_t> payload;
};

// Per-process directory: several build trees may run the tests at once.
fs::path temp_file(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("grudp_sim_tests_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// Removes a temp file and its directory once that is empty.
void cleanup(const fs::path& file) {
  std::error_code ec;
  fs::remove(file, ec);
  fs::remove(file.parent_path(), ec);  // fails (harmlessly) while not empty
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

// Reads the pcap back with libpcap; every frame must be a well-formed GRUDP
// datagram (magic/version/type/flags, 32 + length == UDP payload length).
std::vector<Frame> read_pcap(const fs::path& path, LinkType link) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  REQUIRE(p != nullptr);
  REQUIRE(pcap_datalink(p) == (link == LinkType::Ethernet ? DLT_EN10MB : DLT_RAW));
  std::vector<Frame> frames;
  pcap_pkthdr* hdr;
  const u_char* data;
  while (pcap_next_ex(p, &hdr, &data) == 1) {
    Frame f;
    f.ns = int64_t(hdr->ts.tv_sec) * 1000000000 + hdr->ts.tv_usec;
    const uint8_t* udp = nullptr;
    size_t len = 0;
    REQUIRE(hdr->caplen == hdr->len);
    REQUIRE(find_udp_payload(link, data, hdr->caplen, f.src, f.dst, udp, len));
    REQUIRE(parse_datagram(udp, len, f.h));
    REQUIRE(kHeaderSize + f.h.length == len);
    f.payload.assign(udp + kHeaderSize, udp + len);
    frames.push_back(std::move(f));
  }
  pcap_close(p);
  return frames;
}

struct Run {
  RunResult result;
  json truth;
  std::vector<Frame> frames;
};

Run simulate(const SimConfig& cfg, const std::string& name) {
  const fs::path path = temp_file(name + ".pcap");
  Simulator sim(cfg);
  Run r;
  r.result = sim.run(path.string(), true);
  r.truth = sim.truth_json(true);
  r.frames = read_pcap(path, cfg.link);
  cleanup(path);
  return r;
}

SimConfig lossy(uint64_t seed = 7) {
  SimConfig c;
  c.seed = seed;
  c.connections = 2;
  c.duration_s = 15;
  c.c2s.loss = c.s2c.loss = 0.05;
  c.c2s.burst = c.s2c.burst = 2;
  c.c2s.jitter_ms = c.s2c.jitter_ms = 5;
  c.c2s.reorder = c.s2c.reorder = 0.02;
  return c;
}

const json& dir_of(const json& truth, size_t conn, const char* d) {
  return truth["connections"][conn]["directions"][d];
}

constexpr const char* kDirs[2] = {"client_to_server", "server_to_client"};

}  // namespace

TEST_CASE("same seed gives a byte-identical pcap, another seed does not") {
  const SimConfig cfg = lossy(11);
  const fs::path a = temp_file("det_a.pcap"), b = temp_file("det_b.pcap"), c = temp_file("det_c.pcap");
  Simulator(cfg).run(a.string(), false);
  Simulator(cfg).run(b.string(), true);  // keeping truth must not change the capture
  SimConfig other = cfg;
  other.seed = 12;
  Simulator(other).run(c.string(), false);
  const std::string sa = slurp(a);
  CHECK(sa.size() > 10000);
  CHECK(sa == slurp(b));
  CHECK(sa != slurp(c));
  for (const auto& p : {a, b, c}) cleanup(p);
}

TEST_CASE("every frame is well-formed and matches the truth's frame numbers") {
  for (LinkType link : {LinkType::Ethernet, LinkType::Raw}) {
    for (Vantage v : {Vantage::Client, Vantage::Server, Vantage::Middle}) {
      SimConfig cfg = lossy(3);
      cfg.link = link;
      cfg.vantage = v;
      cfg.nsec = link == LinkType::Raw;
      const Run r = simulate(cfg, std::string("frames_") + to_string(link) + to_string(v));
      REQUIRE(r.frames.size() == r.result.frames);
      uint64_t captured = 0, matched = 0;
      for (size_t ci = 0; ci < 2; ++ci) {
        for (const char* d : kDirs) {
          const json& dj = dir_of(r.truth, ci, d);
          captured += dj["summary"]["captured"].get<uint64_t>();
          for (const json& p : dj["packets"]) {
            if (p["frame"].is_null()) continue;
            const Frame& f = r.frames.at(p["frame"].get<size_t>() - 1);
            CHECK(f.h.seq == p["seq"].get<uint32_t>());
            CHECK(f.h.ts == p["ts"].get<uint32_t>());
            CHECK(f.h.flags == p["flags"].get<int>());
            CHECK(f.h.conn_id == r.truth["connections"][ci]["conn_id"].get<uint32_t>());
            CHECK(f.ns - cfg.epoch_s * 1000000000 ==
                  (cfg.nsec ? p["capture_ns"].get<int64_t>() : p["capture_ns"].get<int64_t>() / 1000 * 1000));
            ++matched;
          }
        }
      }
      CHECK(captured == r.frames.size());
      CHECK(matched == r.frames.size());
      for (size_t i = 1; i < r.frames.size(); ++i) REQUIRE(r.frames[i - 1].ns <= r.frames[i].ns);
    }
  }
}

TEST_CASE("without loss every packet is captured and nothing is retransmitted") {
  for (Vantage v : {Vantage::Client, Vantage::Server, Vantage::Middle}) {
    SimConfig cfg;
    cfg.seed = 5;
    cfg.connections = 3;
    cfg.duration_s = 10;
    cfg.vantage = v;
    cfg.rto_min_ms = 300;  // well above the ~80-115 ms RTT
    const Run r = simulate(cfg, std::string("noloss_") + to_string(v));
    uint64_t sent = 0;
    for (size_t ci = 0; ci < 3; ++ci) {
      for (const char* d : kDirs) {
        const json& s = dir_of(r.truth, ci, d)["summary"];
        CHECK(s["lost"] == 0);
        CHECK(s["retransmissions"]["total"] == 0);
        CHECK(s["duplicates_delivered"] == 0);
        CHECK(s["captured"] == s["sent"]);
        CHECK(s["stalls"].empty());
        sent += s["sent"].get<uint64_t>();
      }
    }
    CHECK(r.frames.size() == sent);
    CHECK(r.result.sent == sent);
  }
}

TEST_CASE("at the receiver vantage, captured = sent - lost, frame for frame") {
  for (Vantage v : {Vantage::Server, Vantage::Client}) {
    SimConfig cfg = lossy(21);
    cfg.vantage = v;
    const Run r = simulate(cfg, std::string("rx_") + to_string(v));
    const char* rx_dir = v == Vantage::Server ? "client_to_server" : "server_to_client";
    const char* tx_dir = v == Vantage::Server ? "server_to_client" : "client_to_server";
    for (size_t ci = 0; ci < 2; ++ci) {
      const json& rx = dir_of(r.truth, ci, rx_dir);
      const json& tx = dir_of(r.truth, ci, tx_dir);
      const uint16_t port = uint16_t(cfg.client_port_base + ci);
      // Multisets of (seq, ts) for packets that arrived vs. frames in the pcap.
      std::multiset<std::pair<uint32_t, uint32_t>> arrived, seen;
      for (const json& p : rx["packets"])
        if (!p["lost"].get<bool>()) arrived.emplace(p["seq"], p["ts"]);
      uint64_t tx_frames = 0;
      for (const Frame& f : r.frames) {
        const bool from_client = f.src.port == port;
        const bool to_client = f.dst.port == port;
        if ((v == Vantage::Server && from_client) || (v == Vantage::Client && to_client))
          seen.emplace(f.h.seq, f.h.ts);
        else if (from_client || to_client)
          ++tx_frames;
      }
      const uint64_t sent = rx["summary"]["sent"], lost = rx["summary"]["lost"];
      CHECK(lost > 0);
      CHECK(seen.size() == sent - lost);
      CHECK(seen == arrived);
      // The vantage's own packets are all captured, lost ones included.
      CHECK(tx_frames == tx["summary"]["sent"].get<uint64_t>());
    }
  }
}

TEST_CASE("retransmissions reuse seq, payload and flags with strictly increasing ts") {
  SimConfig cfg = lossy(9);
  cfg.vantage = Vantage::Client;
  const Run r = simulate(cfg, "retx");
  uint64_t checked = 0;
  for (size_t ci = 0; ci < 2; ++ci) {
    const json& pk = dir_of(r.truth, ci, "client_to_server")["packets"];
    std::map<uint32_t, std::vector<const json*>> by_seq;
    for (const json& p : pk)
      if (p["type"] != "ACK") by_seq[p["seq"].get<uint32_t>()].push_back(&p);
    for (const auto& [seq, copies] : by_seq) {
      const json& first = *copies.front();
      if (copies.size() > 1) CHECK((first["flags"].get<int>() & kReliable) != 0);
      const Frame& f0 = r.frames.at(first["frame"].get<size_t>() - 1);
      for (size_t k = 1; k < copies.size(); ++k) {
        const json& c = *copies[k];
        CHECK(c["attempt"].get<int>() == int(k + 1));
        CHECK(c["flags"] == first["flags"]);
        CHECK(c["length"] == first["length"]);
        CHECK(c["channel"] == first["channel"]);
        CHECK(int32_t(c["ts"].get<uint32_t>() - copies[k - 1]->at("ts").get<uint32_t>()) > 0);
        // Client vantage: every client copy is in the pcap; payloads identical.
        const Frame& fk = r.frames.at(c["frame"].get<size_t>() - 1);
        CHECK(fk.h.seq == seq);
        CHECK(fk.payload == f0.payload);
        ++checked;
      }
    }
    const json& s = dir_of(r.truth, ci, "client_to_server")["summary"]["retransmissions"];
    CHECK(s["total"].get<uint64_t>() == s["timeout"].get<uint64_t>() + s["fast"].get<uint64_t>());
  }
  CHECK(checked > 20);
}

TEST_CASE("seqs are consecutive per direction and pure ACKs carry the next seq") {
  const Run r = simulate(lossy(4), "seqs");
  for (size_t ci = 0; ci < 2; ++ci) {
    for (const char* d : kDirs) {
      uint32_t next = 0;
      bool first = true;
      for (const json& p : dir_of(r.truth, ci, d)["packets"]) {
        if (p["attempt"].get<int>() > 1) continue;
        const uint32_t seq = p["seq"];
        if (first) {
          CHECK(seq == r.truth["connections"][ci]
                              [std::string(d) == kDirs[0] ? "client_initial_seq" : "server_initial_seq"]);
          CHECK(p["type"] == (std::string(d) == kDirs[0] ? "CONNECT" : "ACCEPT"));
          first = false;
        } else {
          CHECK(seq == next);
        }
        next = p["type"] == "ACK" ? seq : seq + 1;
      }
    }
  }
}

TEST_CASE("ts_echo and true RTT refer to the latest received copy of the acked seq") {
  const Run r = simulate(lossy(8), "rtt");
  uint64_t samples = 0;
  for (size_t ci = 0; ci < 2; ++ci) {
    for (int d = 0; d < 2; ++d) {
      const json& peer = dir_of(r.truth, ci, kDirs[1 - d])["packets"];
      for (const json& p : dir_of(r.truth, ci, kDirs[d])["packets"]) {
        if (!p.contains("ack")) continue;
        const json& a = p["ack"];
        const json& copy = peer.at(a["acked_copy"]["index"].get<size_t>());
        CHECK(copy["seq"] == a["ack"]);
        CHECK(copy["ts"] == a["ts_echo"]);
        CHECK_FALSE(copy["lost"].get<bool>());
        CHECK(copy["arrival_ns"].get<int64_t>() <= p["send_ns"].get<int64_t>());
        if (p["lost"].get<bool>()) {
          CHECK(a["true_rtt_ms"].is_null());
        } else {
          const int64_t rtt = p["arrival_ns"].get<int64_t>() - copy["send_ns"].get<int64_t>();
          CHECK(a["true_rtt_ms"].get<double>() == Approx(double(rtt) / 1e6).margin(1e-9));
          ++samples;
        }
      }
    }
  }
  CHECK(samples > 1000);
}

TEST_CASE("Gilbert-Elliott loss: mean burst length and loss rate") {
  SimConfig cfg;
  cfg.seed = 42;
  cfg.connections = 4;
  cfg.duration_s = 300;
  cfg.ping_interval_ms = 0;
  cfg.c2s.loss = cfg.s2c.loss = 0.05;
  cfg.c2s.burst = cfg.s2c.burst = 3;
  const fs::path path = temp_file("bursts.pcap");
  Simulator sim(cfg);
  sim.run(path.string(), false);
  cleanup(path);
  uint64_t bursts = 0, lost_in_bursts = 0, lost = 0, sent = 0;
  for (const ConnTruth& c : sim.truth())
    for (const DirTruth& d : c.dir) {
      for (auto [len, count] : d.stats.bursts) {
        bursts += count;
        lost_in_bursts += uint64_t(len) * count;
      }
      lost += d.stats.lost;
      sent += d.stats.sent;
    }
  REQUIRE(bursts > 1000);
  CHECK(lost_in_bursts == lost);
  const double mean = double(lost_in_bursts) / double(bursts);
  CHECK(mean > 2.7);
  CHECK(mean < 3.3);
  CHECK(double(lost) / double(sent) == Approx(0.05).epsilon(0.1));
}

TEST_CASE("initial seq just below 2^32 wraps to 0") {
  SimConfig cfg;
  cfg.seed = 2;
  cfg.connections = 1;
  cfg.duration_s = 5;
  cfg.seq_start = 0xFFFFFFF0u;
  cfg.rto_min_ms = 300;
  const Run r = simulate(cfg, "wrap");
  for (const char* d : kDirs) {
    std::set<uint32_t> seqs;
    for (const json& p : dir_of(r.truth, 0, d)["packets"]) seqs.insert(p["seq"].get<uint32_t>());
    CHECK(seqs.count(0xFFFFFFFFu) == 1);
    CHECK(seqs.count(0u) == 1);
    CHECK(seqs.count(100u) == 1);
    const json& s = dir_of(r.truth, 0, d)["summary"];
    CHECK(s["retransmissions"]["total"] == 0);  // acks across the wrap work
    CHECK(s["gave_up"] == false);
  }
  CHECK(r.truth["connections"][0]["client_initial_seq"] == 0xFFFFFFF0u);
}

TEST_CASE("an outage produces a true stall covering it") {
  SimConfig cfg;
  cfg.seed = 6;
  cfg.connections = 2;
  cfg.duration_s = 8;
  cfg.outages.push_back({3.0, 4.5, 0});
  const Run r = simulate(cfg, "outage");
  for (const char* d : kDirs) {
    const json& s = dir_of(r.truth, 0, d)["summary"];
    CHECK(s["lost_outage"].get<uint64_t>() > 0);
    bool covered = false;
    // The stall starts at the last ack progress (acks in flight at 3.0 s still
    // arrive) or at the first reliable send after the queue emptied.
    for (const json& st : s["stalls"])
      covered |= st["start_ns"].get<int64_t>() >= 3000000000 && st["start_ns"].get<int64_t>() < 3400000000 &&
                 st["end_ns"].get<int64_t>() >= 4500000000 && st["end_ns"].get<int64_t>() < 5500000000;
    CHECK(covered);
    CHECK(dir_of(r.truth, 1, d)["summary"]["lost"] == 0);  // other connection unaffected
  }
}
